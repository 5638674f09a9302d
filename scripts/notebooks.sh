#!/usr/bin/env bash
# notebooks.sh: the notebooks in CI. (a) Every committed notebook
# (notebooks/*.ipynb) must have its outputs cleared and its execution
# counts null; (b) every notebook is executed headless at its quick size
# (SCHEDLAB_NB_QUICK=1) with jupyter nbconvert, each cell under a time
# limit, and any cell error fails the script; (c) everything it wrote goes
# away (a temporary folder). Needs Go, node and npm (DuckDB's Node.js
# client, for the notebooks' DuckDB queries), and Debian's
# jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib.
#
# Usage: bash scripts/notebooks.sh [NOTEBOOK.ipynb...]   (default: all)
# CELL_TIMEOUT (seconds, default 300) bounds each cell.
set -euo pipefail
cd "$(dirname "$0")/.."

notebooks=("$@")
if [ ${#notebooks[@]} -eq 0 ]; then
	mapfile -t notebooks < <(git ls-files 'notebooks/*.ipynb')
fi
if [ ${#notebooks[@]} -eq 0 ]; then
	echo "notebooks.sh: no notebooks found" >&2; exit 1
fi

echo "== notebooks committed without outputs"
python3 - "${notebooks[@]}" <<'PY'
import json, sys
bad = []
for path in sys.argv[1:]:
    with open(path) as f:
        nb = json.load(f)
    for i, cell in enumerate(nb.get("cells", []), 1):
        if cell.get("cell_type") != "code":
            continue
        if cell.get("outputs") or cell.get("execution_count") is not None:
            bad.append(f"{path}: cell {i} has outputs or an execution count "
                       f"(clear them: jupyter nbconvert --clear-output --inplace {path})")
            break
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
print(len(sys.argv) - 1, "notebooks clean")
PY

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== tools and DuckDB's Node.js client"
mkdir -p "$work/bin" "$work/node" "$work/executed" "$work/out"
for t in replay synth report; do
	go build -o "$work/bin/$t" "./cmd/$t"
done
version=$(python3 -c 'import json; print(json.load(open("scripts/package.json"))["dependencies"]["@duckdb/node-api"])')
printf '{"private": true, "type": "module", "dependencies": {"@duckdb/node-api": "%s"}}\n' "$version" >"$work/node/package.json"
(cd "$work/node" && npm install --no-audit --no-fund --loglevel=error >/dev/null)

echo "== execute (quick size, cell timeout ${CELL_TIMEOUT:-300} s)"
export SCHEDLAB_NB_QUICK=1 SCHEDLAB_NB_OUT="$work/out" SCHEDLAB_NB_BIN="$work/bin" SCHEDLAB_NB_NODE="$work/node"
export PYDEVD_DISABLE_FILE_VALIDATION=1 PYTHONDONTWRITEBYTECODE=1
failed=()
for nb in "${notebooks[@]}"; do
	start=$(date +%s)
	if jupyter nbconvert --to notebook --execute "$nb" --output-dir "$work/executed" \
		--ExecutePreprocessor.timeout="${CELL_TIMEOUT:-300}" --ExecutePreprocessor.kernel_name=python3 \
		>"$work/log" 2>&1; then
		echo "ok   $nb ($(($(date +%s) - start)) s)"
	else
		echo "FAIL $nb ($(($(date +%s) - start)) s):"
		grep -v 'Debugger warning\|frozen modules\|Xfrozen_modules\|Debugging will proceed' "$work/log" | tail -40
		failed+=("$nb")
	fi
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "notebooks.sh: ${#failed[@]} notebook(s) failed: ${failed[*]}" >&2
	exit 1
fi
