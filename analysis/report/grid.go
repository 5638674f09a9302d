package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/metrics"
)

func init() {
	Register(Builder{Name: "grid", Order: 11, Scope: PerExperiment, Build: buildGrids})
}

// gridMetrics are the metrics of the grid figures: --metrics, else
// RankMetrics.
func (c *Context) gridMetrics() []string {
	if len(c.Opts.Metrics) > 0 {
		return c.Opts.Metrics
	}
	return RankMetrics
}

// buildGrids draws, per metric, every pair of the experiment at once: an
// allocator × scheduler heat map with the values written in its cells, or,
// with one allocator, one bar per scheduler with its confidence interval.
// Values are at the reference point (the highest load of a sweep; each
// trace otherwise).
func buildGrids(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	var allocs, scheds []string
	pairs := e.Pairs()
	for _, p := range pairs {
		if !slices.Contains(allocs, p.Alloc) {
			allocs = append(allocs, p.Alloc)
		}
		if !slices.Contains(scheds, p.Sched) {
			scheds = append(scheds, p.Sched)
		}
	}
	cells := e.Cells()
	type point struct{ label, name, trace string }
	var points []point
	if e.Sweep() {
		points = []point{{" at load " + results.FormatLoad(e.Loads[len(e.Loads)-1]), "", ""}}
	} else {
		for _, t := range e.Traces {
			pt := point{" on trace " + t, "-" + sanitize(t), t}
			if len(e.Traces) == 1 {
				pt.label, pt.name = "", ""
			}
			points = append(points, pt)
		}
	}
	find := func(p results.Pair, trace string) *results.Cell {
		for k := range cells {
			cl := &cells[k]
			if cl.Pair == p && (e.Sweep() && cl.Load == e.Loads[len(e.Loads)-1] || !e.Sweep() && cl.Trace == trace) {
				return cl
			}
		}
		return nil
	}
	var pages []Page
	for _, col := range c.gridMetrics() {
		m, _ := metrics.Lookup(col)
		for _, pt := range points {
			var vals []float64
			ci := map[results.Pair][2]float64{}
			for _, p := range pairs {
				v := [2]float64{math.NaN(), math.NaN()}
				if cl := find(p, pt.trace); cl != nil {
					x := cl.CI(col, c.Level)
					v = [2]float64{x.Mean, x.HalfWidth}
					vals = append(vals, x.Mean)
				}
				ci[p] = v
			}
			if len(vals) == 0 || every(cells, col, math.IsNaN) {
				continue
			}
			scale, axis := metricAxis(c, e, m, typical(vals))
			title := fmt.Sprintf("%s, every pair%s: %s", capitalize(m.Name), pt.label, c.expTitle(e))
			name := fmt.Sprintf("exp%d-grid-%s%s", idx, col, pt.name)
			better := "lower is better"
			if !m.Lower {
				better = "higher is better"
			}
			if len(allocs) == 1 {
				p := pairBars(c, e, title, axis, pairs, func(p results.Pair) (float64, float64) {
					return ci[p][0] * scale, ci[p][1] * scale
				})
				note := fmt.Sprintf("Every pair (%s); bars: means, error bars: %g%% Student-t intervals across replications where there are several.", better, c.Level*100)
				pages = append(pages, &FigurePage{Fig: &plot.Figure{Name: name, Plot: p, Note: note}})
				continue
			}
			g := &plot.Grid{Lower: m.Lower}
			for range allocs {
				g.Values = append(g.Values, make([]float64, len(scheds)))
				g.Labels = append(g.Labels, make([]string, len(scheds)))
			}
			for i, a := range allocs {
				for j, s := range scheds {
					v, ok := ci[results.Pair{Alloc: a, Sched: s}]
					if !ok {
						g.Values[i][j], g.Labels[i][j] = math.NaN(), "n/a"
						continue
					}
					g.Values[i][j], g.Labels[i][j] = v[0]*scale, fmtNum(v[0]*scale)
				}
			}
			p := plot.New(title, "scheduler", "allocator")
			p.Add(g)
			p.NominalX(scheds...)
			p.NominalY(allocs...)
			note := fmt.Sprintf("%s; darker is better (%s; shades by rank). Means across replications; gray: a pair not run.", axis, better)
			pages = append(pages, &FigurePage{Fig: &plot.Figure{Name: name, Plot: p, Note: note}})
		}
	}
	return pages, nil
}
