package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/vg"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/metrics"
)

func init() {
	Register(Builder{Name: "trace-bars", Order: 10, Scope: PerExperiment, Applies: func(c *Context, e *results.Experiment) bool { return !e.Sweep() }, Build: buildTraceBars})
}

// TraceBarMetrics are the summary columns shown for experiments without loads.
var TraceBarMetrics = []string{"mean_response", "mean_wait", "mean_bsld", "utilization", "throughput", "mean_queue"}

// hbarPairs is the number of pairs per horizontal bar chart.
const hbarPairs = 30

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
	unit := expUnit(c, e)
	parts := chunks(e.Pairs(), barPairs)
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
	parts := chunks(e.Pairs(), hbarPairs)
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
