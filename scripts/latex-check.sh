#!/usr/bin/env bash
# latex-check.sh: check that the report's exported tables and figures drop
# into a LaTeX paper as they are. It writes the tables (--tables) and the
# PDF figures (--figures --format pdf) of a results directory, wraps every
# .tex table, and every column-width figure (\includegraphics at
# \columnwidth in a two-column article), in documents, compiles them with
# pdflatex (Debian: texlive-latex-extra) and fails on any LaTeX error, on
# a float too large for its page or an overfull page (LaTeX clips such a
# float: its last rows are lost), on a table whose LaTeX rows are fewer or
# more than its CSV rows, or on a figure whose fonts are not embedded
# (pdffonts, poppler-utils). It
# renders the first page of each document with pdftoppm and prints the PNG
# paths.
#
#   scripts/latex-check.sh [RESULTS_DIR] [WORK_DIR]
#
# Without RESULTS_DIR it replays the default traces first (go run
# ./cmd/replay run). WORK_DIR (default: a temporary directory, kept)
# receives tables/, figures/, the documents, their PDFs and PNGs.
set -euo pipefail

cd "$(dirname "$0")/.."
for tool in pdflatex pdffonts pdftoppm python3 go; do
	command -v "$tool" >/dev/null || { echo "latex-check: $tool not found (apt-get install texlive-latex-extra poppler-utils)" >&2; exit 2; }
done

work=${2:-$(mktemp -d /tmp/latex-check.XXXXXX)}
mkdir -p "$work"
in=${1:-}
if [ -z "$in" ]; then
	in=$work/results
	go run ./cmd/replay run --quiet --out "$in" >/dev/null
fi
rm -rf "$work/tables" "$work/figures"
go run ./cmd/report --quiet --in "$in" --out "" --tables "$work/tables" --figures "$work/figures" --format pdf

fail=0

# Fonts: every exported PDF figure embeds all its fonts.
for f in "$work"/figures/*.pdf; do
	if pdffonts "$f" | awk 'NR > 2 && $(NF-4) != "yes" { bad = 1 } END { exit !bad }'; then
		echo "latex-check: $f: a font is not embedded" >&2
		pdffonts "$f" >&2
		fail=1
	fi
done

preamble='\documentclass[twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{booktabs}
\usepackage{graphicx}
\begin{document}'

# compile NAME: pdflatex NAME.tex in $work, failing on the first error.
compile() {
	if ! (cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error "$1.tex" >"$1.out" 2>&1); then
		echo "latex-check: $work/$1.tex does not compile:" >&2
		grep -A 6 '^!' "$work/$1.log" >&2 || tail -20 "$work/$1.out" >&2
		fail=1
		return
	fi
	# A float taller than the page is clipped (rows lost) with only a warning.
	if grep -E 'Float too large|Overfull \\vbox|Float\(s\) lost' "$work/$1.log" >&2; then
		echo "latex-check: $work/$1.tex: a float does not fit its page (rows would be lost)" >&2
		fail=1
	fi
	pdftoppm -png -r 100 -f 1 -l 2 "$work/$1.pdf" "$work/$1" # table* floats to page 2
	echo "latex-check: $work/$1.pdf ($(ls "$work/$1"*.png))"
}

# Tables: each table in its own two-column document.
n=0
rows=0
for t in "$work"/tables/*.tex; do
	n=$((n + 1))
	name=table-$(basename "$t" .tex)
	# Every row: the data rows of the tabulars (between \midrule and
	# \bottomrule) are the CSV's rows.
	texrows=$(awk '$0 == "\\midrule" { in_ = 1; next } $0 == "\\bottomrule" { in_ = 0 } in_ && /\\\\$/ { n++ } END { print n + 0 }' "$t")
	csvrows=$(python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], newline=""))) - 1)' "${t%.tex}.csv")
	if [ "$texrows" != "$csvrows" ]; then
		echo "latex-check: $t: $texrows LaTeX rows, $csvrows CSV rows" >&2
		fail=1
	fi
	rows=$((rows + texrows))
	{
		echo "$preamble"
		echo "Table~\\ref{tab:$(sed -n 's/^\\label{tab:\(.*\)}$/\1/p' "$t" | head -1)} follows.\\par"
		echo "\\input{tables/$(basename "$t")}"
		echo '\end{document}'
	} >"$work/$name.tex"
	compile "$name"
done
[ "$n" -gt 0 ] || { echo "latex-check: no tables written" >&2; fail=1; }

# Figures: every column-width figure at \columnwidth, four per page.
{
	echo "$preamble"
	k=0
	for f in "$work"/figures/*-col.pdf; do
		k=$((k + 1))
		name=$(basename "$f" -col.pdf)
		echo '\begin{figure}[t]\centering'
		echo "\\includegraphics[width=\\columnwidth]{figures/$(basename "$f")}"
		echo "\\caption{\\texttt{$(echo "$name" | sed 's/_/\\_/g; s/-/-\\allowbreak{}/g')}}"
		echo '\end{figure}'
		if [ $((k % 4)) -eq 0 ]; then echo '\clearpage'; fi
	done
	echo 'Column-width figures.'
	echo '\end{document}'
} >"$work/figures.tex"
compile figures
[ -n "$(ls "$work"/figures/*-col.pdf 2>/dev/null)" ] || { echo "latex-check: no figures written" >&2; fail=1; }

if [ "$fail" -ne 0 ]; then
	echo "latex-check: FAILED ($work)" >&2
	exit 1
fi
echo "latex-check: ok: $n tables ($rows rows, all on their pages) and $(ls "$work"/figures/*-col.pdf | wc -l) figures compile ($work)"
