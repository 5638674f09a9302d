package report

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	goplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/stats"
	"github.com/schedlab/schedlab/model/malleable"
	"github.com/schedlab/schedlab/model/policy"
)

// Pages of malleable runs (replay --mode malleable: dynamic space sharing,
// model/malleable), as K. Guha, "Using Parallel Program Characteristics in
// Dynamic Multiprocessor Allocation Policies", M.Sc. thesis, York
// University, 1995, draws them: the mean response time R̄ against the
// Generalized Allocation exponent α (Figs. 5.1, 5.3, 5.4, 6.1, 6.2), and
// R̄ normalised to Equipartition's on the same traces, in bars grouped by
// the workload's efficiency range, with a dotted line at 1 (Figs. 6.3,
// 7.1–7.10).
func init() {
	Register(Builder{Name: "malleable-alpha", Order: 12, Scope: PerExperiment, Applies: hasAlphaCurve, Build: buildAlphaCurves})
	Register(Builder{Name: "malleable-normalised", Order: 60, Scope: Global, Applies: hasNormalised, Build: buildNormalised})
}

// MalleableLevel is the confidence level of the malleable pages' intervals:
// Guha's 90% (the report's --level applies to the other pages).
var MalleableLevel = 0.90

// eqSched is Equipartition's spec, the baseline of the normalised bars
// and the α = 0 point of every R-vs-α curve.
const eqSched = "eq"

// isMalleableSet reports whether the results were replayed on a
// malleable machine (model/malleable's family), as they record it: a
// machine flat:P in mode "malleable" (results.Set.MachineOf).
func isMalleableSet(c *Context) bool {
	if len(c.Set.Summary) == 0 {
		return false
	}
	m, err := c.Set.MachineOf(c.Set.Summary[0].Machine)
	return err == nil && m.Kind == malleable.Kind
}

// alphaSpec is a Generalized Allocation policy's X and α, parsed from its
// spec ("alpha:x=acc,a=-1"; the defaults are model/malleable's DefaultX
// and DefaultAlpha). EQ is α = 0 for every X.
type alphaSpec struct {
	X     string
	Alpha float64
}

// parseAlpha returns the X and α of an alpha spec; ok is false for any
// other scheduler.
func parseAlpha(sched string) (a alphaSpec, ok bool) {
	name, p, err := policy.ParseSpec(sched)
	if err != nil || name != "alpha" {
		return a, false
	}
	a = alphaSpec{X: malleable.DefaultX, Alpha: malleable.DefaultAlpha}
	if x, ok := p["x"]; ok {
		a.X = x
	}
	if s, ok := p["a"]; ok {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return a, false
		}
		a.Alpha = v
	}
	return a, true
}

// xLabel names X as the thesis does.
func xLabel(x string) string {
	switch x {
	case "work":
		return "X = W (remaining work)"
	case "acc":
		return "X = Acc (accumulated service)"
	case "time":
		return "X = Time (time in system)"
	case "beta":
		return "X = beta (efficiency)"
	}
	return "X = " + x
}

// alphaCurve is one curve of an R-vs-α figure: one X at one point (load,
// or trace outside a sweep) of an experiment.
type alphaCurve struct {
	Label  string
	Point  float64 // load (−1 unknown) for ordering
	Trace  string
	Alphas []float64
	CIs    []stats.CI
}

// alphaCurves returns an experiment's curves by X (sorted X names), each
// with at least two α values (EQ counts as α = 0 when the curve has no
// alpha a=0 of its own).
func alphaCurves(e *results.Experiment) (xs []string, curves map[string][]*alphaCurve) {
	type key struct {
		x     string
		load  float64
		trace string
	}
	cells := e.Cells()
	eq := map[[2]any]*results.Cell{}
	for i := range cells {
		if cells[i].Pair.Sched == eqSched {
			eq[[2]any{cells[i].Load, cells[i].Trace}] = &cells[i]
		}
	}
	byKey := map[key]map[float64]*results.Cell{}
	var keys []key
	for i := range cells {
		a, ok := parseAlpha(cells[i].Pair.Sched)
		if !ok {
			continue
		}
		k := key{a.X, cells[i].Load, cells[i].Trace}
		if byKey[k] == nil {
			byKey[k] = map[float64]*results.Cell{}
			keys = append(keys, k)
		}
		byKey[k][a.Alpha] = &cells[i]
	}
	curves = map[string][]*alphaCurve{}
	for _, k := range keys {
		pts := byKey[k]
		if _, own := pts[0]; !own {
			if c := eq[[2]any{k.load, k.trace}]; c != nil {
				pts[0] = c
			}
		}
		if len(pts) < 2 {
			continue
		}
		label := "load " + results.FormatLoad(k.load)
		if k.trace != "" {
			label = k.trace
		}
		cv := &alphaCurve{Label: label, Point: k.load, Trace: k.trace}
		for a := range pts {
			cv.Alphas = append(cv.Alphas, a)
		}
		sort.Float64s(cv.Alphas)
		for _, a := range cv.Alphas {
			cv.CIs = append(cv.CIs, pts[a].CI("mean_response", MalleableLevel))
		}
		if curves[k.x] == nil {
			xs = append(xs, k.x)
		}
		curves[k.x] = append(curves[k.x], cv)
	}
	sort.Strings(xs)
	for _, x := range xs {
		sort.SliceStable(curves[x], func(i, j int) bool {
			a, b := curves[x][i], curves[x][j]
			if a.Point != b.Point {
				return a.Point < b.Point
			}
			return a.Trace < b.Trace
		})
	}
	return xs, curves
}

func hasAlphaCurve(c *Context, e *results.Experiment) bool {
	if !isMalleableSet(c) {
		return false
	}
	xs, _ := alphaCurves(e)
	return len(xs) > 0
}

// alphaCurvesPerFigure is the most curves one R-vs-α figure holds.
const alphaCurvesPerFigure = plot.MaxCurves

// buildAlphaCurves draws R̄ against α, one figure per X, one curve per
// load (or trace), with MalleableLevel Student-t intervals across
// replications. The α values run are equally spaced on the x axis (they
// are chosen on a roughly logarithmic grid, −10 … 10).
func buildAlphaCurves(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	xs, curves := alphaCurves(e)
	unit := expUnit(c, e)
	var pages []Page
	for _, x := range xs {
		cs := curves[x]
		var grid []float64
		for _, cv := range cs {
			for _, a := range cv.Alphas {
				if !slices.Contains(grid, a) {
					grid = append(grid, a)
				}
			}
		}
		sort.Float64s(grid)
		pos := func(a float64) float64 { return float64(slices.Index(grid, a)) }
		parts := (len(cs) + alphaCurvesPerFigure - 1) / alphaCurvesPerFigure
		for pi := 0; pi < parts; pi++ {
			part := cs[pi*len(cs)/parts : (pi+1)*len(cs)/parts]
			suffix := ""
			if parts > 1 {
				suffix = fmt.Sprintf(" (curves %d/%d)", pi+1, parts)
			}
			p := plot.New(fmt.Sprintf("Mean response vs alpha, %s: %s%s", xLabel(x), shortName(c, e), suffix), "alpha (p_i = P·X_i^alpha / sum of X_j^alpha; alpha = 0 is Equipartition)", "mean response time ("+unit+")")
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-r-vs-alpha-%s-%d", idx, x, pi+1), Plot: p}
			var allM, allH []float64
			reps := map[int]bool{}
			for k, cv := range part {
				var px, ys, hw []float64
				for i, a := range cv.Alphas {
					px = append(px, pos(a))
					ys = append(ys, cv.CIs[i].Mean)
					hw = append(hw, cv.CIs[i].HalfWidth)
					reps[cv.CIs[i].N] = true
				}
				allM, allH = append(allM, ys...), append(allH, hw...)
				d := 0.0
				if len(part) > 1 {
					d = (float64(k)/float64(len(part)-1) - 0.5) * 0.12
				}
				st := plot.StyleOf(k)
				fig.Legend = append(fig.Legend, plot.Curve(p, cv.Label, st, px, ys, hw, d))
			}
			if lo, hi := plot.Bounds(allM); lo > 0 && hi/lo > 20 {
				// α > 0 under heavy tails is orders of magnitude above
				// α ≤ 0 (MRWF-like starvation): a log axis keeps both legible.
				p.Y.Scale = goplot.LogScale{}
				p.Y.Tick.Marker = plot.LogTicks{}
				p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
				p.Y.Label.Text += " (log scale)"
			} else {
				setYRange(p, fig, allM, allH, true)
			}
			ts := make([]goplot.Tick, len(grid))
			for i, a := range grid {
				ts[i] = goplot.Tick{Value: float64(i), Label: plot.Compact(a)}
			}
			p.X.Tick.Marker = goplot.ConstantTicks(ts)
			p.X.Min, p.X.Max = -0.5, float64(len(grid))-0.5
			fig.Note = strings.TrimSpace(fmt.Sprintf("Error bars: %g%% Student-t intervals across %s replications (Guha's level). The alpha values run are equally spaced on the axis; alpha = 0 is the EQ run. %s", 100*MalleableLevel, repList(reps), fig.Note))
			pages = append(pages, &FigurePage{Fig: fig})
		}
	}
	return pages, nil
}

// repList is "5", or "3 to 5" when points differ.
func repList(reps map[int]bool) string {
	lo, hi := math.MaxInt, 0
	for n := range reps {
		lo, hi = min(lo, n), max(hi, n)
	}
	if len(reps) == 0 {
		return "0"
	}
	return repRange(lo, hi)
}

// normBar is one bar of a normalised chart: a policy's R̄/R̄_EQ on the
// traces of one efficiency range, paired with EQ on (trace, rep).
type normBar struct {
	Sched string
	CI    stats.CI
}

// normPanel is one normalised chart: one load and one workload setting
// (C_W, caps, ε distribution) with bars by efficiency range and policy
// family.
type normPanel struct {
	Title  string
	Family string
	Groups []string             // efficiency ranges, by mean efficiency
	Bars   map[string][]normBar // by group
	Scheds []string             // the policies, in order

	sortKey []float64 // load, C_W, cap mean, P: panels in numeric order
}

// traceParams returns a trace's generator parameters as strings.
func traceParams(set *results.Set, name string) map[string]string {
	ti, ok := set.TraceInfo(name)
	if !ok || len(ti.Params) == 0 {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(ti.Params, &m) != nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = fmt.Sprint(v)
	}
	return out
}

// effRange names a trace's efficiency distribution as the thesis does
// ("1-99", "75-99 beta", "perfect"), with its mean for ordering; ok is
// false when the trace does not record one (not a synth malleable trace).
func effRange(p map[string]string) (name string, mean float64, ok bool) {
	if p["perfect"] == "true" {
		return "perfect", 100, true
	}
	r, found := p["eff"]
	if !found {
		return "", 0, false
	}
	lo, hi, found := strings.Cut(r, "-")
	a, err1 := strconv.ParseFloat(lo, 64)
	b, err2 := strconv.ParseFloat(hi, 64)
	if !found || err1 != nil || err2 != nil {
		return "", 0, false
	}
	name = r + "%"
	if d := p["eff_dist"]; d != "" && d != "uniform" {
		name += " " + d
	}
	return name, (a + b) / 2, true
}

// workloadTerms describes a malleable trace's model in Guha's terms: C_W,
// the parallelism caps, P when not 100.
func workloadTerms(p map[string]string) []string {
	var out []string
	if v := p["work_cv"]; v != "" {
		out = append(out, "C_W = "+v)
	}
	if v := p["cap_mean"]; v != "" && v != "0" {
		out = append(out, "caps N_i (input mean "+v+")")
	}
	if v := p["procs"]; v != "" && v != "100" {
		out = append(out, "P = "+v)
	}
	return out
}

// shortName names a malleable experiment for its figure titles: the
// machine, the efficiency range and workloadTerms ("flat:100, eps 1-99%,
// C_W = 5"), instead of the experiment's name, which lists every
// parameter that differs between experiments (seeds included) and
// overflows a title; e.Name when the trace has no malleable provenance.
func shortName(c *Context, e *results.Experiment) string {
	p := traceParams(c.Set, e.Traces[0])
	eff, _, ok := effRange(p)
	if !ok {
		return e.Name
	}
	if eff == "perfect" {
		eff = "perfect efficiency"
	} else {
		eff = "eps " + eff
	}
	return strings.Join(append([]string{e.Machine, eff}, workloadTerms(p)...), ", ")
}

// policyFamily groups malleable schedulers for the normalised charts:
// Generalized Allocation by X, the exact extremes, and the W&E rules.
func policyFamily(sched string) string {
	if a, ok := parseAlpha(sched); ok {
		if a.X == "beta" {
			return "Generalized Allocation, X = beta (efficiency only)"
		}
		if a.X == "work" {
			return "Generalized Allocation, X = W"
		}
		return "Generalized Allocation, X = Acc or Time"
	}
	name, _, _ := policy.ParseSpec(sched)
	switch name {
	case "lrwf", "mrwf":
		return "LRWF and MRWF"
	case "wk", "we", "wf":
		return "Work and efficiency (W&k, W&eps, W&F)"
	}
	return name
}

// normalisedPanels pairs every non-EQ malleable run with EQ on the same
// trace and replication and groups the ratios R̄/R̄_EQ into panels: one per
// (load, work C_W, cap, policy family, other workload parameters), bars
// grouped by efficiency range.
func normalisedPanels(c *Context) []*normPanel {
	type run struct {
		trace string
		rep   int64
	}
	eqR := map[run]float64{}
	for i := range c.Set.Summary {
		r := &c.Set.Summary[i]
		if r.Sched == eqSched {
			eqR[run{r.Trace, r.Rep}] = r.MeanResponse
		}
	}
	type cellKey struct{ panel, group, sched string }
	type acc struct{ x, base []float64 }
	data := map[cellKey]*acc{}
	panels := map[string]*normPanel{}
	var order []string
	groupMean := map[string]float64{}
	params := map[string]map[string]string{}
	for i := range c.Set.Summary {
		r := &c.Set.Summary[i]
		if r.Sched == eqSched {
			continue
		}
		b, ok := eqR[run{r.Trace, r.Rep}]
		if !ok {
			continue
		}
		p, seen := params[r.Trace]
		if !seen {
			p = traceParams(c.Set, r.Trace)
			params[r.Trace] = p
		}
		g, mean, ok := effRange(p)
		if !ok {
			continue
		}
		groupMean[g] = mean
		var desc []string
		if r.Load >= 0 {
			desc = append(desc, "load "+results.FormatLoad(r.Load))
		}
		desc = append(desc, workloadTerms(p)...)
		fam := policyFamily(r.Sched)
		title := strings.Join(desc, ", ")
		pk := fam + "\x00" + title
		pn := panels[pk]
		if pn == nil {
			num := func(k string) float64 { v, _ := strconv.ParseFloat(p[k], 64); return v }
			pn = &normPanel{Title: title, Family: fam, Bars: map[string][]normBar{}, sortKey: []float64{r.Load, num("work_cv"), num("cap_mean"), num("procs")}}
			panels[pk] = pn
			order = append(order, pk)
		}
		if !slices.Contains(pn.Groups, g) {
			pn.Groups = append(pn.Groups, g)
		}
		if !slices.Contains(pn.Scheds, r.Sched) {
			pn.Scheds = append(pn.Scheds, r.Sched)
		}
		k := cellKey{pk, g, r.Sched}
		if data[k] == nil {
			data[k] = &acc{}
		}
		data[k].x = append(data[k].x, r.MeanResponse)
		data[k].base = append(data[k].base, b)
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := panels[order[i]], panels[order[j]]
		if a.Family != b.Family {
			return a.Family < b.Family
		}
		if c := slices.Compare(a.sortKey, b.sortKey); c != 0 {
			return c < 0
		}
		return a.Title < b.Title
	})
	out := make([]*normPanel, 0, len(order))
	for _, pk := range order {
		pn := panels[pk]
		sort.SliceStable(pn.Groups, func(i, j int) bool {
			if groupMean[pn.Groups[i]] != groupMean[pn.Groups[j]] {
				return groupMean[pn.Groups[i]] < groupMean[pn.Groups[j]]
			}
			return pn.Groups[i] < pn.Groups[j]
		})
		sortScheds(pn.Scheds)
		for _, g := range pn.Groups {
			for _, s := range pn.Scheds {
				d := data[cellKey{pk, g, s}]
				if d == nil {
					continue
				}
				ci, err := stats.Normalised(d.x, d.base, MalleableLevel)
				if err != nil {
					ci = stats.CI{Mean: math.NaN(), HalfWidth: math.NaN()}
				}
				pn.Bars[g] = append(pn.Bars[g], normBar{Sched: s, CI: ci})
			}
		}
		out = append(out, pn)
	}
	return out
}

// sortScheds orders policies: alpha by X then α, then the others by name.
func sortScheds(s []string) {
	sort.SliceStable(s, func(i, j int) bool {
		a, aok := parseAlpha(s[i])
		b, bok := parseAlpha(s[j])
		switch {
		case aok && bok:
			if a.X != b.X {
				return a.X < b.X
			}
			return a.Alpha < b.Alpha
		case aok != bok:
			return aok
		}
		return s[i] < s[j]
	})
}

func hasNormalised(c *Context, _ *results.Experiment) bool {
	return isMalleableSet(c) && len(normalisedPanels(c)) > 0
}

// normCap is the top of a normalised chart's axis: bars above it are cut
// and labelled with their value (W&k on 50–99% reaches 3, unstable
// policies thousands).
const normCap = 3.5

// buildNormalised draws one bar chart per panel: R̄/R̄_EQ by efficiency
// range, one bar per policy with its interval, a dotted line at 1.
func buildNormalised(c *Context, _ *results.Experiment, _ int) ([]Page, error) {
	var pages []Page
	for pi, pn := range normalisedPanels(c) {
		// At most plot.MaxCurves policies per chart.
		nparts := (len(pn.Scheds) + plot.MaxCurves - 1) / plot.MaxCurves
		for part := range nparts {
			scheds := pn.Scheds[part*len(pn.Scheds)/nparts : (part+1)*len(pn.Scheds)/nparts]
			suffix, name := "", fmt.Sprintf("malleable-normalised-%d", pi+1)
			if nparts > 1 {
				suffix, name = fmt.Sprintf(" (policies %d/%d)", part+1, nparts), fmt.Sprintf("malleable-normalised-%d-%d", pi+1, part+1)
			}
			pages = append(pages, normalisedFigure(pn, scheds, suffix, name))
		}
	}
	return pages, nil
}

// normalisedFigure is the chart of one panel's policies scheds.
func normalisedFigure(pn *normPanel, scheds []string, suffix, name string) Page {
	p := plot.New(fmt.Sprintf("Mean response normalised to Equipartition: %s, %s%s", pn.Family, pn.Title, suffix), "efficiency range eps_min–eps_max (integers uniform unless named)", "R / R_EQ (ratio of mean responses)")
	bars := &ciBars{Bars: plot.Bars{Width: 0.8}, Cap: normCap}
	fig := &plot.Figure{Name: name, Plot: p}
	top := 0.0
	reps := map[int]bool{}
	for si, s := range scheds {
		vals := make([]float64, len(pn.Groups))
		hws := make([]float64, len(pn.Groups))
		for gi, g := range pn.Groups {
			vals[gi], hws[gi] = math.NaN(), math.NaN()
			for _, b := range pn.Bars[g] {
				if b.Sched == s {
					vals[gi], hws[gi] = b.CI.Mean, b.CI.HalfWidth
					reps[b.CI.N] = true
					if v := b.CI.Mean + math.Max(0, b.CI.HalfWidth); !math.IsNaN(v) {
						top = math.Max(top, v)
					}
				}
			}
		}
		st := plot.StyleOf(si)
		bars.Values = append(bars.Values, vals)
		bars.HalfWidths = append(bars.HalfWidths, hws)
		bars.Styles = append(bars.Styles, st)
		fig.Legend = append(fig.Legend, plot.Entry{Label: s, Style: st, Bar: true})
	}
	p.Add(bars)
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.LineStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1.5), vg.Points(2.5)}}
	p.Add(one)
	p.NominalX(pn.Groups...)
	if len(pn.Groups) == 1 {
		p.X.Min, p.X.Max = -1.5, 1.5 // one group: keep its bars from filling the page
	}
	p.Y.Min, p.Y.Max = 0, math.Min(normCap, math.Max(1.2, top*1.08))
	fig.Note = fmt.Sprintf("Mean response over EQ's, paired on trace and replication; %g%% delta-method intervals, %s replications (Guha's level). Dotted line: 1 (EQ). Bars above %g cut and labelled.", 100*MalleableLevel, repList(reps), normCap)
	return &FigurePage{Fig: fig}
}

// ciBars draws groups of bars like plot.Bars (series colours, a marker
// on top for grayscale), with vertical interval whiskers, but packs each
// group: only the series with a value in that group get a slot, centred,
// all bars one width (so a group of 3 policies beside one of 9 is not
// mostly gaps). A bar above the axis top (Cap at most) is cut there and
// labelled with its value in a box; the labels of neighbouring cut bars
// are staggered so that they do not overlap.
type ciBars struct {
	plot.Bars
	HalfWidths [][]float64 // [series][group]; NaN draws no whisker
	Cap        float64
}

// slots returns, per group, the series with a value, in series order.
func (b *ciBars) slots() [][]int {
	var out [][]int
	for s, vals := range b.Values {
		for g, v := range vals {
			for len(out) <= g {
				out = append(out, nil)
			}
			if !math.IsNaN(v) {
				out[g] = append(out[g], s)
			}
		}
	}
	return out
}

// Plot implements plot.Plotter.
func (b *ciBars) Plot(c draw.Canvas, plt *goplot.Plot) {
	trX, trY := plt.Transforms(&c)
	slots := b.slots()
	most := 0
	for _, sl := range slots {
		most = max(most, len(sl))
	}
	if most == 0 {
		return
	}
	bw := b.Width / float64(most)
	ts := plot.TextStyle(8)
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
	edge := draw.LineStyle{Color: color.Black, Width: vg.Points(0.4)}
	for g, sl := range slots {
		x0 := float64(g) - bw*float64(len(sl))/2
		cutRun := 0
		for k, s := range sl {
			v := b.Values[s][g]
			lo, hi := x0+float64(k)*bw, x0+float64(k+1)*bw
			top := math.Min(v, plt.Y.Max)
			pts := []vg.Point{{X: trX(lo), Y: trY(0)}, {X: trX(hi), Y: trY(0)}, {X: trX(hi), Y: trY(top)}, {X: trX(lo), Y: trY(top)}}
			c.FillPolygon(b.Styles[s].Color, c.ClipPolygonXY(pts))
			c.StrokeLines(edge, c.ClipLinesXY(append(pts, pts[0]))...)
			x := trX((lo + hi) / 2)
			if v > plt.Y.Max {
				label := plot.Compact(math.Round(v*100) / 100)
				w, h := ts.Width(label)+vg.Points(4), ts.Height(label)+vg.Points(2)
				y := trY(plt.Y.Max) - vg.Points(3) - vg.Length(cutRun%3)*(h+vg.Points(2))
				box := []vg.Point{{X: x - w/2, Y: y}, {X: x + w/2, Y: y}, {X: x + w/2, Y: y - h}, {X: x - w/2, Y: y - h}}
				c.FillPolygon(color.White, box)
				c.StrokeLines(edge, append(box, box[0]))
				c.FillText(ts, vg.Point{X: x, Y: y - vg.Points(1)}, label)
				cutRun++
				continue
			}
			cutRun = 0
			gs := b.Styles[s].Glyph()
			gs.Radius = vg.Points(2.2)
			if pt := (vg.Point{X: x, Y: trY(v) + vg.Points(4)}); c.Contains(pt) {
				c.DrawGlyph(gs, pt)
			}
			hw := b.HalfWidths[s][g]
			if math.IsNaN(hw) || hw <= 0 {
				continue
			}
			wlo, whi := math.Max(v-hw, plt.Y.Min), math.Min(v+hw, plt.Y.Max)
			w := vg.Points(2)
			// a white halo under the black whisker: visible on dark bars too
			for _, ls := range []draw.LineStyle{{Color: color.White, Width: vg.Points(2.4)}, {Color: color.Black, Width: vg.Points(0.8)}} {
				c.StrokeLines(ls, []vg.Point{{X: x, Y: trY(wlo)}, {X: x, Y: trY(whi)}})
				c.StrokeLines(ls, []vg.Point{{X: x - w, Y: trY(wlo)}, {X: x + w, Y: trY(wlo)}})
				c.StrokeLines(ls, []vg.Point{{X: x - w, Y: trY(whi)}, {X: x + w, Y: trY(whi)}})
			}
		}
	}
}

// DataRange implements plot.DataRanger: the bars' range, the top cut at
// Cap.
func (b *ciBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = b.Bars.DataRange()
	return xmin, xmax, ymin, math.Min(ymax, b.Cap)
}
