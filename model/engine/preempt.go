package engine

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// Suspend implements policy.System.
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
	if e.chk != nil {
		e.checkRelease(i, a)
	}
	e.alloc.Release(a)
	e.busy -= e.res.AllocProcs[i] // AllocProcs[i] stays the share held, for Resumed
	e.comp.remove(int(e.comp.pos[i]))
	j.Alloc, j.End = nil, -1
	e.state[i] = stWaiting
	e.waiting++
	if e.wait != nil {
		e.wait.add(i)
	}
	e.head = min(e.head, int(i))
	e.leave(i)
	if e.progress != nil {
		e.progress.Left(j, e)
	}
	if e.res.Suspensions == nil {
		e.res.Suspensions = make([]int32, len(e.jobs))
	}
	e.res.Suspensions[i]++
	if e.chk != nil {
		e.checkBusy(j, "was suspended")
	}
	return true
}

// Migrate implements policy.System.
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
	if e.chk != nil {
		e.checkStart(i, b, p)
	}
	e.busy += p
	if e.chk != nil {
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
