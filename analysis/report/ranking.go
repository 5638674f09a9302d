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
	header = append(header, "resp ("+tu+")", "bsld", "util", "mean ranks", "figures")
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
			default:
				where[p] = "appendix " + strconv.Itoa(g.Part)
			}
		}
	}
	for r, p := range s.ranked {
		ranks := make([]string, len(RankMetrics))
		for k, col := range RankMetrics {
			ranks[k] = strconv.FormatFloat(s.meanRank[col][r], 'f', 1, 64)
		}
		for pi, tr := range points {
			row := []string{strconv.Itoa(r + 1), p.Alloc, p.Sched}
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
				row = append(row, strings.Join(ranks, " / "), where[p])
			} else {
				row = append(row, "", "")
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
	t.Notes = fmt.Sprintf("Pairs ordered by their mean rank on mean response time (resp), then mean bounded slowdown (bsld), then utilization (util, higher is better), ranked at each of the %d %s; mean ranks in that order (1 = best). Values %s (%s). Figures: where the pair is drawn (main section: why; appendix: its group).", npts, what, at, ci)
	return t
}
