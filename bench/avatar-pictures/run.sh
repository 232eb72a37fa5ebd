#!/bin/sh
# Pictures of Kiln's avatars beside the leader's, with Kiln's renderer and
# with Blender: full body and portrait of each GLB given.
#   bench/avatar-pictures/run.sh OUTDIR A.glb B.glb ...
# Build GLBs with `kiln avatar CONFIG.json OUT.glb`; the leader's are in
# ../shared/testdata/rpm-avatar-*.glb. Needs Go and blender.
set -eu
out=$1
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
(cd "$here/../.." && go build -o "$out/kiln" ./cmd/kiln)
for glb in "$@"; do
	n=$(basename "$glb" .glb)
	"$out/kiln" render "$glb" "$out/kiln-full-$n.png" --size 384 --camera full
	"$out/kiln" render "$glb" "$out/kiln-portrait-$n.png" --size 384 --camera portrait
	blender -b --python "$here/blender.py" -- "$glb" "$out/blender-full-$n.png" "$out/blender-portrait-$n.png" >/dev/null
done
