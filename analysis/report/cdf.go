package report

import (
	"fmt"
	"math"
	"sort"

	goplot "gonum.org/v1/plot"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
)

func init() {
	Register(Builder{Name: "cdf", Order: 20, Scope: PerExperiment, Applies: hasJobs, Build: buildCDFs})
}

// buildCDFs draws the empirical distributions of response and wait times
// of each focus, one step curve per pair. Long real logs are in hours or
// days. A distribution over orders of magnitude gets a log axis that
// starts at a power of ten below the smallest values; the jobs at or
// below it (waits of zero) start the curves at the left edge, and the
// note says how many.
func buildCDFs(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	var pages []Page
	for _, f := range focuses(e) {
		for _, which := range []struct{ col, name string }{{"response", "response time"}, {"wait", "wait time"}} {
			// Common x range: up to the largest 99th percentile over pairs.
			// Each pair's values are sorted once (NaN first), and the
			// pooled values once: quantiles are read off them, with no
			// further copies (a year-long log has millions of jobs).
			all := map[results.Pair][]float64{}
			xmax := 0.0
			n := 0
			for _, pair := range e.Pairs() {
				js := pooledFor(c, e, f, pair)
				vs := make([]float64, len(js))
				for i := range js {
					if which.col == "response" {
						vs[i] = js[i].Response
					} else {
						vs[i] = js[i].Wait
					}
				}
				sort.Float64s(vs)
				all[pair] = vs
				n += len(vs)
				if len(vs) > 0 {
					xmax = math.Max(xmax, plot.QuantileSorted(vs, 0.99))
				}
			}
			// A log x axis when the distribution spans orders of magnitude
			// (real logs).
			pooled := make([]float64, 0, n)
			for _, pair := range e.Pairs() {
				pooled = append(pooled, all[pair]...)
			}
			sort.Float64s(pooled)
			positive := pooled[sort.Search(len(pooled), func(i int) bool { return pooled[i] > 0 }):]
			finite := positive[:sort.Search(len(positive), func(i int) bool { return math.IsInf(positive[i], 1) })]
			div, unit := valueScale(c, e, plot.QuantileSorted(finite, 0.5))
			xmax /= div
			for _, vs := range all {
				for i := range vs {
					vs[i] /= div
				}
			}
			for i := range pooled { // positive is a part of pooled
				pooled[i] /= div
			}
			if xmax == 0 {
				xmax = 1
			}
			med := plot.QuantileSorted(pooled, 0.5)
			logx := len(positive) > 0 && (med <= 0 || xmax/med > 50) && xmax/plot.QuantileSorted(positive, 0.01) > 100
			xmin := 0.0
			if logx {
				xmin = math.Pow(10, math.Floor(math.Log10(plot.QuantileSorted(positive, 0.01))))
				xmin = math.Max(xmin, math.Pow(10, math.Floor(math.Log10(xmax)))*1e-6)
			}
			// The share of jobs at or below the axis start, per pair.
			below := func(vs []float64) float64 {
				n := 0
				for _, v := range vs {
					if v <= xmin {
						n++
					}
				}
				return float64(n) / math.Max(1, float64(len(vs)))
			}
			for _, g := range c.groups(e) {
				p := plot.New(fmt.Sprintf("CDF of %s: %s%s%s", which.name, c.expTitle(e), focusTitle(e, f), g.suffix()), which.name+" ("+unit+")", "cumulative fraction of jobs")
				note := fmt.Sprintf("Jobs pooled over %d replication(s); x axis from 0 to the largest 99th percentile.", len(f.Traces))
				if len(f.Traces) == 1 {
					note = "x axis from 0 to the largest 99th percentile."
				}
				if logx {
					lo, hi := 1.0, 0.0
					for _, pair := range g.Pairs {
						b := below(all[pair])
						lo, hi = math.Min(lo, b), math.Max(hi, b)
					}
					share := fmt.Sprintf("%.0f%%", 100*lo)
					if math.Round(100*hi) != math.Round(100*lo) {
						share = fmt.Sprintf("%.0f–%.0f%%", 100*lo, 100*hi)
					}
					what := "jobs"
					if which.col == "wait" {
						what = "jobs (those that did not wait among them)"
					}
					note = fmt.Sprintf("Log x axis from %s %s to the largest 99th percentile: the %s %s at or below %s %s start the curves at the left edge.", plot.Compact(xmin), unit, share, what, plot.Compact(xmin), unit)
					p.X.Scale = goplot.LogScale{}
					p.X.Tick.Marker = plot.LogTicks{}
					p.X.Label.Text = which.name + " (" + unit + ", log scale)"
				}
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-cdf-%s-%s%s", idx, which.col, f.Name, g.name()), Plot: p, Note: note}
				for _, pair := range g.Pairs {
					vs := all[pair] // sorted, NaN first: ECDF leaves NaN out
					xs, ys := plot.ECDFSorted(vs[sort.Search(len(vs), func(i int) bool { return !math.IsNaN(vs[i]) }):], 400)
					if logx {
						for i := range xs {
							xs[i] = math.Max(xs[i], xmin)
						}
						xs, ys = lastPerX(xs, ys)
					} else if len(xs) > 0 && xs[0] > 0 {
						// Start the step at 0.
						xs, ys = append([]float64{0}, xs...), append([]float64{0}, ys...)
					}
					// Close the step at the axis end.
					if len(xs) > 0 && xs[len(xs)-1] < xmax {
						xs, ys = append(xs, xmax), append(ys, ys[len(ys)-1])
					}
					fig.Legend = append(fig.Legend, plot.Step(p, c.Label(pair), c.StyleIn(e, pair), xs, ys))
				}
				p.X.Min, p.X.Max = xmin, xmax
				p.Y.Min, p.Y.Max = 0, 1
				pages = append(pages, &FigurePage{Fig: fig, Appendix: g.Appendix})
			}
		}
	}
	return pages, nil
}

// lastPerX keeps, of consecutive points with the same x, the last one (the
// ECDF's value there): the jobs drawn at the axis start become one jump,
// not a pile of markers.
func lastPerX(xs, ys []float64) ([]float64, []float64) {
	var ox, oy []float64
	for i := range xs {
		if n := len(ox); n > 0 && ox[n-1] == xs[i] {
			oy[n-1] = ys[i]
			continue
		}
		ox, oy = append(ox, xs[i]), append(oy, ys[i])
	}
	return ox, oy
}
