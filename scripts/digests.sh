#!/usr/bin/env bash
# usage: scripts/digests.sh BIN OUT
# Runs the reference commands of a behaviour-preserving change with the
# binaries in BIN (replay, synth, report; e.g. go build -o BIN/ ./cmd/...)
# and writes OUT/digests.txt (sha256 of every file written) and
# OUT/times.txt (wall, user CPU, peak RSS per command): the default run
# with its report, KTH and NASA on flat machines, NASA on cube:7 under
# every pair, a 32x32 mesh under every pair, a malleable run, a wormhole
# run and every reproduction suite at its quick size. Run it with the
# binaries before and after a change and diff the two digests.txt.
set -euo pipefail
B=$(cd "$1" && pwd); O=$2; mkdir -p "$O"; O=$(cd "$O" && pwd); S=$(cd "$(dirname "$0")/../../shared/traces" && pwd)
rm -rf "$O"; mkdir -p "$O"; cd "$O"
R="$B/replay"; Y="$B/synth"; P="$B/report"
run() { local name=$1; shift; /usr/bin/time -f "$name %e s wall %U s user %M KB" "$@" >"$name.log" 2>"$name.err" || { echo "FAIL $name"; cat "$name.err"; }; tail -1 "$name.err" >> times.txt; }
run default $R run --quiet --out default
run kth $R run --quiet --out kth $S/KTH-SP2-1996-2.1-cln.swf.gz
run nasaflat $R run --quiet --machine flat:128 --out nasaflat $S/NASA-iPSC-1993-3.1-cln.swf.gz
run nasacube $R run --quiet --machine cube:7 --out nasacube $S/NASA-iPSC-1993-3.1-cln.swf.gz
$Y workload --machine mesh:32x32 --size uniform --load 0.7 --jobs 3000 --seed 7 -o mesh32.parquet >/dev/null 2>&1
run mesh32 $R run --quiet --out mesh32 mesh32.parquet
$Y malleable --jobs 20000 --load 0.8 --seed 3 -o mall.parquet >/dev/null 2>&1
run mall $R run --quiet --mode malleable --out mall mall.parquet
$Y workload --machine mesh:16x16 --size uniform --mean 1 --load 0.5 --jobs 1000 --seed 5 -o mesh16.parquet >/dev/null 2>&1
run worm $R run --quiet --comm wormhole:ts=3,plen=8,msgs=5 --alloc gabl,paging,mbs,ff --sched fcfs --out worm mesh16.parquet
run reportkth $P --quiet --in kth --out kth/report.pdf
for s in $($P reproduce --list | awk 'NR>1{print $1}'); do
  run "suite-$s" $P reproduce "$s" --quick --quiet --out "suite-$s"
  cp "suite-$s.log" "suite-$s/table.txt"
done
find . -type f \( -name '*.parquet' -o -name '*.pdf' -o -name '*.txt' -o -name '*.tex' -o -name '*.csv' -o -name '*.json' \) ! -name times.txt ! -name digests.txt | sort | xargs sha256sum > digests.txt
wc -l digests.txt
