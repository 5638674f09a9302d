package report

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/table"
	"github.com/schedlab/schedlab/model/metrics"
)

func init() {
	Register(Builder{Name: "baseline", Order: 15, Scope: PerExperiment, Applies: func(c *Context, e *results.Experiment) bool {
		return c.Opts.Baseline != NoBaseline && c.sel(e).ref != nil
	}, Build: buildBaseline})
}

// buildBaseline tabulates the paired relative differences of every pair
// to the --baseline pair and, for sweeps, plots the relative mean response
// against load.
func buildBaseline(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	ref := *c.sel(e).ref
	cells := e.Cells()
	base := map[string]*results.Cell{}
	key := func(cl *results.Cell) string { return results.FormatLoad(cl.Load) + "\x00" + cl.Trace }
	for i := range cells {
		if cells[i].Pair == ref {
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
		Title:  fmt.Sprintf("Relative difference to %s (%%): %s", c.Label(ref), c.expTitle(e)),
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
		if cl.Pair == ref {
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
		for _, g := range c.groups(e) {
			part := g.Pairs
			p := plot.New(fmt.Sprintf("Mean response relative to %s: %s%s", c.Label(ref), c.expTitle(e), g.suffix()), "offered load", unitless)
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-baseline%s", idx, g.name()), Plot: p, Note: fmt.Sprintf("Paired on replication; error bars: %g%% confidence intervals.", c.Level*100)}
			var allM, allH []float64
			for k, pair := range part {
				if pair == ref {
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
				fig.Legend = append(fig.Legend, plot.Curve(p, c.Label(pair), c.StyleIn(e, pair), xs, ys, hw, dodge(e, k, len(part))))
			}
			setYRange(p, fig, allM, allH, false)
			loadTicks(p, e)
			if len(fig.Legend) > 0 {
				pages = append(pages, &FigurePage{Fig: fig, Appendix: g.Appendix})
			}
		}
	}
	return pages, nil
}
