package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

func writeFixture(t testing.TB, s fixture.Spec) string {
	t.Helper()
	dir := t.TempDir()
	if err := results.WriteDir(dir, fixture.Build(s)); err != nil {
		t.Fatal(err)
	}
	return dir
}

var sweepSpec = fixture.Spec{Procs: 32, Jobs: 150, Loads: []float64{0.3, 0.5, 0.7, 0.9}, Reps: 3, Pairs: 5, Seed: 11, Series: true}

func TestGenerateSweepDeterministic(t *testing.T) {
	in := writeFixture(t, sweepSpec)
	out := t.TempDir()
	base := fixture.PairName(0)
	opts := Options{In: in, Out: filepath.Join(out, "a.pdf"), FiguresDir: filepath.Join(out, "fig"), Formats: []string{"svg", "pdf", "eps"}, TablesDir: filepath.Join(out, "tab"), Baseline: base.Alloc + "/" + base.Sched, Quiet: true}
	if err := Generate(opts); err != nil {
		t.Fatal(err)
	}
	opts.Out = filepath.Join(out, "b.pdf")
	opts.FiguresDir, opts.TablesDir = filepath.Join(out, "fig2"), ""
	if err := Generate(opts); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(out, "a.pdf"))
	b, _ := os.ReadFile(filepath.Join(out, "b.pdf"))
	if len(a) < 10000 || !bytes.Equal(a, b) {
		t.Fatalf("PDF not byte-identical across runs (%d vs %d bytes)", len(a), len(b))
	}
	if !bytes.HasPrefix(a, []byte("%PDF-")) || !bytes.Contains(a, []byte("/CreationDate (D:20000101000000)")) {
		t.Error("PDF header or fixed creation date missing")
	}
	if !bytes.Contains(a, []byte("/FontFile2")) {
		t.Error("fonts not embedded")
	}
	// Every figure in three formats at two widths, identical across runs,
	// and their captions.
	figs, _ := filepath.Glob(filepath.Join(out, "fig", "*-*.*"))
	if len(figs) == 0 || len(figs)%6 != 0 {
		t.Fatalf("%d figure files", len(figs))
	}
	for _, want := range []string{"exp1-mean_response-vs-load-col.svg", "exp1-mean_response-vs-load-page.pdf", "exp1-cdf-wait-load0.9-col.pdf", "exp1-occupancy-load0.9-page.eps", "exp1-baseline-col.svg", "captions.md"} {
		if _, err := os.Stat(filepath.Join(out, "fig", want)); err != nil {
			t.Errorf("missing figure %s", want)
		}
	}
	col, _ := os.ReadFile(filepath.Join(out, "fig", "exp1-mean_response-vs-load-col.pdf"))
	if !bytes.Contains(col, []byte("/FontFile2")) || !bytes.Contains(col, []byte("/MediaBox [0 0 252.00")) {
		t.Errorf("column-width PDF: fonts not embedded or not 3.5 in wide (%d bytes)", len(col))
	}
	capt, _ := os.ReadFile(filepath.Join(out, "fig", "captions.md"))
	if !strings.Contains(string(capt), "## exp1-mean_response-vs-load\n\nMean response time vs offered load: ") {
		t.Errorf("captions.md: %.300s", capt)
	}
	for _, f := range figs {
		if strings.HasSuffix(f, ".svg") || strings.HasSuffix(f, ".pdf") {
			x, _ := os.ReadFile(f)
			y, _ := os.ReadFile(filepath.Join(out, "fig2", filepath.Base(f)))
			if !bytes.Equal(x, y) {
				t.Errorf("%s differs between runs", filepath.Base(f))
			}
		}
	}
	// Tables: Markdown, CSV and LaTeX for each.
	for _, name := range []string{"traces", "exp1-summary", "exp1-baseline", "exp1-percentiles-1", "exp1-percentiles-2", "exp1-percentiles-3"} {
		for _, ext := range []string{"md", "csv", "tex"} {
			if _, err := os.Stat(filepath.Join(out, "tab", name+"."+ext)); err != nil {
				t.Errorf("missing table %s.%s", name, ext)
			}
		}
	}
	f, _ := os.Open(filepath.Join(out, "tab", "exp1-summary.csv"))
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// 5 pairs × 4 loads, 3 reps of 150 jobs each.
	if len(recs) != 1+5*4 || recs[0][0] != "alloc" || recs[1][3] != "3" || recs[1][4] != "450" {
		t.Errorf("summary CSV: %q", recs[:2])
	}
	// The percentiles of bounded slowdown: 4 columns, each ≥ 1 and in
	// increasing order.
	pf, _ := os.Open(filepath.Join(out, "tab", "exp1-percentiles-3.csv"))
	defer pf.Close()
	prec, err := csv.NewReader(pf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(prec) != 1+5*4 || prec[0][4] != "p50 bsld" {
		t.Errorf("percentile CSV: %q", prec[:1])
	}
	for _, r := range prec[1:] {
		prev := 1.0
		for k := 4; k < len(r); k += 2 {
			v, err := strconv.ParseFloat(r[k], 64)
			if err != nil || v < prev {
				t.Errorf("percentile row %q: %s not ≥ %g", r, r[k], prev)
			}
			prev = v
		}
	}
	tex, _ := os.ReadFile(filepath.Join(out, "tab", "exp1-summary.tex"))
	// The CSV splits each "mean ± half-width" column in two; the LaTeX
	// table keeps one column per metric.
	cols := 0
	for _, h := range recs[0] {
		if !strings.HasSuffix(h, "_halfwidth") {
			cols++
		}
	}
	checkBooktabs(t, string(tex), cols)
}

// checkBooktabs checks that every row of the tabular has cols cells and the
// rules come in order.
func checkBooktabs(t *testing.T, tex string, cols int) {
	t.Helper()
	var rules []string
	rows := 0
	in := false
	for _, l := range strings.Split(tex, "\n") {
		switch {
		case strings.HasPrefix(l, `\begin{tabular}`):
			in = true
		case l == `\end{tabular}`:
			in = false
		case l == `\toprule` || l == `\midrule` || l == `\bottomrule`:
			rules = append(rules, l)
		case in:
			n := strings.Count(strings.ReplaceAll(l, `\&`, ""), "&") + 1
			if n != cols {
				t.Fatalf("row %q: %d cells, want %d", l, n, cols)
			}
			rows++
		}
	}
	if strings.Join(rules, " ") != `\toprule \midrule \bottomrule` || rows < 2 {
		t.Errorf("booktabs structure: rules %v, %d rows", rules, rows)
	}
}

func pagesOf(t *testing.T, set *results.Set, opts Options) (*Context, []Page) {
	t.Helper()
	ctx, err := NewContext(set, opts)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := ctx.Pages()
	if err != nil {
		t.Fatal(err)
	}
	return ctx, pages
}

func figureNames(pages []Page) []string {
	var out []string
	for _, p := range pages {
		if n, ok := p.(Named); ok {
			out = append(out, n.FigureName())
		}
	}
	return out
}

func countPrefix(names []string, prefix string) int {
	n := 0
	for _, s := range names {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

func TestPageSetAdaptsToData(t *testing.T) {
	full := fixture.Build(sweepSpec)
	_, pages := pagesOf(t, full, Options{})
	names := figureNames(pages)
	// One curve figure per metric (5 pairs fit in one chunk).
	if got := countPrefix(names, "exp1-mean_response-vs-load"); got != 1 {
		t.Errorf("%d mean response curves", got)
	}
	if countPrefix(names, "exp1-cdf-") != 2 || countPrefix(names, "exp1-utilization-time") != 1 || countPrefix(names, "exp1-occupancy") != 1 {
		t.Errorf("figures: %v", names)
	}
	// Without jobs and series: no CDF, series, size-class or occupancy pages.
	bare := *full
	bare.Jobs, bare.Series = nil, nil
	_, pages = pagesOf(t, &bare, Options{})
	names = figureNames(pages)
	for _, p := range []string{"exp1-cdf", "exp1-utilization-time", "exp1-size", "exp1-occupancy"} {
		if countPrefix(names, p) != 0 {
			t.Errorf("%s pages without jobs/series", p)
		}
	}
	if countPrefix(names, "exp1-mean_wait-vs-load") != 1 {
		t.Error("curves missing")
	}
	// Without loads: per-pair bars per trace, no curves.
	nl := fixture.Build(fixture.Spec{Procs: 16, Jobs: 30, Reps: 2, Pairs: 3, Seed: 2, Real: true})
	ctx, pages := pagesOf(t, nl, Options{})
	names = figureNames(pages)
	if countPrefix(names, "exp1-mean_response-syn-r0") != 1 || countPrefix(names, "exp1-mean_response-vs-load") != 0 {
		t.Errorf("no-load figures: %v", names)
	}
	if ctx.TimeUnit != "s" {
		t.Errorf("unit %q", ctx.TimeUnit)
	}
	// Many pairs: the main figure and appendix groups of at most plot.MaxCurves.
	many := fixture.Build(fixture.Spec{Procs: 16, Jobs: 10, Loads: []float64{0.5, 0.8}, Reps: 1, Pairs: 45, Seed: 2})
	many.Jobs, many.Series = nil, nil
	_, pages = pagesOf(t, many, Options{})
	// 45 pairs: one main figure of 6, the other 39 in 7 appendix groups.
	if got := countPrefix(figureNames(pages), "exp1-mean_response-vs-load"); got != 8 {
		t.Errorf("45 pairs: %d curve figures, want 8", got)
	}
	inApp := false
	for i, p := range pages {
		if tp, ok := p.(*TextPage); ok && strings.HasPrefix(tp.Title, "Appendix") {
			inApp = true
		}
		n, ok := p.(Named)
		if !ok {
			continue
		}
		if len(n.Figure().Legend) > plot.MaxCurves {
			t.Errorf("%s: %d legend entries", n.FigureName(), len(n.Figure().Legend))
		}
		if app := strings.Contains(n.FigureName(), "-a"); app != inApp || app != p.(*FigurePage).Appendix {
			t.Errorf("page %d %s: appendix %v, after the appendix page %v", i, n.FigureName(), p.(*FigurePage).Appendix, inApp)
		}
	}
}

// A pair has one style in every figure of its experiment, and the curves
// of one figure differ in colour, marker and hatch.
func TestStylesConsistentAcrossFigures(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 32, Jobs: 60, Loads: []float64{0.3, 0.9}, Reps: 2, Pairs: 14, Seed: 3, Series: true})
	ctx, pages := pagesOf(t, set, Options{})
	e := &ctx.Experiments[0]
	for _, p := range pages {
		n, ok := p.(Named)
		if !ok {
			continue
		}
		type key struct {
			c any
			s any
			h plot.Hatch
		}
		seen := map[key]bool{}
		for _, en := range n.Figure().Legend {
			pair, err := results.ParsePair(strings.Replace(en.Label, " / ", "/", 1))
			if err != nil {
				continue
			}
			want := ctx.StyleIn(e, pair)
			if en.Style.Color != want.Color || en.Style.Shape != want.Shape || len(en.Style.Dashes) != len(want.Dashes) {
				t.Fatalf("%s: pair %s drawn with another style", n.FigureName(), pair)
			}
			k := key{en.Style.Color, en.Style.Shape, en.Style.Hatch}
			if seen[k] {
				t.Fatalf("%s: two curves drawn alike", n.FigureName())
			}
			seen[k] = true
		}
	}
}

func TestBaselineAndWindowOptions(t *testing.T) {
	set := fixture.Build(sweepSpec)
	if _, err := NewContext(set, Options{Baseline: "nosuch/fcfs"}); err == nil || !strings.Contains(err.Error(), "nosuch/fcfs") {
		t.Errorf("unknown baseline: %v", err)
	}
	if _, err := NewContext(set, Options{Baseline: "nosched"}); err == nil {
		t.Error("malformed baseline accepted")
	}
	if _, err := NewContext(set, Options{Level: 1.5}); err == nil {
		t.Error("level 1.5 accepted")
	}
	_, pages := pagesOf(t, set, Options{Window: Window{Start: 100, End: 200}})
	for _, p := range pages {
		if n, ok := p.(Named); ok && strings.HasPrefix(n.FigureName(), "exp1-occupancy") {
			pl := n.Figure().Plot
			if pl.X.Min != 100 || pl.X.Max != 200 {
				t.Errorf("window [%v, %v]", pl.X.Min, pl.X.Max)
			}
			return
		}
	}
	t.Error("no occupancy figure")
}

func TestBadPlacementColumn(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 20, Reps: 1, Pairs: 1, Seed: 2})
	for i := range set.Jobs {
		set.Jobs[i].Placement = []schema.Piece{{X: 12, W: 8, H: 1}} // beyond processor 15
	}
	ctx, err := NewContext(set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ctx.Pages(); err == nil || !strings.Contains(err.Error(), `"placement"`) || !strings.Contains(err.Error(), "jobs.parquet") || !strings.Contains(err.Error(), "flat:16") {
		t.Errorf("bad placement: %v", err)
	}
}

// The stacked occupancy chart (no processor identities) stacks exactly
// the running jobs' processors, without overlap, at every instant.
func TestStackedOccupancy(t *testing.T) {
	js := []results.Job{
		{JobID: 1, Start: 0, End: 10, AllocProcs: 4},
		{JobID: 2, Start: 2, End: 5, AllocProcs: 3},
		{JobID: 3, Start: 5, End: 12, AllocProcs: 2},
	}
	rs := stacked(js, Window{Start: 1, End: 11})
	for _, probe := range []struct{ t, want float64 }{{1.5, 4}, {3, 7}, {6, 6}, {10.5, 2}} {
		var h float64
		var spans [][2]float64
		for _, r := range rs {
			if r.T0 <= probe.t && probe.t < r.T1 {
				h += r.Hi - r.Lo + 1
				spans = append(spans, [2]float64{r.Lo, r.Hi})
			}
		}
		if h != probe.want {
			t.Errorf("t=%v: %v processors stacked, want %v", probe.t, h, probe.want)
		}
		for i := range spans {
			for j := i + 1; j < len(spans); j++ {
				if spans[i][0] <= spans[j][1] && spans[j][0] <= spans[i][1] {
					t.Errorf("t=%v: overlapping %v %v", probe.t, spans[i], spans[j])
				}
			}
		}
	}
}

func TestRegistryExtension(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 20, Loads: []float64{0.5, 0.8}, Reps: 1, Pairs: 2, Seed: 2})
	_, before := pagesOf(t, set, Options{})
	Register(Builder{Name: "test-mesh-map", Order: 45, Scope: PerExperiment,
		Applies: func(_ *Context, e *results.Experiment) bool { return strings.HasPrefix(e.Machine, "mesh:") },
		Build: func(*Context, *results.Experiment, int) ([]Page, error) {
			return []Page{&TextPage{Title: "mesh"}}, nil
		}})
	Register(Builder{Name: "test-extra", Order: 45, Scope: PerExperiment,
		Build: func(*Context, *results.Experiment, int) ([]Page, error) {
			return []Page{&TextPage{Title: "extra"}}, nil
		}})
	defer func() {
		var keep []Builder
		for _, b := range builders {
			if !strings.HasPrefix(b.Name, "test-") {
				keep = append(keep, b)
			}
		}
		builders = keep
	}()
	_, after := pagesOf(t, set, Options{})
	if len(after) != len(before)+1 {
		t.Fatalf("%d pages, want %d", len(after), len(before)+1)
	}
	// The extra page sits between size classes (40) and occupancy (50).
	for i, p := range after {
		if tp, ok := p.(*TextPage); ok && tp.Title == "extra" {
			next, ok := after[i+1].(Named)
			if !ok || !strings.Contains(next.FigureName(), "occupancy") {
				t.Errorf("extra page not before the occupancy chart")
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("duplicate name accepted")
		}
	}()
	Register(Builder{Name: "title"})
}

func TestTablePagination(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 5, Loads: []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95}, Reps: 1, Pairs: 12, Seed: 2})
	e := set.Experiments()[0]
	pages, err := buildSummaryTable(&Context{Set: set, Level: 0.95, TimeUnit: "time units"}, &e, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 2 {
		t.Fatalf("120 rows on %d page(s)", len(pages))
	}
	seen := 0
	for i, p := range pages {
		tp := p.(*TablePage)
		if tp.Lo != seen || tp.Part != i+1 || tp.Parts != len(pages) || tp.First() != (i == 0) {
			t.Errorf("page %d: %+v", i, tp)
		}
		seen = tp.Hi
		// Rows fit: the last row's baseline stays above the bottom margin.
		fs, _ := tableLayout(tp.Table, PageWidth-2*Margin)
		used := float64((tp.Hi - tp.Lo + 2)) * fs * 1.45
		if used > float64(PageHeight-2*Margin-3*titleFont) {
			t.Errorf("page %d overflows: %v pt", i, used)
		}
	}
	if seen != 120 {
		t.Errorf("rows covered: %d", seen)
	}
}

func TestFmt(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 1234.5: "1234.5", 0.12345: "0.1235", 2.5e7: "2.500e+07", math.Inf(1): "+Inf"} {
		if got := fmtNum(v); got != want {
			t.Errorf("fmtNum(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestPagesDrawWithoutPanic(t *testing.T) {
	// Draw every page of a no-series, real-log, few-trace set on an
	// in-memory canvas (exercises the horizontal bars and log-x CDFs).
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 40, Reps: 2, Pairs: 3, Seed: 5, Real: true})
	_, pages := pagesOf(t, set, Options{})
	c := plot.NewPDF(PageWidth, PageHeight)
	for _, p := range pages {
		p.Draw(draw.New(c))
		c.NextPage()
	}
}

// TestCurveNoteUnevenReplications: when the loads have different numbers
// of replications (one run lost), the curve note says so rather than
// claiming the largest number for every point.
func TestCurveNoteUnevenReplications(t *testing.T) {
	set := fixture.Build(sweepSpec)
	var kept []results.Summary
	for _, r := range set.Summary {
		if r.Load == 0.9 && r.Rep == 2 {
			continue
		}
		kept = append(kept, r)
	}
	set.Summary = kept
	set.Jobs, set.Series = nil, nil
	_, pages := pagesOf(t, set, Options{})
	for _, p := range pages {
		n, ok := p.(Named)
		if !ok || !strings.HasPrefix(n.FigureName(), "exp1-mean_response-vs-load") {
			continue
		}
		if note := n.Figure().Note; !strings.Contains(note, "across 2 to 3 replications") {
			t.Errorf("note %q", note)
		}
		return
	}
	t.Fatal("no mean response curve")
}

// TestCurveNoteUndrawnPoints: a point whose mean is +Inf (power when no
// job waited) cannot be drawn; the figure note says how many are missing.
func TestCurveNoteUndrawnPoints(t *testing.T) {
	set := fixture.Build(sweepSpec)
	set.Jobs, set.Series = nil, nil
	for i := range set.Summary {
		if set.Summary[i].Load == 0.3 && set.Summary[i].Rep == 0 {
			set.Summary[i].Power = math.Inf(1)
		}
	}
	_, pages := pagesOf(t, set, Options{})
	for _, p := range pages {
		if n, ok := p.(Named); ok && strings.HasPrefix(n.FigureName(), "exp1-power-vs-load") {
			if note := n.Figure().Note; !strings.Contains(note, "5 point(s) with an infinite") {
				t.Errorf("note %q", note)
			}
			return
		}
	}
	t.Fatal("no power curve")
}

// TestNegativeJobNumbers: SWF job numbers may be negative (-1 is "unknown"
// in SWF); the occupancy chart shades rectangles by job number and used to
// index its shade table with a negative index and panic.
func TestNegativeJobNumbers(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 30, Reps: 1, Pairs: 2, Seed: 4, Real: true})
	for i := range set.Jobs {
		set.Jobs[i].JobID = -1 - int64(i%5)
	}
	_, pages := pagesOf(t, set, Options{})
	c := plot.NewPDF(PageWidth, PageHeight)
	drawn := 0
	for _, p := range pages {
		if n, ok := p.(Named); ok && strings.Contains(n.FigureName(), "occupancy") {
			p.Draw(draw.New(c))
			drawn++
		}
	}
	if drawn == 0 {
		t.Fatal("no occupancy chart")
	}
}

// noJobs turns a fixture's runs into runs that counted no job: every job
// rejected (no job rows) or filtered out of the statistics (job rows kept).
func noJobs(set *results.Set, filtered bool, keep func(*results.Summary) bool) {
	nan := math.NaN()
	for i := range set.Summary {
		r := &set.Summary[i]
		if keep != nil && keep(r) {
			continue
		}
		n := r.Jobs
		r.Jobs, r.MeanResponse, r.SDResponse, r.MeanWait, r.MaxWait, r.MeanSlowdown, r.MeanBSLD, r.MeanRun, r.Power = 0, nan, nan, nan, nan, nan, nan, nan, nan
		if filtered {
			r.Filtered = n
			continue
		}
		r.Rejected, r.Utilization, r.Throughput, r.MeanQueue, r.Makespan, r.MaxQueue = n, 0, 0, 0, 0, 0
	}
	if !filtered && keep == nil {
		set.Jobs, set.Series = []results.Job{}, []results.Series{}
	}
}

// TestNoJobCountedWarns: a results set whose runs counted no job (every job
// rejected or filtered, or empty traces) has only NaN statistics; the
// report says so in one line of its log and in the PDF, and shows a note
// instead of empty plots and NaN tables.
func TestNoJobCountedWarns(t *testing.T) {
	spec := fixture.Spec{Procs: 16, Jobs: 20, Loads: []float64{0.5, 0.8}, Reps: 2, Pairs: 2, Seed: 1, Series: true}
	for _, tc := range []struct {
		name     string
		filtered bool
		keep     func(*results.Summary) bool
		want     string
	}{
		{"rejected", false, nil, "8 of 8 runs counted no job"},
		{"filtered", true, nil, "8 of 8 runs counted no job"},
		{"some", false, func(r *results.Summary) bool { return r.Load != 0.8 || r.Rep != 1 }, "2 of 8 runs counted no job"},
		{"empty", false, nil, "empty traces: syn-l00-r0, syn-l00-r1, syn-l01-r0, ..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := fixture.Build(spec)
			noJobs(set, tc.filtered, tc.keep)
			if tc.name == "empty" {
				for i := range set.Traces {
					set.Traces[i].Jobs = 0
				}
				for i := range set.Summary {
					set.Summary[i].Rejected = 0
				}
			}
			dir := t.TempDir()
			if err := results.WriteDir(dir, set); err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			out := filepath.Join(t.TempDir(), "r.pdf")
			if err := Generate(Options{In: dir, Out: out, Quiet: true, Log: &log}); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], "warning") || !strings.Contains(lines[0], tc.want) {
				t.Errorf("log %q, want one warning line with %q", log.String(), tc.want)
			}
			_, pages := pagesOf(t, set, Options{})
			noted, figures := false, 0
			for _, p := range pages {
				if tp, ok := p.(*TextPage); ok {
					for _, l := range tp.Lines {
						noted = noted || strings.Contains(l[1], tc.want)
					}
				}
				if _, ok := p.(Named); ok {
					figures++
				}
			}
			if !noted {
				t.Error("no note in the PDF")
			}
			if tc.keep == nil && figures > 0 {
				t.Errorf("%d figures drawn from runs without a counted job", figures)
			}
			if tc.keep != nil && figures == 0 {
				t.Error("no figures for the runs that counted jobs")
			}
			log.Reset()
			if err := Compare(CompareOptions{A: dir, B: dir, Quiet: true, Log: &log}); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(log.String(), "report compare: warning: "); n != 2 || !strings.Contains(log.String(), tc.want) {
				t.Errorf("compare log %q", log.String())
			}
		})
	}
}

// Placements on a mesh are expanded to node numbers (y*W+x) for the
// allocation-quality and occupancy pages, whose notes say so.
func TestMeshPlacement(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 32, Jobs: 30, Loads: []float64{0.5, 0.8}, Reps: 1, Pairs: 1, Seed: 3})
	for i := range set.Summary {
		set.Summary[i].Machine = "mesh:8x4"
	}
	for i := range set.Jobs {
		j := &set.Jobs[i]
		j.Machine = "mesh:8x4"
		j.Placement = []schema.Piece{schema.Piece(policy.Rect(i%7, i%3, 2, 2))} // nodes y*8+x: two runs of 2
	}
	_, pages := pagesOf(t, set, Options{})
	var found bool
	for _, p := range pages {
		n, ok := p.(Named)
		if !ok || !strings.Contains(n.FigureName(), "dispersion") {
			continue
		}
		found = true
		if !strings.Contains(n.Figure().Note, "On mesh:8x4, blocks are runs of consecutive node numbers") {
			t.Errorf("note %q", n.Figure().Note)
		}
	}
	if !found {
		t.Error("no allocation-quality page")
	}
	ctx, _ := NewContext(set, Options{})
	v, err := rowAllocValues(ctx, &set.Summary[0])
	if err != nil || v["dispersion"] != 2 {
		t.Errorf("dispersion of 2x2 submeshes on an 8-wide mesh: %v %v, want 2", v, err)
	}
}

// TestLaTeXKeepsEveryRow checks that every exported LaTeX table holds all
// its rows (a table longer than a page is split into floats, not
// clipped): the data rows of each .tex equal its CSV's, and the summary
// table has one row per pair and load.
func TestLaTeXKeepsEveryRow(t *testing.T) {
	spec := sweepSpec
	spec.Pairs, spec.Reps, spec.Series = 12, 2, false
	in := writeFixture(t, spec)
	dir := t.TempDir()
	if err := Generate(Options{In: in, TablesDir: dir, Quiet: true}); err != nil {
		t.Fatal(err)
	}
	texs, _ := filepath.Glob(filepath.Join(dir, "*.tex"))
	if len(texs) == 0 {
		t.Fatal("no tables")
	}
	for _, f := range texs {
		tex, _ := os.ReadFile(f)
		c, _ := os.Open(strings.TrimSuffix(f, ".tex") + ".csv")
		recs, err := csv.NewReader(c).ReadAll()
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := texDataRows(string(tex)); got != len(recs)-1 {
			t.Errorf("%s: %d LaTeX rows, %d CSV rows", filepath.Base(f), got, len(recs)-1)
		}
		if filepath.Base(f) == "exp1-summary.tex" {
			if want := 12 * len(spec.Loads); len(recs)-1 != want || !strings.Contains(string(tex), "(continued, 2/2)") {
				t.Errorf("summary: %d rows, want %d in two floats", len(recs)-1, want)
			}
		}
	}
}

// texDataRows counts the data rows of the tabulars of tex (the rows
// between \midrule and \bottomrule).
func texDataRows(tex string) int {
	n, in := 0, false
	for _, l := range strings.Split(tex, "\n") {
		switch l {
		case `\midrule`:
			in = true
		case `\bottomrule`:
			in = false
		default:
			if in && strings.HasSuffix(l, `\\`) {
				n++
			}
		}
	}
	return n
}

// TestShapingOptions checks the options that shape a report for a paper:
// --label renames a pair in the figures, --metrics keeps the metric
// figures to those named, --appendix=false drops the appendix, the PDF
// has an outline and a contents page, and the terminal summary shows the
// top pairs with a pointer to the PDF.
func TestShapingOptions(t *testing.T) {
	in := writeFixture(t, fixture.Spec{Procs: 32, Jobs: 80, Loads: []float64{0.4, 0.8}, Reps: 2, Pairs: 14, Seed: 5})
	set, err := results.Load(in)
	if err != nil {
		t.Fatal(err)
	}
	easy := fixture.PairName(1)
	full, fullPages := pagesOf(t, set, Options{})
	ctx, pages := pagesOf(t, set, Options{Labels: map[results.Pair]string{easy: "EASY"}, Metrics: []string{"mean_wait"}, NoAppendix: true, Pairs: []results.Pair{easy}})
	names := figureNames(pages)
	if countPrefix(names, "exp1-mean_wait-vs-load") != 1 || countPrefix(names, "exp1-mean_response-vs-load") != 0 || countPrefix(names, "exp1-grid-mean_wait") != 1 || countPrefix(names, "exp1-grid-") != 1 {
		t.Errorf("--metrics mean_wait: figures %v", names)
	}
	if countPrefix(figureNames(fullPages), "exp1-mean_response-vs-load-a") == 0 || countPrefix(names, "exp1-mean_wait-vs-load-a") != 0 || len(pages) >= len(fullPages) {
		t.Errorf("--appendix=false: %d pages (%d with the appendix): %v", len(pages), len(fullPages), names)
	}
	if l := legendLabels(figureNamed(t, pages, "exp1-mean_wait-vs-load")); !slices.Contains(l, "EASY") || slices.Contains(l, easy.String()) {
		t.Errorf("--label: legend %v", l)
	}
	figureNamed(t, pages, "exp1-grid-mean_wait") // a heat map: 4 allocators × 4 schedulers
	// Contents: one page after the title page, listing every section at
	// its page.
	var contents *TextPage
	for i, p := range pages {
		if tp, ok := p.(*TextPage); ok && tp.Title == "Contents" {
			contents = tp
			if !slices.ContainsFunc(ctx.Sections, func(s Section) bool { return s.Title == "Contents" && s.Page == i }) {
				t.Errorf("contents at page %d, sections %v", i, ctx.Sections)
			}
		}
	}
	if contents == nil || len(contents.Lines) != len(ctx.Sections) {
		t.Fatalf("contents page: %+v, sections %v", contents, ctx.Sections)
	}
	for _, s := range ctx.Sections {
		if s.Page < 0 || s.Page >= len(pages) {
			t.Errorf("section %v outside the %d pages", s, len(pages))
		}
		if s.Title == "Appendix: the other policy pairs" {
			t.Error("appendix section without an appendix")
		}
	}
	if !slices.ContainsFunc(full.Sections, func(s Section) bool { return s.Title == "Appendix: the other policy pairs" }) {
		t.Error("no appendix section in the full report")
	}
	out := filepath.Join(t.TempDir(), "r.pdf")
	var term bytes.Buffer
	if err := Generate(Options{In: in, Out: out, Top: 3, Stdout: &term}); err != nil {
		t.Fatal(err)
	}
	pdf, _ := os.ReadFile(out)
	if !bytes.Contains(pdf, []byte("/Outlines")) || !bytes.Contains(pdf, []byte("/Title (Experiment 1: ")) || !bytes.Contains(pdf, []byte("/Title (Contents)")) {
		t.Error("PDF without an outline")
	}
	lines := strings.Split(strings.TrimSpace(term.String()), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "Experiment 1: ") || !strings.Contains(lines[5], "11 more pairs; the full ranking, with the notes: page 1 of "+out) {
		t.Errorf("terminal summary:\n%s", term.String())
	}
}
