// Package table holds a simple rectangular table of text cells and writes
// it as Markdown (GitHub pipe tables), CSV (RFC 4180) and LaTeX with the
// booktabs rules (\toprule, \midrule, \bottomrule).
package table

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
)

// Align is a column alignment.
type Align int

// Alignments.
const (
	Left Align = iota
	Right
)

// Table is a titled table. Every row has len(Header) cells.
type Table struct {
	Name   string   // file stem, e.g. "summary"
	Title  string   // caption
	Header []string // column names
	Align  []Align  // per column; missing entries are Left
	Rows   [][]string
	Notes  string // a line under the table (e.g. what ± means)
}

// Add appends a row; it panics when the row's width differs from the header's
// (a programming error).
func (t *Table) Add(cells ...string) {
	if len(cells) != len(t.Header) {
		panic(fmt.Sprintf("table %s: row of %d cells for %d columns", t.Name, len(cells), len(t.Header)))
	}
	t.Rows = append(t.Rows, cells)
}

func (t *Table) align(i int) Align {
	if i < len(t.Align) {
		return t.Align[i]
	}
	return Left
}

// pm separates a value from its confidence half-width in a cell.
const pm = " ± "

// WriteCSV writes the header and rows as CSV. A column whose cells hold
// "value ± half-width" becomes two numeric columns, NAME and NAME_halfwidth,
// so that spreadsheets and data frames read numbers, not text.
func (t *Table) WriteCSV(w io.Writer) error {
	split := make([]bool, len(t.Header))
	for _, row := range t.Rows {
		for i, c := range row {
			split[i] = split[i] || strings.Contains(c, pm)
		}
	}
	header := make([]string, 0, len(t.Header))
	for i, h := range t.Header {
		header = append(header, h)
		if split[i] {
			header = append(header, h+"_halfwidth")
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	out := make([]string, 0, len(header))
	for _, row := range t.Rows {
		out = out[:0]
		for i, c := range row {
			if !split[i] {
				out = append(out, c)
				continue
			}
			v, hw, _ := strings.Cut(c, pm)
			out = append(out, v, hw)
		}
		if err := cw.Write(out); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteMarkdown writes a pipe table with the title as a heading above it.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&b, "### %s\n\n", mdEscape(t.Title))
	}
	b.WriteString("|")
	for _, h := range t.Header {
		b.WriteString(" " + mdEscape(h) + " |")
	}
	b.WriteString("\n|")
	for i := range t.Header {
		if t.align(i) == Right {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + mdEscape(c) + " |")
		}
		b.WriteString("\n")
	}
	if t.Notes != "" {
		fmt.Fprintf(&b, "\n%s\n", mdEscape(t.Notes))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var texReplacer = strings.NewReplacer(
	`\`, `\textbackslash{}`, `&`, `\&`, `%`, `\%`, `$`, `\$`, `#`, `\#`, `_`, `\_`,
	`{`, `\{`, `}`, `\}`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
	"±", `$\pm$`, "−", `$-$`, "τ", `$\tau$`, "Δ", `$\Delta$`,
)

// TeXEscape escapes the LaTeX special characters of s (and maps ±, −, τ, Δ
// to math mode).
func TeXEscape(s string) string { return texReplacer.Replace(s) }

// WriteLaTeX writes a booktabs tabular inside a table float with the title
// as caption. It needs \usepackage{booktabs}.
func (t *Table) WriteLaTeX(w io.Writer) error {
	var b strings.Builder
	b.WriteString("\\begin{table}[htbp]\n\\centering\n")
	if t.Title != "" {
		fmt.Fprintf(&b, "\\caption{%s}\n", TeXEscape(t.Title))
	}
	if t.Name != "" {
		fmt.Fprintf(&b, "\\label{tab:%s}\n", strings.Map(func(r rune) rune {
			if r == '_' || r == ' ' {
				return '-'
			}
			return r
		}, t.Name))
	}
	b.WriteString("\\begin{tabular}{")
	for i := range t.Header {
		if t.align(i) == Right {
			b.WriteString("r")
		} else {
			b.WriteString("l")
		}
	}
	b.WriteString("}\n\\toprule\n")
	row := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				b.WriteString(" & ")
			}
			b.WriteString(TeXEscape(c))
		}
		b.WriteString(" \\\\\n")
	}
	row(t.Header)
	b.WriteString("\\midrule\n")
	for _, r := range t.Rows {
		row(r)
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if t.Notes != "" {
		fmt.Fprintf(&b, "\\par\\smallskip{\\footnotesize %s}\n", TeXEscape(t.Notes))
	}
	b.WriteString("\\end{table}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
