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
	Register(Builder{Name: "size-classes", Order: 40, Scope: PerExperiment, Applies: hasJobs, Build: buildSizeClasses})
}

// buildSizeClasses draws the mean response time per power-of-two size
// class of each focus, one bar per pair.
func buildSizeClasses(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	var pages []Page
	for _, f := range focuses(e) {
		// Classes present in any pair's jobs.
		type acc struct{ sum, n float64 }
		per := map[results.Pair]map[int]*acc{}
		present := map[int]bool{}
		for _, pair := range e.Pairs() {
			per[pair] = map[int]*acc{}
			for _, p := range pooledFor(c, e, f, pair) {
				j := p.job()
				k := results.JobSizeClass(&j)
				a := per[pair][k]
				if a == nil {
					a = &acc{}
					per[pair][k] = a
				}
				a.sum += j.Response
				a.n++
				present[k] = true
			}
		}
		var classes []int
		for k := range present {
			classes = append(classes, k)
		}
		sort.Ints(classes)
		if len(classes) == 0 {
			continue
		}
		labels := make([]string, len(classes))
		for i, k := range classes {
			labels[i] = results.SizeClassLabel(k)
		}
		var vals []float64
		for _, pair := range e.Pairs() {
			for _, a := range per[pair] {
				if a.n > 0 {
					vals = append(vals, a.sum/a.n)
				}
			}
		}
		lo, hi := plot.Bounds(vals)
		div, unit := valueScale(c, e, typical(vals))
		yr := hbarRange(lo/div, hi/div)
		for _, g := range c.groups(e) {
			p := plot.New(fmt.Sprintf("Mean response time by job size: %s%s%s", c.expTitle(e), focusTitle(e, f), g.suffix()), "requested processors (power-of-two classes)", "mean response time ("+unit+")")
			bars := &plot.Bars{Width: 0.8}
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-size-classes-%s%s", idx, f.Name, g.name()), Plot: p,
				Note: "Classes (2^(k-1), 2^k] processors."}
			if len(f.Traces) > 1 {
				fig.Note = "Jobs pooled over the replications; classes (2^(k-1), 2^k] processors."
			}
			for _, pair := range g.Pairs {
				vals := make([]float64, len(classes))
				for i, k := range classes {
					vals[i] = math.NaN()
					if a := per[pair][k]; a != nil && a.n > 0 {
						vals[i] = a.sum / a.n / div
					}
				}
				bars.Values = append(bars.Values, vals)
				bars.Styles = append(bars.Styles, c.StyleIn(e, pair))
				fig.Legend = append(fig.Legend, plot.Entry{Label: c.Label(pair), Style: c.StyleIn(e, pair), Bar: true})
			}
			p.Add(bars)
			p.NominalX(labels...)
			p.Y.Min, p.Y.Max = yr.min, yr.max
			if yr.log {
				p.Y.Scale = goplot.LogScale{}
				p.Y.Tick.Marker = plot.LogTicks{}
				p.Y.Label.Text += " (log scale)"
				fig.Note += " Log axis: the means span " + plot.Compact(math.Round(hi/lo)) + " times."
			}
			pages = append(pages, &FigurePage{Fig: fig, Appendix: g.Appendix})
		}
	}
	return pages, nil
}
