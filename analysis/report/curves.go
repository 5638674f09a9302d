package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/metrics"
)

// CurveMetrics are the summary columns plotted against load, in order.
var CurveMetrics = []string{"mean_response", "mean_wait", "mean_bsld", "mean_slowdown", "utilization", "throughput", "power", "mean_queue", "sd_response", "max_wait", "internal_frag", "external_frag",
	"window_delay", "window_power", "window_throughput", "window_util", "deadline_miss_rate"}

// zeroSkipped are the curve metrics left out of an experiment where they are
// 0 in every run (fragmentation on a flat machine with the count
// allocator).
var zeroSkipped = map[string]bool{"internal_frag": true, "external_frag": true}

// windowed are the curve metrics that only some runs have (an
// observation window, replay --until; deadlines), left out of an
// experiment where they are NaN in every run.
var windowed = map[string]bool{"window_delay": true, "window_power": true, "window_throughput": true, "window_util": true, "deadline_miss_rate": true}

// allZero reports whether column col is 0 in every row of the cells.
func allZero(cells []results.Cell, col string) bool {
	return every(cells, col, func(v float64) bool { return v == 0 })
}

// every reports whether ok holds for column col in every row of the cells.
func every(cells []results.Cell, col string, ok func(float64) bool) bool {
	for i := range cells {
		for _, v := range cells[i].Values(col) {
			if !ok(v) {
				return false
			}
		}
	}
	return true
}

func init() {
	Register(Builder{Name: "load-curves", Order: 10, Scope: PerExperiment, Applies: isSweep, Build: buildCurves})
}

func isSweep(_ *Context, e *results.Experiment) bool { return e.Sweep() }

// buildCurves draws each of CurveMetrics against offered load, one curve
// per pair with Student-t error bars across replications.
func buildCurves(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	cells := e.Cells()
	byPair := map[results.Pair][]*results.Cell{}
	for i := range cells {
		byPair[cells[i].Pair] = append(byPair[cells[i].Pair], &cells[i])
	}
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
		if zeroSkipped[col] && allZero(cells, col) || windowed[col] && every(cells, col, math.IsNaN) {
			continue
		}
		if len(c.Opts.Metrics) > 0 && !slices.Contains(c.Opts.Metrics, col) {
			continue
		}
		m, _ := metrics.Lookup(col)
		// Time and rate axes in hours or days on long real logs.
		var vals []float64
		for i := range cells {
			vals = append(vals, cells[i].CI(col, c.Level).Mean)
		}
		scale, axis := metricAxis(c, e, m, typical(vals))
		for _, g := range c.groups(e) {
			part := g.Pairs
			p := plot.New(fmt.Sprintf("%s vs offered load: %s%s", capitalize(m.Name), c.expTitle(e), g.suffix()), "offered load", axis)
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-vs-load%s", idx, col, g.name()), Plot: p, Note: note}
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
					ys = append(ys, ci.Mean*scale)
					hw = append(hw, ci.HalfWidth*scale)
				}
				allM, allH = append(allM, ys...), append(allH, hw...)
				fig.Legend = append(fig.Legend, plot.Curve(p, c.Label(pair), c.StyleIn(e, pair), xs, ys, hw, dodge(e, k, len(part))))
			}
			setYRange(p, fig, allM, allH, true)
			loadTicks(p, e)
			if undrawn > 0 {
				fig.Note += fmt.Sprintf(" %d point(s) with an infinite or undefined mean are not drawn (power is +Inf when no job waited in a replication).", undrawn)
			}
			pages = append(pages, &FigurePage{Fig: fig, Appendix: g.Appendix})
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

// metricAxis returns the factor to multiply a metric's values by and the
// axis label: times in hours or days and rates per hour or per day on
// real logs spanning days (valueScale, rateScale), else the trace's unit;
// typ is a typical (median) value.
func metricAxis(c *Context, e *results.Experiment, m metrics.Metric, typ float64) (float64, string) {
	switch m.Unit {
	case metrics.Time:
		div, u := valueScale(c, e, typ)
		return 1 / div, m.Name + " (" + u + ")"
	case metrics.PerTime:
		f, u := rateScale(c, e, typ)
		return f, m.Name + " (" + u + ")"
	}
	return 1, m.AxisLabel(expUnit(c, e))
}
