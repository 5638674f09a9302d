package report

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/stats"
	"github.com/schedlab/schedlab/model/schema"
)

// malleableSet is a hand-made malleable result set: a perfect-efficiency
// sweep (loads 0.5 and 0.9, 3 replications) under eq and alpha a = −10,
// −1, 2 (x = work) and a = −1 (x = acc), and two efficiency ranges at load
// 0.9 under eq, wk and wf. R̄ is chosen so that every ratio is known:
// alpha:a=α has R = EQ·(2 + α/10) (rep r adds r to both), wk = 2·EQ and
// wf = EQ/2 on 1–99%, wk = EQ and wf = 0.8·EQ on 75–99%.
func malleableSet(withOptions bool) *results.Set {
	set := &results.Set{}
	params := func(p map[string]any) json.RawMessage {
		b, _ := json.Marshal(p)
		return b
	}
	addTrace := func(name string, load float64, rep int64, p map[string]any) {
		set.Traces = append(set.Traces, schema.TraceInfo{Name: name, Generator: "malleable", Load: load, Rep: rep, Machine: "flat:100", Jobs: 100, Params: params(p)})
	}
	row := func(tr, sched string, load float64, rep int64, r float64) {
		set.Summary = append(set.Summary, results.Summary{Trace: tr, Machine: "flat:100", Alloc: "share", Sched: sched, Rep: rep, Jobs: 100, Load: load, MeanResponse: r, Procs: 100})
	}
	for _, load := range []float64{0.5, 0.9} {
		for rep := int64(1); rep <= 3; rep++ {
			tr := fmt.Sprintf("p-load%.2f-rep%02d", load, rep)
			addTrace(tr, load, rep, map[string]any{"perfect": "true", "work_cv": "1", "procs": "100", "load": load, "rep": rep})
			eq := 10/(1-load) + float64(rep)
			row(tr, "eq", load, rep, eq)
			for _, a := range []float64{-10, -1, 2} {
				row(tr, fmt.Sprintf("alpha:a=%g", a), load, rep, eq*(2+a/10))
			}
			row(tr, "alpha:a=-1,x=acc", load, rep, eq*0.9)
		}
	}
	for _, e := range []struct {
		eff    string
		wk, wf float64
	}{{"1-99", 2, 0.5}, {"75-99", 1, 0.8}} {
		for rep := int64(1); rep <= 3; rep++ {
			tr := fmt.Sprintf("e%s-load0.90-rep%02d", e.eff, rep)
			addTrace(tr, 0.9, rep, map[string]any{"perfect": "false", "eff": e.eff, "eff_dist": "uniform", "work_cv": "1", "procs": "100", "load": 0.9, "rep": rep})
			eq := 50 + 5*float64(rep)
			row(tr, "eq", 0.9, rep, eq)
			row(tr, "wk", 0.9, rep, e.wk*eq)
			row(tr, "wf", 0.9, rep, e.wf*eq)
		}
	}
	if withOptions {
		set.Options, _ = json.Marshal(schema.Options{Mode: "malleable"})
	}
	return set
}

func TestParseAlpha(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want alphaSpec
		ok   bool
	}{
		{"alpha", alphaSpec{"work", -10}, true},
		{"alpha:a=0.5", alphaSpec{"work", 0.5}, true},
		{"alpha:a=-1,x=acc", alphaSpec{"acc", -1}, true},
		{"alpha:x=beta", alphaSpec{"beta", -10}, true},
		{"alpha:a=oops", alphaSpec{}, false},
		{"eq", alphaSpec{}, false},
		{"wf:cap=false", alphaSpec{}, false},
	} {
		got, ok := parseAlpha(tc.spec)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("parseAlpha(%q) = %+v, %v; want %+v, %v", tc.spec, got, ok, tc.want, tc.ok)
		}
	}
}

// The pages apply to malleable results only, as the results record them
// (a machine flat:P in the options' mode malleable, results.Set.MachineOf),
// whatever the policies' names: never to results without that record, nor
// to a rigid run.
func TestMalleablePagesApply(t *testing.T) {
	for _, opts := range []bool{true, false} {
		ctx, pages := pagesOf(t, malleableSet(opts), Options{})
		if isMalleableSet(ctx) != opts {
			t.Errorf("options %v: recognised as malleable: %v", opts, !opts)
		}
		names := strings.Join(figureNames(pages), " ")
		if has := strings.Contains(names, "r-vs-alpha-work") && strings.Contains(names, "malleable-normalised"); has != opts {
			t.Errorf("options %v: figures %s", opts, names)
		}
	}
	rigid := malleableSet(false)
	rigid.Options, _ = json.Marshal(schema.Options{}) // recorded, no mode: rigid
	for i := range rigid.Summary {
		rigid.Summary[i].Alloc = "count"
	}
	if _, pages := pagesOf(t, rigid, Options{}); strings.Contains(strings.Join(figureNames(pages), " "), "alpha") {
		t.Error("rigid results got malleable pages")
	}
	_, pages := pagesOf(t, fixture.Build(fixture.Spec{Procs: 16, Jobs: 30, Loads: []float64{0.5}, Reps: 2, Pairs: 2, Seed: 1}), Options{})
	for _, n := range figureNames(pages) {
		if strings.Contains(n, "alpha") || strings.Contains(n, "normalised") {
			t.Errorf("a rigid fixture got %s", n)
		}
	}
}

// R vs α: one curve per load with EQ as α = 0, the means and the 90%
// intervals of the replications; Acc has its own figure.
func TestAlphaCurves(t *testing.T) {
	set := malleableSet(true)
	ctx, err := NewContext(set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var perfect *results.Experiment
	for i := range ctx.Experiments {
		if strings.Contains(ctx.Experiments[i].Traces[0], "p-load") {
			perfect = &ctx.Experiments[i]
		}
	}
	xs, curves := alphaCurves(perfect)
	if strings.Join(xs, ",") != "acc,work" {
		t.Fatalf("X values %v", xs)
	}
	if len(curves["work"]) != 2 || len(curves["acc"]) != 2 {
		t.Fatalf("curves: %d work, %d acc", len(curves["work"]), len(curves["acc"]))
	}
	for _, cv := range curves["work"] {
		if fmt.Sprint(cv.Alphas) != "[-10 -1 0 2]" {
			t.Errorf("%s: alphas %v", cv.Label, cv.Alphas)
		}
		eqs := []float64{}
		for rep := 1; rep <= 3; rep++ {
			eqs = append(eqs, 10/(1-cv.Point)+float64(rep))
		}
		for i, a := range cv.Alphas {
			want := make([]float64, 3)
			for r := range want {
				want[r] = eqs[r] * (2 + a/10)
				if a == 0 {
					want[r] = eqs[r] // the EQ run
				}
			}
			w := stats.MeanCI(want, 0.90)
			if got := cv.CIs[i]; math.Abs(got.Mean-w.Mean) > 1e-9 || math.Abs(got.HalfWidth-w.HalfWidth) > 1e-9 || got.Level != 0.90 {
				t.Errorf("%s α = %g: %+v, want %+v", cv.Label, a, got, w)
			}
		}
	}
	if got := curves["work"][0].Label; got != "load 0.5" {
		t.Errorf("first curve %q", got)
	}
	if fmt.Sprint(curves["acc"][0].Alphas) != "[-1 0]" {
		t.Errorf("acc alphas %v", curves["acc"][0].Alphas)
	}
}

// R/R_EQ: paired on trace and replication, grouped by efficiency range in
// order of mean efficiency, one panel per family and load.
func TestNormalisedPanels(t *testing.T) {
	ctx, err := NewContext(malleableSet(true), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var we *normPanel
	var titles []string
	for _, pn := range normalisedPanels(ctx) {
		titles = append(titles, pn.Family+" | "+pn.Title)
		if strings.HasPrefix(pn.Family, "Work and efficiency") {
			we = pn
		}
	}
	want := []string{
		"Generalized Allocation, X = Acc or Time | load 0.5, C_W = 1",
		"Generalized Allocation, X = Acc or Time | load 0.9, C_W = 1",
		"Generalized Allocation, X = W | load 0.5, C_W = 1",
		"Generalized Allocation, X = W | load 0.9, C_W = 1",
		"Work and efficiency (W&k, W&eps, W&F) | load 0.9, C_W = 1",
	}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Fatalf("panels:\n%s\nwant\n%s", strings.Join(titles, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(we.Groups, ",") != "1-99%,75-99%" || strings.Join(we.Scheds, ",") != "wf,wk" {
		t.Fatalf("W&E panel groups %v scheds %v", we.Groups, we.Scheds)
	}
	for g, want := range map[string][2]float64{"1-99%": {0.5, 2}, "75-99%": {0.8, 1}} {
		for i, b := range we.Bars[g] {
			if math.Abs(b.CI.Mean-want[i]) > 1e-9 || b.CI.N != 3 || !(b.CI.HalfWidth < 1e-9) {
				t.Errorf("%s %s: %+v, want exactly %g", g, b.Sched, b.CI, want[i])
			}
		}
	}
}

// The pages render into a PDF without error (the figures' text drawn in
// the PDF's Windows-1252 font: no Greek letters in titles and labels).
func TestMalleablePDF(t *testing.T) {
	_, pages := pagesOf(t, malleableSet(true), Options{})
	for _, p := range pages {
		fp, ok := p.(*FigurePage)
		if !ok || !(strings.Contains(fp.Fig.Name, "alpha") || strings.Contains(fp.Fig.Name, "normalised")) {
			continue
		}
		f := fp.Fig
		for _, s := range []string{f.Plot.Title.Text, f.Plot.X.Label.Text, f.Plot.Y.Label.Text, f.Note} {
			if strings.ContainsAny(s, "αβεΣ≈̄") {
				t.Errorf("%s: %q is not Windows-1252", f.Name, s)
			}
		}
	}
	titles := map[string]bool{}
	for _, p := range pages {
		if fp, ok := p.(*FigurePage); ok {
			titles[fp.Fig.Plot.Title.Text] = true
		}
	}
	for _, want := range []string{
		"Mean response vs alpha, X = W (remaining work): flat:100, perfect efficiency, C_W = 1",
		"Mean response normalised to Equipartition: Work and efficiency (W&k, W&eps, W&F), load 0.9, C_W = 1",
	} {
		if !titles[want] {
			t.Errorf("no figure titled %q", want)
		}
	}
	if err := WritePDF(filepath.Join(t.TempDir(), "m.pdf"), pages); err != nil {
		t.Fatal(err)
	}
}
