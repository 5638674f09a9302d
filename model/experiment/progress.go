package experiment

import (
	"math"
	"sync"
)

// Progress is the state of a replay, for progress reports
// (Options.Progress).
type Progress struct {
	Done, Total int   // runs done and planned (a sweep: cells)
	Jobs        int64 // jobs simulated: every job of the runs done, and those done so far in the runs under way
	TotalJobs   int64 // jobs of every planned run
	// Running is the number of runs under way, and Span the mean over
	// them of the simulated time elapsed over their trace's span (first
	// to last arrival), each capped at 1; 0 with none.
	Running int
	Span    float64
}

// Fraction is the share of the work done: the jobs simulated over the
// jobs of every planned run (runs over runs when they have no job); 0
// before anything is done.
func (p Progress) Fraction() float64 {
	if p.TotalJobs > 0 {
		return min(1, float64(p.Jobs)/float64(p.TotalJobs))
	}
	if p.Total > 0 {
		return float64(p.Done) / float64(p.Total)
	}
	return 0
}

// tracker gathers the progress of a pool's runs: the runs done, and the
// jobs done and simulated time of each run under way (its engine's
// Options.Tick), and reports to report, serialized.
type tracker struct {
	mu     sync.Mutex
	report func(Progress)
	st     Progress
	live   map[int]liveRun // task → its state, while under way or not yet emitted
}

type liveRun struct {
	jobs int64
	span float64 // simulated time over the trace's span, 0..1
}

func newTracker(tasks []task, report func(Progress)) *tracker {
	t := &tracker{report: report, live: map[int]liveRun{}}
	t.st.Total = len(tasks)
	for _, tk := range tasks {
		t.st.TotalJobs += int64(tk.tr.n)
	}
	return t
}

// tick records that run i has done jobs jobs at simulated time now, its
// trace's arrivals spanning [first, last].
func (t *tracker) tick(i int, jobs int, now, first, last float64) {
	if t == nil {
		return
	}
	span := 1.0
	if last > first {
		span = math.Min(1, math.Max(0, (now-first)/(last-first)))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.live[i] = liveRun{int64(jobs), span}
	t.send()
}

// done records that run i, of jobs jobs, is done (emitted).
func (t *tracker) done(i int, jobs int64) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.live, i)
	t.st.Done++
	t.st.Jobs += jobs
	t.send()
}

// send reports the state; t.mu is held.
func (t *tracker) send() {
	p := t.st
	p.Running = len(t.live)
	for _, r := range t.live {
		p.Jobs += r.jobs
		p.Span += r.span
	}
	if p.Running > 0 {
		p.Span /= float64(p.Running)
	}
	t.report(p)
}

// start reports the planned runs, none done.
func (t *tracker) start() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.send()
}
