package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	goplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/table"
	"github.com/schedlab/schedlab/model/metrics"
)

// Chunk sizes: how many pairs share one figure.
const (
	curvePairs  = 20 // metric-vs-load curves
	cdfPairs    = 10
	seriesPairs = 6
	barPairs    = 8
)

// CurveMetrics are the summary columns plotted against load, in order.
var CurveMetrics = []string{"mean_response", "mean_wait", "mean_bsld", "mean_slowdown", "utilization", "throughput", "power", "mean_queue", "sd_response", "max_wait"}

// TableMetrics are the summary columns of the per-experiment summary table.
var TableMetrics = []string{"mean_response", "mean_wait", "mean_bsld", "utilization", "throughput", "mean_queue"}

func init() {
	Register(Builder{Name: "title", Order: 0, Scope: Global, Build: buildTitle})
	Register(Builder{Name: "traces", Order: 1, Scope: Global, Applies: func(c *Context, _ *results.Experiment) bool { return len(c.Set.Traces) > 0 }, Build: buildTraces})
	Register(Builder{Name: "load-curves", Order: 10, Scope: PerExperiment, Applies: isSweep, Build: buildCurves})
	Register(Builder{Name: "trace-bars", Order: 10, Scope: PerExperiment, Applies: func(c *Context, e *results.Experiment) bool { return !e.Sweep() }, Build: buildTraceBars})
	Register(Builder{Name: "baseline", Order: 15, Scope: PerExperiment, Applies: func(c *Context, e *results.Experiment) bool { return c.Baseline != nil }, Build: buildBaseline})
	Register(Builder{Name: "cdf", Order: 20, Scope: PerExperiment, Applies: hasJobs, Build: buildCDFs})
	Register(Builder{Name: "series", Order: 30, Scope: PerExperiment, Applies: hasSeries, Build: buildSeries})
	Register(Builder{Name: "size-classes", Order: 40, Scope: PerExperiment, Applies: hasJobs, Build: buildSizeClasses})
	Register(Builder{Name: "occupancy", Order: 50, Scope: PerExperiment, Applies: hasJobs, Build: buildOccupancy})
	Register(Builder{Name: "summary-table", Order: 60, Scope: PerExperiment, Build: buildSummaryTable})
}

func isSweep(_ *Context, e *results.Experiment) bool { return e.Sweep() }
func hasJobs(c *Context, _ *results.Experiment) bool { return len(c.Set.Jobs) > 0 }
func hasSeries(c *Context, _ *results.Experiment) bool {
	return len(c.Set.Series) > 0
}

// chunks splits pairs into groups of at most n, balanced.
func chunks(ps []results.Pair, n int) [][]results.Pair {
	if len(ps) == 0 {
		return nil
	}
	k := (len(ps) + n - 1) / n
	size := (len(ps) + k - 1) / k
	var out [][]results.Pair
	for i := 0; i < len(ps); i += size {
		out = append(out, ps[i:min(len(ps), i+size)])
	}
	return out
}

func partSuffix(i, n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (pairs %d/%d)", i+1, n)
}

func expPairs(e *results.Experiment) []results.Pair {
	seen := map[results.Pair]bool{}
	var out []results.Pair
	for i := range e.Rows {
		p := e.Rows[i].PairOf()
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

func expUnit(c *Context, e *results.Experiment) string { return c.Set.TimeUnit(e.Traces...) }

func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == 0:
		return "0"
	}
	a := math.Abs(v)
	if a != 0 && (a >= 1e6 || a < 1e-3) {
		return strconv.FormatFloat(v, 'e', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', sigDecimals(a), 64)
}

func sigDecimals(a float64) int {
	switch {
	case a >= 1000:
		return 1
	case a >= 100:
		return 2
	case a >= 1:
		return 3
	}
	return 4
}

func fmtCI(ci interface {
	Defined() bool
}, mean, hw float64) string {
	if !ci.Defined() {
		return fmtNum(mean)
	}
	return fmtNum(mean) + " ± " + fmtNum(hw)
}

// --- title and provenance -------------------------------------------------

func buildTitle(c *Context, _ *results.Experiment, _ int) ([]Page, error) {
	s := c.Set
	machines := map[string]bool{}
	for i := range s.Summary {
		machines[s.Summary[i].Machine] = true
	}
	var ms []string
	for m := range machines {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	version := s.Version
	if version == "" {
		version = "(not recorded)"
	}
	lines := [][2]string{
		{"Results", lastElem(s.Dir)},
		{"Tool version", version},
		{"Machines", strings.Join(ms, ", ")},
		{"Traces", fmt.Sprintf("%d (%d with provenance)", countTraces(s), len(s.Traces))},
		{"Policy pairs", strconv.Itoa(len(c.Pairs))},
		{"Summary rows", strconv.Itoa(len(s.Summary))},
		{"Job rows", strconv.Itoa(len(s.Jobs))},
		{"Series rows", strconv.Itoa(len(s.Series))},
		{"Time unit", c.TimeUnit},
		{"Confidence level", fmt.Sprintf("%g%% (Student t across replications)", c.Level*100)},
	}
	if c.Baseline != nil {
		lines = append(lines, [2]string{"Baseline pair", c.Baseline.String()})
	}
	for i, e := range c.Experiments {
		kind := "independent traces"
		if e.Sweep() && len(e.Loads) == 1 {
			kind = "replications at load " + results.FormatLoad(e.Loads[0])
		} else if e.Sweep() {
			kind = fmt.Sprintf("load sweep %s..%s (%d loads)", results.FormatLoad(e.Loads[0]), results.FormatLoad(e.Loads[len(e.Loads)-1]), len(e.Loads))
		}
		lines = append(lines, [2]string{fmt.Sprintf("Experiment %d", i+1), fmt.Sprintf("%s: %d traces, %s", e.Name, len(e.Traces), kind)})
	}
	if len(s.Options) > 0 {
		opts := optionLines(s.Options)
		for i, o := range opts {
			k := ""
			if i == 0 {
				k = "Replay options"
			}
			lines = append(lines, [2]string{k, o})
		}
	}
	return []Page{&TextPage{Title: "schedlab report", Subtitle: "Trace-driven replay of processor allocation and job scheduling", Lines: lines}}, nil
}

// legendOf explains the short table headers of the metrics.
func legendOf(cols []string) string {
	var parts []string
	for _, col := range cols {
		m, _ := metrics.Lookup(col)
		parts = append(parts, m.Short+": "+m.Name)
	}
	return strings.Join(parts, "; ") + "."
}

func lastElem(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

func countTraces(s *results.Set) int {
	m := map[string]bool{}
	for i := range s.Summary {
		m[s.Summary[i].Trace] = true
	}
	return len(m)
}

// optionLines renders the options JSON object as "key = value" lines in key
// order (nested values as compact JSON).
func optionLines(raw json.RawMessage) []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return []string{string(raw)}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		var b bytes.Buffer
		if err := json.Compact(&b, m[k]); err != nil {
			b.Write(m[k])
		}
		v := b.String()
		// Say what an unset option meant rather than printing null or "".
		switch {
		case v == "null" && (k == "allocs" || k == "scheds"):
			v = "every compatible one"
		case v == `""` && k == "machine":
			v = "each trace's own (hint, else flat:MaxProcs)"
		case v == "null" || v == `""` || v == "[]":
			v = "none"
		}
		out[i] = k + " = " + v
	}
	return out
}

func buildTraces(c *Context, _ *results.Experiment, _ int) ([]Page, error) {
	common, varying := splitParams(c.Set.Traces)
	t := &table.Table{Name: "traces", Title: "Traces and their provenance",
		Header: []string{"trace", "machine", "jobs", "load", "rep", "seed", "generator", "source", "parameters that differ"},
		Align:  []table.Align{table.Left, table.Left, table.Right, table.Right, table.Right, table.Right, table.Left, table.Left, table.Left}}
	if len(common) > 0 {
		t.Notes = "Parameters common to every trace: " + strings.Join(common, ", ")
	}
	for i, ti := range c.Set.Traces {
		t.Add(ti.Name, ti.Machine, strconv.FormatInt(ti.Jobs, 10), results.FormatLoad(ti.Load), strconv.FormatInt(ti.Rep, 10),
			strconv.FormatInt(ti.Seed, 10), ti.Generator, lastElem(ti.Source), strings.Join(varying[i], ", "))
	}
	return TablePages(t), nil
}

// splitParams returns the "k=v" parameters shared by every trace, in key
// order, and for each trace those that differ.
func splitParams(ts []results.TraceInfo) (common []string, varying [][]string) {
	per := make([]map[string]string, len(ts))
	keys := map[string]bool{}
	for i := range ts {
		per[i] = map[string]string{}
		if len(ts[i].Params) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(ts[i].Params, &m); err != nil {
			per[i]["params"] = string(ts[i].Params)
			keys["params"] = true
			continue
		}
		for k, v := range m {
			per[i][k] = fmt.Sprint(v)
			keys[k] = true
		}
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	varying = make([][]string, len(ts))
	for _, k := range ks {
		v0, ok0 := per[0][k]
		same := true
		for i := range per {
			if v, ok := per[i][k]; ok != ok0 || v != v0 {
				same = false
				break
			}
		}
		if same && len(ts) > 1 {
			common = append(common, k+"="+v0)
			continue
		}
		for i := range per {
			if v, ok := per[i][k]; ok {
				varying[i] = append(varying[i], k+"="+v)
			}
		}
	}
	return common, varying
}

// --- metric-vs-load curves ----------------------------------------------

func buildCurves(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	cells := e.Cells()
	byPair := map[results.Pair][]*results.Cell{}
	for i := range cells {
		byPair[cells[i].Pair] = append(byPair[cells[i].Pair], &cells[i])
	}
	unit := expUnit(c, e)
	parts := chunks(expPairs(e), curvePairs)
	var pages []Page
	minReps, maxReps := math.MaxInt, 0
	for i := range cells {
		minReps, maxReps = min(minReps, len(cells[i].Rows)), max(maxReps, len(cells[i].Rows))
	}
	note := fmt.Sprintf("Error bars: %g%% Student-t confidence intervals across %s replications.", c.Level*100, repRange(minReps, maxReps))
	if maxReps < 2 {
		note = "One replication per load: no confidence intervals."
	}
	for _, col := range CurveMetrics {
		m, _ := metrics.Lookup(col)
		for pi, part := range parts {
			p := plot.New(fmt.Sprintf("%s vs offered load: %s%s", capitalize(m.Name), e.Name, partSuffix(pi, len(parts))), "offered load", m.AxisLabel(unit))
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-vs-load-%d", idx, col, pi+1), Plot: p, Note: note}
			var allM, allH []float64
			undrawn := 0
			for k, pair := range part {
				var xs, ys, hw []float64
				for _, cell := range byPair[pair] {
					ci := cell.CI(col, c.Level)
					if math.IsInf(ci.Mean, 0) || math.IsNaN(ci.Mean) {
						undrawn++
					}
					xs = append(xs, cell.Load)
					ys = append(ys, ci.Mean)
					hw = append(hw, ci.HalfWidth)
				}
				allM, allH = append(allM, ys...), append(allH, hw...)
				fig.Legend = append(fig.Legend, plot.Curve(p, pair.String(), c.Style(pair), xs, ys, hw, dodge(e, k, len(part))))
			}
			setYRange(p, fig, allM, allH, true)
			loadTicks(p, e)
			if undrawn > 0 {
				fig.Note += fmt.Sprintf(" %d point(s) with an infinite or undefined mean are not drawn (power is +Inf when no job waited in a replication).", undrawn)
			}
			pages = append(pages, &FigurePage{Fig: fig})
		}
	}
	return pages, nil
}

// repRange is "3", or "1 to 3" when the points have different numbers of
// replications (a point with one has no interval).
func repRange(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(hi)
	}
	s := fmt.Sprintf("%d to %d", lo, hi)
	if lo < 2 {
		s += " (none where only one)"
	}
	return s
}

// dodge is the x shift of the k-th of n curves: ±0.4 of the smallest load
// step (0.1 with a single load), spread evenly, so that error bars at one
// load stay apart.
func dodge(e *results.Experiment, k, n int) float64 {
	if n < 2 || len(e.Loads) < 1 {
		return 0
	}
	step := math.Inf(1)
	if len(e.Loads) == 1 {
		step = 0.1
	}
	for i := 1; i < len(e.Loads); i++ {
		step = math.Min(step, e.Loads[i]-e.Loads[i-1])
	}
	return (float64(k)/float64(n-1) - 0.5) * 0.4 * step * math.Min(1, float64(n)/10)
}

// setYRange sets the y axis from the curves' means and half-widths (see
// plot.ErrorRange), clamps it at 0 for non-negative metrics, and says in
// the note when error bars are clipped.
func setYRange(p *goplot.Plot, fig *plot.Figure, means, hw []float64, nonNeg bool) {
	mlo, mhi := plot.Bounds(means)
	if nonNeg && mlo > 0 && mhi/mlo > 1000 {
		// Values over three or more orders of magnitude (slowdowns of
		// very short jobs): a log axis; error bars below it are clipped.
		p.Y.Scale = goplot.LogScale{}
		p.Y.Tick.Marker = goplot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = mlo/1.5, mhi*1.5
		p.Y.Label.Text += " (log scale)"
		return
	}
	lo, hi, clipped := plot.ErrorRange(means, hw)
	if nonNeg {
		lo = math.Max(lo, 0)
	}
	if hi > lo {
		p.Y.Min, p.Y.Max = lo, hi
	}
	if clipped {
		fig.Note += " Error bars wider than the plot are clipped."
	}
}

// loadTicks puts the x ticks of a load sweep at its loads (labelling every
// k-th one so that at most 12 labels show).
func loadTicks(p *goplot.Plot, e *results.Experiment) {
	k := (len(e.Loads) + 11) / 12
	ts := make([]goplot.Tick, len(e.Loads))
	for i, l := range e.Loads {
		ts[i] = goplot.Tick{Value: l}
		if i%k == 0 {
			ts[i].Label = plot.Compact(l)
		}
	}
	p.X.Tick.Marker = goplot.ConstantTicks(ts)
	// Room for the dodged curves (±0.2 of the smallest step) and their
	// error-bar caps inside the axes.
	if len(e.Loads) > 0 {
		step := 0.1 // a single load
		if len(e.Loads) > 1 {
			step = math.Inf(1)
			for i := 1; i < len(e.Loads); i++ {
				step = math.Min(step, e.Loads[i]-e.Loads[i-1])
			}
		}
		pad := 0.3 * step
		p.X.Min, p.X.Max = e.Loads[0]-pad, e.Loads[len(e.Loads)-1]+pad
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// --- per-trace bars (no loads) ----------------------------------------------

// TraceBarMetrics are the summary columns shown for experiments without loads.
var TraceBarMetrics = []string{"mean_response", "mean_wait", "mean_bsld", "utilization", "throughput", "mean_queue"}

// hbarPairs is the number of pairs per horizontal bar chart.
const hbarPairs = 30

// maxHBarTraces is the largest number of traces shown as one horizontal
// chart per trace; beyond it traces become groups of vertical bars.
const maxHBarTraces = 4

func buildTraceBars(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	if len(e.Traces) <= maxHBarTraces {
		return buildTraceHBars(c, e, idx)
	}
	cells := e.Cells()
	traces := e.Traces
	get := map[results.Pair]map[string]*results.Cell{}
	for i := range cells {
		if get[cells[i].Pair] == nil {
			get[cells[i].Pair] = map[string]*results.Cell{}
		}
		get[cells[i].Pair][cells[i].Trace] = &cells[i]
	}
	unit := expUnit(c, e)
	parts := chunks(expPairs(e), barPairs)
	var pages []Page
	for _, col := range TraceBarMetrics {
		m, _ := metrics.Lookup(col)
		for pi, part := range parts {
			p := plot.New(fmt.Sprintf("%s per trace: %s%s", capitalize(m.Name), e.Name, partSuffix(pi, len(parts))), "trace", m.AxisLabel(unit))
			bars := &plot.Bars{Width: 0.8}
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-bars-%d", idx, col, pi+1), Plot: p}
			for _, pair := range part {
				vals := make([]float64, len(traces))
				for ti, tr := range traces {
					vals[ti] = math.NaN()
					if cell := get[pair][tr]; cell != nil {
						vals[ti] = cell.CI(col, c.Level).Mean
					}
				}
				bars.Values = append(bars.Values, vals)
				bars.Styles = append(bars.Styles, c.Style(pair))
				fig.Legend = append(fig.Legend, plot.Entry{Label: pair.String(), Style: c.Style(pair), Bar: true})
			}
			p.Add(bars)
			p.NominalX(traces...)
			p.X.Tick.Label.Font = plot.Font(vg.Length(max(6, 9-float64(len(traces))/6)))
			if len(traces) > 6 {
				p.X.Tick.Label.Rotation = math.Pi / 6
				p.X.Tick.Label.XAlign = -1
				p.X.Tick.Label.YAlign = -0.5
			}
			p.Y.Min = 0
			pages = append(pages, &FigurePage{Fig: fig})
		}
	}
	return pages, nil
}

// buildTraceHBars draws, per trace and metric, one horizontal bar per pair
// (pair names on the y axis, first pair at the top), with confidence
// intervals when the trace has several replications.
func buildTraceHBars(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	cells := e.Cells()
	unit := expUnit(c, e)
	parts := chunks(expPairs(e), hbarPairs)
	var pages []Page
	for _, tr := range e.Traces {
		byPair := map[results.Pair]*results.Cell{}
		reps := 0
		for i := range cells {
			if cells[i].Trace == tr {
				byPair[cells[i].Pair] = &cells[i]
				reps = max(reps, len(cells[i].Rows))
			}
		}
		note := fmt.Sprintf("Trace %s; one replication: no confidence intervals.", tr)
		if reps > 1 {
			note = fmt.Sprintf("Trace %s; whiskers: %g%% Student-t confidence intervals across %d replications.", tr, c.Level*100, reps)
		}
		for _, col := range TraceBarMetrics {
			m, _ := metrics.Lookup(col)
			for pi, part := range parts {
				title := fmt.Sprintf("%s per policy pair: %s, %s%s", capitalize(m.Name), e.Name, tr, partSuffix(pi, len(parts)))
				p := pairBars(c, title, m.AxisLabel(unit), part, func(pair results.Pair) (float64, float64) {
					if cell := byPair[pair]; cell != nil {
						ci := cell.CI(col, c.Level)
						return ci.Mean, ci.HalfWidth
					}
					return math.NaN(), math.NaN()
				})
				p.X.Min = math.Min(0, p.X.Min)
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-%s-%d", idx, col, sanitize(tr), pi+1), Plot: p, Note: note}
				pages = append(pages, &FigurePage{Fig: fig})
			}
		}
	}
	return pages, nil
}

// timeScale returns the divisor and unit label for a time axis spanning
// span trace time units: real logs in seconds switch to hours or days
// when the span is long.
func timeScale(unit string, span float64) (float64, string) {
	if unit != "s" {
		return 1, unit
	}
	switch {
	case span >= 3*86400:
		return 86400, "days"
	case span >= 3*3600:
		return 3600, "hours"
	}
	return 1, "s"
}

// --- relative differences to the baseline --------------------------------

func buildBaseline(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	cells := e.Cells()
	base := map[string]*results.Cell{}
	key := func(cl *results.Cell) string { return results.FormatLoad(cl.Load) + "\x00" + cl.Trace }
	for i := range cells {
		if cells[i].Pair == *c.Baseline {
			base[key(&cells[i])] = &cells[i]
		}
	}
	if len(base) == 0 {
		return nil, nil
	}
	point := "trace"
	if e.Sweep() {
		point = "load"
	}
	cols := []string{"mean_response", "mean_wait", "mean_bsld", "utilization"}
	t := &table.Table{Name: fmt.Sprintf("exp%d-baseline", idx),
		Title:  fmt.Sprintf("Relative difference to %s (%%): %s", c.Baseline, e.Name),
		Header: []string{"alloc", "sched", point, "n"},
		Align:  []table.Align{table.Left, table.Left, table.Right, table.Right},
		Notes:  fmt.Sprintf("100*(mean x / mean base - 1) over the runs both have (paired on trace and rep), ± the %g%% delta-method (ratio estimator) Student-t half-width. Negative is lower than the baseline.", c.Level*100)}
	for _, col := range cols {
		m, _ := metrics.Lookup(col)
		t.Header = append(t.Header, "rel. "+m.Short+" %")
		t.Align = append(t.Align, table.Right)
	}
	for i := range cells {
		cl := &cells[i]
		if cl.Pair == *c.Baseline {
			continue
		}
		b := base[key(cl)]
		if b == nil {
			continue
		}
		pt := cl.Trace
		if e.Sweep() {
			pt = results.FormatLoad(cl.Load)
		}
		row := []string{cl.Pair.Alloc, cl.Pair.Sched, pt, ""}
		n := 0
		for _, col := range cols {
			ci, err := results.RelativeToBaseline(cl, b, col, c.Level)
			if err != nil {
				row = append(row, "n/a")
				continue
			}
			n = ci.N
			row = append(row, fmtCI(ci, 100*ci.Mean, 100*ci.HalfWidth))
		}
		row[3] = strconv.Itoa(n)
		t.Add(row...)
	}
	pages := TablePages(t)
	if e.Sweep() {
		// Figure: relative mean response against load.
		unitless := "relative difference in mean response time (%)"
		parts := chunks(expPairs(e), curvePairs)
		for pi, part := range parts {
			p := plot.New(fmt.Sprintf("Mean response relative to %s: %s%s", c.Baseline, e.Name, partSuffix(pi, len(parts))), "offered load", unitless)
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-baseline-%d", idx, pi+1), Plot: p, Note: fmt.Sprintf("Paired on replication; error bars: %g%% confidence intervals.", c.Level*100)}
			var allM, allH []float64
			for k, pair := range part {
				if pair == *c.Baseline {
					continue
				}
				var xs, ys, hw []float64
				for i := range cells {
					cl := &cells[i]
					if cl.Pair != pair || base[key(cl)] == nil {
						continue
					}
					ci, err := results.RelativeToBaseline(cl, base[key(cl)], "mean_response", c.Level)
					if err != nil {
						continue
					}
					xs, ys, hw = append(xs, cl.Load), append(ys, 100*ci.Mean), append(hw, 100*ci.HalfWidth)
				}
				allM, allH = append(allM, ys...), append(allH, hw...)
				fig.Legend = append(fig.Legend, plot.Curve(p, pair.String(), c.Style(pair), xs, ys, hw, dodge(e, k, len(part))))
			}
			setYRange(p, fig, allM, allH, false)
			loadTicks(p, e)
			if len(fig.Legend) > 0 {
				pages = append(pages, &FigurePage{Fig: fig})
			}
		}
	}
	return pages, nil
}

// --- focus traces for the job-level figures -------------------------------

// focus is a set of traces shown together in job-level figures: the
// highest load of a sweep (all its replications pooled; the first one for
// time-based figures), or each trace of a non-sweep experiment (at most
// maxFocus).
type focus struct {
	Label  string
	Name   string   // file-name fragment
	Traces []string // pooled traces; Traces[0] for time-based figures
	Rep    int64    // rep of Traces[0]
}

const maxFocus = 4

func focuses(e *results.Experiment) []focus {
	if e.Sweep() {
		top := e.Loads[len(e.Loads)-1]
		var trs []string
		rep := int64(math.MaxInt64)
		first := ""
		for i := range e.Rows {
			r := &e.Rows[i]
			if r.Load == top && !containsStr(trs, r.Trace) {
				trs = append(trs, r.Trace)
			}
			if r.Load == top && (r.Rep < rep || (r.Rep == rep && r.Trace < first)) {
				rep, first = r.Rep, r.Trace
			}
		}
		sort.Strings(trs)
		// Put the lowest-rep trace first.
		for i, t := range trs {
			if t == first {
				trs[0], trs[i] = trs[i], trs[0]
			}
		}
		return []focus{{Label: "load " + results.FormatLoad(top), Name: "load" + results.FormatLoad(top), Traces: trs, Rep: rep}}
	}
	var out []focus
	for _, t := range e.Traces {
		if len(out) == maxFocus {
			break
		}
		rep := int64(0)
		for i := range e.Rows {
			if e.Rows[i].Trace == t {
				rep = e.Rows[i].Rep
				break
			}
		}
		out = append(out, focus{Label: "trace " + t, Name: sanitize(t), Traces: []string{t}, Rep: rep})
	}
	return out
}

func containsStr(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// jobsFor returns the pooled jobs of a pair over the focus traces (every
// rep of each trace present in the experiment rows).
func jobsFor(c *Context, e *results.Experiment, f focus, pair results.Pair) []results.Job {
	var out []results.Job
	for i := range e.Rows {
		r := &e.Rows[i]
		if r.PairOf() == pair && containsStr(f.Traces, r.Trace) {
			out = append(out, c.Set.JobsOf(results.Key{Trace: r.Trace, Pair: pair, Rep: r.Rep})...)
		}
	}
	return out
}

// --- CDFs ------------------------------------------------------------------

func buildCDFs(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	parts := chunks(expPairs(e), cdfPairs)
	var pages []Page
	for _, f := range focuses(e) {
		for _, which := range []struct{ col, name string }{{"response", "response time"}, {"wait", "wait time"}} {
			// Common x range: up to the largest 99th percentile over pairs.
			all := map[results.Pair][]float64{}
			xmax := 0.0
			for _, pair := range expPairs(e) {
				js := jobsFor(c, e, f, pair)
				vs := make([]float64, len(js))
				for i := range js {
					if which.col == "response" {
						vs[i] = js[i].Response
					} else {
						vs[i] = js[i].Wait
					}
				}
				all[pair] = vs
				if len(vs) > 0 {
					xmax = math.Max(xmax, plot.Quantile(vs, 0.99))
				}
			}
			if xmax == 0 {
				xmax = 1
			}
			// A log x axis when the distribution spans orders of magnitude
			// (real logs): values below xmin are drawn at xmin.
			var pooled []float64
			for _, vs := range all {
				pooled = append(pooled, vs...)
			}
			med := plot.Quantile(pooled, 0.5)
			logx := med > 0 && xmax/med > 50
			xmin := 0.0
			if logx {
				xmin = math.Max(plot.Quantile(pooled, 0.01), xmax*1e-6)
				if xmin <= 0 {
					xmin = math.Max(1, xmax*1e-6)
					if unit != "s" {
						xmin = xmax * 1e-4
					}
				}
			}
			for pi, part := range parts {
				p := plot.New(fmt.Sprintf("CDF of %s: %s, %s%s", which.name, e.Name, f.Label, partSuffix(pi, len(parts))), which.name+" ("+unit+")", "cumulative fraction of jobs")
				note := fmt.Sprintf("Jobs pooled over %d replication(s); x axis cut at the largest 99th percentile.", len(f.Traces))
				if logx {
					note = fmt.Sprintf("Jobs pooled over %d replication(s); log x axis from %s (smaller values drawn there) to the largest 99th percentile.", len(f.Traces), plot.Compact(xmin))
					p.X.Scale = goplot.LogScale{}
					p.X.Tick.Marker = goplot.LogTicks{Prec: -1}
					p.X.Label.Text = which.name + " (" + unit + ", log scale)"
				}
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-cdf-%s-%s-%d", idx, which.col, f.Name, pi+1), Plot: p, Note: note}
				for _, pair := range part {
					xs, ys := plot.ECDF(all[pair], 400)
					if logx {
						for i := range xs {
							xs[i] = math.Max(xs[i], xmin)
						}
					}
					// Close the step at the axis end.
					if len(xs) > 0 && xs[len(xs)-1] < xmax {
						xs, ys = append(xs, xmax), append(ys, ys[len(ys)-1])
					}
					fig.Legend = append(fig.Legend, plot.Step(p, pair.String(), c.Style(pair), xs, ys))
				}
				p.X.Min, p.X.Max = xmin, xmax
				p.Y.Min, p.Y.Max = 0, 1
				pages = append(pages, &FigurePage{Fig: fig})
			}
		}
	}
	return pages, nil
}

// --- time series -------------------------------------------------------------

// SeriesBins is the number of time bins series are averaged into for plots.
const SeriesBins = 200

func buildSeries(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	procs := map[string]int64{}
	for i := range e.Rows {
		procs[e.Rows[i].Trace] = e.Rows[i].Procs
	}
	parts := chunks(expPairs(e), seriesPairs)
	var pages []Page
	for _, f := range focuses(e) {
		tr := f.Traces[0]
		type ser struct{ t, busy, queue []float64 }
		data := map[results.Pair]ser{}
		t0, t1 := math.Inf(1), math.Inf(-1)
		for _, pair := range expPairs(e) {
			rows := c.Set.SeriesOf(results.Key{Trace: tr, Pair: pair, Rep: f.Rep})
			var s ser
			for _, r := range rows {
				s.t = append(s.t, r.Time)
				s.busy = append(s.busy, float64(r.Busy))
				s.queue = append(s.queue, float64(r.Queue))
			}
			if len(s.t) > 0 {
				t0, t1 = math.Min(t0, s.t[0]), math.Max(t1, s.t[len(s.t)-1])
			}
			data[pair] = s
		}
		if !(t1 > t0) {
			continue
		}
		np := procs[tr]
		div, tunit := timeScale(unit, t1-t0)
		for _, which := range []string{"utilization", "queue"} {
			for pi, part := range parts {
				ylabel := "waiting jobs (jobs)"
				title := "Queue length over time"
				if which == "utilization" {
					ylabel = "utilization (fraction of processors busy)"
					title = "Utilization over time"
					if np <= 0 {
						ylabel = "busy processors (processors)"
					}
				}
				p := plot.New(fmt.Sprintf("%s: %s, %s%s", title, e.Name, f.Label, partSuffix(pi, len(parts))), "time ("+tunit+")", ylabel)
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-time-%s-%d", idx, which, f.Name, pi+1), Plot: p,
					Note: fmt.Sprintf("Trace %s; time averages over %d equal bins.", tr, SeriesBins)}
				for _, pair := range part {
					s := data[pair]
					v := s.queue
					if which == "utilization" {
						v = make([]float64, len(s.busy))
						for i, b := range s.busy {
							v[i] = b
							if np > 0 {
								v[i] = b / float64(np)
							}
						}
					}
					xs, ys := plot.Downsample(s.t, v, t0, t1, SeriesBins)
					for i := range xs {
						xs[i] /= div
					}
					fig.Legend = append(fig.Legend, plot.Step(p, pair.String(), c.Style(pair), xs, ys))
				}
				p.Y.Min = 0
				if which == "utilization" && np > 0 {
					p.Y.Max = 1
				}
				pages = append(pages, &FigurePage{Fig: fig})
			}
		}
	}
	return pages, nil
}

// --- size classes --------------------------------------------------------------

func buildSizeClasses(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	parts := chunks(expPairs(e), barPairs)
	var pages []Page
	for _, f := range focuses(e) {
		// Classes present in any pair's jobs.
		type acc struct{ sum, n float64 }
		per := map[results.Pair]map[int]*acc{}
		present := map[int]bool{}
		for _, pair := range expPairs(e) {
			per[pair] = map[int]*acc{}
			for _, j := range jobsFor(c, e, f, pair) {
				p := j.ReqProcs
				if p <= 0 {
					p = j.AllocProcs
				}
				k := metrics.SizeClass(p)
				a := per[pair][k]
				if a == nil {
					a = &acc{}
					per[pair][k] = a
				}
				a.sum += j.Response
				a.n++
				present[k] = true
			}
		}
		var classes []int
		for k := range present {
			classes = append(classes, k)
		}
		sort.Ints(classes)
		if len(classes) == 0 {
			continue
		}
		labels := make([]string, len(classes))
		for i, k := range classes {
			labels[i] = metrics.SizeClassLabel(k)
		}
		for pi, part := range parts {
			p := plot.New(fmt.Sprintf("Mean response time by job size: %s, %s%s", e.Name, f.Label, partSuffix(pi, len(parts))), "requested processors (power-of-two classes)", "mean response time ("+unit+")")
			bars := &plot.Bars{Width: 0.8}
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-size-classes-%s-%d", idx, f.Name, pi+1), Plot: p,
				Note: "Jobs pooled over the replications shown; classes (2^(k-1), 2^k] processors."}
			for _, pair := range part {
				vals := make([]float64, len(classes))
				for i, k := range classes {
					vals[i] = math.NaN()
					if a := per[pair][k]; a != nil && a.n > 0 {
						vals[i] = a.sum / a.n
					}
				}
				bars.Values = append(bars.Values, vals)
				bars.Styles = append(bars.Styles, c.Style(pair))
				fig.Legend = append(fig.Legend, plot.Entry{Label: pair.String(), Style: c.Style(pair), Bar: true})
			}
			p.Add(bars)
			p.NominalX(labels...)
			p.Y.Min = 0
			pages = append(pages, &FigurePage{Fig: fig})
		}
	}
	return pages, nil
}

// --- summary table ----------------------------------------------------------------

func buildSummaryTable(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	point := "trace"
	if e.Sweep() {
		point = "load"
	}
	t := &table.Table{Name: fmt.Sprintf("exp%d-summary", idx), Title: "Summary: " + e.Name,
		Header: []string{"alloc", "sched", point, "reps", "jobs"},
		Align:  []table.Align{table.Left, table.Left, table.Right, table.Right, table.Right},
		Notes:  fmt.Sprintf("Means over replications ± %g%% Student-t half-widths (none with one replication); jobs: total over replications. Times in %s. %s", c.Level*100, unit, legendOf(TableMetrics))}
	for _, col := range TableMetrics {
		m, _ := metrics.Lookup(col)
		t.Header = append(t.Header, m.Short)
		t.Align = append(t.Align, table.Right)
	}
	for _, cell := range e.Cells() {
		pt := cell.Trace
		if e.Sweep() {
			pt = results.FormatLoad(cell.Load)
		}
		jobs := 0.0
		for _, v := range cell.Values("jobs") {
			jobs += v
		}
		row := []string{cell.Pair.Alloc, cell.Pair.Sched, pt, strconv.Itoa(len(cell.Rows)), strconv.FormatFloat(jobs, 'f', 0, 64)}
		for _, col := range TableMetrics {
			ci := cell.CI(col, c.Level)
			row = append(row, fmtCI(ci, ci.Mean, ci.HalfWidth))
		}
		t.Add(row...)
	}
	return TablePages(t), nil
}

// pairBars draws one horizontal bar per pair (the first pair on top), each
// with its confidence half-width from value and the pair's style, labelled
// by pair name.
func pairBars(c *Context, title, axis string, part []results.Pair, value func(results.Pair) (mean, halfWidth float64)) *goplot.Plot {
	p := plot.New(title, axis, "")
	hb := &plot.HBars{Height: 0.7}
	labels := make([]string, len(part))
	// Row 0 is drawn at the bottom: reverse so the first pair is on top.
	for k := len(part) - 1; k >= 0; k-- {
		pair := part[k]
		v, hw := value(pair)
		hb.Values = append(hb.Values, v)
		hb.HalfWidths = append(hb.HalfWidths, hw)
		hb.Styles = append(hb.Styles, c.Style(pair))
		labels[len(part)-1-k] = pair.String()
	}
	p.Add(hb)
	p.NominalY(labels...)
	p.Y.Tick.Label.Font = plot.Font(vg.Length(max(6.5, min(9, 300/float64(len(part))))))
	return p
}
