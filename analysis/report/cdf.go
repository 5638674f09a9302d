package report

import (
	"fmt"
	"math"

	goplot "gonum.org/v1/plot"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
)

func init() {
	Register(Builder{Name: "cdf", Order: 20, Scope: PerExperiment, Applies: hasJobs, Build: buildCDFs})
}

// buildCDFs draws the empirical distributions of response and wait times
// of each focus, one step curve per pair.
func buildCDFs(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	parts := chunks(e.Pairs(), cdfPairs)
	var pages []Page
	for _, f := range focuses(e) {
		for _, which := range []struct{ col, name string }{{"response", "response time"}, {"wait", "wait time"}} {
			// Common x range: up to the largest 99th percentile over pairs.
			all := map[results.Pair][]float64{}
			xmax := 0.0
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
				all[pair] = vs
				if len(vs) > 0 {
					xmax = math.Max(xmax, plot.Quantile(vs, 0.99))
				}
			}
			if xmax == 0 {
				xmax = 1
			}
			// A log x axis when the distribution spans orders of magnitude
			// (real logs): values below xmin are drawn at xmin.
			var pooled []float64
			for _, vs := range all {
				pooled = append(pooled, vs...)
			}
			med := plot.Quantile(pooled, 0.5)
			logx := med > 0 && xmax/med > 50
			xmin := 0.0
			if logx {
				xmin = math.Max(plot.Quantile(pooled, 0.01), xmax*1e-6)
				if xmin <= 0 {
					xmin = math.Max(1, xmax*1e-6)
					if unit != "s" {
						xmin = xmax * 1e-4
					}
				}
			}
			for pi, part := range parts {
				p := plot.New(fmt.Sprintf("CDF of %s: %s, %s%s", which.name, e.Name, f.Label, partSuffix(pi, len(parts))), which.name+" ("+unit+")", "cumulative fraction of jobs")
				note := fmt.Sprintf("Jobs pooled over %d replication(s); x axis cut at the largest 99th percentile.", len(f.Traces))
				if logx {
					note = fmt.Sprintf("Jobs pooled over %d replication(s); log x axis from %s (smaller values drawn there) to the largest 99th percentile.", len(f.Traces), plot.Compact(xmin))
					p.X.Scale = goplot.LogScale{}
					p.X.Tick.Marker = goplot.LogTicks{Prec: -1}
					p.X.Label.Text = which.name + " (" + unit + ", log scale)"
				}
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-cdf-%s-%s-%d", idx, which.col, f.Name, pi+1), Plot: p, Note: note}
				for _, pair := range part {
					xs, ys := plot.ECDF(all[pair], 400)
					if logx {
						for i := range xs {
							xs[i] = math.Max(xs[i], xmin)
						}
					}
					// Close the step at the axis end.
					if len(xs) > 0 && xs[len(xs)-1] < xmax {
						xs, ys = append(xs, xmax), append(ys, ys[len(ys)-1])
					}
					fig.Legend = append(fig.Legend, plot.Step(p, pair.String(), c.Style(pair), xs, ys))
				}
				p.X.Min, p.X.Max = xmin, xmax
				p.Y.Min, p.Y.Max = 0, 1
				pages = append(pages, &FigurePage{Fig: fig})
			}
		}
	}
	return pages, nil
}
