#!/usr/bin/env bash
# Avatar service benchmark: kiln serve on a fresh redis-server and MinIO;
# POST /avatar then the first GET of lod 0 (time to the last byte), then
# in one run, under wrk, the same cached variant three ways: through Kiln
# with its on-node blob cache (sendfile), through Kiln with the cache off
# (streamed from MinIO), and straight from MinIO with a presigned URL.
# Needs redis-server, wrk, curl and the minio binary (go install, see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
RP=$(port); MP=$(port); PP=$(port); AP=$(port)
redis-server --port "$RP" --save '' --appendonly no >/dev/null &
MINIO_ROOT_USER=bench MINIO_ROOT_PASSWORD=bench-secret-key "$(go env GOPATH)/bin/minio" server "$WORK/minio" \
  --address "127.0.0.1:$MP" --console-address "127.0.0.1:$(port)" >/dev/null 2>&1 &
go build -o "$WORK/kiln" ./cmd/kiln
sleep 3
ADMIN=bench-admin-key-0123456789
# start_kiln CACHE_MB: kiln serve on the same Redis and MinIO, its blob
# cache of CACHE_MB MiB (0: off); sets KILN_PID.
start_kiln() {
  KILN_REDIS_URL=redis://127.0.0.1:$RP KILN_S3_ENDPOINT=127.0.0.1:$MP KILN_S3_ACCESS_KEY=bench \
  KILN_S3_SECRET_KEY=bench-secret-key KILN_ADMIN_KEY=$ADMIN KILN_DATA_DIR=$WORK/data KILN_BLOB_CACHE_MB=$1 \
  KILN_PLATFORM_ADDR=127.0.0.1:$PP KILN_AVATAR_ADDR=127.0.0.1:$AP KILN_PUBLIC_AVATAR_URL=http://127.0.0.1:$AP \
  KILN_LOG_LEVEL=warn "$WORK/kiln" serve >>"$WORK/kiln.log" 2>&1 &
  KILN_PID=$!
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PP/readyz" >/dev/null && break; sleep 0.2; done
}
start_kiln 1024
KEY=$(curl -fs -X POST "http://127.0.0.1:$PP/admin/api-keys" -H "Authorization: Bearer $ADMIN" \
  -d '{"account":"bench","scopes":["avatar:write"]}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["key"])')
start=$(date +%s.%N)
URL=$(curl -fs -X POST "http://127.0.0.1:$AP/avatar" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["modelUrl"])')
curl -fs -o "$WORK/a.glb" "$URL"
end=$(date +%s.%N)
echo "POST /avatar then first GET of lod 0: $(python3 -c "print(round($end-$start,3))") s to the last byte, $(stat -c %s "$WORK/a.glb") bytes"
curl -fs -o /dev/null -w 'cached GET: %{time_total} s\n' "$URL"
curl -fsI "$URL" | grep -iE '^(cache-control|etag|content-length):'
measure() { wrk -t2 -c16 -d10s --latency "$1" | grep -E 'Requests/sec|99%|Transfer/sec'; }
echo "== wrk: through Kiln, on-node blob cache (sendfile) (GET $URL)"
measure "$URL"
ID=$(basename "$URL" .glb)
MURL=$(go run ./bench/avatar/presign -endpoint "127.0.0.1:$MP" -access bench -secret bench-secret-key -prefix "avatars/$ID/variants/")
echo "== wrk: the same file straight from MinIO (presigned GET)"
measure "$MURL"
kill "$KILN_PID"; wait "$KILN_PID" 2>/dev/null || true
start_kiln 0
curl -fs -o /dev/null "$URL"
echo "== wrk: through Kiln with the cache off (KILN_BLOB_CACHE_MB=0: streamed from MinIO)"
measure "$URL"
