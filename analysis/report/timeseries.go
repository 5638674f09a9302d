package report

import (
	"fmt"
	"math"
	"slices"
	"sort"

	goplot "gonum.org/v1/plot"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
)

// SeriesBins is about the number of time windows a run's series is
// averaged into for plots (the window is a round duration: see binWidth).
const SeriesBins = 150

// seriesLines is the most lines one panel of a time-series figure shows.
const seriesLines = 3

func init() {
	Register(Builder{Name: "series", Order: 30, Scope: PerExperiment, Applies: hasSeries, Build: buildSeries})
}

func hasSeries(c *Context, _ *results.Experiment) bool {
	return c.Set.NumSeries() > 0
}

// binWidth returns a round averaging window giving about SeriesBins
// windows over span, and its name: minutes, hours, days or weeks for
// real logs (unit "s"), 1, 2 or 5 × 10^k time units otherwise.
func binWidth(unit string, span float64) (float64, string) {
	raw := span / SeriesBins
	if unit == "s" {
		for _, w := range []struct {
			s    float64
			name string
		}{{60, "1 minute"}, {300, "5 minutes"}, {900, "15 minutes"}, {3600, "1 hour"}, {3 * 3600, "3 hours"}, {6 * 3600, "6 hours"}, {12 * 3600, "12 hours"}, {86400, "1 day"}, {2 * 86400, "2 days"}, {7 * 86400, "1 week"}} {
			if w.s >= raw {
				return w.s, w.name
			}
		}
		return 7 * 86400 * math.Ceil(raw/(7*86400)), fmt.Sprintf("%g weeks", math.Ceil(raw/(7*86400)))
	}
	if !(raw > 0) {
		return 1, "1 " + unit
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	w := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			w = m * mag
			break
		}
	}
	return w, plot.Compact(w) + " " + unit
}

// seriesDigest is what the time-series figures keep of a run's series
// rows: its time span, its peaks and the lines drawn (window averages, a
// few hundred points, not the rows: a run of a year-long log has hundreds
// of thousands).
type seriesDigest struct {
	first, last float64
	peak        [2]float64 // busy processors, queue length (at least 0)
	lines       map[seriesFrame][2]seriesLine
}

// seriesFrame is what fixes the lines of a focus's time-series figures:
// its time span over every pair's run, the machine size and the time
// unit.
type seriesFrame struct {
	t0, t1 float64
	procs  int64
	unit   string
}

// seriesLine is one drawn line: window starts (in the figure's time unit)
// and window averages, ending with the run's end and NaN.
type seriesLine struct{ xs, ys []float64 }

// seriesFrameOf returns the frame of a focus's time-series figures, from
// the runs' spans in d; ok is false when there is no span to draw.
func (c *Context) seriesFrameOf(d *digest, e *results.Experiment, f focus) (fr seriesFrame, ok bool) {
	tr := f.Traces[0]
	for i := range e.Rows {
		if e.Rows[i].Trace == tr {
			fr.procs = e.Rows[i].Procs
		}
	}
	fr.t0, fr.t1, fr.unit = math.Inf(1), math.Inf(-1), expUnit(c, e)
	for _, pair := range e.Pairs() {
		if rd := d.runs[results.Key{Trace: tr, Pair: pair, Rep: f.Rep, Machine: e.Machine, Comm: e.Comm}]; rd != nil && rd.series != nil {
			fr.t0, fr.t1 = math.Min(fr.t0, rd.series.first), math.Max(fr.t1, rd.series.last)
		}
	}
	return fr, fr.t1 > fr.t0
}

// drawnLines averages a run's series rows (in time order) over the
// windows of fr: utilization (busy processors when the machine size is
// unknown), then queue length.
func drawnLines(fr seriesFrame, rows []results.Series) [2]seriesLine {
	div, _ := timeScale(fr.unit, fr.t1-fr.t0)
	bw, _ := binWidth(fr.unit, fr.t1-fr.t0)
	t := make([]float64, len(rows))
	v := make([]float64, len(rows))
	for i := range rows {
		t[i] = rows[i].Time
	}
	var out [2]seriesLine
	for which := range out {
		for i := range rows {
			if which == 0 {
				v[i] = float64(rows[i].Busy)
				if fr.procs > 0 {
					v[i] = float64(rows[i].Busy) / float64(fr.procs)
				}
			} else {
				v[i] = float64(rows[i].Queue)
			}
		}
		end := t[len(t)-1]
		nb := max(1, int(math.Ceil((end-fr.t0)/bw)))
		xs, ys := plot.Downsample(t, v, fr.t0, fr.t0+float64(nb)*bw, nb)
		for i := range xs {
			xs[i] = (fr.t0 + float64(i)*bw) / div // window starts: steps over each window
		}
		out[which] = seriesLine{append(xs, math.Min(end, fr.t0+float64(nb)*bw)/div), append(ys, math.NaN())}
	}
	return out
}

// buildSeries draws utilization and queue length over time for each
// focus trace: time averages over round windows, each line stopping when
// its run ends, at most seriesLines lines per panel (a group's pairs in
// stacked panels sharing the time axis).
func buildSeries(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	if err := c.prepare(); err != nil {
		return nil, err
	}
	var pages []Page
	for _, f := range focuses(e) {
		tr := f.Traces[0]
		fr, ok := c.seriesFrameOf(c.dig, e, f)
		if !ok {
			continue
		}
		data := map[results.Pair]*seriesDigest{}
		for _, pair := range e.Pairs() {
			if rd := c.run(results.Key{Trace: tr, Pair: pair, Rep: f.Rep, Machine: e.Machine, Comm: e.Comm}); rd != nil && rd.series != nil {
				data[pair] = rd.series
			}
		}
		t0, t1, np := fr.t0, fr.t1, fr.procs
		div, tunit := timeScale(unit, t1-t0)
		_, bname := binWidth(unit, t1-t0)
		for wi, which := range []string{"utilization", "queue"} {
			for _, g := range c.groups(e) {
				ylabel := "waiting jobs"
				title := "Queue length over time"
				if which == "utilization" {
					ylabel = "utilization"
					title = "Utilization over time"
					if np <= 0 {
						ylabel = "busy processors"
					}
				}
				var plots []*goplot.Plot
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-time-%s%s", idx, which, f.Name, g.name()),
					Note: fmt.Sprintf("Time averages over windows of %s; each line ends with its run (its last job's completion).", bname)}
				if len(f.Traces) > 1 || e.Sweep() {
					fig.Note = "Trace " + tr + ". " + fig.Note
				}
				panels := panelsByPeak(g.Pairs, func(p results.Pair) float64 {
					if s := data[p]; s != nil {
						return s.peak[wi]
					}
					return 0
				})
				for _, pair := range g.Pairs { // the legend in the group's order
					fig.Legend = append(fig.Legend, plot.Entry{Label: c.Label(pair), Style: c.StyleIn(e, pair)})
				}
				for pi, part := range panels {
					p := plot.New("", "time ("+tunit+")", ylabel)
					if pi == 0 {
						p.Title.Text = fmt.Sprintf("%s: %s%s%s", title, c.expTitle(e), focusTitle(e, f), g.suffix())
					}
					if pi < len(panels)-1 {
						p.X.Label.Text = ""
					}
					for _, pair := range part {
						s := data[pair]
						if s == nil {
							continue
						}
						l := s.lines[fr][wi]
						plot.Step(p, c.Label(pair), c.StyleIn(e, pair), l.xs, l.ys)
					}
					p.X.Min, p.X.Max = t0/div, t1/div
					p.Y.Min = 0
					if which == "utilization" && np > 0 {
						p.Y.Max = 1.02
					}
					plots = append(plots, p)
				}
				fig.Plot = plots[0]
				fig.Panels = plots[1:]
				pages = append(pages, &FigurePage{Fig: fig, Appendix: g.Appendix})
			}
		}
	}
	return pages, nil
}

// panelsByPeak splits pairs into panels of at most seriesLines lines, by
// decreasing peak, starting a new panel when a line's peak is under a
// fifth of the panel's largest (so that one FCFS queue of thousands does
// not flatten the others), with at most 3 panels.
func panelsByPeak(pairs []results.Pair, peak func(results.Pair) float64) [][]results.Pair {
	ps := slices.Clone(pairs)
	pk := make(map[results.Pair]float64, len(ps))
	for _, p := range ps {
		pk[p] = peak(p)
	}
	sort.SliceStable(ps, func(i, j int) bool { return pk[ps[i]] > pk[ps[j]] })
	var out [][]results.Pair
	for _, p := range ps {
		n := len(out)
		if n == 0 || len(out[n-1]) == seriesLines || pk[p] < pk[out[n-1][0]]/5 {
			out = append(out, []results.Pair{p})
			continue
		}
		out[n-1] = append(out[n-1], p)
	}
	if len(out) > 3 {
		return chunks(ps, seriesLines)
	}
	return out
}
