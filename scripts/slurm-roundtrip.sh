#!/usr/bin/env bash
# slurm-roundtrip.sh [PLAN]: end-to-end test of `replay sweep --emit slurm`
# on a one-node Slurm cluster (scripts/slurm-local.sh, installed and started
# if need be): the plan (default traces/plans/quick.toml) run as a 3-task
# Slurm array job, then merged, gives the same Parquet files, byte for byte,
# as one unsharded run. Each task and the merge must leave its log.
#
# Needs root and apt-get (prints SKIPPED and exits 0 otherwise). The work
# directory's name holds a space, a quote, '$' and '%', so that every path
# goes through the scripts' shell and #SBATCH quoting. A cluster this script
# started is stopped at the end; one already up is left up.
# SLURM_ROUNDTRIP_TIMEOUT (seconds, default 900) bounds the Slurm jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
plan=$(realpath "${1:-traces/plans/quick.toml}")
shards=3
timeout=${SLURM_ROUNDTRIP_TIMEOUT:-900}

skip() {
	echo "slurm round trip: SKIPPED ($*)"
	exit 0
}
[ "$(id -u)" = 0 ] || skip "no apt-get: not root, cannot install or start Slurm"
command -v apt-get >/dev/null || skip "no apt-get: not a Debian machine"

fail() {
	echo "slurm round trip: FAILED: $*" >&2
	exit 1
}

start=$SECONDS
started=""
scripts/slurm-local.sh status >/dev/null 2>&1 || started=yes
work=$(mktemp -d "${TMPDIR:-/tmp}/slurm round'trip \$x%a.XXXXXX")
cleanup() {
	rm -rf "$work"
	if [ -n "$started" ]; then scripts/slurm-local.sh stop 2>/dev/null || true; fi
}
trap cleanup EXIT
scripts/slurm-local.sh start
cluster=$((SECONDS - start))

go build -o "$work/replay" ./cmd/replay
t=$SECONDS
"$work/replay" sweep "$plan" --out "$work/single" --quiet
single=$((SECONDS - t))

t=$SECONDS
"$work/replay" sweep "$plan" --out "$work/sharded" --emit slurm --shards "$shards" \
	-j 1 --time 00:30:00 --report
submit="$work/sharded/slurm/submit.sh"
[ -x "$submit" ] || fail "--emit slurm wrote no executable $submit"
# sbatch --wait runs from the work directory, so that nothing of the
# checkout is needed by the jobs.
if ! (cd "$work" && timeout "$timeout" "$submit" --wait); then
	squeue >&2 || true
	for f in "$work"/sharded/slurm/*.log; do
		[ -f "$f" ] && { echo "---- $f" >&2; tail -n 20 "$f" >&2; }
	done
	tail -n 20 /var/log/slurm/slurmctld.log >&2 || true
	fail "the Slurm jobs failed or did not end within ${timeout}s"
fi
sharded=$((SECONDS - t))

# The Parquet files of both runs: same relative paths, same bytes.
list() { (cd "$1" && find jobs series summary -name '*.parquet' -type f | LC_ALL=C sort); }
list "$work/single" >"$work/single.files"
list "$work/sharded" >"$work/sharded.files"
n=$(wc -l <"$work/single.files")
[ "$n" -gt 0 ] || fail "the unsharded run wrote no Parquet file"
diff -u "$work/single.files" "$work/sharded.files" >&2 || fail "the runs wrote different files"
while IFS= read -r f; do
	cmp "$work/single/$f" "$work/sharded/$f" >&2 || fail "$f differs"
done <"$work/single.files"

for i in $(seq "$shards"); do
	[ -s "$work/sharded/slurm/shard-$i.log" ] || fail "no log of array task $i (sharded/slurm/shard-$i.log)"
done
[ -f "$work/sharded/slurm/merge.log" ] || fail "no log of the merge (sharded/slurm/merge.log)"
[ -f "$work/sharded/sweep.json" ] || fail "the merge wrote no sweep.json"
[ -s "$work/sharded/report.pdf" ] || fail "the merge wrote no report.pdf"

echo "slurm round trip: OK: $n Parquet files identical over $shards Slurm shards" \
	"(cluster ${cluster}s, unsharded run ${single}s, sharded run with submit and merge ${sharded}s," \
	"total $((SECONDS - start))s)"
