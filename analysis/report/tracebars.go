package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/vg"

	goplot "gonum.org/v1/plot"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/metrics"
)

func init() {
	Register(Builder{Name: "trace-bars", Order: 10, Scope: PerExperiment, Applies: func(c *Context, e *results.Experiment) bool { return !e.Sweep() }, Build: buildTraceBars})
}

// TraceBarMetrics are the summary columns shown for experiments without loads.
var TraceBarMetrics = []string{"mean_response", "mean_wait", "mean_bsld", "utilization", "throughput", "mean_queue"}

// maxHBarTraces is the largest number of traces shown as one horizontal
// chart per trace; beyond it traces become groups of vertical bars.
const maxHBarTraces = 4

// buildTraceBars shows TraceBarMetrics per trace for experiments without
// loads: horizontal bars per trace for a few traces, grouped vertical bars
// beyond maxHBarTraces.
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
	var pages []Page
	for _, col := range TraceBarMetrics {
		m, _ := metrics.Lookup(col)
		var vals []float64
		for i := range cells {
			vals = append(vals, cells[i].CI(col, c.Level).Mean)
		}
		scale, axis := metricAxis(c, e, m, typical(vals))
		for _, g := range c.groups(e) {
			p := plot.New(fmt.Sprintf("%s per trace: %s%s", capitalize(m.Name), c.expTitle(e), g.suffix()), "trace", axis)
			bars := &plot.Bars{Width: 0.8}
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-bars%s", idx, col, g.name()), Plot: p}
			for _, pair := range g.Pairs {
				vals := make([]float64, len(traces))
				for ti, tr := range traces {
					vals[ti] = math.NaN()
					if cell := get[pair][tr]; cell != nil {
						vals[ti] = cell.CI(col, c.Level).Mean * scale
					}
				}
				bars.Values = append(bars.Values, vals)
				bars.Styles = append(bars.Styles, c.StyleIn(e, pair))
				fig.Legend = append(fig.Legend, plot.Entry{Label: c.Label(pair), Style: c.StyleIn(e, pair), Bar: true})
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
			pages = append(pages, &FigurePage{Fig: fig, Appendix: g.Appendix})
		}
	}
	return pages, nil
}

// buildTraceHBars draws, per trace and metric, one horizontal bar per pair
// (pair names on the y axis, first pair at the top), with confidence
// intervals when the trace has several replications. Times are in hours
// or days on long real logs, and the axis is logarithmic when the values
// span more than a factor of 20 (an FCFS pair on a real log would
// otherwise squash the backfilling ones to nothing). The groups of one
// metric share their axis, so that the appendix compares with the main
// figure.
func buildTraceHBars(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	cells := e.Cells()
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
		note := "One replication: no confidence intervals."
		if reps > 1 {
			note = fmt.Sprintf("Whiskers: %g%% Student-t confidence intervals across %d replications.", c.Level*100, reps)
		}
		if len(e.Traces) > 1 {
			note = "Trace " + tr + ". " + note
		}
		for _, col := range TraceBarMetrics {
			m, _ := metrics.Lookup(col)
			var vals []float64
			for _, cell := range byPair {
				vals = append(vals, cell.CI(col, c.Level).Mean)
			}
			lo, hi := plot.Bounds(vals)
			scale, axis := metricAxis(c, e, m, typical(vals))
			xr := hbarRange(lo*scale, hi*scale)
			for _, g := range c.groups(e) {
				title := fmt.Sprintf("%s per policy pair: %s%s%s", capitalize(m.Name), c.expTitle(e), traceTitle(e, tr), g.suffix())
				p := pairBars(c, e, title, axis, g.Pairs, func(pair results.Pair) (float64, float64) {
					if cell := byPair[pair]; cell != nil {
						ci := cell.CI(col, c.Level)
						return ci.Mean * scale, ci.HalfWidth * scale
					}
					return math.NaN(), math.NaN()
				})
				n := note
				if xr.log {
					p.X.Scale = goplot.LogScale{}
					p.X.Tick.Marker = plot.LogTicks{}
					p.X.Label.Text += " (log scale)"
					n += " Log axis: the values span " + plot.Compact(math.Round(hi/lo)) + " times."
				}
				p.X.Min, p.X.Max = xr.min, xr.max
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-%s%s", idx, col, sanitize(tr), g.name()), Plot: p, Note: n}
				pages = append(pages, &FigurePage{Fig: fig, Appendix: g.Appendix})
			}
		}
	}
	return pages, nil
}

// traceTitle is ", trace TR" when the experiment has several traces
// (its title names a single one already).
func traceTitle(e *results.Experiment, tr string) string {
	if len(e.Traces) == 1 {
		return ""
	}
	return ", trace " + tr
}

// axisRange is the x range of a horizontal bar chart.
type axisRange struct {
	min, max float64
	log      bool
}

// hbarRange returns the axis of bars whose values run from lo to hi: from
// 0 (linear), or logarithmic from below lo when hi/lo > 20.
func hbarRange(lo, hi float64) axisRange {
	switch {
	case math.IsNaN(lo):
		return axisRange{0, 1, false}
	case lo > 0 && hi/lo > 20:
		return axisRange{math.Pow(10, math.Floor(math.Log10(lo))), hi * 6, true} // room for the value labels
	case lo >= 0:
		return axisRange{0, hi * 1.25, false}
	}
	return axisRange{lo * 1.08, math.Max(0, hi*1.08), false}
}
