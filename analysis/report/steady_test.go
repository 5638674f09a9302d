package report

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/stats"
)

func TestSteadyStateTable(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 32, Jobs: 600, Loads: []float64{0.5, 0.8}, Reps: 1, Pairs: 2, Seed: 9})
	ctx, err := NewContext(set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := &ctx.Experiments[0]
	if !singleRunCells(ctx, e) {
		t.Fatal("single-run cells not detected")
	}
	pages, err := buildSteady(ctx, e, 1)
	if err != nil || len(pages) == 0 {
		t.Fatal(err)
	}
	tb := pages[0].(*TablePage).Table
	if len(tb.Rows) != 2*2 {
		t.Fatalf("%d rows", len(tb.Rows))
	}
	// First row: pair 0 at load 0.5; recompute independently.
	r := tb.Rows[0]
	p := fixture.PairName(0)
	if r[0] != p.Alloc || r[1] != p.Sched || r[2] != "0.5" || r[3] != "600" {
		t.Fatalf("row %q", r)
	}
	var tr string
	for _, s := range set.Summary {
		if s.Load == 0.5 {
			tr = s.Trace
		}
	}
	js := set.JobsOf(results.Key{Trace: tr, Pair: p, Rep: 0})
	resp := make([]float64, len(js))
	for i := range js {
		resp[i] = js[i].Response
	}
	ci, d, err := stats.SteadyState(resp, SteadyBatches, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSuffix(r[4], "*") != itoa(d) || r[5] != fmtCI(ci, ci.Mean, ci.HalfWidth) || !strings.Contains(r[5], "±") {
		t.Errorf("row %q, want deleted %d, resp %s", r, d, fmtCI(ci, ci.Mean, ci.HalfWidth))
	}
	// With replications the table is not built.
	rep := fixture.Build(fixture.Spec{Procs: 16, Jobs: 50, Loads: []float64{0.5, 0.8}, Reps: 2, Pairs: 1, Seed: 9})
	ctx2, _ := NewContext(rep, Options{})
	if singleRunCells(ctx2, &ctx2.Experiments[0]) {
		t.Error("replicated cells treated as single runs")
	}
}
