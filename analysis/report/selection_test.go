package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	goplot "gonum.org/v1/plot"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
)

func legendLabels(f *plot.Figure) []string {
	var out []string
	for _, e := range f.Legend {
		out = append(out, e.Label)
	}
	return out
}

func figureNamed(t *testing.T, pages []Page, name string) *plot.Figure {
	t.Helper()
	for _, p := range pages {
		if n, ok := p.(Named); ok && n.FigureName() == name {
			return n.Figure()
		}
	}
	t.Fatalf("no figure %s", name)
	return nil
}

// The report opens on the ranking; the main figures show the reference
// (FCFS) pair, the pairs named with --pairs and the best pairs, at most
// plot.MaxCurves; the ranking agrees with an independent computation.
func TestRankingAndFeaturedPairs(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 32, Jobs: 80, Loads: []float64{0.4, 0.8}, Reps: 2, Pairs: 14, Seed: 5})
	named := fixture.PairName(13)
	ctx, pages := pagesOf(t, set, Options{Pairs: []results.Pair{named}})
	tp, ok := pages[0].(*TablePage)
	if !ok || !strings.HasPrefix(tp.Table.Title, "Ranking of the policy pairs: ") || len(tp.Table.Rows) != 14 {
		t.Fatalf("first page: %T %+v", pages[0], pages[0])
	}
	// Independently: the pair with the best mean rank of mean response.
	e := &ctx.Experiments[0]
	sum := map[results.Pair]float64{}
	for _, load := range e.Loads {
		var cs []results.Cell
		for _, c := range e.Cells() {
			if c.Load == load {
				cs = append(cs, c)
			}
		}
		sort.Slice(cs, func(i, j int) bool {
			return cs[i].CI("mean_response", 0.95).Mean < cs[j].CI("mean_response", 0.95).Mean
		})
		for r, c := range cs {
			sum[c.Pair] += float64(r)
		}
	}
	best := e.Pairs()[0]
	for _, p := range e.Pairs() {
		if sum[p] < sum[best] {
			best = p
		}
	}
	if row := tp.Table.Rows[0]; row[1] != best.Alloc || row[2] != best.Sched {
		t.Errorf("rank 1: %v, want %s", row[:3], best)
	}
	main := legendLabels(figureNamed(t, pages, "exp1-mean_response-vs-load"))
	ref := fixture.PairName(0) // the first FCFS pair
	if len(main) != plot.MaxCurves || main[0] != ref.String() || !slices.Contains(main, named.String()) || !slices.Contains(main, best.String()) {
		t.Errorf("main figure: %v (want the reference %s first, %s and %s)", main, ref, named, best)
	}
	// The named pair's row says why it is shown; the others are in the
	// appendix, every pair exactly once.
	seen := map[string]int{}
	for _, g := range ctx.groups(e) {
		for _, p := range g.Pairs {
			seen[p.String()]++
		}
	}
	if len(seen) != 14 {
		t.Errorf("groups cover %d pairs", len(seen))
	}
	for _, row := range tp.Table.Rows {
		p := results.Pair{Alloc: row[1], Sched: row[2]}
		if p == named && row[len(row)-1] != "main: named with --pairs" || !slices.Contains(main, p.String()) && !strings.HasPrefix(row[len(row)-1], "appendix ") {
			t.Errorf("row %v", row)
		}
	}
}

// realSet is a single-replication real-log set spanning 40 days in which
// one FCFS-like pair waits a thousand times longer than the others.
func realSet() *results.Set {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 30, Reps: 1, Pairs: 4, Seed: 2, Real: true})
	for i := range set.Summary {
		r := &set.Summary[i]
		r.Makespan = 40 * 86400
		r.MeanResponse = 7200 * float64(1+i)
		r.Throughput = 30000.0 / r.Makespan
		if i == 0 {
			r.MeanResponse = 7.2e6
		}
	}
	return set
}

// Real logs spanning days: times in hours, rates per hour, a log axis
// when one pair dwarfs the others, and no MSER-5 table unless asked.
func TestRealLogAxes(t *testing.T) {
	_, pages := pagesOf(t, realSet(), Options{})
	resp := figureNamed(t, pages, "exp1-mean_response-syn-r0")
	if _, ok := resp.Plot.X.Scale.(goplot.LogScale); !ok || !strings.Contains(resp.Plot.X.Label.Text, "(h)") {
		t.Errorf("response bars: scale %T, label %q", resp.Plot.X.Scale, resp.Plot.X.Label.Text)
	}
	if resp.Plot.X.Max < 2000 || resp.Plot.X.Min > 2 {
		t.Errorf("response axis [%v, %v] h: want 2 h to 2000 h inside", resp.Plot.X.Min, resp.Plot.X.Max)
	}
	if x := figureNamed(t, pages, "exp1-throughput-syn-r0"); x.Plot.X.Label.Text != "throughput (jobs / hour)" {
		t.Errorf("throughput label %q", x.Plot.X.Label.Text)
	}
	if strings.Contains(resp.Plot.Title.Text, "swf") || !strings.Contains(resp.Plot.Title.Text, "syn-r0 on 16 processors") {
		t.Errorf("title %q", resp.Plot.Title.Text)
	}
	has := func(pages []Page) bool {
		for _, p := range pages {
			if tp, ok := p.(*TablePage); ok && tp.Table.Name == "exp1-steady-state" {
				return true
			}
		}
		return false
	}
	if has(pages) {
		t.Error("MSER-5 table on a real log by default")
	}
	if _, pages = pagesOf(t, realSet(), Options{SteadyState: true}); !has(pages) {
		t.Error("--steady-state: no MSER-5 table")
	}
	// Synthetic single runs keep it by default.
	if _, pages = pagesOf(t, fixture.Build(fixture.Spec{Procs: 16, Jobs: 30, Loads: []float64{0.5, 0.8}, Reps: 1, Pairs: 2, Seed: 2}), Options{}); !has(pages) {
		t.Error("no MSER-5 table on synthetic single runs")
	}
}

// CDFs on a linear axis start at 0.
func TestCDFStartsAtZero(t *testing.T) {
	_, pages := pagesOf(t, fixture.Build(sweepSpec), Options{})
	f := figureNamed(t, pages, "exp1-cdf-wait-load0.9")
	if _, log := f.Plot.X.Scale.(goplot.LogScale); !log && f.Plot.X.Min != 0 {
		t.Errorf("wait CDF from %v", f.Plot.X.Min)
	}
}

func TestBinWidthAndPanels(t *testing.T) {
	if w, name := binWidth("s", 450*86400); w != 7*86400 || name != "1 week" {
		t.Errorf("450 days: %v %q", w, name)
	}
	if w, name := binWidth("time units", 3000); w != 20 || name != "20 time units" {
		t.Errorf("3000 time units: %v %q", w, name)
	}
	ps := []results.Pair{{Alloc: "a", Sched: "fcfs"}, {Alloc: "a", Sched: "easy"}, {Alloc: "b", Sched: "easy"}, {Alloc: "a", Sched: "sa"}}
	peak := map[string]float64{"fcfs": 10000, "easy": 30, "sa": 25}
	panels := panelsByPeak(ps, func(p results.Pair) float64 { return peak[p.Sched] + float64(len(p.Alloc)) })
	if len(panels) != 2 || len(panels[0]) != 1 || panels[0][0].Sched != "fcfs" || len(panels[1]) != 3 {
		t.Errorf("panels %v", panels)
	}
}

func TestHBarRange(t *testing.T) {
	if r := hbarRange(2, 2000); !r.log || r.min != 1 || r.max < 2000 {
		t.Errorf("2..2000: %+v", r)
	}
	if r := hbarRange(2, 20); r.log || r.min != 0 || r.max < 20 {
		t.Errorf("2..20: %+v", r)
	}
	if r := hbarRange(math.NaN(), math.NaN()); r.log || r.max != 1 {
		t.Errorf("none: %+v", r)
	}
}

// TestTiesNeverChooseFigures checks, on result sets full of ties (values
// drawn from a few levels), that ties share a rank in the ranking table
// and never decide which pairs the main figures show: two pairs equal on
// every ranking metric are featured together or not at all, whatever
// their names' order.
func TestTiesNeverChooseFigures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := 0; trial < 40; trial++ {
		set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 20, Reps: 1, Pairs: 12, Seed: uint64(trial), Real: true})
		for i := range set.Summary {
			r := &set.Summary[i]
			r.MeanResponse = float64(1 + rng.IntN(4))
			r.MeanBSLD = float64(1 + rng.IntN(2))
			r.Utilization = 0.5 + 0.1*float64(rng.IntN(2))
		}
		ctx, pages := pagesOf(t, set, Options{})
		e := &ctx.Experiments[0]
		s := ctx.sel(e)
		key := map[results.Pair][3]float64{}
		for _, cl := range e.Cells() {
			key[cl.Pair] = [3]float64{cl.CI("mean_response", 0.95).Mean, cl.CI("mean_bsld", 0.95).Mean, cl.CI("utilization", 0.95).Mean}
		}
		featured := map[results.Pair]bool{}
		for _, p := range s.featured {
			featured[p] = true
		}
		for _, a := range e.Pairs() {
			for _, b := range e.Pairs() {
				if a != b && key[a] == key[b] && featured[a] != featured[b] && (s.ref == nil || *s.ref != a && *s.ref != b) {
					t.Fatalf("trial %d: %s and %s tie on every metric but only one is featured (%v)", trial, a, b, s.featured)
				}
			}
		}
		var tp *TablePage
		for _, p := range pages {
			if x, ok := p.(*TablePage); ok && strings.HasPrefix(x.Table.Title, "Ranking") {
				tp = x
				break
			}
		}
		for i := 1; i < len(tp.Table.Rows); i++ {
			prev, row := tp.Table.Rows[i-1], tp.Table.Rows[i]
			pa, pb := results.Pair{Alloc: prev[1], Sched: prev[2]}, results.Pair{Alloc: row[1], Sched: row[2]}
			if (key[pa] == key[pb]) != (prev[0] == row[0]) {
				t.Fatalf("trial %d: rows %v and %v: tie %v but ranks %s, %s", trial, prev[:3], row[:3], key[pa] == key[pb], prev[0], row[0])
			}
			if key[pa] == key[pb] && prev[7] != "=" {
				t.Errorf("trial %d: tied rows %v %v: vs next %q, want =", trial, prev[:3], row[:3], prev[8])
			}
		}
	}
}
