package reproduce

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/stats"
)

// sampleRows are one row of each verdict and kind.
func sampleRows() []Row {
	nan := math.NaN()
	tol := &Tolerance{Rel: 0.05, CI: 3}
	return []Row{
		{Claim: "M/M/1 mean wait, ρ = 0.5", Source: "theory", Kind: "value", Metric: "mean_wait", Published: "1", Value: 1,
			Ours: stats.CI{Mean: 1.01, HalfWidth: 0.02, N: 10, Level: 0.95}, OursText: "1.01 ± 0.02", RelDiff: 0.01, Rule: tol.String(), Tolerance: tol, Verdict: Agrees, Reason: "within ±5%, ±3 CI"},
		{Claim: "off", Source: "paper, Table 2", Kind: "value", Metric: "mean_bsld", Published: "4", Value: 4,
			Ours: stats.CI{Mean: 5, HalfWidth: 0.1, N: 5, Level: 0.95}, OursText: "5 ± 0.1", RelDiff: 0.25, Rule: tol.String(), Tolerance: tol, Verdict: Disagrees, Reason: "+25% beyond ±5%; 10 CI half-widths off > 3"},
		{Claim: "missing", Source: "paper", Kind: "value", Metric: "mean_wait", Published: "3", Value: 3,
			Ours: stats.CI{Mean: nan, HalfWidth: nan, Level: 0.95}, RelDiff: nan, Rule: tol.String(), Tolerance: tol, Verdict: NotComparable, Reason: "no matching cells (trace=x-*)"},
		{Claim: "near zero", Source: "theory", Kind: "value", Metric: "mean_wait", Published: "2e-14", Value: 2e-14,
			Ours: stats.CI{Mean: 0, HalfWidth: 0, N: 10, Level: 0.95}, OursText: "0 ± 0", RelDiff: -1, Rule: "±1e-06", Tolerance: &Tolerance{Abs: 1e-6}, Verdict: Agrees, Reason: "within ±1e-06"},
		{Claim: "ranking", Source: "theory", Kind: "ranking", Metric: "mean_wait", Published: "a < b", Value: nan,
			Ours: stats.CI{Mean: nan, HalfWidth: nan, N: 10, Level: 0.95}, OursText: "1 < 2", RelDiff: nan, Verdict: Agrees, Reason: "CIs apart"},
	}
}

func TestTable(t *testing.T) {
	tb := Table("s", Quick, sampleRows())
	if tb.Title != "Reproduction of suite s (quick): 5 claims: 3 agree, 0 consistent but not significant, 1 disagrees, 1 not comparable" {
		t.Errorf("title %q", tb.Title)
	}
	want := [][]string{
		{"1", "M/M/1 mean wait, ρ = 0.5", "theory", "1", "1.01 ± 0.02", "10", "+1%", "±5% or ±3 CI", "agrees (within ±5%, ±3 CI)"},
		{"2", "off", "paper, Table 2", "4", "5 ± 0.1", "5", "+25%", "±5% or ±3 CI", "disagrees (+25% beyond ±5%; 10 CI half-widths off > 3)"},
		{"3", "missing", "paper", "3", "", "–", "–", "±5% or ±3 CI", "not comparable (no matching cells (trace=x-*))"},
		{"4", "near zero", "theory", "2e-14", "0 ± 0", "10", "-100%", "±1e-06", "agrees (within ±1e-06)"},
		{"5", "ranking", "theory", "a < b", "1 < 2", "10", "–", "", "agrees (CIs apart)"},
	}
	for i, r := range tb.Rows {
		if strings.Join(r, "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d:\n got %q\nwant %q", i+1, r, want[i])
		}
	}
	var b bytes.Buffer
	if err := WriteText(&b, tb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 2+1+5 || lines[0] != tb.Title {
		t.Fatalf("text table:\n%s", b.String())
	}
	// Right-aligned columns line up: ours ends where the header's "CI" ends.
	end := runeIndex(lines[2], strings.Index(lines[2], "CI")+len("CI"))
	for i, l := range lines[3:] {
		if i == 2 {
			continue // no ours
		}
		if r := []rune(l); r[end-1] == ' ' || r[end] != ' ' {
			t.Errorf("misaligned: %q", l)
		}
	}
	if !strings.Contains(lines[3], "1.01 ± 0.02  10") || !strings.Contains(lines[6], "  0 ± 0  10") {
		t.Errorf("right-aligned numbers:\n%s", b.String())
	}
}

// runeIndex converts a byte offset of s to a rune offset.
func runeIndex(s string, byteOff int) int { return len([]rune(s[:byteOff])) }

func TestWriteCSV(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, sampleRows()); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != strings.Join(CSVHeader, ",") || len(recs) != 6 {
		t.Fatalf("csv %q", recs)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, tc := range []struct {
		row       int
		key, want string
	}{
		{1, "ours", "1.01"}, {1, "ours_halfwidth", "0.02"}, {1, "n", "10"}, {1, "verdict", "agrees"}, {1, "rel_diff", "0.01"},
		{3, "ours", ""}, {3, "rel_diff", ""}, {3, "verdict", "not comparable"}, {3, "reason", "no matching cells (trace=x-*)"},
		{4, "published_value", "2e-14"}, {5, "published", "a < b"}, {5, "published_value", ""},
	} {
		if got := recs[tc.row][col[tc.key]]; got != tc.want {
			t.Errorf("row %d %s = %q, want %q", tc.row, tc.key, got, tc.want)
		}
	}
}

// Write writes the three files; the PDF is byte-identical for the same
// rows, and its figure leaves out what cannot be drawn.
func TestWrite(t *testing.T) {
	info := Info{Suite: "s", Description: "a suite, ρ = 0.5", Mode: Full, Data: "results/s", Lines: [][2]string{{"Run", "test"}}}
	var pdfs [][]byte
	for range 2 {
		dir := filepath.Join(t.TempDir(), "out")
		if err := Write(dir, info, sampleRows()); err != nil {
			t.Fatal(err)
		}
		md, csvPath, pdf := Files(dir, Full)
		if filepath.Base(md) != "full.md" || filepath.Base(csvPath) != "full.csv" || filepath.Base(pdf) != "full.pdf" {
			t.Errorf("files %s %s %s", md, csvPath, pdf)
		}
		m, err := os.ReadFile(md)
		if err != nil || !strings.Contains(string(m), "| 2 | off | paper, Table 2 |") {
			t.Errorf("markdown: %v\n%s", err, m)
		}
		p, err := os.ReadFile(pdf)
		if err != nil || !bytes.HasPrefix(p, []byte("%PDF")) {
			t.Fatalf("pdf: %v", err)
		}
		pdfs = append(pdfs, p)
	}
	if !bytes.Equal(pdfs[0], pdfs[1]) {
		t.Error("the PDF differs between two writes of the same rows")
	}
	fig := Figure(info, sampleRows())
	if fig.Note != "Not drawn: 3, 4 (published ~ 0), 5." {
		t.Errorf("figure note %q", fig.Note)
	}
}

func TestPDFText(t *testing.T) {
	tb := pdfTable(Table("s", Quick, sampleRows()[:1]))
	if got := tb.Rows[0][1]; got != "M/M/1 mean wait, rho = 0.5" {
		t.Errorf("pdf cell %q", got)
	}
}
