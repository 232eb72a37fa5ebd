#!/bin/sh
# Visitor analytics benchmark: kiln serve on a fresh redis-server, wrk
# posting tracking events for DURATION on loopback, then the visitor
# summary over 1,000,000 events in 100,000 sessions. Run from anywhere;
# needs redis-server and wrk (apt-get install -y redis-server wrk).
set -eu
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-20s}
CONNECTIONS=${CONNECTIONS:-32}
REDIS_PORT=${REDIS_PORT:-6391}
PLATFORM=127.0.0.1:${PLATFORM_PORT:-18080}
WORK=$(mktemp -d)
ADMIN=bench-admin-key-0123456789
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

go build -o "$WORK/kiln" ./cmd/kiln
go build -o "$WORK/tracking" ./bench/tracking

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no >"$WORK/redis.log" 2>&1 &
PIDS="$PIDS $!"
until redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; do sleep 0.1; done

KILN_REDIS_URL=redis://127.0.0.1:$REDIS_PORT KILN_DATA_DIR=$WORK/data KILN_ADMIN_KEY=$ADMIN \
KILN_PLATFORM_ADDR=$PLATFORM KILN_AVATAR_ADDR=127.0.0.1:0 KILN_TRUSTED_PROXIES=127.0.0.1 KILN_LOG_LEVEL=warn \
	"$WORK/kiln" serve >"$WORK/kiln.log" 2>&1 &
PIDS="$PIDS $!"
until curl -sf "http://$PLATFORM/healthz" >/dev/null; do sleep 0.1; done

echo "== ingest: wrk -t1 -c$CONNECTIONS -d$DURATION on POST /viewers/{token}/tracking-event"
VIEWER=$("$WORK/tracking" viewer -redis "redis://127.0.0.1:$REDIS_PORT")
VIEWER=$VIEWER wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/tracking/track.lua "http://$PLATFORM"
echo "views of the ingest viewer (today):"
curl -s -H "Authorization: Bearer $ADMIN" "http://$PLATFORM/viewers/$VIEWER/views?backto=1%20day"; echo

echo "== summary over 1,000,000 events in 100,000 sessions"
"$WORK/tracking" summary -redis "redis://127.0.0.1:$REDIS_PORT" -url "http://$PLATFORM" -key "$ADMIN"
redis-cli -p "$REDIS_PORT" info memory | grep used_memory_human
