#!/bin/sh
# bench/forsyth/run.sh [ROUNDS]: the Forsyth triangle order with its score
# tables (meshopt.forsythOrder) against the formulas they replaced
# (math.Pow and math.Sqrt per candidate, kept as forsythFormula in
# assets/meshopt/forsyth_order_test.go), on the shared test models. The
# two contenders alternate, one process each, ROUNDS times (default 5);
# it prints the median ns per order of each and their ratio, and the load
# average (the machine is shared). Needs ../shared/testdata and Go.
set -eu
cd "$(dirname "$0")/../.."
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/meshopt.test" ./assets/meshopt
cd assets/meshopt
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	for m in bunny DamagedHelmet rpm-avatar-office RobotExpressive; do
		for c in formula tables; do
			"$tmp/meshopt.test" -test.run '^$' -test.bench "^BenchmarkForsythOrder/$m/$c\$" -test.benchtime 1s |
				awk -v m="$m" -v c="$c" '/^BenchmarkForsythOrder/ {print m, c, $3}' >>"$tmp/runs"
		done
	done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-18s %14s %14s %8s\n' model formula-ms tables-ms speedup
for m in bunny DamagedHelmet rpm-avatar-office RobotExpressive; do
	f=$(awk -v m="$m" '$1==m && $2=="formula" {print $3}' "$tmp/runs" | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}')
	t=$(awk -v m="$m" '$1==m && $2=="tables" {print $3}' "$tmp/runs" | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}')
	[ -n "$f" ] && [ -n "$t" ] || continue
	awk -v m="$m" -v f="$f" -v t="$t" 'BEGIN {printf "%-18s %14.2f %14.2f %7.2fx\n", m, f/1e6, t/1e6, f/t}'
done
