package reproduce

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schedlab/schedlab/analysis/table"
)

// Header is the table's header, as printed and written to Markdown.
var Header = []string{"#", "claim", "source", "published", "ours ± 95% CI", "n", "rel. diff", "tolerance", "verdict"}

// Table returns the rows as a table named name (the file stem), titled
// with the suite and the mode.
func Table(suite string, m Mode, rows []Row) *table.Table {
	level := 0.95
	if len(rows) > 0 && rows[0].Ours.Level > 0 {
		level = rows[0].Ours.Level
	}
	h := append([]string(nil), Header...)
	h[4] = fmt.Sprintf("ours ± %g%% CI", 100*level)
	t := &table.Table{
		Name:   m.String(),
		Title:  fmt.Sprintf("Reproduction of suite %s (%s): %s", suite, m, tally(rows)),
		Header: h,
		Align:  []table.Align{table.Right, table.Left, table.Left, table.Right, table.Right, table.Right, table.Right, table.Left, table.Left},
		Notes: fmt.Sprintf("ours: mean ± %g%% Student-t half-width over n replications (pairs for a ratio; the fewest for a ranking). "+
			"rel. diff = ours/published − 1. A tolerance holds when any of its rules does: ±x%% relative, ±k CI (the published value inside ours ± k half-widths), ±a absolute.", 100*level),
	}
	for i, r := range rows {
		t.Add(strconv.Itoa(i+1), r.Claim, r.Source, r.Published, r.OursText, nOf(r), signedPct(r.RelDiff), r.Rule, verdictText(r))
	}
	return t
}

// tally is "20 claims: 17 agree, 2 consistent but not significant, 1
// disagrees, 0 not comparable".
func tally(rows []Row) string {
	c := Counts(rows)
	verb := "disagree"
	if c.Disagree == 1 {
		verb = "disagrees"
	}
	return fmt.Sprintf("%d claims: %d agree, %d consistent but not significant, %d %s, %d not comparable", len(rows), c.Agree, c.NotSignificant, c.Disagree, verb, c.NotComparable)
}

func nOf(r Row) string {
	if r.Ours.N == 0 {
		return "–"
	}
	return strconv.Itoa(r.Ours.N)
}

func verdictText(r Row) string {
	if r.Reason == "" {
		return r.Verdict.String()
	}
	return r.Verdict.String() + " (" + r.Reason + ")"
}

// WriteText prints the table aligned in columns for a terminal, with the
// title above and the tally below.
func WriteText(w io.Writer, t *table.Table) error {
	width := make([]int, len(t.Header))
	for i, h := range t.Header {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	b.WriteString(t.Title + "\n\n")
	line := func(cells []string) {
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i < len(t.Align) && t.Align[i] == table.Right {
				b.WriteString(pad + c)
			} else if i < len(cells)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		b.WriteString("\n")
	}
	line(t.Header)
	for _, r := range t.Rows {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CSVHeader is the header of the CSV file: one column per field, numbers
// at full precision.
var CSVHeader = []string{"claim", "source", "kind", "metric", "published", "published_value", "ours", "ours_halfwidth", "level", "n", "rel_diff", "tolerance", "verdict", "reason"}

// WriteCSV writes the rows as CSV (RFC 4180) with CSVHeader: the numbers
// unrounded (shortest representation that reads back exactly; empty when
// undefined), for spreadsheets and data frames.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write([]string{r.Claim, r.Source, r.Kind, r.Metric, r.Published, fnum(r.Value),
			fnum(r.Ours.Mean), fnum(r.Ours.HalfWidth), fnum(r.Ours.Level), strconv.Itoa(r.Ours.N), fnum(r.RelDiff),
			r.Rule, r.Verdict.String(), r.Reason}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func fnum(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
