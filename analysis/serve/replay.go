package serve

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"unsafe"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// Bounds of the replay payload. A run may hold 100k jobs and more, so
// /api/replay sends a time window of it: the jobs that run during the
// window, whose starts inside the window are at most MaxReplayJobs (the
// window's end is pulled in to the start of the first job over the
// bound, and the response says so), plus those already running when the
// window opens (at most the machine's size for rigid jobs). Waiting jobs
// are not sent one by one: the queue length is a step function, computed
// from every job of the run with the processors busy, and is cut to the
// window; above MaxSeriesPoints steps (arrivals far outnumbering starts)
// it is reduced to the maxima over OverviewBins equal bins. A whole-run
// overview of the queue and of the busy processors (binned maxima) lets
// the page pick another window.
const (
	MaxReplayJobs   = 2000
	MaxSeriesPoints = 8000
	OverviewBins    = 600
)

// runJobs is a run's jobs prepared for the replay.
type runJobs struct {
	key        results.Key
	jobs       []rjob  // by start time, then job id
	tmin, tmax float64 // first submit, last end
	steps      []step  // the state after the events at each instant
	overview   []step  // steps over [tmin, tmax] in OverviewBins binned maxima
	size       int64   // bytes held, about (the cache's measure)
}

// rjob is what the replay keeps of a job.
type rjob struct {
	ID                 int64
	Submit, Start, End float64
	Procs              int64   // requested
	Alloc              float64 // alloc_procs
	Placement          []schema.Piece
}

// step is the state of a run from time T on: Q jobs submitted and not
// started, B processors held (the alloc_procs of the jobs running).
type step struct{ T, Q, B float64 }

// errFound stops a pass over the runs once the run sought is read.
var errFound = errors.New("found")

// loadRun reads the jobs of run k from the set and prepares them: a
// binary search when the set is in memory, else a pass over jobs.parquet
// up to the run. It only reads the set, so loads may run concurrently:
// newData's pass over the jobs has found the file sorted by run, or loaded
// it into memory (results.ErrUnsorted). The file must not change while the
// server runs.
func (d *data) loadRun(k results.Key) (*runJobs, error) {
	if d.set.Jobs != nil {
		return prepare(k, d.set.JobsOf(k)), nil
	}
	var rj *runJobs
	err := d.set.EachJobRun(func(rk results.Key, js []results.Job) error {
		if rk != k {
			return nil
		}
		rj = prepare(k, js)
		return errFound
	})
	switch {
	case err == nil && rj == nil:
		return nil, fmt.Errorf("%s: run %s %s rep %d: no job rows (the file changed since the server started?)", schema.JobsFile, k.Trace, k.Pair, k.Rep)
	case err != nil && err != errFound:
		return nil, err
	}
	return rj, nil
}

// prepare sorts a run's jobs by start and computes its queue and busy
// step functions. It copies what it keeps of js.
func prepare(k results.Key, js []results.Job) *runJobs {
	np := 0
	for i := range js {
		np += len(js[i].Placement)
	}
	arena := make([]schema.Piece, 0, np)
	rj := &runJobs{key: k, jobs: make([]rjob, len(js)), tmin: math.Inf(1), tmax: math.Inf(-1)}
	for i := range js {
		j := &js[i]
		x := rjob{ID: j.JobID, Submit: j.Submit, Start: j.Start, End: j.End, Procs: j.ReqProcs, Alloc: j.AllocProcs}
		if len(j.Placement) > 0 {
			a := len(arena)
			arena = append(arena, j.Placement...)
			x.Placement = arena[a:len(arena):len(arena)]
		}
		rj.jobs[i] = x
	}
	slices.SortStableFunc(rj.jobs, func(a, b rjob) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.ID, b.ID))
	})
	type ev struct{ t, dq, db float64 }
	evs := make([]ev, 0, 3*len(js))
	for i := range rj.jobs {
		j := &rj.jobs[i]
		rj.tmin, rj.tmax = math.Min(rj.tmin, j.Submit), math.Max(rj.tmax, j.End)
		evs = append(evs, ev{j.Submit, 1, 0}, ev{j.Start, -1, j.Alloc}, ev{j.End, 0, -j.Alloc})
	}
	sort.SliceStable(evs, func(a, b int) bool { return evs[a].t < evs[b].t })
	var q, b float64
	for i := 0; i < len(evs); {
		k := i
		for ; k < len(evs) && evs[k].t == evs[i].t; k++ {
			q += evs[k].dq
			b += evs[k].db
		}
		if math.Abs(b) < 1e-9 {
			b = 0 // fractional shares summed and subtracted
		}
		rj.steps = append(rj.steps, step{evs[i].t, q, b})
		i = k
	}
	rj.steps = slices.Clip(rj.steps)
	rj.overview = binMax(rj.steps, rj.tmin, rj.tmax, OverviewBins)
	rj.size = int64(unsafe.Sizeof(*rj)) + int64(len(rj.jobs))*int64(unsafe.Sizeof(rjob{})) +
		int64(np)*int64(unsafe.Sizeof(schema.Piece{})) + int64(len(rj.steps)+len(rj.overview))*int64(unsafe.Sizeof(step{}))
	return rj
}

// firstStart returns the index of the first job starting at or after t.
func (rj *runJobs) firstStart(t float64) int {
	return sort.Search(len(rj.jobs), func(i int) bool { return rj.jobs[i].Start >= t })
}

// at returns the state at t (zero before the first step).
func at(s []step, t float64) step {
	i := sort.Search(len(s), func(i int) bool { return s[i].T > t })
	if i == 0 {
		return step{T: t}
	}
	return step{t, s[i-1].Q, s[i-1].B}
}

// cut returns the steps of s in the window [t0, t1]: the value at t0,
// then every change up to t1; above MaxSeriesPoints steps, binned maxima.
func cut(s []step, t0, t1 float64) []step {
	out := []step{at(s, t0)}
	i := sort.Search(len(s), func(i int) bool { return s[i].T > t0 })
	for ; i < len(s) && s[i].T <= t1; i++ {
		out = append(out, s[i])
	}
	if len(out) > MaxSeriesPoints {
		return binMax(out, t0, t1, OverviewBins)
	}
	return out
}

// binMax reduces the steps s over [t0, t1] to n equal bins, each a step
// at its start holding the largest queue and busy values taken in it.
func binMax(s []step, t0, t1 float64, n int) []step {
	if t1 <= t0 || len(s) == 0 {
		return []step{at(s, t0)}
	}
	out := make([]step, n)
	w := (t1 - t0) / float64(n)
	i := sort.Search(len(s), func(i int) bool { return s[i].T > t0 })
	for k := range out {
		a := t0 + float64(k)*w
		v := at(s, a)
		for ; i < len(s) && s[i].T < a+w; i++ {
			if s[i].T > a {
				v.Q, v.B = math.Max(v.Q, s[i].Q), math.Max(v.B, s[i].B)
			}
		}
		out[k] = v
	}
	return out
}

// window returns the replay window for the optional bounds t0 and t1:
// [t0, t1] cut so that at most MaxReplayJobs jobs start inside it (from
// t0 forwards, or from t1 backwards when only t1 is given); the run's
// first submit and last end when absent.
func (rj *runJobs) window(t0 float64, has0 bool, t1 float64, has1 bool) (w0, w1 float64, truncated bool, err error) {
	w0, w1 = rj.tmin, rj.tmax
	if has0 {
		w0 = t0
	}
	if has1 {
		w1 = t1
	}
	if has0 && has1 && t1 <= t0 {
		return 0, 0, false, badRequest("window [t0=%g, t1=%g]: t1 must be after t0", t0, t1)
	}
	if w0 >= rj.tmax && len(rj.jobs) > 0 {
		return 0, 0, false, badRequest("t0=%g: at or after the run's last end (%g)", w0, rj.tmax)
	}
	if w1 <= rj.tmin && len(rj.jobs) > 0 {
		return 0, 0, false, badRequest("t1=%g: at or before the run's first submit (%g)", w1, rj.tmin)
	}
	lo := rj.firstStart(w0)
	hi := rj.firstStart(w1)
	if hi-lo > MaxReplayJobs {
		truncated = true
		if has1 && !has0 {
			w0 = rj.jobs[hi-MaxReplayJobs].Start
		} else {
			w1 = rj.jobs[lo+MaxReplayJobs].Start
		}
	}
	return w0, w1, truncated, nil
}

type machineInfo struct {
	Spec   string `json:"spec"`
	Kind   string `json:"kind"` // flat, mesh or cube
	Procs  int    `json:"procs"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Dim    int    `json:"dim,omitempty"`
	// Slices: the nodes are laid out on a Width×Height plane of the
	// family's (policy.Family.View.Layout: a 3-D machine's planes side by
	// side, a fat tree's leaf switches, a dragonfly's routers); pieces are
	// drawn as rectangles there.
	Slices bool   `json:"slices,omitempty"`
	Note   string `json:"note,omitempty"` // how the layout reads (policy.Family.View.Note)
}

// replayJob is one job of the replay window. A mesh job's placement is
// its submeshes (x, y, w, h: lower-left corner and size; several for a
// non-contiguous allocation); a flat or cube job's is its node ranges
// [lo, hi] (metrics.NodeRanges: a subcube's node addresses). Neither is
// set when the placement was not recorded.
type replayJob struct {
	ID     int64      `json:"id"`
	Submit num        `json:"submit"`
	Start  num        `json:"start"`
	End    num        `json:"end"`
	Procs  int64      `json:"procs"` // requested
	Alloc  num        `json:"alloc"` // alloc_procs
	Pieces [][4]int32 `json:"pieces,omitempty"`
	Ranges [][2]int64 `json:"ranges,omitempty"`
}

type replayResp struct {
	Run       runInfo     `json:"run"`
	Machine   machineInfo `json:"machine"`
	TimeUnit  string      `json:"time_unit"`
	Span      [2]num      `json:"span"`   // first submit, last end of the run
	Window    [2]num      `json:"window"` // the window sent
	Truncated bool        `json:"truncated"`
	JobsTotal int         `json:"jobs_total"` // jobs of the run
	Jobs      []replayJob `json:"jobs"`
	Unplaced  int         `json:"unplaced"` // jobs sent without a placement
	Steps     [][3]num    `json:"steps"`    // (t, jobs waiting, processors held) from t on, over the window
	Overview  [][3]num    `json:"overview"` // the same over the whole run, binned maxima
}

func steps(s []step) [][3]num {
	out := make([][3]num, len(s))
	for i, x := range s {
		out[i] = [3]num{num(x.T), num(x.Q), num(x.B)}
	}
	return out
}

// replay is GET /api/replay?run=R[&t0=T0][&t1=T1]: the jobs of run R that
// run in a time window of at most MaxReplayJobs starts, with their
// placements, and the queue length and busy processors over the window
// and over the whole run (see MaxReplayJobs).
func (d *data) replay(r *http.Request) (any, error) {
	id, err := intParam(r, "run", len(d.runs), -1)
	if err != nil {
		return nil, err
	}
	ri := &d.runs[id]
	if ri.Jobs == 0 {
		return nil, notFound("run %d (trace %s, %s / %s, rep %d): no job rows (jobs.parquet absent or empty)", id, ri.Trace, ri.Alloc, ri.Sched, ri.Rep)
	}
	m, err := policy.ParseMachine(ri.Machine)
	if err != nil {
		return nil, fmt.Errorf("%s: run %d: column \"machine\": %v", schema.SummaryFile, id, err)
	}
	t0, has0, err := floatParam(r, "t0")
	if err != nil {
		return nil, err
	}
	t1, has1, err := floatParam(r, "t1")
	if err != nil {
		return nil, err
	}
	rj, err := d.cache.get(r.Context(), ri.key)
	if err != nil {
		return nil, err
	}
	w0, w1, trunc, err := rj.window(t0, has0, t1, has1)
	if err != nil {
		return nil, err
	}
	out := &replayResp{Run: *ri, TimeUnit: d.unit, Span: [2]num{num(rj.tmin), num(rj.tmax)}, Window: [2]num{num(w0), num(w1)},
		Truncated: trunc, JobsTotal: len(rj.jobs), Jobs: []replayJob{},
		Machine: machineInfo{Spec: m.String(), Kind: m.Kind, Procs: m.Procs, Width: m.Width, Height: m.Height, Dim: m.Dim}}
	fam, _ := policy.FamilyOf(m.Kind)
	grid := fam.View.Grid // placements drawn as W×H rectangles, else as node ranges
	slices := fam.View.Layout != nil && fam.View.Rects != nil
	if slices {
		out.Machine.Slices, out.Machine.Note = true, fam.View.Note
		out.Machine.Width, out.Machine.Height = fam.View.Layout(m)
	}
	hi := rj.firstStart(w1)
	for i := range rj.jobs[:hi] {
		j := &rj.jobs[i]
		if j.End <= w0 && j.Start < w0 { // ended before the window
			continue
		}
		x := replayJob{ID: j.ID, Submit: num(j.Submit), Start: num(j.Start), End: num(j.End), Procs: j.Procs, Alloc: num(j.Alloc)}
		if len(j.Placement) == 0 {
			out.Unplaced++
		} else {
			// NodeRanges checks the pieces against the machine.
			rs, err := metrics.NodeRanges(m, j.Placement)
			if err != nil {
				return nil, fmt.Errorf("%s: job %d of trace %s (%s / %s, rep %d): column \"placement\": %v", schema.JobsFile, j.ID, ri.Trace, ri.Alloc, ri.Sched, ri.Rep, err)
			}
			if slices {
				for _, p := range j.Placement {
					x.Pieces = fam.View.Rects(m, policy.Piece{X: p.X, Y: p.Y, W: p.W, H: p.H, Mask: p.Mask}, x.Pieces)
				}
			} else if grid {
				for _, p := range j.Placement {
					x.Pieces = append(x.Pieces, [4]int32{p.X, p.Y, p.W, p.H})
				}
			} else {
				for _, r := range rs {
					x.Ranges = append(x.Ranges, [2]int64{r.Lo, r.Hi})
				}
			}
		}
		out.Jobs = append(out.Jobs, x)
	}
	out.Steps = steps(cut(rj.steps, w0, w1))
	out.Overview = steps(rj.overview)
	return out, nil
}
