// Package backfill implements the two classic backfilling schedulers of
// batch systems, both over a first-come first-served queue and both driven
// by user runtime estimates (policy.Job.Estimate; replay's
// --estimates=requested|actual chooses where estimates come from):
//
//   - easy: EASY backfilling (Lifka, "The ANL/IBM SP scheduling system",
//     JSSPP 1995; as defined by Mu'alem and Feitelson, "Utilization,
//     predictability, workloads, and user runtime estimates in scheduling
//     the IBM SP2 with backfilling", IEEE TPDS 12(6) 2001, §2). Only the job
//     at the head of the queue holds a reservation.
//   - conservative: conservative backfilling (Mu'alem and Feitelson 2001,
//     §2): every waiting job holds a reservation, and a job may move ahead
//     only if it delays no reservation.
//
// # Modelling choices
//
//   - Reservations are computed on processor counts (an availability
//     profile of free processors over time), whatever the allocator. A job
//     is started only when the allocator actually places it
//     (policy.System.Start succeeds). On a flat machine with the count
//     allocator the counts are exact, so the guarantees hold; with contig (or
//     the mesh allocators to come) a count-based reservation may not be
//     placeable when its time comes, because of fragmentation: the job then
//     simply starts later. The mesh issue will revisit this.
//   - A running job's estimated end is start + estimate. A job that outruns
//     its estimate (real logs have many: 475 on KTH-SP2) is assumed to end
//     imminently: its estimated end is max(start + estimate, now). Its
//     processors therefore count as free "now" in the reservation
//     computation, which is sound: a job reserved at "now" that cannot start
//     yet starts as soon as the outrunning job really ends, and jobs
//     backfilled meanwhile used only processors the reservation left over.
//   - Processor counts of running jobs are the allocated counts
//     (Allocation.Procs), which may exceed the request on allocators that
//     round up.
//   - conservative recomputes every reservation from scratch, in queue
//     (arrival) order, at every scheduling pass. With exact estimates this
//     gives the same reservations as keeping them; when a job ends earlier
//     than estimated it is the compression step (every job moves to its
//     earliest slot, in queue order). A pass stops early once no further
//     job can start now, since reservations of later jobs influence only the
//     future and are recomputed then.
//   - When a job's reservation is now and enough processors are free but
//     the allocator cannot place it (fragmentation, e.g. contig), its
//     reservation is deferred to the next breakpoint of the profile (the
//     next estimated release of processors) instead of holding processors
//     it cannot use; with count (exact counts) this never happens. EASY
//     does the analogue for its head: shadow time now, extra processors =
//     free − head's request.
//   - A zero-estimate job needs its processors only at its start instant.
package backfill

import (
	"fmt"
	"math"
	"sort"

	"github.com/schedlab/schedlab/model/policy"
)

// Schedulers returns the backfilling schedulers for the catalog.
func Schedulers() []policy.SchedulerSpec {
	return []policy.SchedulerSpec{
		{
			Name: "easy",
			Doc:  "EASY backfilling: FCFS, the head job holds a reservation (Lifka 1995; Mu'alem & Feitelson TPDS 2001 §2)",
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check(); err != nil {
					return nil, fmt.Errorf("easy: %w", err)
				}
				return NewEASY(), nil
			},
		},
		{
			Name: "conservative",
			Doc:  "conservative backfilling: every waiting job holds a reservation (Mu'alem & Feitelson TPDS 2001 §2)",
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check(); err != nil {
					return nil, fmt.Errorf("conservative: %w", err)
				}
				return NewConservative(), nil
			},
		},
	}
}

// queue is the FCFS waiting queue, in arrival order.
type queue struct {
	q    []*policy.Job
	head int
}

func (q *queue) push(j *policy.Job) { q.q = append(q.q, j) }
func (q *queue) len() int           { return len(q.q) - q.head }
func (q *queue) jobs() []*policy.Job {
	return q.q[q.head:]
}

// popFront drops the head.
func (q *queue) popFront() {
	q.q[q.head] = nil
	q.head++
	if q.head > 64 && q.head*2 > len(q.q) {
		n := copy(q.q, q.q[q.head:])
		clear(q.q[n:])
		q.q = q.q[:n]
		q.head = 0
	}
}

// removeStarted compacts away the jobs that are running.
func (q *queue) removeStarted() {
	w := q.head
	for _, j := range q.q[q.head:] {
		if j.Start < 0 {
			q.q[w] = j
			w++
		}
	}
	clear(q.q[w:])
	q.q = q.q[:w]
}

// runSet is the set of running jobs ordered by estimated end
// (start + estimate), then job ID.
type runSet []*policy.Job

func estEnd(j *policy.Job) float64 { return j.Start + j.Estimate }

func (r runSet) search(j *policy.Job) int {
	e := estEnd(j)
	return sort.Search(len(r), func(i int) bool {
		ei := estEnd(r[i])
		return ei > e || ei == e && r[i].ID >= j.ID
	})
}

func (r *runSet) add(j *policy.Job) {
	i := r.search(j)
	*r = append(*r, nil)
	copy((*r)[i+1:], (*r)[i:])
	(*r)[i] = j
}

func (r *runSet) remove(j *policy.Job) {
	for i := r.search(j); i < len(*r); i++ {
		if (*r)[i] == j {
			*r = append((*r)[:i], (*r)[i+1:]...)
			return
		}
	}
	panic(fmt.Sprintf("backfill: finished job %d was not running", j.ID))
}

// EASY is EASY backfilling. When the head of the queue cannot start, it
// gets a reservation at the shadow time: walking the running jobs by
// estimated end and freeing their processors, the first time the head
// fits. The extra processors are those free at the shadow time beyond the
// head's request. A later job (in queue order) is backfilled when it fits
// now and either ends (now + estimate) by the shadow time or uses no more
// than the extra processors (which it then consumes).
type EASY struct {
	q   queue
	run runSet
}

// NewEASY returns an EASY backfilling scheduler.
func NewEASY() *EASY { return &EASY{} }

// Submit appends j to the queue.
func (s *EASY) Submit(j *policy.Job) { s.q.push(j) }

// Finished forgets j.
func (s *EASY) Finished(j *policy.Job) { s.run.remove(j) }

// Waiting is the queue length.
func (s *EASY) Waiting() int { return s.q.len() }

// Schedule starts the head while it fits, then backfills around the head's
// reservation.
func (s *EASY) Schedule(sys policy.System) {
	al := sys.Allocator()
	for s.q.len() > 0 {
		j := s.q.jobs()[0]
		if j.Procs > al.Free() || !sys.Start(j) {
			break
		}
		s.run.add(j)
		s.q.popFront()
	}
	if s.q.len() < 2 || al.Free() == 0 {
		return
	}
	now := sys.Now()
	waiting := s.q.jobs()
	head := waiting[0]
	// Shadow time: the first estimated release after which the head fits
	// by count; every job released at that same time counts toward the
	// extra processors. When the head fits by count now but the allocator
	// could not place it (fragmentation), the shadow time is the next
	// release after now.
	shadow, extra := math.Inf(1), 0
	avail := al.Free()
	placeFailed := avail >= head.Procs
	for k, r := range s.run {
		avail += r.Alloc.Procs()
		e := max(estEnd(r), now)
		if avail < head.Procs || (placeFailed && e == now) {
			continue
		}
		if k+1 < len(s.run) && max(estEnd(s.run[k+1]), now) == e {
			continue // release the whole batch ending at e first
		}
		shadow, extra = e, avail-head.Procs
		break
	}
	started := false
	for _, j := range waiting[1:] {
		free := al.Free()
		if free == 0 {
			break
		}
		if j.Procs > free {
			continue
		}
		endsBy := now+j.Estimate <= shadow
		if !endsBy && j.Procs > extra {
			continue
		}
		if !sys.Start(j) {
			continue
		}
		s.run.add(j)
		started = true
		if !endsBy {
			extra -= j.Alloc.Procs()
		}
	}
	if started {
		s.q.removeStarted()
	}
}

// Conservative is conservative backfilling: in queue order, every waiting
// job gets the earliest reservation, in an availability profile of free
// processors over time, that does not conflict with the reservations of the
// jobs ahead of it; a job whose reservation is now starts now.
type Conservative struct {
	q    queue
	run  runSet
	prof profile
}

// NewConservative returns a conservative backfilling scheduler.
func NewConservative() *Conservative { return &Conservative{} }

// Submit appends j to the queue.
func (s *Conservative) Submit(j *policy.Job) { s.q.push(j) }

// Finished forgets j.
func (s *Conservative) Finished(j *policy.Job) { s.run.remove(j) }

// Waiting is the queue length.
func (s *Conservative) Waiting() int { return s.q.len() }

// Schedule recomputes the reservations in queue order and starts the jobs
// whose reservation is now.
func (s *Conservative) Schedule(sys policy.System) {
	if s.q.len() == 0 {
		return
	}
	al := sys.Allocator()
	waiting := s.q.jobs()
	// waiting[i].Mark = smallest request among waiting[i:]. Reservations
	// are recomputed from scratch at every pass, so a pass only matters
	// for the jobs it starts now: it stops (or is skipped) once no job left
	// asks for as few processors as are really free.
	minProcs := math.MaxInt
	for i := len(waiting) - 1; i >= 0; i-- {
		minProcs = min(minProcs, waiting[i].Procs)
		waiting[i].Mark = int64(minProcs)
	}
	if al.Free() < minProcs {
		return
	}
	now := sys.Now()
	// The profile: free processors now, then +procs at each running job's
	// estimated end (outrunning jobs count as ending now).
	p := &s.prof
	p.reset(now, al.Free())
	for _, r := range s.run {
		p.release(max(estEnd(r), now), r.Alloc.Procs())
	}
	started := false
	for _, j := range waiting {
		if free := min(p.freeAt0(), al.Free()); free < int(j.Mark) {
			break // nobody left in the queue can start now
		}
		t := p.earliest(j.Procs, j.Estimate, now)
		if t == now && al.Free() >= j.Procs {
			if sys.Start(j) {
				s.run.add(j)
				started = true
				p.reserve(now, j.Estimate, j.Alloc.Procs())
				continue
			}
			// Enough processors are free but the allocator cannot place
			// them (fragmentation): defer the reservation to the next
			// time processors are released.
			t = p.earliest(j.Procs, j.Estimate, math.Nextafter(now, math.Inf(1)))
		}
		if !math.IsInf(t, 1) {
			p.reserve(t, j.Estimate, j.Procs)
		}
	}
	if started {
		s.q.removeStarted()
	}
}

// profile is a step function of free processors over time: seg[i].free
// processors are free from seg[i].t until seg[i+1].t (the last segment
// lasts forever). Times are strictly increasing.
type profile struct {
	seg []step
}

type step struct {
	t    float64
	free int
}

func (p *profile) reset(now float64, free int) {
	p.seg = append(p.seg[:0], step{now, free})
}

func (p *profile) freeAt0() int { return p.seg[0].free }

// split makes t a breakpoint and returns its index (t ≥ seg[0].t).
func (p *profile) split(t float64) int {
	i := sort.Search(len(p.seg), func(i int) bool { return p.seg[i].t >= t })
	if i < len(p.seg) && p.seg[i].t == t {
		return i
	}
	// seg[i-1].t < t < seg[i].t
	p.seg = append(p.seg, step{})
	copy(p.seg[i+1:], p.seg[i:])
	p.seg[i] = step{t, p.seg[i-1].free}
	return i
}

// release adds k free processors from t on.
func (p *profile) release(t float64, k int) {
	for i := p.split(t); i < len(p.seg); i++ {
		p.seg[i].free += k
	}
}

// reserve takes k processors during [t, t+d) (at the instant t only when
// d = 0, which changes nothing later).
func (p *profile) reserve(t, d float64, k int) {
	if d <= 0 {
		return
	}
	i := p.split(t)
	e := p.split(t + d)
	for ; i < e; i++ {
		p.seg[i].free -= k
	}
}

// earliest returns the earliest breakpoint t ≥ from such that k
// processors are free throughout [t, t+d) (at t when d = 0), +Inf if none.
func (p *profile) earliest(k int, d float64, from float64) float64 {
	n := len(p.seg)
	for i := 0; i < n; {
		if p.seg[i].free < k || p.seg[i].t < from {
			i++
			continue
		}
		t := p.seg[i].t
		ok := true
		m := i + 1
		for ; m < n && p.seg[m].t < t+d; m++ {
			if p.seg[m].free < k {
				ok = false
				break
			}
		}
		if ok {
			return t
		}
		i = m + 1
	}
	return math.Inf(1)
}
