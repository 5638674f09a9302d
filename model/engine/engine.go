// Package engine is schedlab's discrete-event core: it replays a list of
// jobs on a machine through a processor allocator and a job scheduler
// (model/policy), and records when each job started and ended.
//
// # Event order (contract)
//
// At one instant the engine
//
//  1. completes every job that ends then, in (end, job ID) order: it
//     offers the job's allocation to a policy.Handoff scheduler, releases
//     it unless handed off, and calls Scheduler.Finished;
//  2. admits every job that arrives then, in trace order (Scheduler.Submit),
//     after rejecting those a policy.Feasibility allocator cannot place;
//  3. drops the timers (System.Wake) that are due, and calls
//     Scheduler.Schedule once (then the progress model, if any).
//
// A job started at time t with run time 0 ends at t: its completion is
// processed at once and followed by another Schedule call at t, until
// nothing more happens at t. Jobs started at an instant therefore see every
// processor freed at that instant (oar-team/batsim#14; the AccaSim mistake
// noted in the peers survey).
//
// The engine is topology-blind: it knows a job's processor count and
// residence time; the allocator decides where, the scheduler decides when.
//
// # Extension points (model/policy's optional interfaces)
//
// Each is an optional interface, found by type assertion (as io.Copy finds
// io.WriterTo): a policy that needs none implements none, and a rigid run
// is exactly what it was before they existed (a job started at t ends at
// exactly t + Run).
//
//   - Placements (Options.Placement): where each job ran, as pieces in the
//     machine's node numbering (policy.Piece), from policy.Placer, else
//     policy.NodeLister grouped into flat ranges; one arena for the run,
//     O(pieces) per job (Result.Placement, Result.EventPlacement).
//   - policy.Clocked allocators get SetNow(t) at every event instant,
//     before any Allocate or Release at that instant.
//   - policy.Feasibility allocators reject, on arrival, a job they could
//     never place (Result.Rejected; Start = End = -1; never submitted)
//     instead of a deadlock.
//   - policy.ProgressModel (Options.Progress, else the scheduler when it
//     implements it) sets, after every scheduling pass, the rate at which
//     each running job's remaining work drains (network contention,
//     malleable speed-up). The engine keeps each job's remaining work and
//     rate once a model, a suspension or a migration needs them, re-keys
//     changed completions in the indexed completion heap (compHeap: fix,
//     remove in O(log n)), and takes the makespan from real completions.
//   - policy.Handoff schedulers may give a completing job's allocation
//     straight to a waiting job, before the allocator sees it released
//     (lazy scheduling).
//   - The System is a policy.Preemptor: Suspend (the job keeps its
//     remaining work and waits again; the scheduler requeues it, and Start
//     resumes it) and Migrate (a fresh allocation, no progress during a
//     delay). Job.Start stays the first start; Result.Suspensions,
//     Migrations and Events record the rest, and Options.Check follows
//     every transition.
//   - policy.Sharer allocations hold fractional shares, read at the start
//     and after every pass: busy time, the series and AllocProcs are
//     float64 (AllocProcs a time average when the share changed).
package engine

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/model/policy"
)

// Options controls a run.
type Options struct {
	// Check verifies invariants while running: no processor held twice
	// (through policy.NodeLister when the allocations implement it), the
	// machine's capacity never exceeded, the allocator's free count
	// consistent, an allocation at least as large as the request, every start
	// at or after its submit time, every job ending exactly once, and the
	// scheduler's waiting count agreeing with the engine's; through handoffs,
	// suspensions, resumptions and migrations too (a migrating job holds
	// both allocations for an instant). A violation makes Run return an
	// error naming the job and time.
	Check bool
	// Series records the (time, busy, running, queue) series, one sample per
	// distinct event time.
	Series bool
	// Placement records, for every job, where it ran last (Result.Placement)
	// and where it ran before each suspension or migration
	// (Result.EventPlacement).
	Placement bool
	// Progress, when set, sets the rate at which running jobs progress;
	// when nil, a scheduler that is a policy.ProgressModel does.
	Progress policy.ProgressModel
	// Until, when > 0, ends the run at time Until: the events of instants
	// up to Until are processed and nothing later. Jobs arriving after
	// Until are never submitted (Start = End = -1), jobs still waiting
	// then keep Start = -1, and jobs still running keep End = -1
	// (Result.Stopped). The areas (BusyArea, QueueArea, ExtFragTime) are
	// integrated up to Until, and Last is Until. This is the observation
	// window of Mohapatra, Yu & Das 1995 §4.2.
	Until float64
}

// Sample is the state of the machine after all events at one instant.
type Sample struct {
	Time    float64
	Busy    float64 // processors held
	Running int     // jobs running
	Queue   int     // jobs waiting
}

// Result holds the jobs with Start and End filled, plus statistics.
type Result struct {
	// Jobs is the slice given to Run, with Start and End set (Alloc is nil
	// again once a job has completed).
	Jobs []policy.Job
	// AllocProcs[i] is the number of processors Jobs[i] held: exactly its
	// allocation's Procs (which may exceed the request when the allocator
	// rounds up), or Share for a policy.Sharer; when that number changed
	// during the job's residence (a share changed, a resumption or a
	// migration onto another number), the time average over the intervals
	// in which the job held processors.
	AllocProcs []float64
	// Pieces holds every recorded placement (Options.Placement); job i's
	// is Pieces[pieceOff[i] : pieceOff[i]+pieceLen[i]] (see Placement).
	Pieces             []policy.Piece
	pieceOff, pieceLen []int32
	// Rejected lists the jobs the allocator declared infeasible
	// (policy.Feasibility), in arrival order, Index being Job.Index: they
	// were never submitted to the scheduler and have Start = End = -1.
	Rejected []Rejection
	// Suspensions[i] and Migrations[i] count job i's suspensions and
	// migrations; nil when none happened in the run.
	Suspensions, Migrations []int32
	// MigrationTime is the time running jobs spent in migration delays
	// (policy.Preemptor.Migrate), summed over jobs: each delay counts in
	// full, except one cut short by a suspension, a further migration or
	// the end of the observation window (Options.Until), which counts up
	// to then.
	MigrationTime float64
	// Events logs every suspension, resumption and migration in order.
	Events      []Event
	eventPieces [][2]int32 // per event: offset and length in Pieces of the placement left
	// First is the first arrival time, Last the last completion time.
	First, Last float64
	// ExtFragTime is the time during which the earliest-arrived waiting job
	// waited although the machine had as many free processors as it needs
	// (policy.Job.Need): external fragmentation, or a scheduler holding
	// processors back. ExtFragInstants counts the event instants after
	// which that held.
	ExtFragTime     float64
	ExtFragInstants int
	// MaxQueue is the largest number of jobs waiting after any instant.
	MaxQueue int
	// QueueArea and BusyArea are the integrals over [First, Last] of the
	// number of waiting jobs and of busy processors.
	QueueArea, BusyArea float64
	// Instants is the number of distinct event times.
	Instants int
	// Series is the state after each instant (Options.Series).
	Series []Sample
	// Stopped reports that Options.Until ended the run with jobs not
	// completed (not arrived, waiting or running).
	Stopped bool
}

// Placement returns the pieces job i held last (Options.Placement), nil when
// not recorded. The slice aliases Pieces.
func (r *Result) Placement(i int) []policy.Piece {
	if r.pieceLen == nil || r.pieceLen[i] == 0 {
		return nil
	}
	o := r.pieceOff[i]
	return r.Pieces[o : o+r.pieceLen[i] : o+r.pieceLen[i]]
}

// EventPlacement returns the placement job Events[k].Index left at event k,
// a suspension or a migration (Options.Placement): where it ran until then.
// It is nil for a resumption, whose placement is the one the job held
// next (its next event's, or Placement's for the last). With Placement,
// every placement a job held is thus recorded. The slice aliases Pieces.
func (r *Result) EventPlacement(k int) []policy.Piece {
	if r.eventPieces == nil || r.eventPieces[k][1] == 0 {
		return nil
	}
	o, n := r.eventPieces[k][0], r.eventPieces[k][1]
	return r.Pieces[o : o+n : o+n]
}

// EventKind is the kind of a logged Event.
type EventKind uint8

// Logged event kinds.
const (
	Suspended EventKind = iota + 1
	Resumed
	Migrated
)

func (k EventKind) String() string {
	return [...]string{"", "suspend", "resume", "migrate"}[k]
}

// Event is one suspension, resumption or migration.
type Event struct {
	Time  float64
	Index int32 // position of the job in Result.Jobs
	Kind  EventKind
}

// MaxIdleWakes is the number of consecutive timer (System.Wake) instants at
// which Run lets jobs wait on an idle machine, with no arrival to come, before
// it reports a deadlock: a scheduler that keeps setting timers without ever
// starting a job would otherwise loop forever.
const MaxIdleWakes = 1 << 20

// Job states.
const (
	stFuture uint8 = iota
	stWaiting
	stRunning
	stDone
)

// sim is the state of one run; it is the policy.System the scheduler sees.
type sim struct {
	jobs  []policy.Job
	m     policy.Machine
	alloc policy.Allocator
	sched policy.Scheduler
	opt   Options
	res   *Result

	clock    policy.Clocked     // the allocator, when it wants the time
	feas     policy.Feasibility // the allocator, when it can reject
	wait     *waitingSet        // the waiting jobs, when the allocator looks at them (policy.WaitingAware)
	handoff  policy.Handoff     // the scheduler, when it keeps allocations
	progress policy.ProgressModel

	// Remaining work, rate and the time from which it drains, per job:
	// allocated only when a progress model, a suspension or a migration
	// needs them (dyn); a rigid run ends every job at Start + Run exactly.
	dyn     bool
	rem     []float64
	rate    []float64
	since   []float64
	rateBuf []float64

	// Processors held over time, per job, for AllocProcs as a time
	// average: allocated at the first change of what a job holds (a
	// Sharer's share, a suspension, a migration), when every running job
	// has held AllocProcs[i] since its start (hist).
	hist      bool
	heldArea  []float64 // ∫ processors held dt up to heldSince
	heldTime  []float64 // time held up to heldSince
	heldSince []float64 // start of the current holding
	varied    []bool    // the processors held changed during the residence

	now     float64
	slot    []int32 // trace index → position in jobs, -1 when absent
	state   []uint8
	heap    compHeap
	running []*policy.Job // start order, with nil holes (lazy compaction)
	runPos  []int32       // position in running, per job
	dead    int           // nil holes in running
	nRun    int
	busy    float64
	frac    bool // some allocation held a fractional share (policy.Sharer)
	waiting int
	head    int // no job before this position is waiting (a lower bound)
	// fragmented: after the last instant, the earliest waiting job had
	// as many free processors as it needs (Result.ExtFragTime).
	fragmented bool
	started    int       // jobs started so far
	timers     []float64 // min-heap of wake-up times
	owner      []int32   // Check: processor → job position+1, 0 free
	scratch    []int
	err        error
}

// Run replays jobs (sorted by Submit, as Jobs returns them) on machine m
// with allocator a and scheduler s. It fills each job's Start and End in
// place. It returns an error when the scheduler misbehaves (starting a job
// twice or before its arrival), when Options.Check finds a violated
// invariant, or when the run deadlocks: jobs left waiting with none running
// and no pending arrival or timer (e.g. a scheduler that never starts
// anything, or a job the allocator can never place), or with only timers
// left that fire MaxIdleWakes times in a row without a job starting. The run
// ends at the last completion: timers still pending then are dropped.
func Run(jobs []policy.Job, m policy.Machine, a policy.Allocator, s policy.Scheduler, opt Options) (*Result, error) {
	n := len(jobs)
	e := &sim{jobs: jobs, m: m, alloc: a, sched: s, opt: opt}
	e.res = &Result{Jobs: jobs, AllocProcs: make([]float64, n)}
	if opt.Series {
		e.res.Series = make([]Sample, 0, 2*n+1) // an instant per arrival and per completion at most, timers aside
	}
	if opt.Placement {
		e.res.pieceOff = make([]int32, n)
		e.res.pieceLen = make([]int32, n)
	}
	e.clock, _ = a.(policy.Clocked)
	e.feas, _ = a.(policy.Feasibility)
	if wa, ok := a.(policy.WaitingAware); ok {
		e.wait = &waitingSet{jobs: jobs}
		wa.SetWaiting(e.wait)
	}
	e.handoff, _ = s.(policy.Handoff)
	e.progress = opt.Progress
	if e.progress == nil {
		e.progress, _ = s.(policy.ProgressModel)
	}
	if e.progress != nil {
		e.startDyn()
	}
	// One pass over the jobs: validate them and map trace indices to
	// positions (an index may exceed n when the trace had rejected jobs).
	e.slot = make([]int32, n)
	for i := range e.slot {
		e.slot[i] = -1
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
		if j.Index < 0 || j.Index > math.MaxInt32 {
			return nil, fmt.Errorf("engine: job %d: index %d out of range", j.ID, j.Index)
		}
		if j.Index >= len(e.slot) {
			k := len(e.slot)
			e.slot = slices.Grow(e.slot, j.Index+1-k)[:j.Index+1]
			for x := k; x <= j.Index; x++ {
				e.slot[x] = -1
			}
		}
		if e.slot[j.Index] >= 0 {
			return nil, fmt.Errorf("engine: job %d: index %d used twice", j.ID, j.Index)
		}
		e.slot[j.Index] = int32(i)
		j.Start, j.End, j.Alloc = -1, -1, nil
	}
	e.state = make([]uint8, n)
	e.runPos = make([]int32, n)
	e.heap.pos = make([]int32, n)
	if opt.Check {
		e.owner = make([]int32, a.Size())
	}
	if n == 0 {
		return e.res, nil
	}
	e.res.First = jobs[0].Submit
	next := 0
	prevT := math.NaN()
	done := 0
	e.res.Last = e.res.First
	idle := 0 // consecutive instants idling on timers alone (see below)
	for done < n {
		// done counts completed and rejected jobs.
		t := math.Inf(1)
		if next < n {
			t = jobs[next].Submit
		}
		if len(e.heap.h) > 0 {
			t = min(t, e.heap.h[0].end)
		}
		if len(e.timers) > 0 {
			t = min(t, e.timers[0])
		}
		if math.IsInf(t, 1) {
			break
		}
		if opt.Until > 0 && t > opt.Until {
			// The observation window ends: integrate up to Until and stop.
			if !math.IsNaN(prevT) {
				dt := opt.Until - prevT
				e.res.BusyArea += float64(e.busy) * dt
				e.res.QueueArea += float64(e.waiting) * dt
				if e.fragmented {
					e.res.ExtFragTime += dt
				}
			}
			if math.IsNaN(prevT) {
				e.res.First = opt.Until // no arrival within the window
			}
			e.res.Last = opt.Until
			e.res.Stopped = true
			for i := range jobs {
				if e.state[i] == stRunning {
					jobs[i].End = -1 // not completed within the window
					if e.dyn && e.since[i] > opt.Until {
						e.res.MigrationTime -= e.since[i] - opt.Until // a delay not served within the window
					}
				}
			}
			return e.res, nil
		}
		if !math.IsNaN(prevT) {
			dt := t - prevT
			e.res.BusyArea += float64(e.busy) * dt
			e.res.QueueArea += float64(e.waiting) * dt
			if e.fragmented {
				e.res.ExtFragTime += dt
			}
		}
		prevT = t
		e.now = t
		if e.clock != nil {
			e.clock.SetNow(t)
		}
		startedBefore := e.started
		// 1. completions.
		done += e.complete(t)
		// 2. arrivals.
		for next < n && jobs[next].Submit == t {
			j := &jobs[next]
			if e.feas != nil {
				if err := e.feas.Feasible(j); err != nil {
					e.state[next] = stDone
					e.res.Rejected = append(e.res.Rejected, Rejection{Index: j.Index, ID: j.ID, Reason: err.Error()})
					done++
					next++
					continue
				}
			}
			e.state[next] = stWaiting
			e.waiting++
			if e.wait != nil {
				e.wait.add(int32(next))
			}
			s.Submit(j)
			next++
		}
		// 3. timers, then one scheduling pass; repeat while zero-length jobs
		// started now complete now.
		for len(e.timers) > 0 && e.timers[0] <= t {
			e.popTimer()
		}
		e.pass()
		for e.err == nil && len(e.heap.h) > 0 && e.heap.h[0].end == t {
			done += e.complete(t)
			e.pass()
		}
		if e.err != nil {
			return nil, e.err
		}
		if opt.Check && s.Waiting() != e.waiting {
			return nil, fmt.Errorf("engine: t=%g: scheduler reports %d jobs waiting, engine counts %d", t, s.Waiting(), e.waiting)
		}
		e.res.Instants++
		e.res.MaxQueue = max(e.res.MaxQueue, e.waiting)
		if e.fragmented = e.headHasRoom(); e.fragmented {
			e.res.ExtFragInstants++
		}
		if opt.Series {
			e.res.Series = append(e.res.Series, Sample{Time: t, Busy: e.busy, Running: e.nRun, Queue: e.waiting})
		}
		if e.waiting > 0 && next == n && len(e.heap.h) == 0 {
			// Jobs wait, nothing runs and nothing will arrive: only the
			// scheduler's timers can still change anything. With none set
			// this is a deadlock; a scheduler that keeps setting timers
			// without ever starting a job would loop forever, so a long
			// run of such idle instants counts as one too.
			if e.started == startedBefore {
				idle++
			} else {
				idle = 0
			}
			if len(e.timers) == 0 || idle > MaxIdleWakes {
				return nil, e.deadlock()
			}
		} else {
			idle = 0
		}
	}
	if done != n {
		if len(e.heap.h) > 0 && math.IsInf(e.heap.h[0].end, 1) {
			return nil, fmt.Errorf("engine: t=%g: %d running jobs make no progress (rate 0) and nothing else can happen", e.now, len(e.heap.h))
		}
		return nil, fmt.Errorf("engine: %d of %d jobs completed", done, n)
	}
	return e.res, nil
}

// headHasRoom reports whether the earliest-arrived waiting job needs no
// more processors than are free.
func (e *sim) headHasRoom() bool {
	if e.waiting == 0 {
		return false
	}
	for e.head < len(e.jobs) && e.state[e.head] != stWaiting {
		e.head++
	}
	if e.head == len(e.jobs) {
		return false
	}
	return float64(e.jobs[e.head].Need()) <= float64(e.alloc.Free())
}

// pass is one scheduling pass: Schedule, then the progress model's rates,
// then the shares of fractional allocations, which either may have changed.
func (e *sim) pass() {
	e.sched.Schedule(e)
	if e.progress != nil {
		e.applyRates()
	}
	if e.frac {
		e.refreshShares()
	}
}

func (e *sim) deadlock() error {
	for i := range e.jobs {
		if e.state[i] == stWaiting {
			j := &e.jobs[i]
			why := "no pending event"
			if len(e.timers) > 0 {
				why = fmt.Sprintf("%d timer instants in a row without a start", MaxIdleWakes+1)
			}
			return fmt.Errorf("engine: deadlock at t=%g: %d jobs waiting (first: job %d, %d processors, %d free) with none running and %s",
				e.now, e.waiting, j.ID, j.Procs, e.alloc.Free(), why)
		}
	}
	return fmt.Errorf("engine: deadlock at t=%g", e.now) // unreachable: waiting > 0
}

// complete ends every running job whose end time is t, in (end, ID) order,
// and returns how many it ended.
func (e *sim) complete(t float64) int {
	k := 0
	for len(e.heap.h) > 0 && e.heap.h[0].end == t {
		i := e.heap.pop()
		j := &e.jobs[i]
		a := j.Alloc
		if e.owner != nil {
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
		e.running[e.runPos[i]] = nil
		e.dead++
		e.nRun--
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
		if e.owner != nil && !e.frac && float64(e.alloc.Size()-e.alloc.Free()) != e.busy {
			e.fail(fmt.Errorf("engine: t=%g: after job %d ended the allocator has %d processors busy, engine counts %g",
				t, j.ID, e.alloc.Size()-e.alloc.Free(), e.busy))
		}
		e.sched.Finished(j)
		k++
	}
	return k
}

// share is the number of processors an allocation holds.
func (e *sim) share(a policy.Allocation) float64 {
	if s, ok := a.(policy.Sharer); ok {
		e.frac = true
		return s.Share()
	}
	return float64(a.Procs())
}

// startHist starts recording the processors each job holds over time.
func (e *sim) startHist() {
	if e.hist {
		return
	}
	e.hist = true
	n := len(e.jobs)
	e.heldArea = make([]float64, n)
	e.heldTime = make([]float64, n)
	e.heldSince = make([]float64, n)
	e.varied = make([]bool, n)
	for i := range e.jobs {
		if e.state[i] == stRunning {
			e.heldSince[i] = e.jobs[i].Start
		}
	}
}

// hold accounts for what running job i has held up to now (hist).
func (e *sim) hold(i int32) {
	d := e.now - e.heldSince[i]
	e.heldArea[i] += e.res.AllocProcs[i] * d
	e.heldTime[i] += d
	e.heldSince[i] = e.now
}

// refreshShares reads the shares of the running jobs' fractional
// allocations, which may change between passes (malleable jobs).
func (e *sim) refreshShares() {
	for _, j := range e.Running() {
		sh, ok := j.Alloc.(policy.Sharer)
		if !ok {
			continue
		}
		i := e.slot[j.Index]
		p := sh.Share()
		if p == e.res.AllocProcs[i] {
			continue
		}
		if !(p >= 0) || math.IsInf(p, 1) {
			e.fail(fmt.Errorf("engine: t=%g: job %d holds a share of %g processors", e.now, j.ID, p))
			return
		}
		e.startHist()
		e.hold(i)
		e.varied[i] = true
		e.busy += p - e.res.AllocProcs[i]
		e.res.AllocProcs[i] = p
	}
	if e.owner != nil && e.busy > float64(e.alloc.Size())+1e-9 {
		e.fail(fmt.Errorf("engine: t=%g: capacity exceeded (%g processors busy > %d)", e.now, e.busy, e.alloc.Size()))
	}
}

// startDyn allocates the per-job remaining work and rates, for the jobs
// running now (which have run at rate 1 since their start).
func (e *sim) startDyn() {
	if e.dyn {
		return
	}
	e.dyn = true
	n := len(e.jobs)
	e.rem = make([]float64, n)
	e.rate = make([]float64, n)
	e.since = make([]float64, n)
	for i := range e.jobs {
		j := &e.jobs[i]
		e.rem[i], e.rate[i], e.since[i] = j.Run, 1, j.Start
	}
}

// settle brings job i's remaining work up to now.
func (e *sim) settle(i int32) {
	if d := e.now - e.since[i]; d > 0 {
		e.rem[i] = max(0, e.rem[i]-d*e.rate[i])
		e.since[i] = e.now
	}
}

// rekey sets job i's end from its remaining work and rate, and restores the
// completion heap.
func (e *sim) rekey(i int32) {
	j := &e.jobs[i]
	switch {
	case e.rem[i] == 0:
		j.End = max(e.now, e.since[i])
	case e.rate[i] > 0:
		j.End = e.since[i] + e.rem[i]/e.rate[i]
	default:
		j.End = math.Inf(1)
	}
	e.heap.update(i, j.End)
}

// applyRates asks the progress model for the running jobs' rates and
// re-keys the completions of the jobs whose rate changed.
func (e *sim) applyRates() {
	if e.err != nil {
		return
	}
	run := e.Running()
	e.rateBuf = e.rateBuf[:0]
	for _, j := range run {
		e.rateBuf = append(e.rateBuf, e.rate[e.slot[j.Index]])
	}
	e.progress.Rates(e.now, run, e.rateBuf)
	for k, j := range run {
		i := e.slot[j.Index]
		r := e.rateBuf[k]
		if r == e.rate[i] {
			continue
		}
		if !(r >= 0) || math.IsInf(r, 1) {
			e.fail(fmt.Errorf("engine: t=%g: progress model gave job %d rate %g (want a finite rate ≥ 0)", e.now, j.ID, r))
			return
		}
		e.settle(i)
		e.rate[i] = r
		e.rekey(i)
	}
}

// recordPlacement records a as job i's placement (Options.Placement).
func (e *sim) recordPlacement(i int32, a policy.Allocation) {
	r := e.res
	off := len(r.Pieces)
	switch pl := a.(type) {
	case policy.Placer:
		r.Pieces = pl.Placement(r.Pieces)
	case policy.NodeLister:
		e.scratch = pl.Nodes(e.scratch[:0])
		r.Pieces = appendRanges(r.Pieces, e.scratch)
	}
	r.pieceOff[i] = int32(off)
	r.pieceLen[i] = int32(len(r.Pieces) - off)
}

// appendRanges appends the processor numbers of nodes (sorted in place) as
// flat ranges.
func appendRanges(dst []policy.Piece, nodes []int) []policy.Piece {
	if !sort.IntsAreSorted(nodes) {
		sort.Ints(nodes)
	}
	for i := 0; i < len(nodes); {
		k := i
		for k+1 < len(nodes) && nodes[k+1] == nodes[k]+1 {
			k++
		}
		dst = append(dst, policy.Range(nodes[i], k-i+1))
		i = k + 1
	}
	return dst
}

// logEvent logs an event of job i now; for a suspension or a migration,
// called before the job leaves its placement, it keeps that placement.
func (e *sim) logEvent(i int32, kind EventKind) {
	r := e.res
	r.Events = append(r.Events, Event{Time: e.now, Index: i, Kind: kind})
	if r.pieceOff != nil {
		var left [2]int32
		if kind != Resumed {
			left = [2]int32{r.pieceOff[i], r.pieceLen[i]}
		}
		r.eventPieces = append(r.eventPieces, left)
	}
}

// running checks that j belongs to this run and is running.
func (e *sim) runningJob(j *policy.Job, what string) (int32, bool) {
	if j == nil || j.Index < 0 || j.Index >= len(e.slot) || e.slot[j.Index] < 0 || &e.jobs[e.slot[j.Index]] != j {
		e.fail(fmt.Errorf("engine: t=%g: %s of a job that is not part of this run", e.now, what))
		return 0, false
	}
	i := e.slot[j.Index]
	if e.state[i] != stRunning {
		return i, false
	}
	return i, true
}

// Suspend implements policy.Preemptor.
func (e *sim) Suspend(j *policy.Job) bool {
	i, ok := e.runningJob(j, "Suspend")
	if !ok {
		return false
	}
	e.startDyn()
	e.settle(i)
	e.forfeitDelay(i)
	e.startHist()
	e.hold(i)
	e.logEvent(i, Suspended)
	a := j.Alloc
	if e.owner != nil {
		e.checkRelease(i, a)
	}
	e.alloc.Release(a)
	e.busy -= e.res.AllocProcs[i] // AllocProcs[i] stays the share held, for Resumed
	e.heap.remove(int(e.heap.pos[i]))
	j.Alloc, j.End = nil, -1
	e.state[i] = stWaiting
	e.waiting++
	if e.wait != nil {
		e.wait.add(i)
	}
	e.head = min(e.head, int(i))
	e.running[e.runPos[i]] = nil
	e.dead++
	e.nRun--
	if e.res.Suspensions == nil {
		e.res.Suspensions = make([]int32, len(e.jobs))
	}
	e.res.Suspensions[i]++
	if e.owner != nil && !e.frac && float64(e.alloc.Size()-e.alloc.Free()) != e.busy {
		e.fail(fmt.Errorf("engine: t=%g: after job %d was suspended the allocator has %d processors busy, engine counts %g",
			e.now, j.ID, e.alloc.Size()-e.alloc.Free(), e.busy))
	}
	return true
}

// Migrate implements policy.Preemptor.
func (e *sim) Migrate(j *policy.Job, delay float64) bool {
	i, ok := e.runningJob(j, "Migrate")
	if !ok {
		return false
	}
	if !(delay >= 0) || math.IsInf(delay, 1) {
		e.fail(fmt.Errorf("engine: t=%g: job %d: migration delay %g (want a finite delay ≥ 0)", e.now, j.ID, delay))
		return false
	}
	b, ok := e.allocate(j)
	if !ok {
		return false
	}
	e.startDyn()
	e.settle(i)
	e.startHist()
	e.hold(i)
	e.logEvent(i, Migrated)
	old := j.Alloc
	p := e.share(b)
	if p != e.res.AllocProcs[i] {
		e.varied[i] = true
	}
	if e.owner != nil {
		e.checkStart(i, b, p)
	}
	e.busy += p
	if e.owner != nil {
		e.checkRelease(i, old)
	}
	e.alloc.Release(old)
	e.busy -= e.res.AllocProcs[i]
	e.res.AllocProcs[i] = p
	j.Alloc = b
	if e.res.pieceOff != nil {
		e.recordPlacement(i, b)
	}
	e.forfeitDelay(i)
	e.res.MigrationTime += delay
	e.since[i] = e.now + delay
	e.rekey(i)
	if e.res.Migrations == nil {
		e.res.Migrations = make([]int32, len(e.jobs))
	}
	e.res.Migrations[i]++
	return true
}

// forfeitDelay takes off MigrationTime the part of job i's migration delay
// not yet served (none when it is not migrating): the job is suspended or
// migrated again now.
func (e *sim) forfeitDelay(i int32) {
	if e.since[i] > e.now {
		e.res.MigrationTime -= e.since[i] - e.now
	}
}

func (e *sim) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// Now implements policy.System.
func (e *sim) Now() float64 { return e.now }

// Machine implements policy.System.
func (e *sim) Machine() policy.Machine { return e.m }

// Allocator implements policy.System.
func (e *sim) Allocator() policy.Allocator { return e.alloc }

// Running implements policy.System: the running jobs in start order.
func (e *sim) Running() []*policy.Job {
	if e.dead > 0 {
		e.compact()
	}
	return e.running
}

func (e *sim) compact() {
	w := 0
	for _, j := range e.running {
		if j != nil {
			e.runPos[e.slot[j.Index]] = int32(w)
			e.running[w] = j
			w++
		}
	}
	clear(e.running[w:])
	e.running = e.running[:w]
	e.dead = 0
}

// Wake implements policy.System.
func (e *sim) Wake(t float64) {
	if !(t > e.now) || math.IsInf(t, 1) {
		e.fail(fmt.Errorf("engine: t=%g: Wake(%g) is not a future time", e.now, t))
		return
	}
	e.timers = append(e.timers, t)
	h := e.timers
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p] <= h[i] {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (e *sim) popTimer() {
	h := e.timers
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h[r] < h[l] {
			c = r
		}
		if h[i] <= h[c] {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	e.timers = h
}

// Start implements policy.System.
func (e *sim) Start(j *policy.Job) bool {
	// startable and allocate, by hand: this is the hottest call.
	i := int32(-1)
	if j != nil && uint(j.Index) < uint(len(e.slot)) {
		i = e.slot[j.Index]
	}
	if i < 0 || &e.jobs[i] != j || e.state[i] != stWaiting {
		return e.notStartable(i, j)
	}
	a, ok := e.alloc.Allocate(j)
	if !ok {
		return false
	}
	if a == nil {
		_, ok = e.allocated(j, a, ok)
		return ok
	}
	e.begin(i, a)
	return true
}

// allocate asks the allocator for j's processors; a nil allocation is the
// allocator's bug and fails the run.
func (e *sim) allocate(j *policy.Job) (policy.Allocation, bool) {
	a, ok := e.alloc.Allocate(j)
	return e.allocated(j, a, ok)
}

// allocated checks the allocator's answer.
func (e *sim) allocated(j *policy.Job, a policy.Allocation, ok bool) (policy.Allocation, bool) {
	if ok && a == nil {
		e.fail(fmt.Errorf("engine: t=%g: job %d: allocator returned a nil allocation", e.now, j.ID))
		return nil, false
	}
	return a, ok
}

// startOn starts the waiting job j on a, a completing job's allocation
// (policy.Handoff).
func (e *sim) startOn(j *policy.Job, a policy.Allocation) {
	i, ok := e.startable(j)
	if !ok {
		e.alloc.Release(a)
		return
	}
	if a.Procs() < j.Procs {
		e.fail(fmt.Errorf("engine: t=%g: handoff of %d processors to job %d, which needs %d", e.now, a.Procs(), j.ID, j.Procs))
		e.alloc.Release(a)
		return
	}
	e.begin(i, a)
}

// startable checks that j belongs to this run and is waiting
// (notStartable says why not).
func (e *sim) startable(j *policy.Job) (int32, bool) {
	i := int32(-1)
	if j != nil && uint(j.Index) < uint(len(e.slot)) {
		i = e.slot[j.Index]
	}
	if i < 0 || &e.jobs[i] != j || e.state[i] != stWaiting {
		return i, e.notStartable(i, j)
	}
	return i, true
}

// notStartable fails the run with the reason j cannot start, and returns
// false.
func (e *sim) notStartable(i int32, j *policy.Job) bool {
	if i < 0 || &e.jobs[i] != j {
		e.fail(fmt.Errorf("engine: t=%g: Start of a job that is not part of this run", e.now))
		return false
	}
	switch e.state[i] {
	case stFuture:
		e.fail(fmt.Errorf("engine: t=%g: job %d started before its arrival at %g", e.now, j.ID, j.Submit))
	case stRunning, stDone:
		e.fail(fmt.Errorf("engine: t=%g: job %d started twice (first at %g)", e.now, j.ID, j.Start))
	}
	return false
}

// begin runs the waiting job at position i on allocation a from now.
func (e *sim) begin(i int32, a policy.Allocation) {
	j := &e.jobs[i]
	p := e.share(a)
	if e.owner != nil {
		e.checkStart(i, a, p)
	}
	resumed := j.Start >= 0
	if !resumed {
		j.Start = e.now
	}
	if e.dyn {
		e.since[i], e.rate[i] = e.now, 1
		if !resumed {
			e.rem[i] = j.Run
		}
		j.End = e.now + e.rem[i]
	} else {
		j.End = e.now + j.Run
	}
	j.Alloc = a
	if e.hist {
		if resumed && p != e.res.AllocProcs[i] {
			e.varied[i] = true
		}
		e.heldSince[i] = e.now
	}
	e.res.AllocProcs[i] = p
	if e.res.pieceOff != nil {
		e.recordPlacement(i, a)
	}
	e.state[i] = stRunning
	e.waiting--
	if e.wait != nil {
		e.wait.remove(i)
	}
	e.started++
	e.busy += p
	e.nRun++
	if e.dead > len(e.running)/2 {
		e.compact()
	}
	e.runPos[i] = int32(len(e.running))
	e.running = append(e.running, j)
	e.heap.push(i, j.End, j.ID)
	if resumed {
		e.logEvent(i, Resumed)
	}
}

func (e *sim) checkStart(i int32, a policy.Allocation, p float64) {
	j := &e.jobs[i]
	_, frac := a.(policy.Sharer)
	switch {
	case !frac && a.Procs() < j.Procs:
		e.fail(fmt.Errorf("engine: t=%g: job %d asked for %d processors and was given %d", e.now, j.ID, j.Procs, a.Procs()))
	case e.busy+p > float64(e.alloc.Size())+1e-9:
		e.fail(fmt.Errorf("engine: t=%g: job %d: capacity exceeded (%g busy + %g > %d)", e.now, j.ID, e.busy, p, e.alloc.Size()))
	case e.now < j.Submit:
		e.fail(fmt.Errorf("engine: t=%g: job %d started before its submit time %g", e.now, j.ID, j.Submit))
	case !frac && float64(e.alloc.Size()-e.alloc.Free()) != e.busy+p:
		e.fail(fmt.Errorf("engine: t=%g: job %d: allocator has %d processors busy, engine counts %g",
			e.now, j.ID, e.alloc.Size()-e.alloc.Free(), e.busy+p))
	}
	nl, ok := a.(policy.NodeLister)
	if !ok {
		return
	}
	e.scratch = nl.Nodes(e.scratch[:0])
	if len(e.scratch) != a.Procs() {
		e.fail(fmt.Errorf("engine: t=%g: job %d: allocation lists %d processors but holds %d", e.now, j.ID, len(e.scratch), a.Procs()))
	}
	for _, q := range e.scratch {
		if q < 0 || q >= len(e.owner) {
			e.fail(fmt.Errorf("engine: t=%g: job %d given processor %d outside 0..%d", e.now, j.ID, q, len(e.owner)-1))
			return
		}
		if o := e.owner[q]; o != 0 {
			e.fail(fmt.Errorf("engine: t=%g: job %d given processor %d already held by job %d", e.now, j.ID, q, e.jobs[o-1].ID))
			return
		}
		e.owner[q] = i + 1
	}
}

func (e *sim) checkRelease(i int32, a policy.Allocation) {
	j := &e.jobs[i]
	if j.Start < j.Submit || j.End < j.Start {
		e.fail(fmt.Errorf("engine: job %d: submit %g, start %g, end %g out of order", j.ID, j.Submit, j.Start, j.End))
	}
	nl, ok := a.(policy.NodeLister)
	if !ok {
		return
	}
	e.scratch = nl.Nodes(e.scratch[:0])
	for _, q := range e.scratch {
		if q < 0 || q >= len(e.owner) || e.owner[q] != i+1 {
			e.fail(fmt.Errorf("engine: t=%g: job %d releases processor %d it does not hold", e.now, j.ID, q))
			return
		}
		e.owner[q] = 0
	}
}

// compHeap is an indexed min-heap of running jobs (positions in jobs) keyed
// by (End, ID, position). The keys live in the heap, not only in the jobs,
// so that sifting never touches the (large, cold) job array. pos[i] is job
// i's place in h, so that a job's completion can be re-keyed (update) or
// withdrawn (remove) in O(log n).
type compHeap struct {
	h   []heapEntry
	pos []int32
}

type heapEntry struct {
	end float64 // = jobs[i].End
	id  int64   // = jobs[i].ID
	i   int32
}

func (a *heapEntry) less(b *heapEntry) bool {
	if a.end != b.end {
		return a.end < b.end
	}
	if a.id != b.id {
		return a.id < b.id
	}
	return a.i < b.i
}

func (c *compHeap) swap(x, y int) {
	c.h[x], c.h[y] = c.h[y], c.h[x]
	c.pos[c.h[x].i] = int32(x)
	c.pos[c.h[y].i] = int32(y)
}

func (c *compHeap) up(k int) {
	for k > 0 {
		p := (k - 1) / 2
		if !c.h[k].less(&c.h[p]) {
			break
		}
		c.swap(k, p)
		k = p
	}
}

func (c *compHeap) down(k int) bool {
	k0 := k
	n := len(c.h)
	for {
		l := 2*k + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && c.h[r].less(&c.h[l]) {
			m = r
		}
		if !c.h[m].less(&c.h[k]) {
			break
		}
		c.swap(k, m)
		k = m
	}
	return k > k0
}

func (c *compHeap) push(i int32, end float64, id int64) {
	c.h = append(c.h, heapEntry{end, id, i})
	c.pos[i] = int32(len(c.h) - 1)
	c.up(len(c.h) - 1)
}

func (c *compHeap) pop() int32 {
	return c.remove(0)
}

// remove withdraws the job at heap place k and returns it.
func (c *compHeap) remove(k int) int32 {
	i := c.h[k].i
	last := len(c.h) - 1
	if k != last {
		c.swap(k, last)
	}
	c.h = c.h[:last]
	if k < last {
		c.fix(k)
	}
	c.pos[i] = -1
	return i
}

// update sets job i's end and restores the heap.
func (c *compHeap) update(i int32, end float64) {
	k := int(c.pos[i])
	c.h[k].end = end
	c.fix(k)
}

// fix restores the heap after the key at place k changed.
func (c *compHeap) fix(k int) {
	if !c.down(k) {
		c.up(k)
	}
}
