#!/usr/bin/env bash
# usage: scripts/duckdb.sh SQL
# Runs one DuckDB query and prints its result as CSV (a header line, then
# one line per row): with the duckdb command-line tool when it is on PATH,
# else with DuckDB's Node.js client (npm @duckdb/node-api, the version in
# scripts/package.json, as CI and the notebooks use it), installed once
# into $SCHEDLAB_DUCKDB_NODE (default: ~/.cache/schedlab-duckdb). Paths in
# the query are relative to the current directory. Needs node and npm
# when duckdb is not installed.
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: scripts/duckdb.sh SQL" >&2
	exit 2
fi
sql=$1
if command -v duckdb >/dev/null; then
	exec duckdb -csv -c "$sql"
fi
here=$(cd "$(dirname "$0")/.." && pwd)
node_dir=${SCHEDLAB_DUCKDB_NODE:-${XDG_CACHE_HOME:-$HOME/.cache}/schedlab-duckdb}
if [ ! -d "$node_dir/node_modules/@duckdb/node-api" ]; then
	if ! command -v npm >/dev/null; then
		echo "scripts/duckdb.sh: neither duckdb nor npm found: install the DuckDB CLI, or node and npm" >&2
		exit 1
	fi
	mkdir -p "$node_dir"
	version=$(sed -n 's/.*"@duckdb\/node-api": *"\([^"]*\)".*/\1/p' "$here/scripts/package.json")
	printf '{"private": true, "type": "module", "dependencies": {"@duckdb/node-api": "%s"}}\n' "$version" >"$node_dir/package.json"
	echo "scripts/duckdb.sh: installing @duckdb/node-api $version into $node_dir (once)" >&2
	(cd "$node_dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
cp "$here/notebooks/duckdb-query.mjs" "$node_dir/duckdb-query.mjs"
csv=$(mktemp "${TMPDIR:-/tmp}/schedlab-duckdb.XXXXXX")
trap 'rm -f "$csv"' EXIT
node "$node_dir/duckdb-query.mjs" "$csv" "$sql"
cat "$csv"
