#!/usr/bin/env bash
# Avatar service benchmark: kiln serve on a fresh redis-server and MinIO;
# POST /avatar then the first GET of lod 0 (time to the last byte), then
# under wrk the same cached variant three ways, alternated round by round
# in one window: through Kiln with its on-node blob cache (sendfile),
# straight from MinIO with a presigned URL, and through a second kiln serve
# with the cache off (streamed from MinIO). Prints each round, then the
# medians and the ratios to MinIO's rate in the same round.
# Environment: ROUNDS (default 5), SECONDS_EACH (wrk duration, default 5),
# KILN_BIN (a kiln binary to measure instead of building this tree's, e.g.
# main's, to compare before and after in one window), KILN_BEFORE_BIN (a
# second kiln binary, e.g. main's before a change, run with the cache off
# as a fourth contender "before", so that the uncached path is measured
# before and after in the same rounds).
# Needs redis-server, wrk, curl, python3 and the minio binary (go install, see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}
SECONDS_EACH=${SECONDS_EACH:-5}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
RP=$(port); MP=$(port)
redis-server --port "$RP" --save '' --appendonly no >/dev/null &
MINIO_ROOT_USER=bench MINIO_ROOT_PASSWORD=bench-secret-key "$(go env GOPATH)/bin/minio" server "$WORK/minio" \
  --address "127.0.0.1:$MP" --console-address "127.0.0.1:$(port)" >/dev/null 2>&1 &
if [ -n "${KILN_BIN:-}" ]; then cp "$KILN_BIN" "$WORK/kiln"; else go build -o "$WORK/kiln" ./cmd/kiln; fi
for _ in $(seq 300); do curl -fs "http://127.0.0.1:$MP/minio/health/live" >/dev/null && break; sleep 0.2; done
ADMIN=bench-admin-key-0123456789
# start_kiln NAME CACHE_MB [BINARY]: a kiln serve on the shared Redis and
# MinIO with its own data dir and ports, its blob cache of CACHE_MB MiB
# (0: off); sets KPP (platform port) and KAP (avatar port). It runs as a
# job of this shell, so that the trap above stops it (started inside a
# process substitution, as before, each run left its two kiln serve
# running, retrying their gone Redis and MinIO and taking CPU from later
# runs).
start_kiln() {
  KPP=$(port); KAP=$(port)
  KILN_REDIS_URL=redis://127.0.0.1:$RP KILN_S3_ENDPOINT=127.0.0.1:$MP KILN_S3_ACCESS_KEY=bench \
  KILN_S3_SECRET_KEY=bench-secret-key KILN_ADMIN_KEY=$ADMIN KILN_DATA_DIR=$WORK/data-$1 KILN_BLOB_CACHE_MB=$2 \
  KILN_PLATFORM_ADDR=127.0.0.1:$KPP KILN_AVATAR_ADDR=127.0.0.1:$KAP KILN_PUBLIC_AVATAR_URL=http://127.0.0.1:$KAP \
  KILN_LOG_LEVEL=warn KILN_CREATOR_WARM=false "${3:-$WORK/kiln}" serve >>"$WORK/kiln-$1.log" 2>&1 &
}
start_kiln cached 1024; CPP=$KPP CAP=$KAP
start_kiln uncached 0; UPP=$KPP UAP=$KAP
ports="$CPP $UPP"
contenders="cached minio uncached"
if [ -n "${KILN_BEFORE_BIN:-}" ]; then
  cp "$KILN_BEFORE_BIN" "$WORK/kiln-before"
  start_kiln before 0 "$WORK/kiln-before"; BAP=$KAP
  ports="$ports $KPP"
  contenders="$contenders before"
fi
for p in $ports; do
  for _ in $(seq 300); do curl -fs "http://127.0.0.1:$p/readyz" >/dev/null && break; sleep 0.2; done
  curl -fs "http://127.0.0.1:$p/readyz" >/dev/null || { echo "kiln on :$p not ready"; cat "$WORK"/kiln-*.log; exit 1; }
done
KEY=$(curl -fs -X POST "http://127.0.0.1:$CPP/admin/api-keys" -H "Authorization: Bearer $ADMIN" \
  -d '{"account":"bench","scopes":["avatar:write"]}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["key"])')
start=$(date +%s.%N)
URL=$(curl -fs -X POST "http://127.0.0.1:$CAP/avatar" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["modelUrl"])')
curl -fs -o "$WORK/a.glb" "$URL"
end=$(date +%s.%N)
echo "POST /avatar then first GET of lod 0: $(python3 -c "print(round($end-$start,3))") s to the last byte, $(stat -c %s "$WORK/a.glb") bytes"
curl -fs -o /dev/null -w 'cached GET: %{time_total} s\n' "$URL"
curl -fsI "$URL" | grep -iE '^(cache-control|etag|content-length):'
UURL=${URL/127.0.0.1:$CAP/127.0.0.1:$UAP}
curl -fs -o "$WORK/b.glb" "$UURL"
cmp "$WORK/a.glb" "$WORK/b.glb" || { echo "the uncached kiln serves other bytes"; exit 1; }
if [ -n "${KILN_BEFORE_BIN:-}" ]; then
  BURL=${URL/127.0.0.1:$CAP/127.0.0.1:$BAP}
  curl -fs -o "$WORK/c.glb" "$BURL"
  cmp "$WORK/a.glb" "$WORK/c.glb" || { echo "the before kiln serves other bytes"; exit 1; }
fi
ID=$(basename "$URL" .glb)
MURL=$(go run ./bench/avatar/presign -endpoint "127.0.0.1:$MP" -access bench -secret bench-secret-key -prefix "avatars/$ID/variants/")
echo "urls: cached $URL, uncached $UURL, minio (presigned, variants of $ID)"
# measure NAME URL: one wrk run; appends "NAME req/s p99ms" to results.
measure() {
  local out rps p99
  out=$(wrk -t2 -c16 -d"${SECONDS_EACH}s" --latency "$2")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v*=1000}; print v}' <<<"$out")
  echo "$1 $rps $p99" >>"$WORK/results"
  printf '  %-8s %8s req/s  p99 %7s ms\n' "$1" "$rps" "$p99"
}
for r in $(seq "$ROUNDS"); do
  echo "round $r (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  # The order turns each round, so that no contender always runs first.
  read -ra cs <<<"$contenders"
  order=""
  for i in "${!cs[@]}"; do order="$order ${cs[$(((i + r - 1) % ${#cs[@]}))]}"; done
  for c in $order; do
    case $c in
      cached) measure cached "$URL" ;;
      minio) measure minio "$MURL" ;;
      uncached) measure uncached "$UURL" ;;
      before) measure before "$BURL" ;;
    esac
  done
done
python3 - "$WORK/results" "$ROUNDS" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
n = int(sys.argv[2])
by = {}
for name, rps, p99 in rows:
    by.setdefault(name, []).append((float(rps), float(p99)))
med = lambda xs: statistics.median(xs)
print("median of %d rounds:" % n)
names = [x for x in ("cached", "minio", "uncached", "before") if x in by]
for name in names:
    v = by[name]
    print("  %-8s %8.1f req/s  p99 %7.1f ms" % (name, med([x[0] for x in v]), med([x[1] for x in v])))
for name in [x for x in names if x != "minio"]:
    ratios = [k[0] / m[0] for k, m in zip(by[name], by["minio"])]
    p99s = [k[1] / m[1] for k, m in zip(by[name], by["minio"])]
    print("  %-8s / minio per round: rate %s (median %.2f), p99 %s (median %.2f)" % (
        name, " ".join("%.2f" % r for r in ratios), med(ratios), " ".join("%.2f" % r for r in p99s), med(p99s)))
PY
