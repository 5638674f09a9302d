package engine

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// Now implements policy.System.
func (e *sim) Now() float64 { return e.now }

// Machine implements policy.System.
func (e *sim) Machine() policy.Machine { return e.m }

// Capacity implements policy.System.
func (e *sim) Capacity() policy.Capacity { return e.cap }

// Reservations implements policy.System.
func (e *sim) Reservations() policy.Reserver { return e.rv }

// Largest implements policy.RunContext, keeping the waiting jobs ordered
// from the first call on.
func (e *sim) Largest(k int, skip *policy.Job, dst []*policy.Job) []*policy.Job {
	if e.wait == nil {
		e.wait = &waitingSet{jobs: e.jobs}
		for i := range e.state {
			if e.state[i] == stWaiting {
				e.wait.add(int32(i))
			}
		}
	}
	return e.wait.Largest(k, skip, dst)
}

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
			e.runPos[j.Index] = int32(w)
			e.running[w] = j
			w++
		}
	}
	clear(e.running[w:])
	e.running = e.running[:w]
	e.dead = 0
}

// leave takes running job i off the running list.
func (e *sim) leave(i int32) {
	e.running[e.runPos[i]] = nil
	e.dead++
	e.nRun--
}

// Wake implements policy.System.
func (e *sim) Wake(t float64) {
	if !(t > e.now) || math.IsInf(t, 1) {
		e.fail(fmt.Errorf("engine: t=%g: Wake(%g) is not a future time", e.now, t))
		return
	}
	e.timers.push(0, t, 0)
}

// Start implements policy.System.
func (e *sim) Start(j *policy.Job) bool {
	// startable and allocate, by hand: this is the hottest call.
	i := int32(-1)
	if j != nil && uint(j.Index) < uint(len(e.jobs)) {
		i = j.Index
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
	if j != nil && uint(j.Index) < uint(len(e.jobs)) {
		i = j.Index
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
	if e.chk != nil {
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
	e.comp.push(i, j.End, j.ID)
	if resumed {
		e.logEvent(i, Resumed)
	}
	if e.progress != nil {
		e.progress.Started(j, e)
	}
}

// runningJob checks that j belongs to this run and is running.
func (e *sim) runningJob(j *policy.Job, what string) (int32, bool) {
	if j == nil || uint(j.Index) >= uint(len(e.jobs)) || &e.jobs[j.Index] != j {
		e.fail(fmt.Errorf("engine: t=%g: %s of a job that is not part of this run", e.now, what))
		return 0, false
	}
	i := j.Index
	if e.state[i] != stRunning {
		return i, false
	}
	return i, true
}
