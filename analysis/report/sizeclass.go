package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
)

func init() {
	Register(Builder{Name: "size-classes", Order: 40, Scope: PerExperiment, Applies: hasJobs, Build: buildSizeClasses})
}

// buildSizeClasses draws the mean response time per power-of-two size
// class of each focus, one bar per pair.
func buildSizeClasses(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	parts := chunks(e.Pairs(), barPairs)
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
		for pi, part := range parts {
			p := plot.New(fmt.Sprintf("Mean response time by job size: %s, %s%s", e.Name, f.Label, partSuffix(pi, len(parts))), "requested processors (power-of-two classes)", "mean response time ("+unit+")")
			bars := &plot.Bars{Width: 0.8}
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-size-classes-%s-%d", idx, f.Name, pi+1), Plot: p,
				Note: "Jobs pooled over the replications shown; classes (2^(k-1), 2^k] processors."}
			for _, pair := range part {
				vals := make([]float64, len(classes))
				for i, k := range classes {
					vals[i] = math.NaN()
					if a := per[pair][k]; a != nil && a.n > 0 {
						vals[i] = a.sum / a.n
					}
				}
				bars.Values = append(bars.Values, vals)
				bars.Styles = append(bars.Styles, c.Style(pair))
				fig.Legend = append(fig.Legend, plot.Entry{Label: pair.String(), Style: c.Style(pair), Bar: true})
			}
			p.Add(bars)
			p.NominalX(labels...)
			p.Y.Min = 0
			pages = append(pages, &FigurePage{Fig: fig})
		}
	}
	return pages, nil
}
