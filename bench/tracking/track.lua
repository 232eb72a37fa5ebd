-- wrk script: POST one tracking event a request, spread over 10,000
-- client addresses (X-Forwarded-For, trusted from loopback by KILN_TRUSTED_PROXIES in run.sh) and
-- 50,000 sessions, so that no client passes the rate limit.
local token = os.getenv("VIEWER")
local n = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

request = function()
  n = n + 1
  local client = n % 10000
  local session = n % 50000
  local key = (n % 4 == 0) and "click" or "view"
  wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", client % 256, math.floor(client / 256) % 256, 7)
  wrk.headers["User-Agent"] = "wrk-bench/" .. (client % 7)
  local body = string.format('{"sessionId":"s%d-%d","event":{"key":"%s","payload":{"path":"/p/%d"}}}', session, id or 0, key, n % 100)
  return wrk.format(nil, "/viewers/" .. token .. "/tracking-event", nil, body)
end

setup = function(thread)
  thread:set("id", math.random(1, 1000000))
end

done = function(summary, latency, requests)
  local codes = summary.errors.status
  io.write(string.format("requests %d, non-2xx/3xx %d, socket errors %d/%d/%d/%d\n", summary.requests, codes,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
  io.write(string.format("events/s %.0f, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
