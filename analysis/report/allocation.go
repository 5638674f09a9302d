package report

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/stats"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

func init() {
	Register(Builder{Name: "allocation-quality", Order: 35, Scope: PerExperiment, Applies: hasPlacement, Build: buildAllocation})
}

// hasPlacement reports whether the experiment's jobs record where they
// ran (the `placement` column).
func hasPlacement(c *Context, e *results.Experiment) bool {
	if c.Set.NumJobs() == 0 {
		return false
	}
	for i := range e.Rows {
		if rd := c.run(keyOf(&e.Rows[i])); rd != nil && rd.placed {
			return true
		}
	}
	return false
}

// allocMetric is a metric computed from the jobs of one summary row.
type allocMetric struct {
	key, name, axis, note string
}

var allocMetrics = []allocMetric{
	{"fragmentation", "fragmentation of free processors", "time-averaged fragmentation 1 - sum f^2/(sum f)^2",
		"Fragmentation 1 - sum f^2/(sum f)^2 of the free processors into maximal contiguous free blocks f (evalys's formula, applied over processors), averaged over time; 0 = one free block."},
	{"dispersion", "allocation dispersion", "mean contiguous blocks per job",
		"Number of maximal contiguous processor blocks a job's allocation is made of, averaged over jobs; 1 = contiguous."},
}

// rowAllocValues returns the allocation metrics of one (trace, pair,
// rep), computed in the pass over the jobs.
func rowAllocValues(c *Context, r *results.Summary) (map[string]float64, error) {
	if rd := c.run(keyOf(r)); rd != nil {
		return rd.alloc, rd.allocErr
	}
	return allocValues(nil, r.Procs)
}

// allocValues computes the allocation metrics of the jobs of one run on
// procs processors (from the placements when procs ≤ 0).
func allocValues(js []results.Job, procs int64) (map[string]float64, error) {
	ivs := make([]metrics.Interval, 0, len(js))
	disp, n := 0.0, 0
	var m placementMachine
	for i := range js {
		rs, err := m.ranges(&js[i])
		if err != nil {
			return nil, err
		}
		if len(rs) == 0 {
			continue
		}
		ivs = append(ivs, metrics.Interval{Start: js[i].Start, End: js[i].End, Nodes: rs})
		disp += float64(metrics.Dispersion(rs))
		n++
	}
	if procs <= 0 {
		for _, iv := range ivs {
			for _, rg := range iv.Nodes {
				procs = max(procs, rg.Hi+1)
			}
		}
	}
	out := map[string]float64{"fragmentation": math.NaN(), "dispersion": math.NaN()}
	if n > 0 {
		out["fragmentation"] = metrics.TimeAveragedFragmentation(procs, ivs)
		out["dispersion"] = disp / float64(n)
	}
	return out, nil
}

func buildAllocation(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	cells := e.Cells()
	vals := make([]map[string][]float64, len(cells))
	for i := range cells {
		vals[i] = map[string][]float64{}
		for k := range cells[i].Rows {
			v, err := rowAllocValues(c, &cells[i].Rows[k])
			if err != nil {
				return nil, err
			}
			for key, x := range v {
				vals[i][key] = append(vals[i][key], x)
			}
		}
	}
	var pages []Page
	for _, m := range allocMetrics {
		if numbered(e.Machine) {
			m.note += " On " + e.Machine + ", blocks are runs of consecutive node numbers (mesh: y*W+x; hypercube: addresses)."
		}
		if e.Sweep() {
			for _, g := range c.groups(e) {
				part := g.Pairs
				p := plot.New(fmt.Sprintf("%s vs offered load: %s%s", capitalize(m.name), c.expTitle(e), g.suffix()), "offered load", m.axis)
				fig := &plot.Figure{Name: fmt.Sprintf("exp%d-%s-vs-load%s", idx, m.key, g.name()), Plot: p, Note: m.note}
				var allM, allH []float64
				for k, pair := range part {
					var xs, ys, hw []float64
					for i := range cells {
						if cells[i].Pair != pair {
							continue
						}
						ci := stats.MeanCI(vals[i][m.key], c.Level)
						xs, ys, hw = append(xs, cells[i].Load), append(ys, ci.Mean), append(hw, ci.HalfWidth)
					}
					allM, allH = append(allM, ys...), append(allH, hw...)
					fig.Legend = append(fig.Legend, plot.Curve(p, c.Label(pair), c.StyleIn(e, pair), xs, ys, hw, dodge(e, k, len(part))))
				}
				setYRange(p, fig, allM, allH, true)
				loadTicks(p, e)
				pages = append(pages, &FigurePage{Fig: fig, Appendix: g.Appendix})
			}
			continue
		}
		// Independent traces: horizontal bars per trace.
		for _, tr := range e.Traces {
			if len(e.Traces) > maxHBarTraces {
				break
			}
			for _, g := range c.groups(e) {
				title := fmt.Sprintf("%s per policy pair: %s%s%s", capitalize(m.name), c.expTitle(e), traceTitle(e, tr), g.suffix())
				p := pairBars(c, e, title, m.axis, g.Pairs, func(pair results.Pair) (float64, float64) {
					v, hw := math.NaN(), math.NaN()
					for i := range cells {
						if cells[i].Pair == pair && cells[i].Trace == tr {
							ci := stats.MeanCI(vals[i][m.key], c.Level)
							v, hw = ci.Mean, ci.HalfWidth
						}
					}
					return v, hw
				})
				p.X.Min = math.Min(0, p.X.Min)
				note := m.note
				if len(e.Traces) > 1 {
					note = "Trace " + tr + ". " + note
				}
				pages = append(pages, &FigurePage{Fig: &plot.Figure{Name: fmt.Sprintf("exp%d-%s-%s%s", idx, m.key, sanitize(tr), g.name()), Plot: p, Note: note}, Appendix: g.Appendix})
			}
		}
	}
	return pages, nil
}

// placementMachine turns jobs' placements into node ranges on their
// machine, parsing each machine spec once.
type placementMachine struct {
	parsed bool
	spec   string
	m      policy.Machine
	err    error
}

// ranges returns the node ranges job j held (metrics.NodeRanges); errors
// name the file, the job and the column.
func (pm *placementMachine) ranges(j *results.Job) ([]metrics.Range, error) {
	if len(j.Placement) == 0 {
		return nil, nil
	}
	if !pm.parsed || j.Machine != pm.spec {
		pm.parsed, pm.spec = true, j.Machine
		pm.m, pm.err = policy.ParseMachine(j.Machine)
	}
	if pm.err != nil {
		return nil, fmt.Errorf("%s: job %d of trace %s: column \"machine\": %v", schema.JobsFile, j.JobID, j.Trace, pm.err)
	}
	rs, err := metrics.NodeRanges(pm.m, j.Placement)
	if err != nil {
		return nil, fmt.Errorf("%s: job %d of trace %s: column \"placement\": %v", schema.JobsFile, j.JobID, j.Trace, err)
	}
	return rs, nil
}

// numbered reports whether a machine (a spec) numbers its nodes other
// than as a line of processors (its family's Nodes: a mesh, a hypercube),
// so that the blocks of a placement need a note.
func numbered(spec string) bool {
	m, err := policy.ParseMachine(spec)
	if err != nil {
		return true
	}
	f, _ := policy.FamilyOf(m.Kind)
	return f.Nodes != nil
}
