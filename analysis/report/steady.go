package report

import (
	"fmt"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/table"
)

// SteadyBatches is the number of batches of the batch-means intervals.
const SteadyBatches = 20

// minSteadyJobs is the fewest jobs (after warm-up deletion) for which a
// batch-means interval is reported.
const minSteadyJobs = 10 * SteadyBatches

func init() {
	Register(Builder{Name: "steady-state", Order: 62, Scope: PerExperiment, Applies: steadyApplies, Build: buildSteady})
}

// steadyApplies reports whether the steady-state table is shown: for
// single-replication cells, on synthetic traces always, on real logs only
// with Options.SteadyState (a real log need not have a steady state, and
// MSER-5 may then discard up to half of it).
func steadyApplies(c *Context, e *results.Experiment) bool {
	if expUnit(c, e) == "s" && len(c.Set.Traces) > 0 && !c.Opts.SteadyState {
		return false
	}
	return singleRunCells(c, e)
}

// singleRunCells reports whether jobs are available and some cell of the
// experiment has a single replication (so that no interval across
// replications exists).
func singleRunCells(c *Context, e *results.Experiment) bool {
	if c.Set.NumJobs() == 0 {
		return false
	}
	for _, cell := range e.Cells() {
		if len(cell.Rows) == 1 {
			return true
		}
	}
	return false
}

// buildSteady tabulates, for each single-replication (trace, pair), the
// steady-state means of response, wait and bounded slowdown: the warm-up
// is found by MSER-5 on the response times in arrival (job id) order and
// deleted from all three series, then 20 batch means give the interval.
func buildSteady(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	point := "trace"
	if e.Sweep() {
		point = "load"
	}
	t := &table.Table{Name: fmt.Sprintf("exp%d-steady-state", idx),
		Title:  "Steady-state estimates from single runs (MSER-5 warm-up deletion, batch means): " + c.expTitle(e),
		Header: []string{"alloc", "sched", point, "jobs", "deleted", "resp", "wait", "bsld"},
		Align:  []table.Align{table.Left, table.Left, table.Right, table.Right, table.Right, table.Right, table.Right, table.Right},
		Notes: fmt.Sprintf("Jobs in arrival order; deleted: warm-up jobs chosen by MSER-5 on response times; mean ± %g%% half-width from %d batch means (Law & Kelton). Times in %s.",
			c.Level*100, SteadyBatches, unit)}
	limited := false
	for _, cell := range e.Cells() {
		if len(cell.Rows) != 1 {
			continue
		}
		r := cell.Rows[0]
		rd := c.run(results.Key{Trace: r.Trace, Pair: cell.Pair, Rep: r.Rep, Machine: r.Machine, Comm: r.Comm})
		if rd == nil || rd.steady == nil {
			continue
		}
		pt := r.Trace
		if e.Sweep() {
			pt = results.FormatLoad(r.Load)
		}
		limited = limited || rd.steadyLimited
		t.Add(append([]string{cell.Pair.Alloc, cell.Pair.Sched, pt}, rd.steady...)...)
	}
	if len(t.Rows) == 0 {
		return nil, nil
	}
	if limited {
		t.Notes += " * MSER-5 reached its search limit (half the run): no steady state detected (e.g. an overloaded, unstable queue); treat that row's interval with caution."
	}
	return TablePages(t), nil
}
