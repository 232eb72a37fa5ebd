#!/bin/sh
# A whole blind panel from this checkout: the panel's 20 avatars (the two
# built-in ones and random-01..18, configs -seed 1) built with this
# checkout's kiln, pictured with look.mjs beside the leader's two avatars
# (room and rig light, portrait and full body; supersampled, --ssaa 2,
# as a GPU would draw them: multisampled, SwiftShader drew specks round
# every mouth that no GPU shows), the room-light portraits
# paired Kiln beside leader with the sides shuffled (panel.mjs: 40 pairs),
# and the judges' brief with the pairs' folder filled in.
#
#   bench/avatar-look/panel.sh OUTDIR
#
# Then give each judge OUTDIR/JUDGE.md, save each judge's JSON answer as
# OUTDIR/judged/NAME.json, and count with
#   node bench/avatar-look/tally.mjs OUTDIR/key.json OUTDIR/judged/*.json
# A blind A/B of a change (two folders of pictures of the same names,
# before and after) goes the same way with ab.mjs and judge-ab.md.
# Needs Go, `npm ci` in tools/browser-test, and the leader's avatars in
# ../shared/testdata (or the folder LEADER names).
set -eu
out=$1
mkdir -p "$out/glb" "$out/judged"
out=$(cd "$out" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
leader=${LEADER:-$root/../shared/testdata}
cd "$root"
go build -o "$out/kiln" ./cmd/kiln
go run ./bench/avatar-look/configs -out "$out/cfg" -n 18 -seed 1
for c in "$out"/cfg/*.json; do
	"$out/kiln" avatar "$c" "$out/glb/$(basename "$c" .json).glb"
done
node bench/avatar-look/look.mjs "$out/pics" "$out"/glb/*.glb "$leader/rpm-avatar-casual.glb" "$leader/rpm-avatar-office.glb" \
	--light room,rig --camera portrait,full --ssaa 2
kiln=$(ls "$out"/pics/*-room-portrait.png | grep -v -e '/rpm-avatar-' -e '/sheet-' | paste -sd, -)
node bench/avatar-look/panel.mjs "$out/pairs" "$out/key.json" --kiln "$kiln" \
	--leader "$out/pics/rpm-avatar-casual-room-portrait.png,$out/pics/rpm-avatar-office-room-portrait.png"
sed "s#PAIRS#$out/pairs#" bench/avatar-look/judge-panel.md >"$out/JUDGE.md"
echo "panel: $out/JUDGE.md"
