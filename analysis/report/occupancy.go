package report

import (
	"cmp"
	"fmt"
	"math"
	"sort"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/policy"
)

func init() {
	Register(Builder{Name: "occupancy", Order: 50, Scope: PerExperiment, Applies: hasJobs, Build: buildOccupancy})
}

// GanttJobs is the number of job starts the automatic occupancy window
// spans, from the median start time on.
const GanttJobs = 60

// occupancyPair is the pair whose occupancy is drawn: the baseline when
// given, else the first pair.
func occupancyPair(c *Context, e *results.Experiment) results.Pair {
	ps := e.Pairs()
	if c.Baseline != nil {
		for _, p := range ps {
			if p == *c.Baseline {
				return p
			}
		}
	}
	return ps[0]
}

// autoWindow returns a window spanning GanttJobs consecutive job starts
// from the median start time.
func autoWindow(js []results.Job) Window {
	st := make([]float64, len(js))
	for i := range js {
		st[i] = js[i].Start
	}
	sort.Float64s(st)
	if len(st) == 0 {
		return Window{}
	}
	a := len(st) / 2
	b := min(len(st)-1, a+GanttJobs)
	w := Window{Start: st[a], End: st[b]}
	if !w.Set() {
		end := 0.0
		for i := range js {
			end = math.Max(end, js[i].End)
		}
		w = Window{Start: st[a], End: math.Max(end, st[a]+1)}
	}
	return w
}

func buildOccupancy(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	unit := expUnit(c, e)
	pair := occupancyPair(c, e)
	var pages []Page
	for _, f := range focuses(e) {
		js := c.runJobs(results.Key{Trace: f.Traces[0], Pair: pair, Rep: f.Rep, Machine: e.Machine, Comm: e.Comm})
		if len(js) == 0 {
			continue
		}
		var procs int64
		for i := range e.Rows {
			if e.Rows[i].Trace == f.Traces[0] {
				procs = e.Rows[i].Procs
			}
		}
		w := c.Opts.Window
		if !w.Set() {
			w = autoWindow(js)
		}
		known := true
		for i := range js {
			if len(js[i].Placement) == 0 {
				known = false
				break
			}
		}
		occ := &plot.Occupancy{}
		ylabel := "processor index"
		how := "rectangles are the processor ranges each job held (jobs.parquet placement)"
		if known {
			if m, err := policy.ParseMachine(e.Machine); err == nil {
				f, _ := policy.FamilyOf(m.Kind)
				ylabel, how = cmp.Or(f.View.Axis, ylabel), cmp.Or(f.View.How, how)
			}
			var m placementMachine
			for i := range js {
				j := &js[i]
				if j.End < w.Start || j.Start > w.End {
					continue
				}
				rs, err := m.ranges(j)
				if err != nil {
					return nil, err
				}
				for _, r := range rs {
					occ.Rects = append(occ.Rects, plot.Rect{T0: j.Start, T1: j.End, Lo: float64(r.Lo), Hi: float64(r.Hi), Shade: int(j.JobID)})
				}
			}
		} else {
			ylabel = "processors held (stacked by start time)"
			how = "no processor identities recorded: running jobs stacked by start time at each instant"
			occ.Rects = stacked(js, w)
		}
		div, tunit := timeScale(unit, w.End-w.Start)
		for i := range occ.Rects {
			occ.Rects[i].T0 /= div
			occ.Rects[i].T1 /= div
		}
		p := plot.New(fmt.Sprintf("Processor occupancy under %s: %s%s", pair, c.expTitle(e), focusTitle(e, f)), "time ("+tunit+")", ylabel)
		p.Add(occ)
		p.X.Min, p.X.Max = w.Start/div, w.End/div
		p.Y.Min = 0
		if procs > 0 {
			p.Y.Max = float64(procs)
		}
		fig := &plot.Figure{Name: fmt.Sprintf("exp%d-occupancy-%s", idx, f.Name), Plot: p,
			Legend: []plot.Entry{{Label: "one job (gray shades alternate by job id)", Style: plot.Style{Color: plotGray}, Bar: true}},
			Note:   fmt.Sprintf("Trace %s, window [%s, %s] %s; %s.", f.Traces[0], plot.Compact(w.Start/div), plot.Compact(w.End/div), tunit, how)}
		pages = append(pages, &FigurePage{Fig: fig})
	}
	return pages, nil
}

// stacked returns, for each interval between consecutive start/end times
// inside the window, one rectangle per running job, stacked in order of
// start time (then job id).
func stacked(js []results.Job, w Window) []plot.Rect {
	var times []float64
	var act []*results.Job
	for i := range js {
		j := &js[i]
		if j.End <= w.Start || j.Start >= w.End || j.End <= j.Start {
			continue
		}
		act = append(act, j)
		times = append(times, math.Max(j.Start, w.Start), math.Min(j.End, w.End))
	}
	sort.Float64s(times)
	sort.Slice(act, func(a, b int) bool {
		if act[a].Start != act[b].Start {
			return act[a].Start < act[b].Start
		}
		return act[a].JobID < act[b].JobID
	})
	var out []plot.Rect
	for k := 0; k+1 < len(times); k++ {
		t0, t1 := times[k], times[k+1]
		if t1 <= t0 {
			continue
		}
		y := 0.0
		for _, j := range act {
			if j.Start <= t0 && j.End >= t1 {
				n := max(j.AllocProcs, float64(j.ReqProcs), 1)
				out = append(out, plot.Rect{T0: t0, T1: t1, Lo: y, Hi: y + n - 1, Shade: int(j.JobID)})
				y += n
			}
		}
	}
	return out
}
