package engine

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// checker is the invariant checker (Options.Check): it follows every
// start and release of an allocation.
type checker struct {
	owner   []int32 // processor → job position+1, 0 free
	pieces  []policy.Piece
	scratch []int
}

// nodes lists the nodes of a's placement on m in scratch.
func (c *checker) nodes(m policy.Machine, a policy.Allocation) {
	c.pieces = a.Placement(c.pieces[:0])
	c.scratch = c.scratch[:0]
	for _, p := range c.pieces {
		c.scratch = p.AppendNodes(m, c.scratch)
	}
}

// checkStart checks job i's start (or migration) onto a, holding p
// processors, before the engine counts them busy.
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
	if frac {
		return // a share holds no particular node
	}
	c := e.chk
	c.nodes(e.m, a)
	if len(c.scratch) != a.Procs() {
		e.fail(fmt.Errorf("engine: t=%g: job %d: allocation lists %d processors but holds %d", e.now, j.ID, len(c.scratch), a.Procs()))
	}
	for _, q := range c.scratch {
		if q < 0 || q >= len(c.owner) {
			e.fail(fmt.Errorf("engine: t=%g: job %d given processor %d outside 0..%d", e.now, j.ID, q, len(c.owner)-1))
			return
		}
		if o := c.owner[q]; o != 0 {
			e.fail(fmt.Errorf("engine: t=%g: job %d given processor %d already held by job %d", e.now, j.ID, q, e.jobs[o-1].ID))
			return
		}
		c.owner[q] = i + 1
	}
}

// checkRelease checks job i's release of a.
func (e *sim) checkRelease(i int32, a policy.Allocation) {
	j := &e.jobs[i]
	if j.Start < j.Submit || j.End < j.Start {
		e.fail(fmt.Errorf("engine: job %d: submit %g, start %g, end %g out of order", j.ID, j.Submit, j.Start, j.End))
	}
	if _, frac := a.(policy.Sharer); frac {
		return
	}
	c := e.chk
	c.nodes(e.m, a)
	for _, q := range c.scratch {
		if q < 0 || q >= len(c.owner) || c.owner[q] != i+1 {
			e.fail(fmt.Errorf("engine: t=%g: job %d releases processor %d it does not hold", e.now, j.ID, q))
			return
		}
		c.owner[q] = 0
	}
}

// checkBusy checks, after job j ended or was suspended (what), that the
// allocator's busy count agrees with the engine's.
func (e *sim) checkBusy(j *policy.Job, what string) {
	if !e.frac && float64(e.alloc.Size()-e.alloc.Free()) != e.busy {
		e.fail(fmt.Errorf("engine: t=%g: after job %d %s the allocator has %d processors busy, engine counts %g",
			e.now, j.ID, what, e.alloc.Size()-e.alloc.Free(), e.busy))
	}
}
