package engine

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// accounting is what the statistics need beyond the jobs' times: the
// processors busy, the areas integrated between instants, and, once what a
// job holds changes during its residence (a policy.Sharer's share, a
// suspension, a migration), the processors each job held over time, for
// AllocProcs as a time average (hist).
type accounting struct {
	busy  float64 // processors held
	frac  bool    // some allocation held a fractional share (policy.Sharer)
	prevT float64 // the last instant, NaN before the first
	head  int     // no job before this position is waiting (a lower bound)
	// fragmented: after the last instant, the earliest waiting job had
	// as many free processors as it needs (Result.ExtFragTime).
	fragmented bool

	hist      bool
	heldArea  []float64 // ∫ processors held dt up to heldSince
	heldTime  []float64 // time held up to heldSince
	heldSince []float64 // start of the current holding
	varied    []bool    // the processors held changed during the residence
}

// integrate adds the areas from the last instant up to t.
func (e *sim) integrate(t float64) {
	if !math.IsNaN(e.prevT) {
		dt := t - e.prevT
		e.res.BusyArea += e.busy * dt
		e.res.QueueArea += float64(e.waiting) * dt
		if e.fragmented {
			e.res.ExtFragTime += dt
		}
	}
	e.prevT = t
}

// sample records the state after the events of instant t.
func (e *sim) sample(t float64) {
	e.res.Instants++
	e.res.MaxQueue = max(e.res.MaxQueue, e.waiting)
	// External fragmentation: the earliest-arrived waiting job needs no
	// more processors than are free.
	e.fragmented = false
	if e.waiting > 0 {
		for e.head < len(e.jobs) && e.state[e.head] != stWaiting {
			e.head++
		}
		if e.head < len(e.jobs) && float64(e.jobs[e.head].Need()) <= float64(e.alloc.Free()) {
			e.fragmented = true
			e.res.ExtFragInstants++
		}
	}
	if e.opt.Series {
		e.series(t)
	}
}

// series appends the state after instant t (Options.Series).
func (e *sim) series(t float64) {
	e.res.Series = append(e.res.Series, Sample{Time: t, Busy: e.busy, Running: e.nRun, Queue: e.waiting})
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
		i := j.Index
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
	if e.chk != nil && e.busy > float64(e.alloc.Size())+1e-9 {
		e.fail(fmt.Errorf("engine: t=%g: capacity exceeded (%g processors busy > %d)", e.now, e.busy, e.alloc.Size()))
	}
}
