package report

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
)

// SeriesBins is the number of time bins series are averaged into for plots.
const SeriesBins = 200

func init() {
	Register(Builder{Name: "series", Order: 30, Scope: PerExperiment, Applies: hasSeries, Build: buildSeries})
}

func hasSeries(c *Context, _ *results.Experiment) bool {
	return c.Set.NumSeries() > 0
}

// buildSeries draws utilization and queue length over time (SeriesBins
// time averages) for each focus trace.
func buildSeries(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	procs := map[string]int64{}
	for i := range e.Rows {
		procs[e.Rows[i].Trace] = e.Rows[i].Procs
	}
	parts := chunks(e.Pairs(), seriesPairs)
	var pages []Page
	for _, f := range focuses(e) {
		tr := f.Traces[0]
		type ser struct{ t, busy, queue []float64 }
		data := map[results.Pair]ser{}
		t0, t1 := math.Inf(1), math.Inf(-1)
		for _, pair := range e.Pairs() {
			var rows []results.Series
			if rd := c.run(results.Key{Trace: tr, Pair: pair, Rep: f.Rep}); rd != nil {
				rows = rd.series
			}
			var s ser
			for _, r := range rows {
				s.t = append(s.t, r.Time)
				s.busy = append(s.busy, float64(r.Busy))
				s.queue = append(s.queue, float64(r.Queue))
			}
			if len(s.t) > 0 {
				t0, t1 = math.Min(t0, s.t[0]), math.Max(t1, s.t[len(s.t)-1])
			}
			data[pair] = s
		}
		if !(t1 > t0) {
			continue
		}
		np := procs[tr]
		div, tunit := timeScale(unit, t1-t0)
		for _, which := range []string{"utilization", "queue"} {
			for pi, part := range parts {
				ylabel := "waiting jobs (jobs)"
				title := "Queue length over time"
				if which == "utilization" {
					ylabel = "utilization (fraction of processors busy)"
					title = "Utilization over time"
					if np <= 0 {
						ylabel = "busy processors (processors)"
					}
				}
				p := plot.New(fmt.Sprintf("%s: %s, %s%s", title, e.Name, f.Label, partSuffix(pi, len(parts))), "time ("+tunit+")", ylabel)
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-time-%s-%d", idx, which, f.Name, pi+1), Plot: p,
					Note: fmt.Sprintf("Trace %s; time averages over %d equal bins.", tr, SeriesBins)}
				for _, pair := range part {
					s := data[pair]
					v := s.queue
					if which == "utilization" {
						v = make([]float64, len(s.busy))
						for i, b := range s.busy {
							v[i] = b
							if np > 0 {
								v[i] = b / float64(np)
							}
						}
					}
					xs, ys := plot.Downsample(s.t, v, t0, t1, SeriesBins)
					for i := range xs {
						xs[i] /= div
					}
					fig.Legend = append(fig.Legend, plot.Step(p, pair.String(), c.Style(pair), xs, ys))
				}
				p.Y.Min = 0
				if which == "utilization" && np > 0 {
					p.Y.Max = 1
				}
				pages = append(pages, &FigurePage{Fig: fig})
			}
		}
	}
	return pages, nil
}
