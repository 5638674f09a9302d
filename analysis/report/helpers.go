package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	goplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
)

// Helpers shared by the page builders.

func hasJobs(c *Context, _ *results.Experiment) bool { return c.Set.NumJobs() > 0 }

// chunks splits pairs into groups of at most n, balanced.
func chunks(ps []results.Pair, n int) [][]results.Pair {
	if len(ps) == 0 {
		return nil
	}
	k := (len(ps) + n - 1) / n
	size := (len(ps) + k - 1) / k
	var out [][]results.Pair
	for i := 0; i < len(ps); i += size {
		out = append(out, ps[i:min(len(ps), i+size)])
	}
	return out
}

func partSuffix(i, n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (pairs %d/%d)", i+1, n)
}

func expUnit(c *Context, e *results.Experiment) string { return c.Set.TimeUnit(e.Traces...) }

func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == 0:
		return "0"
	}
	a := math.Abs(v)
	if a != 0 && (a >= 1e6 || a < 1e-3) {
		return strconv.FormatFloat(v, 'e', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', sigDecimals(a), 64)
}

func sigDecimals(a float64) int {
	switch {
	case a >= 1000:
		return 1
	case a >= 100:
		return 2
	case a >= 1:
		return 3
	}
	return 4
}

func fmtCI(ci interface {
	Defined() bool
}, mean, hw float64) string {
	if !ci.Defined() {
		return fmtNum(mean)
	}
	return fmtNum(mean) + " ± " + fmtNum(hw)
}

func lastElem(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// dodge is the x shift of the k-th of n curves: ±0.4 of the smallest load
// step (0.1 with a single load), spread evenly, so that error bars at one
// load stay apart.
func dodge(e *results.Experiment, k, n int) float64 {
	if n < 2 || len(e.Loads) < 1 {
		return 0
	}
	step := math.Inf(1)
	if len(e.Loads) == 1 {
		step = 0.1
	}
	for i := 1; i < len(e.Loads); i++ {
		step = math.Min(step, e.Loads[i]-e.Loads[i-1])
	}
	return (float64(k)/float64(n-1) - 0.5) * 0.4 * step * math.Min(1, float64(n)/10)
}

// setYRange sets the y axis from the curves' means and half-widths (see
// plot.ErrorRange), clamps it at 0 for non-negative metrics, and says in
// the note when error bars are clipped.
func setYRange(p *goplot.Plot, fig *plot.Figure, means, hw []float64, nonNeg bool) {
	mlo, mhi := plot.Bounds(means)
	if nonNeg && mlo > 0 && mhi/mlo > 30 {
		// Values over more than a factor of 30 (an FCFS pair at high
		// load beside backfilling ones, slowdowns of very short jobs): a
		// log axis, so that the lower curves are not squashed; error
		// bars below it are clipped.
		p.Y.Scale = goplot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{}
		p.Y.Min, p.Y.Max = mlo/1.5, mhi*1.5
		p.Y.Label.Text += " (log scale)"
		return
	}
	lo, hi, clipped := plot.ErrorRange(means, hw)
	if nonNeg {
		lo = math.Max(lo, 0)
	}
	if hi > lo {
		p.Y.Min, p.Y.Max = lo, hi
	}
	if clipped {
		fig.Note += " Error bars wider than the plot are clipped."
	}
}

// loadTicks puts the x ticks of a load sweep at its loads (labelling every
// k-th one so that at most 12 labels show).
func loadTicks(p *goplot.Plot, e *results.Experiment) {
	k := (len(e.Loads) + 11) / 12
	ts := make([]goplot.Tick, len(e.Loads))
	for i, l := range e.Loads {
		ts[i] = goplot.Tick{Value: l}
		if i%k == 0 {
			ts[i].Label = plot.Compact(l)
		}
	}
	p.X.Tick.Marker = goplot.ConstantTicks(ts)
	// Room for the dodged curves (±0.2 of the smallest step) and their
	// error-bar caps inside the axes.
	if len(e.Loads) > 0 {
		step := 0.1 // a single load
		if len(e.Loads) > 1 {
			step = math.Inf(1)
			for i := 1; i < len(e.Loads); i++ {
				step = math.Min(step, e.Loads[i]-e.Loads[i-1])
			}
		}
		pad := 0.3 * step
		p.X.Min, p.X.Max = e.Loads[0]-pad, e.Loads[len(e.Loads)-1]+pad
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// timeScale returns the divisor and unit label for a time axis spanning
// span trace time units: real logs in seconds switch to hours or days
// when the span is long.
func timeScale(unit string, span float64) (float64, string) {
	if unit != "s" {
		return 1, unit
	}
	switch {
	case span >= 3*86400:
		return 86400, "days"
	case span >= 3*3600:
		return 3600, "hours"
	}
	return 1, "s"
}

// focus is a set of traces shown together in job-level figures: the
// highest load of a sweep (all its replications pooled; the first one for
// time-based figures), or each trace of a non-sweep experiment (at most
// maxFocus).
type focus struct {
	Label  string
	Name   string   // file-name fragment
	Traces []string // pooled traces; Traces[0] for time-based figures
	Rep    int64    // rep of Traces[0]
}

const maxFocus = 4

func focuses(e *results.Experiment) []focus {
	if e.Sweep() {
		top := e.Loads[len(e.Loads)-1]
		var trs []string
		rep := int64(math.MaxInt64)
		first := ""
		for i := range e.Rows {
			r := &e.Rows[i]
			if r.Load == top && !slices.Contains(trs, r.Trace) {
				trs = append(trs, r.Trace)
			}
			if r.Load == top && (r.Rep < rep || (r.Rep == rep && r.Trace < first)) {
				rep, first = r.Rep, r.Trace
			}
		}
		sort.Strings(trs)
		// Put the lowest-rep trace first.
		for i, t := range trs {
			if t == first {
				trs[0], trs[i] = trs[i], trs[0]
			}
		}
		return []focus{{Label: "load " + results.FormatLoad(top), Name: "load" + results.FormatLoad(top), Traces: trs, Rep: rep}}
	}
	var out []focus
	for _, t := range e.Traces {
		if len(out) == maxFocus {
			break
		}
		rep := int64(0)
		for i := range e.Rows {
			if e.Rows[i].Trace == t {
				rep = e.Rows[i].Rep
				break
			}
		}
		out = append(out, focus{Label: "trace " + t, Name: sanitize(t), Traces: []string{t}, Rep: rep})
	}
	return out
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// pairBars draws one horizontal bar per pair (the first pair on top), each
// with its confidence half-width from value and the pair's style, labelled
// by pair name.
func pairBars(c *Context, e *results.Experiment, title, axis string, part []results.Pair, value func(results.Pair) (mean, halfWidth float64)) *goplot.Plot {
	p := plot.New(title, axis, "")
	hb := &plot.HBars{Height: 0.6}
	labels := make([]string, len(part))
	// Row 0 is drawn at the bottom: reverse so the first pair is on top.
	for k := len(part) - 1; k >= 0; k-- {
		pair := part[k]
		v, hw := value(pair)
		hb.Labels = append(hb.Labels, fmtNum(v))
		hb.Values = append(hb.Values, v)
		hb.HalfWidths = append(hb.HalfWidths, hw)
		hb.Styles = append(hb.Styles, c.StyleIn(e, pair))
		labels[len(part)-1-k] = c.Label(pair)
	}
	p.Add(hb)
	p.NominalY(labels...)
	p.Y.Tick.Label.Font = plot.Font(vg.Length(9))
	return p
}
