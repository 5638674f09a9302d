package engine

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// Job states.
const (
	stFuture uint8 = iota
	stWaiting
	stRunning
	stDone
)

// sim is the state of one run; it is the policy.System the scheduler sees.
// Jobs are known by their position in jobs (Job.Index).
type sim struct {
	jobs  []policy.Job
	m     policy.Machine
	alloc policy.Allocator
	sched policy.Scheduler
	opt   Options
	res   *Result

	cap      policy.Capacity // the allocator, as schedulers see it
	rv       policy.Reserver // the allocator, when it reserves
	wait     *waitingSet     // the waiting jobs, once the allocator asked for them (RunContext.Largest)
	handoff  policy.Handoff  // the scheduler, when it keeps allocations
	failing  policy.Failing  // the scheduler, when it can fail (an external process)
	progress policy.ProgressModel

	now     float64
	state   []uint8
	comp    indexHeap[float64] // running jobs by (End, ID, position)
	timers  indexHeap[float64] // wake-up times (System.Wake)
	running []*policy.Job      // start order, with nil holes (lazy compaction)
	runPos  []int32            // position in running, per job
	dead    int                // nil holes in running
	nRun    int
	waiting int
	started int // jobs started so far
	next    int // the next job to arrive
	done    int // jobs completed or rejected
	idle    int // consecutive instants idling on timers alone (idling)
	err     error

	seqEnds  []int32 // Options.Sequential: the completions of the instant
	seqEarly []bool  // and whether each was released first (rule X)

	dynamics            // remaining work and rates (progress.go)
	accounting          // areas, shares, processors held over time (account.go)
	chk        *checker // Options.Check (check.go)
}

// Run replays jobs (sorted by Submit, as admit.Jobs returns them) on
// machine m with allocator a and scheduler s. It numbers the jobs by their
// position (Job.Index) and fills each job's Start and End in place. It
// returns an error when the scheduler misbehaves (starting a job twice or
// before its arrival), when Options.Check finds a violated invariant, or
// when the run deadlocks: jobs left waiting with none running and no
// pending arrival or timer (e.g. a scheduler that never starts anything,
// or a job the allocator can never place), or with only timers left that
// fire MaxIdleWakes times in a row without a job starting. The run ends at
// the last completion: timers still pending then are dropped.
func Run(jobs []policy.Job, m policy.Machine, a policy.Allocator, s policy.Scheduler, opt Options) (*Result, error) {
	e, err := newSim(jobs, m, a, s, opt)
	if err != nil {
		return nil, err
	}
	n := len(jobs)
	if n == 0 {
		return e.res, nil
	}
	e.res.First = jobs[0].Submit
	e.res.Last = e.res.First
	e.prevT = math.NaN()
	ticks := 0
	for e.done < n {
		t := math.Inf(1)
		if e.next < n {
			t = jobs[e.next].Submit
		}
		if len(e.comp.h) > 0 {
			t = min(t, e.comp.min())
		}
		if len(e.timers.h) > 0 {
			t = min(t, e.timers.min())
		}
		if math.IsInf(t, 1) {
			break
		}
		if opt.Until > 0 && t > opt.Until {
			e.stop()
			return e.res, nil
		}
		e.integrate(t)
		step := e.instant
		if opt.Sequential {
			step = e.sequential
		}
		if err := step(t); err != nil {
			return nil, err
		}
		if opt.Tick != nil {
			if ticks++; ticks >= TickInstants {
				ticks = 0
				opt.Tick(e.done, t)
			}
		}
	}
	if e.done != n {
		if len(e.comp.h) > 0 && math.IsInf(e.comp.min(), 1) {
			return nil, fmt.Errorf("engine: t=%g: %d running jobs make no progress (rate 0) and nothing else can happen", e.now, len(e.comp.h))
		}
		return nil, fmt.Errorf("engine: %d of %d jobs completed", e.done, n)
	}
	return e.res, nil
}

// newSim validates and numbers the jobs, and sets up a run.
func newSim(jobs []policy.Job, m policy.Machine, a policy.Allocator, s policy.Scheduler, opt Options) (*sim, error) {
	n := len(jobs)
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("engine: %d jobs, at most %d", n, math.MaxInt32)
	}
	for i := range jobs {
		j := &jobs[i]
		if i > 0 && j.Submit < jobs[i-1].Submit {
			return nil, fmt.Errorf("engine: job %d (index %d) submitted at %g before job %d at %g: jobs must be sorted by submit time",
				j.ID, i, j.Submit, jobs[i-1].ID, jobs[i-1].Submit)
		}
		if j.Procs <= 0 || j.Run < 0 || math.IsNaN(j.Run) || math.IsInf(j.Run, 0) {
			return nil, fmt.Errorf("engine: job %d: invalid request (procs %d, run %g)", j.ID, j.Procs, j.Run)
		}
		j.Index = int32(i)
		j.Start, j.End, j.Alloc = -1, -1, nil
	}
	e := &sim{jobs: jobs, m: m, alloc: a, sched: s, opt: opt}
	e.res = &Result{Jobs: jobs, AllocProcs: make([]float64, n)}
	if opt.Series {
		e.res.Series = make([]Sample, 0, 2*n+1) // an instant per arrival and per completion at most, timers aside
	}
	if opt.Placement {
		e.res.pieceOff = make([]int32, n)
		e.res.pieceLen = make([]int32, n)
	}
	e.cap = a
	e.rv, _ = a.(policy.Reserver)
	if c, ok := a.(policy.Contextual); ok {
		c.SetContext(e)
	}
	e.handoff, _ = s.(policy.Handoff)
	e.failing, _ = s.(policy.Failing)
	e.progress = opt.Progress
	if e.progress == nil {
		e.progress, _ = s.(policy.ProgressModel)
	}
	if e.progress != nil {
		e.startDyn()
	}
	e.state = make([]uint8, n)
	e.runPos = make([]int32, n)
	e.comp.pos = make([]int32, n)
	e.timers.pos = make([]int32, 1)
	if opt.Check {
		e.chk = &checker{owner: make([]int32, a.Size())}
	}
	return e, nil
}

// instant processes every event at time t: completions, arrivals, due
// timers, then scheduling passes until no zero-length job ends at t.
func (e *sim) instant(t float64) error {
	e.now = t
	startedBefore := e.started
	e.done += e.complete(t)
	if e.next < len(e.jobs) && e.jobs[e.next].Submit == t {
		e.arrive(t)
	}
	for len(e.timers.h) > 0 && e.timers.min() <= t {
		e.timers.pop()
	}
	e.pass()
	for e.err == nil && len(e.comp.h) > 0 && e.comp.min() == t {
		e.done += e.complete(t)
		e.pass()
	}
	return e.endInstant(t, startedBefore)
}

// endInstant closes instant t (in either event semantics): the run's
// error, the waiting count's check, the series sample, and the idling
// rule.
func (e *sim) endInstant(t float64, startedBefore int) error {
	if e.err != nil {
		return e.err
	}
	if e.chk != nil && e.sched.Waiting() != e.waiting {
		return fmt.Errorf("engine: t=%g: scheduler reports %d jobs waiting, engine counts %d", t, e.sched.Waiting(), e.waiting)
	}
	e.sample(t)
	// Jobs wait, nothing runs and nothing will arrive: only timers remain.
	if e.waiting > 0 && e.next == len(e.jobs) && len(e.comp.h) == 0 {
		return e.idling(startedBefore)
	}
	e.idle = 0
	return nil
}

// arrive admits the jobs that arrive at t, after rejecting those the
// allocator could never place (Allocator.Feasible).
func (e *sim) arrive(t float64) {
	for e.next < len(e.jobs) && e.jobs[e.next].Submit == t {
		e.arriveOne()
	}
}

// arriveOne admits the next job, which arrives at t, or rejects it.
func (e *sim) arriveOne() {
	j := &e.jobs[e.next]
	if err := e.alloc.Feasible(j); err != nil {
		e.state[e.next] = stDone
		e.res.Rejected = append(e.res.Rejected, policy.Rejection{Index: int(j.Record), ID: j.ID, Reason: err.Error()})
		e.done++
		e.next++
		return
	}
	e.state[e.next] = stWaiting
	e.waiting++
	if e.wait != nil {
		e.wait.add(int32(e.next))
	}
	e.sched.Submit(j)
	e.next++
}

// pass is one scheduling pass: Schedule, then the progress model's rates,
// then the shares of fractional allocations, which either may have changed.
func (e *sim) pass() {
	e.sched.Schedule(e)
	if e.failing != nil {
		if err := e.failing.Err(); err != nil {
			e.fail(err)
			return
		}
	}
	if e.progress != nil {
		e.applyRates()
	}
	if e.frac {
		e.refreshShares()
	}
}

// complete ends every running job whose end time is t, in (end, ID) order,
// and returns how many it ended.
func (e *sim) complete(t float64) int {
	k := 0
	for len(e.comp.h) > 0 && e.comp.min() == t {
		e.finish(e.comp.pop(), t)
		k++
	}
	return k
}

// finish ends running job i at t, taken off the completion heap: its
// allocation goes to a Handoff scheduler or back to the allocator, and the
// scheduler is told (Finished).
func (e *sim) finish(i int32, t float64) {
	j := &e.jobs[i]
	a := j.Alloc
	if e.chk != nil {
		e.checkRelease(i, a)
	}
	e.busy -= e.res.AllocProcs[i]
	if e.hist {
		e.hold(i)
		if e.varied[i] && e.heldTime[i] > 0 {
			e.res.AllocProcs[i] = e.heldArea[i] / e.heldTime[i]
		}
	}
	e.state[i] = stDone
	e.leave(i)
	if e.progress != nil {
		e.progress.Left(j, e)
	}
	e.res.Last = t
	var next *policy.Job
	if e.handoff != nil {
		next = e.handoff.Handoff(j, e)
	}
	j.Alloc = nil
	if next != nil {
		e.startOn(next, a)
	} else {
		e.alloc.Release(a)
	}
	if e.chk != nil {
		e.checkBusy(j, "ended")
	}
	e.sched.Finished(j)
}

// idling is called after an instant at which jobs wait, nothing runs and
// nothing will arrive: only the scheduler's timers can still change
// anything. With none set this is a deadlock; a scheduler that keeps
// setting timers without ever starting a job would loop forever, so a long
// run of such idle instants counts as one too.
func (e *sim) idling(startedBefore int) error {
	if e.started == startedBefore {
		e.idle++
	} else {
		e.idle = 0
	}
	if len(e.timers.h) == 0 || e.idle > MaxIdleWakes {
		return e.deadlock()
	}
	return nil
}

func (e *sim) deadlock() error {
	for i := range e.jobs {
		if e.state[i] == stWaiting {
			j := &e.jobs[i]
			why := "no pending event"
			if len(e.timers.h) > 0 {
				why = fmt.Sprintf("%d timer instants in a row without a start", MaxIdleWakes+1)
			}
			return fmt.Errorf("engine: deadlock at t=%g: %d jobs waiting (first: job %d, %d processors, %d free) with none running and %s",
				e.now, e.waiting, j.ID, j.Procs, e.alloc.Free(), why)
		}
	}
	return fmt.Errorf("engine: deadlock at t=%g", e.now) // unreachable: waiting > 0
}

// stop ends the run at Options.Until, before the events of time t >
// Until: the areas are integrated up to Until, and the jobs still running
// keep End = -1.
func (e *sim) stop() {
	u := e.opt.Until
	if math.IsNaN(e.prevT) {
		e.res.First = u // no arrival within the window
	} else {
		e.integrate(u)
	}
	e.res.Last = u
	e.res.Stopped = true
	for i := range e.jobs {
		if e.state[i] == stRunning {
			e.jobs[i].End = -1 // not completed within the window
			if e.dyn && e.since[i] > u {
				e.res.MigrationTime -= e.since[i] - u // a delay not served within the window
			}
		}
	}
}

func (e *sim) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}
