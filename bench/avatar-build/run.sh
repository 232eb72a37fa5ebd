#!/bin/sh
# bench/avatar-build/run.sh [OLD_REV] [ROUNDS]: avatar build time and
# allocations, this tree against OLD_REV (default ba3bb33, the code before
# issue 26's speed work), run side by side: each round runs the old and
# the new one after the other, for the default configurations (masculine
# and feminine) and avatar.Random(1..3).
#   cold: one `kiln avatar CONFIG.json OUT.glb` process per build (it pays
#         the data's loading and the once-per-process mouth mask), wall and
#         CPU time from /usr/bin/time; the two GLBs are compared byte for
#         byte (they differ when a change of look landed in between: the
#         speed work alone keeps them, as TestSameBytes shows);
#   warm: BenchmarkBuild (assets/avatar) in one process, 3 builds per
#         configuration, the texture cache emptied before each (a
#         configuration never built): wall and CPU time, bytes and
#         allocations per build;
#   cached (this tree only): BenchmarkBuildCached, the same configuration
#         rebuilt (same) and built with the hair's or the top's colour
#         changed, the textures of the configuration before in the cache.
# Prints the medians over the rounds and new/old ratios, and the load
# average (the machine is shared: CPU time moves less with the load than
# wall time). Needs Go, git and /usr/bin/time.
set -eu
cd "$(dirname "$0")/../.."
old=${1:-ba3bb33}
rounds=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/old" "$tmp/cfg" "$tmp/out"
git archive "$old" | tar -x -C "$tmp/old"
# The old tree gets the same benchmark; one from before the texture cache
# gets a cache that keeps nothing, for BenchmarkBuild to empty.
cp assets/avatar/build_bench_test.go assets/avatar/cputime_unix_test.go assets/avatar/cputime_other_test.go "$tmp/old/assets/avatar/"
if [ ! -e "$tmp/old/assets/avatar/texcache.go" ]; then
	printf 'package avatar\n\nvar textures noTextures\n\ntype noTextures struct{}\n\nfunc (noTextures) reset() {}\n' >"$tmp/old/assets/avatar/nocache_test.go"
fi
(cd "$tmp/old" && go build -o "$tmp/kiln-old" ./cmd/kiln && go test -c -o "$tmp/avatar-old.test" ./assets/avatar)
go build -o "$tmp/kiln-new" ./cmd/kiln
go test -c -o "$tmp/avatar-new.test" ./assets/avatar
go run ./bench/avatar-build/configs "$tmp/cfg" 1 2 3
configs="default default-female random-1 random-2 random-3"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	for c in $configs; do
		for v in old new; do
			/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$tmp/kiln-$v" avatar "$tmp/cfg/$c.json" "$tmp/out/$c-$v.glb" >/dev/null
			awk -v c="$c" -v v="$v" '{print "cold", c, v, "wall-ms", $1*1000; print "cold", c, v, "cpu-ms", ($2+$3)*1000}' "$tmp/time" >>"$tmp/runs"
		done
		if cmp -s "$tmp/out/$c-old.glb" "$tmp/out/$c-new.glb"; then same="same bytes"; else same="BYTES DIFFER"; fi
		echo "$c $same" >>"$tmp/same"
	done
	for v in old new; do
		(cd "$([ $v = old ] && echo "$tmp/old/assets/avatar" || echo assets/avatar)" &&
			"$tmp/avatar-$v.test" -test.run '^$' -test.bench '^BenchmarkBuild$' -test.benchtime 3x) |
			awk -v v="$v" '/^BenchmarkBuild\// {
				split($1, a, "/"); sub(/-[0-9]+$/, "", a[2])
				for (i = 3; i < NF; i += 2) {
					u = $(i+1)
					if (u == "ns/op") print "warm", a[2], v, "wall-ms", $i/1e6
					if (u == "cpu-ms/op") print "warm", a[2], v, "cpu-ms", $i
					if (u == "B/op") print "warm", a[2], v, "MB", $i/1e6
					if (u == "allocs/op") print "warm", a[2], v, "allocs", $i
				}
			}' >>"$tmp/runs"
	done
done
# This tree alone: builds that find textures in the cache (a rebuild,
# one setting changed after the configuration was built).
(cd assets/avatar && "$tmp/avatar-new.test" -test.run '^$' -test.bench '^BenchmarkBuildCached$' -test.benchtime 3x) |
	awk '/^BenchmarkBuildCached\// {
		split($1, a, "/"); sub(/-[0-9]+$/, "", a[3])
		for (i = 3; i < NF; i += 2) {
			u = $(i+1)
			if (u == "ns/op") print a[3], a[2], "new", "wall-ms", $i/1e6
			if (u == "cpu-ms/op") print a[3], a[2], "new", "cpu-ms", $i
			if (u == "B/op") print a[3], a[2], "new", "MB", $i/1e6
			if (u == "allocs/op") print a[3], a[2], "new", "allocs", $i
		}
	}' >>"$tmp/runs"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
sort -u "$tmp/same"
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }
# The cached runs, this tree only (the old one has no cache).
printf '%-11s %-9s %-8s %12s\n' cached config measure new
for k in same hair-colour top-colour; do
	for c in $configs; do
		for m in wall-ms cpu-ms MB allocs; do
			n=$(awk -v k=$k -v c=$c -v m=$m '$1==k && $2==c && $3=="new" && $4==m {print $5}' "$tmp/runs" | median)
			[ -n "$n" ] && printf '%-11s %-9s %-8s %12.1f\n' $k $c $m "$n"
		done
	done
done
printf '%-5s %-9s %-8s %12s %12s %8s\n' run config measure old new new/old
for k in cold warm; do
	for c in $configs; do
		for m in wall-ms cpu-ms MB allocs; do
			o=$(awk -v k=$k -v c=$c -v m=$m '$1==k && $2==c && $3=="old" && $4==m {print $5}' "$tmp/runs" | median)
			n=$(awk -v k=$k -v c=$c -v m=$m '$1==k && $2==c && $3=="new" && $4==m {print $5}' "$tmp/runs" | median)
			[ -n "$o" ] && [ -n "$n" ] || continue
			awk -v k=$k -v c=$c -v m=$m -v o="$o" -v n="$n" 'BEGIN {printf "%-5s %-9s %-8s %12.1f %12.1f %8.3f\n", k, c, m, o, n, (o > 0 ? n/o : 0)}'
		done
	done
done
