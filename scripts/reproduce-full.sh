#!/bin/bash
# Runs every reproduction suite at its full size and writes their tables
# into docs/reproduce.md (scripts/fulltables). Hours on 2 cores.
#   scripts/reproduce-full.sh [OUTDIR]   (default: reproduce-full)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-reproduce-full}
mkdir -p "$out/bin"
go build -o "$out/bin/" ./cmd/report
for s in $("$out/bin/report" reproduce --list | awk 'NR>1 && NF{print $1}'); do
  echo "== $s $(date +%T)"
  /usr/bin/time -v "$out/bin/report" reproduce "$s" --full --no-fail -q --out "$out/$s" >"$out/$s.log" 2>"$out/$s.time"
done
go run ./scripts/fulltables "$out" docs/reproduce.md
