package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/stats"
	"github.com/schedlab/schedlab/analysis/table"
	"github.com/schedlab/schedlab/model/metrics"
)

func init() {
	Register(Builder{Name: "ranking", Order: -10, Scope: Global, Build: buildRanking})
}

// buildRanking is the report's first page: per experiment, the pairs
// ranked on RankMetrics (mean rank over the experiment's points: loads of
// a sweep, traces otherwise), with the values and their confidence
// intervals at the reference point (the highest load of a sweep, each
// trace otherwise), and where the figures show each pair.
func buildRanking(c *Context, _ *results.Experiment, _ int) ([]Page, error) {
	var pages []Page
	for i := range c.Experiments {
		e := &c.Experiments[i]
		if noJobCounted(e) {
			continue
		}
		pages = append(pages, TablePages(rankingTable(c, e, i+1))...)
	}
	return pages, nil
}

// rankingTable is the ranking of one experiment's pairs.
func rankingTable(c *Context, e *results.Experiment, idx int) *table.Table {
	s := c.sel(e)
	cells := e.Cells()
	// The reference point: the highest load of a sweep; the first trace
	// of independent traces (each trace is a row group when several).
	points := []string{""}
	if !e.Sweep() && len(e.Traces) > 1 {
		points = e.Traces
	}
	top := math.Inf(-1)
	if e.Sweep() {
		top = e.Loads[len(e.Loads)-1]
	}
	find := func(p results.Pair, trace string) *results.Cell {
		for k := range cells {
			cl := &cells[k]
			if cl.Pair != p {
				continue
			}
			if e.Sweep() && cl.Load == top || !e.Sweep() && (trace == "" || cl.Trace == trace) {
				return cl
			}
		}
		return nil
	}
	// Scales: times in hours or days on long real logs.
	var vals []float64
	for k := range cells {
		vals = append(vals, cells[k].CI("mean_response", c.Level).Mean)
	}
	div, tu := valueScale(c, e, typical(vals))
	header := []string{"rank", "alloc", "sched"}
	if len(points) > 1 {
		header = append(header, "trace")
	}
	header = append(header, "resp ("+tu+")", "bsld", "util", "mean ranks", "vs next", "figures")
	t := &table.Table{Name: fmt.Sprintf("exp%d-ranking", idx), Title: "Ranking of the policy pairs: " + c.expTitle(e), Header: header}
	for range header {
		t.Align = append(t.Align, table.Right)
	}
	t.Align[1], t.Align[2] = table.Left, table.Left
	t.Align[len(header)-1] = table.Left
	where := map[results.Pair]string{}
	for _, g := range s.groups {
		for _, p := range g.Pairs {
			switch {
			case !g.Appendix:
				where[p] = "main: " + s.why[p]
			case c.Opts.NoAppendix:
				where[p] = "grids only (no appendix)"
			default:
				where[p] = "appendix " + strconv.Itoa(g.Part)
			}
		}
	}
	// Ties share a rank: a pair whose mean ranks all equal the previous
	// pair's has its rank.
	rankOf := make([]int, len(s.ranked))
	for r := range s.ranked {
		rankOf[r] = r + 1
		if r > 0 && sameRanks(s, r-1, r) {
			rankOf[r] = rankOf[r-1]
		}
	}
	for r, p := range s.ranked {
		ranks := make([]string, len(RankMetrics))
		for k, col := range RankMetrics {
			ranks[k] = strconv.FormatFloat(s.meanRank[col][r], 'f', 1, 64)
		}
		for pi, tr := range points {
			row := []string{strconv.Itoa(rankOf[r]), p.Alloc, p.Sched}
			if l, ok := c.Opts.Labels[p]; ok {
				row[1], row[2] = l, ""
			}
			if pi > 0 {
				row = []string{"", "", ""}
			}
			if len(points) > 1 {
				row = append(row, tr)
			}
			cl := find(p, tr)
			for _, col := range RankMetrics {
				if cl == nil {
					row = append(row, "n/a")
					continue
				}
				ci := cl.CI(col, c.Level)
				f := 1.0
				if m, _ := metrics.Lookup(col); m.Unit == metrics.Time {
					f = 1 / div
				}
				row = append(row, fmtCI(ci, ci.Mean*f, ci.HalfWidth*f))
			}
			if pi == 0 {
				vs := ""
				if r+1 < len(s.ranked) {
					vs = apartFrom(c, e, p, s.ranked[r+1])
				}
				row = append(row, strings.Join(ranks, " / "), vs, where[p])
			} else {
				row = append(row, "", "", "")
			}
			t.Add(row...)
		}
	}
	at := "at load " + results.FormatLoad(top)
	if !e.Sweep() {
		at = "per trace"
		if len(e.Traces) == 1 {
			at = "on the trace"
		}
	}
	npts := len(e.Traces)
	what := "traces"
	if e.Sweep() {
		npts, what = len(e.Loads), "loads"
	}
	reps := 0
	for k := range cells {
		reps = max(reps, len(cells[k].Rows))
	}
	ci := fmt.Sprintf("± %g%% Student-t half-widths across %d replications", c.Level*100, reps)
	if reps < 2 {
		ci = "one replication: no confidence intervals"
	}
	t.Notes = fmt.Sprintf("Pairs ordered by their mean rank on mean response time (resp), then mean bounded slowdown (bsld), then utilization (util, higher is better), ranked at each of the %d %s; mean ranks in that order (1 = best; pairs tied on all three share a rank). Vs next: whether the pair's mean response differs significantly from the next pair's: apart when their %g%% intervals are disjoint at every point, n.s. (not significant) when they overlap at some point (the order of the two is not significant), n/a without intervals (one replication), = when equal. Values %s (%s). Figures: where the pair is drawn (main section: why; appendix: its group).", npts, what, c.Level*100, at, ci)
	return t
}

// sameRanks reports whether the ranked pairs i and j have the same mean
// rank on every ranking metric.
func sameRanks(s *selection, i, j int) bool {
	for _, col := range RankMetrics {
		if s.meanRank[col][i] != s.meanRank[col][j] {
			return false
		}
	}
	return true
}

// apartFrom says whether the mean responses of pairs a and b can be told
// apart: "apart" when their confidence intervals are disjoint at every
// point of the experiment (load or trace), "≈" when they overlap at some
// point, "=" when the means are equal everywhere, "?" when an interval is
// undefined (one replication).
func apartFrom(c *Context, e *results.Experiment, a, b results.Pair) string {
	type pt struct{ ci [2]stats.CI }
	at := map[string]*pt{}
	var order []string
	for _, cl := range e.Cells() {
		if cl.Pair != a && cl.Pair != b {
			continue
		}
		k := results.FormatLoad(cl.Load) + "\x00" + cl.Trace
		if at[k] == nil {
			at[k] = &pt{}
			order = append(order, k)
		}
		i := 0
		if cl.Pair == b {
			i = 1
		}
		at[k].ci[i] = cl.CI("mean_response", c.Level)
	}
	equal, unknown := true, false
	for _, k := range order {
		x, y := at[k].ci[0], at[k].ci[1]
		if x.Mean != y.Mean {
			equal = false
		}
		if !x.Defined() || !y.Defined() {
			unknown = true
			continue
		}
		if x.Lo() <= y.Hi() && y.Lo() <= x.Hi() {
			return "n.s."
		}
	}
	switch {
	case equal:
		return "="
	case unknown:
		return "n/a"
	}
	return "apart"
}
