// Package table holds a simple rectangular table of text cells and writes
// it as Markdown (GitHub pipe tables), CSV (RFC 4180) and LaTeX with the
// booktabs rules (\toprule, \midrule, \bottomrule).
package table

import (
	"encoding/csv"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
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
	`<`, `$<$`, `>`, `$>$`, `|`, `$|$`,
	"±", `$\pm$`, "−", `$-$`, "–", `--`, "—", `---`, "…", `\ldots{}`, "×", `$\times$`, "·", `$\cdot$`,
	"≤", `$\le$`, "≥", `$\ge$`, "≠", `$\ne$`, "≈", `$\approx$`, "→", `$\to$`, "←", `$\leftarrow$`, "∞", `$\infty$`,
	"²", `\textsuperscript{2}`, "³", `\textsuperscript{3}`, "°", `\textdegree{}`, "§", `\S{}`, "′", `$'$`,
	"α", `$\alpha$`, "β", `$\beta$`, "γ", `$\gamma$`, "δ", `$\delta$`, "ε", `$\varepsilon$`, "λ", `$\lambda$`,
	"μ", `$\mu$`, "ρ", `$\rho$`, "σ", `$\sigma$`, "τ", `$\tau$`, "Δ", `$\Delta$`, "Σ", `$\Sigma$`,
	"R̄", `$\bar{R}$`,
)

// sciNum matches a number in exponent notation ("6.672e+06", "1e-4").
var sciNum = regexp.MustCompile(`(^|[ (])(-?[0-9]+(?:\.[0-9]+)?)e([+-]?)0*([0-9]+)\b`)

// TeXEscape escapes the LaTeX special characters of s, maps ±, −, Greek
// letters and the like to their LaTeX forms (math mode where needed), and
// writes numbers in exponent notation as $m \times 10^{k}$.
func TeXEscape(s string) string {
	s = texReplacer.Replace(s)
	return sciNum.ReplaceAllStringFunc(s, func(m string) string {
		g := sciNum.FindStringSubmatch(m)
		sign := ""
		if g[3] == "-" {
			sign = "-"
		}
		if g[2] == "1" {
			return g[1] + "$10^{" + sign + g[4] + "}$"
		}
		return g[1] + "$" + g[2] + " \\times 10^{" + sign + g[4] + "}$"
	})
}

// wideTable is the estimated width, in characters, above which a table
// spans both columns of a two-column paper (table*).
const wideTable = 60

// MaxLaTeXRows is the most data rows one LaTeX float holds. A float
// taller than the text block is clipped by LaTeX ("Float too large for
// page"), losing rows silently, and a longtable cannot be used in a
// two-column paper; so a longer table is split into consecutive floats of
// at most MaxLaTeXRows rows each (as even as possible), which share the
// table number and the caption (later ones marked "continued"). 36 rows in
// \small type, with the caption, header and notes, fit the shortest text
// block of the common classes (article, 10 pt, letter paper: 528 pt);
// scripts/latex-check.sh checks it.
const MaxLaTeXRows = 36

// LaTeXParts returns how many floats WriteLaTeX writes the table as.
func (t *Table) LaTeXParts() int {
	return max(1, (len(t.Rows)+MaxLaTeXRows-1)/MaxLaTeXRows)
}

// WriteLaTeX writes a booktabs tabular inside a table float with the title
// as caption, in \small type. A table wider than about a column of a
// two-column paper is a table* (spanning both columns), and the tabular
// is scaled down to the line width when it would still be wider. A table
// of more than MaxLaTeXRows rows is split into several floats (see
// MaxLaTeXRows): every row appears. It needs \usepackage{booktabs} and
// \usepackage{graphicx}.
func (t *Table) WriteLaTeX(w io.Writer) error {
	var b strings.Builder
	env := "table"
	if t.width() > wideTable {
		env = "table*"
	}
	parts := t.LaTeXParts()
	b.WriteString("% Needs \\usepackage{booktabs} and \\usepackage{graphicx} (\\resizebox).\n")
	if parts > 1 {
		fmt.Fprintf(&b, "%% %d rows in %d floats of at most %d rows (one float taller than the page would lose rows).\n", len(t.Rows), parts, MaxLaTeXRows)
	}
	row := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				b.WriteString(" & ")
			}
			b.WriteString(TeXEscape(c))
		}
		b.WriteString(" \\\\\n")
	}
	from := 0
	for part := 0; part < parts; part++ {
		// Even parts: the first len%parts parts take one row more.
		n := len(t.Rows) / parts
		if part < len(t.Rows)%parts {
			n++
		}
		rows := t.Rows[from : from+n]
		from += n
		fmt.Fprintf(&b, "\\begin{%s}[htbp]\n\\centering\n\\small\n", env)
		if part > 0 {
			// The same table number as the first part.
			fmt.Fprintf(&b, "\\addtocounter{table}{-1}\n")
		}
		if t.Title != "" {
			title := TeXEscape(t.Title)
			if part > 0 {
				title += fmt.Sprintf(" (continued, %d/%d)", part+1, parts)
			} else if parts > 1 {
				title += fmt.Sprintf(" (1/%d)", parts)
			}
			fmt.Fprintf(&b, "\\caption{%s}\n", title)
		}
		if t.Name != "" && part == 0 {
			fmt.Fprintf(&b, "\\label{tab:%s}\n", strings.Map(func(r rune) rune {
				if r == '_' || r == ' ' {
					return '-'
				}
				return r
			}, t.Name))
		}
		// Scale down only what is wider than the line.
		b.WriteString("\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%\n")
		b.WriteString("\\begin{tabular}{")
		for i := range t.Header {
			if t.align(i) == Right {
				b.WriteString("r")
			} else {
				b.WriteString("l")
			}
		}
		b.WriteString("}\n\\toprule\n")
		row(t.Header)
		b.WriteString("\\midrule\n")
		for _, r := range rows {
			row(r)
		}
		b.WriteString("\\bottomrule\n\\end{tabular}\n}\n")
		if t.Notes != "" && part == parts-1 {
			fmt.Fprintf(&b, "\\par\\smallskip{\\footnotesize\\raggedright %s\\par}\n", TeXEscape(t.Notes))
		}
		fmt.Fprintf(&b, "\\end{%s}\n", env)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// width estimates the printed width of the table in characters: the
// widest cell of each column plus a gap.
func (t *Table) width() int {
	ws := make([]int, len(t.Header))
	for i, h := range t.Header {
		ws[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(ws) {
				ws[i] = max(ws[i], utf8.RuneCountInString(c))
			}
		}
	}
	n := 0
	for _, w := range ws {
		n += w + 2
	}
	return n
}
