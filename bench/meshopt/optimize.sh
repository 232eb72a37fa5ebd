#!/bin/sh
# bench/meshopt/optimize.sh OLD_KILN [ROUNDS]: `kiln optimize IN OUT
# --meshopt` end to end, a kiln binary from before a change (OLD_KILN,
# e.g. built from ba3bb33, before issue 26) against this tree's, and this
# tree's with `--texture-size source` (textures kept at their size and
# bytes, geometry compressed alone, as gltfpack -cc does), on the shared
# models. The contenders alternate, one process each, ROUNDS times
# (default 3); it prints the median CPU time (user + system, from
# /usr/bin/time) and the output's bytes per contender, gltfpack -cc's
# bytes beside them, and the Khronos validator's error count on this
# tree's outputs. CPU time, not wall time: the machine is shared, and the
# load average is printed at start and end. Needs Go, node and
# /usr/bin/time; run.sh installs gltfpack and the validator first.
set -eu
cd "$(dirname "$0")/../.."
old=$1
rounds=${2:-3}
shared=../shared/testdata
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/kiln-new" ./cmd/kiln
cp "$old" "$tmp/kiln-old"
models="DamagedHelmet rpm-avatar-casual RobotExpressive RocketShip"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	for m in $models; do
		for c in old new new-source; do
			case $c in
			old) set -- "$tmp/kiln-old" optimize "$shared/$m.glb" "$tmp/$m.$c.glb" --meshopt ;;
			new) set -- "$tmp/kiln-new" optimize "$shared/$m.glb" "$tmp/$m.$c.glb" --meshopt ;;
			new-source) set -- "$tmp/kiln-new" optimize "$shared/$m.glb" "$tmp/$m.$c.glb" --meshopt --texture-size source ;;
			esac
			/usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >/dev/null
			awk -v m="$m" -v c="$c" '{print m, c, ($1+$2)*1000}' "$tmp/time" >>"$tmp/runs"
		done
	done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }
printf '%-18s %-11s %8s %10s %10s %9s\n' model contender cpu-ms bytes gltfpack validator
for m in $models; do
	node tools/meshopt/node_modules/gltfpack/cli.js -cc -i "$shared/$m.glb" -o "$tmp/$m.gltfpack.glb" >/dev/null
	pack=$(wc -c <"$tmp/$m.gltfpack.glb")
	for c in old new new-source; do
		ms=$(awk -v m="$m" -v c="$c" '$1==m && $2==c {print $3}' "$tmp/runs" | median)
		v=-
		if [ "$c" != old ]; then
			v=$(node tools/gltf-validator/validate.mjs "$tmp/$m.$c.glb" 2>/dev/null | grep -oE '"numErrors":[0-9]+' | cut -d: -f2 || true)
		fi
		printf '%-18s %-11s %8.0f %10d %10d %9s\n' "$m" "$c" "$ms" "$(wc -c <"$tmp/$m.$c.glb")" "$pack" "${v:--}"
	done
done
