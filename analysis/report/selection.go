package report

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/policy"
)

// What the figures show: a reader needs the best pairs first, not every
// pair in every figure. Each experiment's pairs are ranked on RankMetrics;
// its main figures show the featured pairs (the reference pair, the pairs
// named with --pairs, and the best pairs per ranking metric, at most
// plot.MaxCurves), and the other pairs go to the appendix in groups of at
// most plot.MaxCurves. Styles are given by position within a group, so
// that the curves of one figure always differ in colour, marker and
// pattern.

// RankMetrics are the summary columns the ranking page ranks pairs on.
var RankMetrics = []string{"mean_response", "mean_bsld", "utilization"}

// pairGroup is the set of pairs one figure shows.
type pairGroup struct {
	Pairs    []results.Pair
	Appendix bool
	Part     int // 1-based group among the main groups, or among the appendix ones
	Parts    int // number of such groups
}

// suffix is the title suffix of a group's figures.
func (g pairGroup) suffix() string {
	switch {
	case g.Appendix && g.Parts > 1:
		return fmt.Sprintf(" (other pairs, %d/%d)", g.Part, g.Parts)
	case g.Appendix:
		return " (other pairs)"
	case g.Parts > 1:
		return fmt.Sprintf(" (pairs %d/%d)", g.Part, g.Parts)
	}
	return ""
}

// name is the file-name fragment of a group's figures: "" for a single
// main group, "-N" for main group N of several, "-aN" for appendix group N.
func (g pairGroup) name() string {
	switch {
	case g.Appendix:
		return fmt.Sprintf("-a%d", g.Part)
	case g.Parts > 1:
		return fmt.Sprintf("-%d", g.Part)
	}
	return ""
}

// selection is what the figures of one experiment show.
type selection struct {
	ranked   []results.Pair          // by rank (best first)
	meanRank map[string][]float64    // per RankMetrics column: per ranked pair, mean rank over points
	featured []results.Pair          // in experiment pair order
	why      map[results.Pair]string // why a featured pair is shown
	groups   []pairGroup             // main group first
	styles   map[results.Pair]plot.Style
	ref      *results.Pair // the reference pair (baseline, else the first FCFS pair), nil when none
}

// sel returns the selection of an experiment (computed once).
func (c *Context) sel(e *results.Experiment) *selection {
	if s, ok := c.sels[e.Name]; ok {
		return s
	}
	s := c.selectPairs(e)
	if c.sels == nil {
		c.sels = map[string]*selection{}
	}
	c.sels[e.Name] = s
	return s
}

// groups returns the pair groups of an experiment's figures: the main
// group, then the appendix groups.
func (c *Context) groups(e *results.Experiment) []pairGroup { return c.sel(e).groups }

// StyleIn returns the style of a pair in the figures of an experiment.
func (c *Context) StyleIn(e *results.Experiment, p results.Pair) plot.Style {
	if st, ok := c.sel(e).styles[p]; ok {
		return st
	}
	return c.Style(p)
}

// rankPoints ranks the pairs of an experiment at each point (load or
// trace) on col and returns each pair's mean rank (1 = best; pairs without
// a finite value at a point rank last there).
func rankPoints(e *results.Experiment, col string, lower bool, level float64) map[results.Pair]float64 {
	type pv struct {
		p results.Pair
		v float64
	}
	points := map[string][]pv{}
	var order []string
	for _, cell := range e.Cells() {
		k := cell.Trace
		if e.Sweep() {
			k = results.FormatLoad(cell.Load)
		}
		if _, ok := points[k]; !ok {
			order = append(order, k)
		}
		v := cell.CI(col, level).Mean
		if !lower {
			v = -v
		}
		points[k] = append(points[k], pv{cell.Pair, v})
	}
	sum := map[results.Pair]float64{}
	n := map[results.Pair]int{}
	for _, k := range order {
		vs := points[k]
		sort.SliceStable(vs, func(i, j int) bool {
			a, b := vs[i].v, vs[j].v
			if math.IsNaN(a) != math.IsNaN(b) {
				return !math.IsNaN(a)
			}
			return a < b
		})
		for i, x := range vs {
			// Ties share the better rank.
			r := i
			for r > 0 && vs[r-1].v == x.v {
				r--
			}
			sum[x.p] += float64(r + 1)
			n[x.p]++
		}
	}
	out := map[results.Pair]float64{}
	for p, s := range sum {
		out[p] = s / float64(n[p])
	}
	return out
}

// selectPairs ranks the pairs of e and chooses what its figures show.
func (c *Context) selectPairs(e *results.Experiment) *selection {
	pairs := e.Pairs()
	s := &selection{meanRank: map[string][]float64{}, why: map[results.Pair]string{}, styles: map[results.Pair]plot.Style{}}
	ranks := map[string]map[results.Pair]float64{}
	for _, col := range RankMetrics {
		ranks[col] = rankPoints(e, col, col != "utilization", c.Level)
	}
	s.ranked = slices.Clone(pairs)
	sort.SliceStable(s.ranked, func(i, j int) bool {
		for _, col := range RankMetrics {
			a, b := ranks[col][s.ranked[i]], ranks[col][s.ranked[j]]
			if a != b {
				return a < b
			}
		}
		return false
	})
	for _, col := range RankMetrics {
		for _, p := range s.ranked {
			s.meanRank[col] = append(s.meanRank[col], ranks[col][p])
		}
	}
	// The reference pair: --baseline, else the default baseline of the
	// experiment's pairs (FCFS with the default allocator).
	switch {
	case c.Baseline != nil && slices.Contains(pairs, *c.Baseline):
		b := *c.Baseline
		s.ref = &b
	case c.Opts.Baseline == "" || c.Opts.Baseline == NoBaseline:
		s.ref = defaultBaseline(pairs)
	}
	chosen := map[results.Pair]bool{}
	add := func(p results.Pair, why string) {
		if chosen[p] {
			return
		}
		chosen[p] = true
		s.why[p] = why
	}
	if s.ref != nil {
		if c.Opts.Baseline != "" && c.Opts.Baseline != NoBaseline {
			add(*s.ref, "baseline")
		} else {
			add(*s.ref, "baseline (FCFS)")
		}
	}
	for _, p := range c.Opts.Pairs {
		if slices.Contains(pairs, p) {
			add(p, "named with --pairs")
		}
	}
	// The best pairs per metric, in turn, until the group is full. Pairs
	// tied on a metric (the same mean rank) are taken together or not at
	// all: a tie never decides which pairs are drawn (on real logs most
	// pairs tie on utilization, and the pair order would pick the first
	// alphabetically). A metric whose next tie group does not fit stops
	// contributing.
	names := map[string]string{"mean_response": "mean response", "mean_bsld": "bounded slowdown", "utilization": "utilization"}
	tied := map[string][][]results.Pair{}
	for _, col := range RankMetrics {
		ps := slices.Clone(pairs)
		sort.SliceStable(ps, func(i, j int) bool { return ranks[col][ps[i]] < ranks[col][ps[j]] })
		tied[col] = tieGroups(ps, func(p results.Pair) float64 { return ranks[col][p] })
	}
	next := map[string]int{}
	for more := true; more; {
		more = false
		for _, col := range RankMetrics {
			k := next[col]
			if k < 0 || k >= len(tied[col]) {
				continue
			}
			var fresh []results.Pair
			for _, p := range tied[col][k] {
				if !chosen[p] {
					fresh = append(fresh, p)
				}
			}
			if len(chosen)+len(fresh) > plot.MaxCurves {
				next[col] = -1 // the tie does not fit: no pair of it, no worse pair
				continue
			}
			rank := 1
			for _, g := range tied[col][:k] {
				rank += len(g)
			}
			why := fmt.Sprintf("best %d on %s", rank, names[col])
			if len(tied[col][k]) > 1 {
				why = fmt.Sprintf("tied %d on %s", rank, names[col])
			}
			for _, p := range fresh {
				add(p, why)
			}
			next[col] = k + 1
			more = true
		}
	}
	// Featured pairs in rank order (the reference first, below), the
	// others in the experiment's pair order.
	var rest []results.Pair
	for _, p := range s.ranked {
		if chosen[p] {
			s.featured = append(s.featured, p)
		}
	}
	for _, p := range pairs {
		if !chosen[p] {
			rest = append(rest, p)
		}
	}
	// The reference first, so that it keeps the first style (black, solid).
	if s.ref != nil {
		i := slices.Index(s.featured, *s.ref)
		s.featured = append([]results.Pair{*s.ref}, append(s.featured[:i:i], s.featured[i+1:]...)...)
	}
	main := chunks(s.featured, plot.MaxCurves) // --pairs may name more than fit in one figure
	for i, g := range main {
		s.groups = append(s.groups, pairGroup{Pairs: g, Part: i + 1, Parts: len(main)})
	}
	app := chunks(rest, plot.MaxCurves)
	for i, g := range app {
		s.groups = append(s.groups, pairGroup{Pairs: g, Appendix: true, Part: i + 1, Parts: len(app)})
	}
	for _, g := range s.groups {
		for i, p := range g.Pairs {
			s.styles[p] = plot.StyleOf(i)
		}
	}
	return s
}

// tieGroups splits ps, sorted by key, into runs of equal key (NaN equal
// to NaN).
func tieGroups(ps []results.Pair, key func(results.Pair) float64) [][]results.Pair {
	var out [][]results.Pair
	for i, p := range ps {
		if i > 0 {
			a, b := key(ps[i-1]), key(p)
			if a == b || math.IsNaN(a) && math.IsNaN(b) {
				out[len(out)-1] = append(out[len(out)-1], p)
				continue
			}
		}
		out = append(out, []results.Pair{p})
	}
	return out
}

// expTitle is the readable name of an experiment for figure titles: the
// workload (the log's name for a real trace, else the generator and the
// parameters that tell experiments apart) on the machine ("100
// processors", "a 32×32 mesh", "a 6-cube (64 nodes)").
func (c *Context) expTitle(e *results.Experiment) string {
	machine := machineName(e.Machine)
	work := ""
	if expUnit(c, e) == "s" && len(c.Set.Traces) > 0 {
		if len(e.Traces) == 1 {
			work = e.Traces[0]
		} else {
			work = fmt.Sprintf("%d logs", len(e.Traces))
		}
	} else {
		work = strings.TrimPrefix(e.Name, e.Machine)
		work = strings.TrimPrefix(work, ", ")
		switch {
		case work == "":
			work = "traces"
		case !strings.Contains(work, "workload"):
			work += " workload"
		}
	}
	return longFloat.ReplaceAllStringFunc(work, func(s string) string {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return s
		}
		return strconv.FormatFloat(f, 'g', 6, 64)
	}) + " on " + machine
}

// longFloat matches decimals with rounding noise ("94.09000000000009").
var longFloat = regexp.MustCompile(`[0-9]+\.[0-9]{7,}`)

// machineName is a machine spec in words.
func machineName(spec string) string {
	m, err := policy.ParseMachine(spec)
	if err != nil {
		return spec
	}
	if f, _ := policy.FamilyOf(m.Kind); f.Words != nil {
		return f.Words(m)
	}
	return fmt.Sprintf("%d processors", m.Procs)
}

// focusTitle is ", LABEL" for a focus of an experiment, or "" when the
// title already says it (the only trace of the experiment).
func focusTitle(e *results.Experiment, f focus) string {
	if !e.Sweep() && len(e.Traces) == 1 {
		return ""
	}
	return ", " + f.Label
}

// typical returns the median of the finite values of vs (NaN when none).
func typical(vs []float64) float64 {
	var fin []float64
	for _, v := range vs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			fin = append(fin, v)
		}
	}
	return plot.Quantile(fin, 0.5)
}

// span returns the longest makespan of an experiment's runs.
func span(e *results.Experiment) float64 {
	s := 0.0
	for i := range e.Rows {
		if v := e.Rows[i].Makespan; v > s && !math.IsInf(v, 0) {
			s = v
		}
	}
	return s
}

// realLong reports whether an experiment replays real logs (time in
// seconds) spanning a day or more: times read better in hours or days,
// rates per hour or per day.
func realLong(c *Context, e *results.Experiment) bool {
	return expUnit(c, e) == "s" && span(e) >= 86400
}

// valueScale returns the divisor and unit of time values whose typical
// (median) magnitude is typ, for an experiment: the trace's unit, except
// on real logs spanning days, where hours read better (days when typical
// values are 10 days or more).
func valueScale(c *Context, e *results.Experiment, typ float64) (float64, string) {
	unit := expUnit(c, e)
	if !realLong(c, e) {
		return 1, unit
	}
	if typ >= 10*86400 {
		return 86400, "days"
	}
	return 3600, "h"
}

// rateScale returns the multiplier and unit label of a rate (jobs per
// time unit) for an experiment: per hour, or per day when under one an
// hour, on real logs spanning days.
func rateScale(c *Context, e *results.Experiment, vmax float64) (float64, string) {
	unit := expUnit(c, e)
	if !realLong(c, e) {
		if unit == "time units" {
			unit = "time unit"
		}
		return 1, "jobs / " + unit
	}
	if vmax*3600 >= 1 {
		return 3600, "jobs / hour"
	}
	return 86400, "jobs / day"
}
