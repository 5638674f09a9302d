package results

import (
	"math"
	"sort"

	"github.com/schedlab/schedlab/analysis/stats"
)

// Cell is the set of replications of one pair at one point of an
// experiment: one load of a sweep, or one trace otherwise.
type Cell struct {
	Pair  Pair
	Load  float64   // the load (sweeps) or the trace's load (-1 unknown)
	Trace string    // the trace ("" for a sweep point pooling several rep traces)
	Rows  []Summary // one row per replication, by rep
}

// Values returns the metric's value in each replication.
func (c *Cell) Values(metric string) []float64 {
	out := make([]float64, 0, len(c.Rows))
	for i := range c.Rows {
		v, _ := c.Rows[i].Metric(metric)
		out = append(out, v)
	}
	return out
}

// CI returns the Student-t confidence interval of the metric across the
// cell's replications (half-width NaN with one replication). Infinite
// values (power with zero wait) make the mean +Inf and the interval
// undefined.
func (c *Cell) CI(metric string, level float64) stats.CI {
	vs := c.Values(metric)
	for _, v := range vs {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			ci := stats.MeanCI(vs, level)
			ci.HalfWidth = math.NaN()
			return ci
		}
	}
	return stats.MeanCI(vs, level)
}

// Reps returns the rep numbers of the cell's rows.
func (c *Cell) Reps() []int64 {
	out := make([]int64, len(c.Rows))
	for i := range c.Rows {
		out[i] = c.Rows[i].Rep
	}
	return out
}

// Cells groups an experiment's rows into cells: by (pair, load) for a
// sweep, by (pair, trace) otherwise. Cells are sorted by pair, then load,
// then trace; rows within a cell by rep.
func (e *Experiment) Cells() []Cell {
	sweep := e.Sweep()
	type key struct {
		p     Pair
		load  float64
		trace string
	}
	idx := map[key]int{}
	var out []Cell
	for _, r := range e.Rows {
		k := key{p: PairOf(&r), load: r.Load}
		if !sweep {
			k.trace = r.Trace
		}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, Cell{Pair: k.p, Load: k.load, Trace: k.trace})
		}
		out[i].Rows = append(out[i].Rows, r)
	}
	for i := range out {
		rows := out[i].Rows
		sort.SliceStable(rows, func(a, b int) bool {
			if rows[a].Rep != rows[b].Rep {
				return rows[a].Rep < rows[b].Rep
			}
			return rows[a].Trace < rows[b].Trace
		})
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Pair != out[b].Pair {
			return out[a].Pair.Less(out[b].Pair)
		}
		if out[a].Load != out[b].Load {
			return out[a].Load < out[b].Load
		}
		return out[a].Trace < out[b].Trace
	})
	return out
}

// RelativeToBaseline returns, for a cell and the baseline pair's cell at the
// same point, the paired relative difference x̄/b̄ − 1 of the metric across
// the runs both have, matched on (trace, rep) (a sweep point may pool
// several traces with the same rep number), with the delta-method
// interval of stats.PairedRelDiff.
func RelativeToBaseline(c, base *Cell, metric string, level float64) (stats.CI, error) {
	type run struct {
		trace string
		rep   int64
	}
	bm := map[run]float64{}
	for i := range base.Rows {
		v, _ := base.Rows[i].Metric(metric)
		bm[run{base.Rows[i].Trace, base.Rows[i].Rep}] = v
	}
	var x, b []float64
	for i := range c.Rows {
		if bv, ok := bm[run{c.Rows[i].Trace, c.Rows[i].Rep}]; ok {
			v, _ := c.Rows[i].Metric(metric)
			x = append(x, v)
			b = append(b, bv)
		}
	}
	return stats.PairedRelDiff(x, b, level)
}
