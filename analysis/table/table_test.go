package table

import (
	"bytes"
	"encoding/csv"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func sample() *Table {
	t := &Table{Name: "summary_1", Title: "Mean response & wait (95% CI)", Header: []string{"alloc_spec", "sched", "resp", "util %"}, Align: []Align{Left, Left, Right, Right}, Notes: "± is the 95% half-width"}
	t.Add("mq:by=procs,order=down,q=32", "easy", "12.5 ± 0.3", "71%")
	t.Add("count", "fcfs", "3", "a & b_c")
	t.Add(`x\y{z}`, "#1", "$5", "~^")
	return t
}

// parseBooktabs checks the structure of a booktabs tabular and returns its
// rows split on unescaped &.
func parseBooktabs(t *testing.T, tex string) [][]string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(tex), "\n")
	var rules []string
	var rows [][]string
	in := false
	cols := -1
	amp := regexp.MustCompile(`(^|[^\\])&`)
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, `\begin{tabular}{`):
			spec := strings.TrimSuffix(strings.TrimPrefix(l, `\begin{tabular}{`), "}")
			cols = len(spec)
			in = true
		case l == `\end{tabular}`:
			in = false
		case l == `\toprule`, l == `\midrule`, l == `\bottomrule`:
			rules = append(rules, l)
		case in:
			if !strings.HasSuffix(l, `\\`) {
				t.Fatalf("row without \\\\: %q", l)
			}
			body := strings.TrimSuffix(l, ` \\`)
			n := len(amp.FindAllStringIndex(body, -1)) + 1
			if n != cols {
				t.Fatalf("row %q has %d cells, column spec %d", l, n, cols)
			}
			rows = append(rows, strings.Split(body, " & "))
			if len(rules) == 0 || (len(rules) == 2 && len(rows) == 1) {
				t.Fatalf("row before \\toprule or misplaced header: %q", l)
			}
		}
	}
	if strings.Join(rules, ",") != `\toprule,\midrule,\bottomrule` {
		t.Fatalf("rules out of order: %v", rules)
	}
	return rows
}

func TestLaTeXBooktabs(t *testing.T) {
	var b bytes.Buffer
	if err := sample().WriteLaTeX(&b); err != nil {
		t.Fatal(err)
	}
	tex := b.String()
	rows := parseBooktabs(t, tex)
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	// The header is between \toprule and \midrule.
	if i, j := strings.Index(tex, `alloc\_spec`), strings.Index(tex, `\midrule`); i < 0 || i > j || i < strings.Index(tex, `\toprule`) {
		t.Error("header not between \\toprule and \\midrule")
	}
	for _, want := range []string{`util \%`, `a \& b\_c`, `12.5 $\pm$ 0.3`, `\caption{Mean response \& wait (95\% CI)}`, `\textbackslash{}y\{z\}`, `\#1`, `\$5`, `\textasciitilde{}\textasciicircum{}`, `\begin{tabular}{llrr}`} {
		if !strings.Contains(tex, want) {
			t.Errorf("missing %q in\n%s", want, tex)
		}
	}
	// A narrow table stays in one column, scaled down only if too wide.
	if !strings.Contains(tex, "\\begin{table}[htbp]") || !strings.Contains(tex, `\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%`) || !strings.HasSuffix(tex, "\\end{table}\n") {
		t.Errorf("float or scaling:\n%s", tex)
	}
	// No unescaped special characters in cells.
	for _, r := range rows {
		for _, c := range r {
			if regexp.MustCompile(`(^|[^\\])[%_#]`).MatchString(c) {
				t.Errorf("unescaped special character in %q", c)
			}
		}
	}
}

func TestCSVRoundTrip(t *testing.T) {
	var b bytes.Buffer
	tb := sample()
	if err := tb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The "resp" column holds "12.5 ± 0.3": it is split in two.
	if len(recs) != 4 || recs[1][0] != "mq:by=procs,order=down,q=32" || recs[2][4] != "a & b_c" ||
		recs[0][3] != "resp_halfwidth" || recs[1][2] != "12.5" || recs[1][3] != "0.3" {
		t.Errorf("%q", recs)
	}
}

func TestMarkdown(t *testing.T) {
	tb := &Table{Title: "T", Header: []string{"a", "b|c"}, Align: []Align{Left, Right}}
	tb.Add("x|y", "2")
	var b bytes.Buffer
	tb.WriteMarkdown(&b)
	want := "### T\n\n| a | b\\|c |\n| --- | ---: |\n| x\\|y | 2 |\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestAddWidthPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	(&Table{Header: []string{"a"}}).Add("1", "2")
}

// A "value ± half-width" column becomes two CSV columns.
func TestCSVSplitsConfidenceIntervals(t *testing.T) {
	tb := &Table{Name: "ci", Header: []string{"pair", "wait"}}
	tb.Add("count/fcfs", "12.5 ± 0.75")
	tb.Add("count/easy", "3")
	var b strings.Builder
	if err := tb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "pair,wait,wait_halfwidth\ncount/fcfs,12.5,0.75\ncount/easy,3,\n"
	if b.String() != want {
		t.Fatalf("CSV\n%s\nwant\n%s", b.String(), want)
	}
}

func TestLaTeXNumbersAndWideTables(t *testing.T) {
	for in, want := range map[string]string{
		"6.672e+06":          `$6.672 \times 10^{6}$`,
		"1e-4":               `$10^{-4}$`,
		"9.9e-04 ± 1.2e-05":  `$9.9 \times 10^{-4}$ $\pm$ $1.2 \times 10^{-5}$`,
		"exp1e5":             "exp1e5", // not a number
		"α = -10, x ≤ 3 → y": `$\alpha$ = -10, x $\le$ 3 $\to$ y`,
	} {
		if got := TeXEscape(in); got != want {
			t.Errorf("TeXEscape(%q) = %q, want %q", in, got, want)
		}
	}
	wide := &Table{Name: "w", Header: []string{"a", "b"}}
	wide.Add(strings.Repeat("x", 40), strings.Repeat("y", 30))
	var b bytes.Buffer
	if err := wide.WriteLaTeX(&b); err != nil {
		t.Fatal(err)
	}
	if tex := b.String(); !strings.Contains(tex, "\\begin{table*}[htbp]") || !strings.Contains(tex, "\\end{table*}") {
		t.Errorf("wide table not a table*:\n%s", tex)
	}
}

// TestLaTeXSplitsLongTables checks that a table longer than MaxLaTeXRows
// is written as several floats holding every row once, in order, with one
// label, one note, and captions that share the table number.
func TestLaTeXSplitsLongTables(t *testing.T) {
	for _, n := range []int{0, 1, MaxLaTeXRows, MaxLaTeXRows + 1, 168} {
		tb := &Table{Name: "long", Title: "Long", Header: []string{"i", "x"}, Notes: "the note"}
		for i := 0; i < n; i++ {
			tb.Add(strconv.Itoa(i), "v")
		}
		var b bytes.Buffer
		if err := tb.WriteLaTeX(&b); err != nil {
			t.Fatal(err)
		}
		tex := b.String()
		parts := strings.Count(tex, `\begin{table}`)
		wantParts := max(1, (n+MaxLaTeXRows-1)/MaxLaTeXRows)
		if parts != wantParts || tb.LaTeXParts() != wantParts || strings.Count(tex, `\end{table}`) != parts {
			t.Errorf("%d rows: %d floats, want %d", n, parts, wantParts)
		}
		if strings.Count(tex, `\label{tab:long}`) != 1 || strings.Count(tex, "the note") != 1 {
			t.Errorf("%d rows: label or note not written once", n)
		}
		if c := strings.Count(tex, `\addtocounter{table}{-1}`); c != parts-1 {
			t.Errorf("%d rows: %d counter resets, want %d", n, c, parts-1)
		}
		// Data rows, in order, none more than MaxLaTeXRows per float.
		next, inFloat := 0, 0
		for _, l := range strings.Split(tex, "\n") {
			switch {
			case strings.HasPrefix(l, `\begin{table}`):
				inFloat = 0
			case strings.HasSuffix(l, ` & v \\`):
				if l != strconv.Itoa(next)+` & v \\` {
					t.Fatalf("%d rows: row %q, want row %d", n, l, next)
				}
				next++
				if inFloat++; inFloat > MaxLaTeXRows {
					t.Fatalf("%d rows: a float holds more than %d rows", n, MaxLaTeXRows)
				}
			}
		}
		if next != n {
			t.Errorf("%d rows: %d written", n, next)
		}
	}
}
