package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/table"
	"github.com/schedlab/schedlab/model/metrics"
)

func init() {
	Register(Builder{Name: "percentile-tables", Order: 61, Scope: PerExperiment, Applies: hasPercentiles, Build: buildPercentiles})
}

// hasPercentiles reports whether the experiment's summaries have the
// percentile columns (files written before them read 0; a bounded
// slowdown percentile is at least 1, or NaN with no job counted).
func hasPercentiles(_ *Context, e *results.Experiment) bool {
	for i := range e.Rows {
		if v, _ := e.Rows[i].Metric("p50_bsld"); v != 0 && !math.IsNaN(v) {
			return true
		}
	}
	return false
}

// buildPercentiles tabulates the percentiles of wait, response and
// bounded slowdown (metrics.PercentileMetrics, in groups of
// len(metrics.Percentiles)) per pair and point, one table per quantity:
// means across replications ± Student-t half-widths.
func buildPercentiles(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	point := "trace"
	if e.Sweep() {
		point = "load"
	}
	k := len(metrics.Percentiles)
	var pages []Page
	for g := 0; g+k <= len(metrics.PercentileMetrics); g += k {
		ms := metrics.PercentileMetrics[g : g+k]
		_, what, _ := strings.Cut(ms[0].Name, " of ")
		t := &table.Table{Name: fmt.Sprintf("exp%d-percentiles-%d", idx, g/k+1), Title: "Percentiles of " + what + ": " + c.expTitle(e),
			Header: []string{"alloc", "sched", point, "reps"},
			Align:  []table.Align{table.Left, table.Left, table.Right, table.Right},
			Notes: fmt.Sprintf("Percentiles over each run's counted jobs (linear interpolation between closest ranks, Hyndman & Fan type 7), means over replications ± %g%% Student-t half-widths (none with one replication). Times in %s.",
				c.Level*100, unit)}
		for _, m := range ms {
			t.Header = append(t.Header, m.Short)
			t.Align = append(t.Align, table.Right)
		}
		for _, cell := range e.Cells() {
			pt := cell.Trace
			if e.Sweep() {
				pt = results.FormatLoad(cell.Load)
			}
			row := []string{cell.Pair.Alloc, cell.Pair.Sched, pt, strconv.Itoa(len(cell.Rows))}
			for _, m := range ms {
				ci := cell.CI(m.Column, c.Level)
				row = append(row, fmtCI(ci, ci.Mean, ci.HalfWidth))
			}
			t.Add(row...)
		}
		pages = append(pages, TablePages(t)...)
	}
	return pages, nil
}
