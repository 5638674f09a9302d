package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/table"
	"github.com/schedlab/schedlab/model/metrics"
)

// TableMetrics are the summary columns of the per-experiment summary table.
var TableMetrics = []string{"mean_response", "mean_wait", "mean_bsld", "utilization", "throughput", "mean_queue"}

func init() {
	Register(Builder{Name: "summary-table", Order: 60, Scope: PerExperiment, Build: buildSummaryTable})
}

// buildSummaryTable tabulates TableMetrics per pair and point (load or
// trace), means ± Student-t half-widths across replications.
func buildSummaryTable(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	point := "trace"
	if e.Sweep() {
		point = "load"
	}
	t := &table.Table{Name: fmt.Sprintf("exp%d-summary", idx), Title: "Summary: " + c.expTitle(e),
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

// legendOf explains the short table headers of the metrics.
func legendOf(cols []string) string {
	var parts []string
	for _, col := range cols {
		m, _ := metrics.Lookup(col)
		parts = append(parts, m.Short+": "+m.Name)
	}
	return strings.Join(parts, "; ") + "."
}
