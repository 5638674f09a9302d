// Package engine is schedlab's discrete-event core: it replays a list of
// jobs on a machine through a processor allocator and a job scheduler
// (model/policy), and records when each job started and ended.
//
// # Event order (contract)
//
// At one instant the engine
//
//  1. completes every job that ends then, in (end, job ID) order: it
//     releases the job's processors and calls Scheduler.Finished;
//  2. admits every job that arrives then, in trace order (Scheduler.Submit);
//  3. drops the timers (System.Wake) that are due, and calls
//     Scheduler.Schedule once.
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
// # Extension points (future families are additions, not rewrites)
//
//   - Meshes and hypercubes: nothing to change. The engine never looks
//     inside a policy.Allocation except through Procs() and, when checking,
//     policy.NodeLister; a mesh allocation that is a list of submeshes only
//     has to list its nodes.
//   - Network contention stretching residence times: running jobs complete
//     from an indexed min-heap keyed by (end, job ID, position) (compHeap,
//     with pos[] so that fix and remove are O(log n)). A contention model
//     keeps per-running-job remaining work and a rate, and at each instant
//     recomputes End = now + remaining/rate for the jobs whose rate changed
//     and calls heap.fix(pos[i]): a small addition in Start/complete.
//   - Preemption and migration (hypercube): stopping a running job is
//     heap.remove(pos[i]) + Allocator.Release + marking the job waiting
//     again with its remaining run time; restarting is Start. The System
//     interface would gain Preempt(j); state[] already has the four states.
//   - Malleable jobs (reallocation at every event): the same re-keying as
//     contention (work / speed(processors)), with the allocator resizing an
//     allocation; the scheduler is already called at every event instant.
package engine

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/model/policy"
)

// Options controls a run.
type Options struct {
	// Check verifies invariants while running: no processor held twice
	// (through policy.NodeLister when the allocations implement it), the
	// machine's capacity never exceeded, the allocator's free count
	// consistent, an allocation at least as large as the request, every start
	// at or after its submit time, every job ending exactly once, and the
	// scheduler's waiting count agreeing with the engine's. A violation makes
	// Run return an error naming the job and time.
	Check bool
	// Series records the (time, busy, running, queue) series, one sample per
	// distinct event time.
	Series bool
	// Nodes records, for every job, the processor ranges it held (see
	// FormatNodes); "" when the allocation is not a policy.NodeLister.
	Nodes bool
}

// Sample is the state of the machine after all events at one instant.
type Sample struct {
	Time    float64
	Busy    int // processors held
	Running int // jobs running
	Queue   int // jobs waiting
}

// Result holds the jobs with Start and End filled, plus statistics.
type Result struct {
	// Jobs is the slice given to Run, with Start and End set (Alloc is nil
	// again once a job has completed).
	Jobs []policy.Job
	// AllocProcs[i] is the number of processors Jobs[i] held (it may exceed
	// the request when the allocator rounds up).
	AllocProcs []int
	// Nodes[i] is the processor ranges Jobs[i] held ("0-15,32-47"), when
	// Options.Nodes was set; nil otherwise.
	Nodes []string
	// First is the first arrival time, Last the last completion time.
	First, Last float64
	// MaxQueue is the largest number of jobs waiting after any instant.
	MaxQueue int
	// QueueArea and BusyArea are the integrals over [First, Last] of the
	// number of waiting jobs and of busy processors.
	QueueArea, BusyArea float64
	// Instants is the number of distinct event times.
	Instants int
	// Series is the state after each instant (Options.Series).
	Series []Sample
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

	now     float64
	slot    []int32 // trace index → position in jobs, -1 when absent
	state   []uint8
	heap    compHeap
	running []*policy.Job // start order, with nil holes (lazy compaction)
	runPos  []int32       // position in running, per job
	dead    int           // nil holes in running
	nRun    int
	busy    int
	waiting int
	started int       // jobs started so far
	timers  []float64 // min-heap of wake-up times
	owner   []int32   // Check: processor → job position+1, 0 free
	scratch []int
	err     error
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
	e.res = &Result{Jobs: jobs, AllocProcs: make([]int, n)}
	if opt.Nodes {
		e.res.Nodes = make([]string, n)
	}
	maxIdx := -1
	for i := range jobs {
		j := &jobs[i]
		if i > 0 && j.Submit < jobs[i-1].Submit {
			return nil, fmt.Errorf("engine: job %d (index %d) submitted at %g before job %d at %g: jobs must be sorted by submit time",
				j.ID, i, j.Submit, jobs[i-1].ID, jobs[i-1].Submit)
		}
		if j.Procs <= 0 || j.Run < 0 || math.IsNaN(j.Run) || math.IsInf(j.Run, 0) {
			return nil, fmt.Errorf("engine: job %d: invalid request (procs %d, run %g)", j.ID, j.Procs, j.Run)
		}
		if j.Index < 0 {
			return nil, fmt.Errorf("engine: job %d: negative index %d", j.ID, j.Index)
		}
		maxIdx = max(maxIdx, j.Index)
		j.Start, j.End, j.Alloc = -1, -1, nil
	}
	e.slot = make([]int32, maxIdx+1)
	for i := range e.slot {
		e.slot[i] = -1
	}
	for i := range jobs {
		if e.slot[jobs[i].Index] >= 0 {
			return nil, fmt.Errorf("engine: job %d: index %d used twice", jobs[i].ID, jobs[i].Index)
		}
		e.slot[jobs[i].Index] = int32(i)
	}
	e.state = make([]uint8, n)
	e.runPos = make([]int32, n)
	e.heap.pos = make([]int32, n)
	e.heap.jobs = jobs
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
		t := math.Inf(1)
		if next < n {
			t = jobs[next].Submit
		}
		if len(e.heap.h) > 0 {
			t = min(t, jobs[e.heap.h[0]].End)
		}
		if len(e.timers) > 0 {
			t = min(t, e.timers[0])
		}
		if math.IsInf(t, 1) {
			break
		}
		if !math.IsNaN(prevT) {
			dt := t - prevT
			e.res.BusyArea += float64(e.busy) * dt
			e.res.QueueArea += float64(e.waiting) * dt
		}
		prevT = t
		e.now = t
		startedBefore := e.started
		// 1. completions.
		done += e.complete(t)
		// 2. arrivals.
		for next < n && jobs[next].Submit == t {
			e.state[next] = stWaiting
			e.waiting++
			s.Submit(&jobs[next])
			next++
		}
		// 3. timers, then one scheduling pass; repeat while zero-length jobs
		// started now complete now.
		for len(e.timers) > 0 && e.timers[0] <= t {
			e.popTimer()
		}
		s.Schedule(e)
		for e.err == nil && len(e.heap.h) > 0 && jobs[e.heap.h[0]].End == t {
			done += e.complete(t)
			s.Schedule(e)
		}
		if e.err != nil {
			return nil, e.err
		}
		if opt.Check && s.Waiting() != e.waiting {
			return nil, fmt.Errorf("engine: t=%g: scheduler reports %d jobs waiting, engine counts %d", t, s.Waiting(), e.waiting)
		}
		e.res.Instants++
		e.res.MaxQueue = max(e.res.MaxQueue, e.waiting)
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
		return nil, fmt.Errorf("engine: %d of %d jobs completed", done, n)
	}
	return e.res, nil
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
	for len(e.heap.h) > 0 && e.jobs[e.heap.h[0]].End == t {
		i := e.heap.pop()
		j := &e.jobs[i]
		a := j.Alloc
		if e.opt.Nodes {
			if nl, ok := a.(policy.NodeLister); ok {
				e.scratch = nl.Nodes(e.scratch[:0])
				e.res.Nodes[i] = FormatNodes(e.scratch)
			}
		}
		if e.owner != nil {
			e.checkRelease(i, a)
		}
		e.alloc.Release(a)
		e.busy -= e.res.AllocProcs[i]
		j.Alloc = nil
		e.state[i] = stDone
		e.running[e.runPos[i]] = nil
		e.dead++
		e.nRun--
		if e.owner != nil && e.alloc.Size()-e.alloc.Free() != e.busy {
			e.fail(fmt.Errorf("engine: t=%g: after job %d ended the allocator has %d processors busy, engine counts %d",
				t, j.ID, e.alloc.Size()-e.alloc.Free(), e.busy))
		}
		e.sched.Finished(j)
		k++
	}
	return k
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
	if j == nil || j.Index < 0 || j.Index >= len(e.slot) || e.slot[j.Index] < 0 || &e.jobs[e.slot[j.Index]] != j {
		e.fail(fmt.Errorf("engine: t=%g: Start of a job that is not part of this run", e.now))
		return false
	}
	i := e.slot[j.Index]
	switch e.state[i] {
	case stFuture:
		e.fail(fmt.Errorf("engine: t=%g: job %d started before its arrival at %g", e.now, j.ID, j.Submit))
		return false
	case stRunning, stDone:
		e.fail(fmt.Errorf("engine: t=%g: job %d started twice (first at %g)", e.now, j.ID, j.Start))
		return false
	}
	a, ok := e.alloc.Allocate(j)
	if !ok {
		return false
	}
	if a == nil {
		e.fail(fmt.Errorf("engine: t=%g: job %d: allocator returned a nil allocation", e.now, j.ID))
		return false
	}
	p := a.Procs()
	if e.owner != nil {
		e.checkStart(i, a, p)
	}
	j.Start = e.now
	j.End = e.now + j.Run
	j.Alloc = a
	e.res.AllocProcs[i] = p
	e.state[i] = stRunning
	e.waiting--
	e.started++
	e.busy += p
	e.nRun++
	if e.dead > len(e.running)/2 {
		e.compact()
	}
	e.runPos[i] = int32(len(e.running))
	e.running = append(e.running, j)
	e.heap.push(i)
	if j.End > e.res.Last {
		e.res.Last = j.End
	}
	return true
}

func (e *sim) checkStart(i int32, a policy.Allocation, p int) {
	j := &e.jobs[i]
	switch {
	case p < j.Procs:
		e.fail(fmt.Errorf("engine: t=%g: job %d asked for %d processors and was given %d", e.now, j.ID, j.Procs, p))
	case e.busy+p > e.alloc.Size():
		e.fail(fmt.Errorf("engine: t=%g: job %d: capacity exceeded (%d busy + %d > %d)", e.now, j.ID, e.busy, p, e.alloc.Size()))
	case e.now < j.Submit:
		e.fail(fmt.Errorf("engine: t=%g: job %d started before its submit time %g", e.now, j.ID, j.Submit))
	case e.alloc.Size()-e.alloc.Free() != e.busy+p:
		e.fail(fmt.Errorf("engine: t=%g: job %d: allocator has %d processors busy, engine counts %d",
			e.now, j.ID, e.alloc.Size()-e.alloc.Free(), e.busy+p))
	}
	nl, ok := a.(policy.NodeLister)
	if !ok {
		return
	}
	e.scratch = nl.Nodes(e.scratch[:0])
	if len(e.scratch) != p {
		e.fail(fmt.Errorf("engine: t=%g: job %d: allocation lists %d processors but holds %d", e.now, j.ID, len(e.scratch), p))
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

// FormatNodes writes processor numbers as sorted ranges, e.g.
// [0 1 2 3 8] → "0-3,8". It sorts nodes in place.
func FormatNodes(nodes []int) string {
	if len(nodes) == 0 {
		return ""
	}
	if !sort.IntsAreSorted(nodes) {
		sort.Ints(nodes)
	}
	var b strings.Builder
	for i := 0; i < len(nodes); {
		k := i
		for k+1 < len(nodes) && nodes[k+1] == nodes[k]+1 {
			k++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(nodes[i]))
		if k > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(nodes[k]))
		}
		i = k + 1
	}
	return b.String()
}

// compHeap is an indexed min-heap of running jobs (positions in jobs) keyed
// by (End, ID, position). pos[i] is job i's place in h, so that a job's
// completion can be re-keyed (fix) or withdrawn (remove) in O(log n).
type compHeap struct {
	h    []int32
	pos  []int32
	jobs []policy.Job
}

func (c *compHeap) less(a, b int32) bool {
	ja, jb := &c.jobs[a], &c.jobs[b]
	if ja.End != jb.End {
		return ja.End < jb.End
	}
	if ja.ID != jb.ID {
		return ja.ID < jb.ID
	}
	return a < b
}

func (c *compHeap) swap(x, y int) {
	c.h[x], c.h[y] = c.h[y], c.h[x]
	c.pos[c.h[x]] = int32(x)
	c.pos[c.h[y]] = int32(y)
}

func (c *compHeap) up(k int) {
	for k > 0 {
		p := (k - 1) / 2
		if !c.less(c.h[k], c.h[p]) {
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
		if r := l + 1; r < n && c.less(c.h[r], c.h[l]) {
			m = r
		}
		if !c.less(c.h[m], c.h[k]) {
			break
		}
		c.swap(k, m)
		k = m
	}
	return k > k0
}

func (c *compHeap) push(i int32) {
	c.h = append(c.h, i)
	c.pos[i] = int32(len(c.h) - 1)
	c.up(len(c.h) - 1)
}

func (c *compHeap) pop() int32 {
	return c.remove(0)
}

// remove withdraws the job at heap place k and returns it.
func (c *compHeap) remove(k int) int32 {
	i := c.h[k]
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

// fix restores the heap after the key at place k changed.
func (c *compHeap) fix(k int) {
	if !c.down(k) {
		c.up(k)
	}
}
