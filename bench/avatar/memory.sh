#!/usr/bin/env bash
# Memory of a kiln serve (embedded Redis, blobs on disk, as the README's
# Quickstart runs it) through N distinct avatars (default 50): each is
# registered with POST /avatar and {} (a random configuration) and its
# model downloaded, which builds it; prints the resident set at idle,
# every 10 avatars, and 3 and 13 s after the last (RssAnon is the heap
# and stacks, RssFile mostly the binary's pages). KILN_BIN measures
# another binary (e.g. main's) instead of building this tree's.
# Needs curl and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-50}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
if [ -n "${KILN_BIN:-}" ]; then cp "$KILN_BIN" "$WORK/kiln"; else go build -o "$WORK/kiln" ./cmd/kiln; fi
PP=$(port); AP=$(port); ADMIN=bench-admin-key-0123456789
KILN_ADMIN_KEY=$ADMIN KILN_AVATAR_CREATE_RATE=0 KILN_DATA_DIR=$WORK/data KILN_PLATFORM_ADDR=127.0.0.1:$PP \
  KILN_AVATAR_ADDR=127.0.0.1:$AP KILN_LOG_LEVEL=warn KILN_CREATOR_WARM=false "$WORK/kiln" serve >"$WORK/serve.log" 2>&1 &
PID=$!
for _ in $(seq 300); do curl -fs "http://127.0.0.1:$PP/readyz" >/dev/null && break; sleep 0.2; done
sleep 2
rss() { awk '/^(VmRSS|RssAnon|RssFile)/ {printf "%s %.0f MiB  ", $1, $2/1024}' "/proc/$PID/status"; echo; }
echo "idle: $(rss)"
KEY=$(curl -fs -X POST "http://127.0.0.1:$PP/admin/api-keys" -H "Authorization: Bearer $ADMIN" \
  -d '{"account":"bench","scopes":["avatar:write"]}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["key"])')
for i in $(seq "$N"); do
  URL=$(curl -fs -X POST "http://127.0.0.1:$AP/avatar" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["modelUrl"])')
  for _ in $(seq 10); do curl -fs -o /dev/null "$URL" && break; sleep 1; done
  if [ $((i % 10)) = 0 ]; then echo "after $i avatars: $(rss)"; fi
done
sleep 3
echo "3 s after the last: $(rss)"
sleep 10
echo "13 s after the last: $(rss)"
