package backfill

// The conservative backfilling scheduler and its availability profile as
// they were before the indexed profile (commit 829503c), verbatim but for
// the names: the reference of TestConservativeProfileEquality, which
// requires the same schedules of both.

import (
	"math"
	"sort"

	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// oldConservative is conservative backfilling: every waiting job holds a
// reservation in an availability profile of free processors over time. An
// arriving job gets the earliest slot that conflicts neither with the
// running jobs (until their estimated ends) nor with any reservation held;
// a job whose reservation is now starts now. At every scheduling pass the
// schedule is compressed (Mu'alem and Feitelson 2001, §2): in queue order,
// each job gives up its reservation and takes the earliest slot among all
// the other reservations, which is never later than the one it held (the
// old slot is still free), so no job is ever pushed back by another's
// move. Only when a running job outran its estimate can a job's old slot
// have become unusable; that job then takes the earliest slot among the
// running jobs and the reservations of the jobs ahead of it only (queue
// order decides), and the later jobs it displaces move in turn.
// The reservation of each waiting job is the scheduler's own state (resv).
type oldConservative struct {
	q     fifo.Queue
	resv  []float64 // reservation of each waiting job, by Job.Index (resOf)
	run   runSet
	base  sliceProfile // running jobs and the reservations already re-placed
	full  sliceProfile // base plus the reservations not yet re-placed
	init  []sliceStep  // the running jobs only
	dirty bool         // a job arrived or finished since the last pass
	// full still describes the schedule after the last pass, and no job
	// has since finished before the end of its place in it: the next pass
	// need not compress (see quick).
	valid   bool
	noQuick bool // tests: always compress
}

// newOldConservative returns a conservative backfilling scheduler.
func newOldConservative() *oldConservative { return &oldConservative{} }

// resOf is the reservation of a waiting job: NaN before its first pass,
// +Inf when none is possible.
func (s *oldConservative) resOf(j *policy.Job) float64 { return s.resv[j.Index] }

// hasRes reports whether j has had its first pass.
func (s *oldConservative) hasRes(j *policy.Job) bool { return !math.IsNaN(s.resv[j.Index]) }

// Submit appends j to the queue, without a reservation yet.
func (s *oldConservative) Submit(j *policy.Job) {
	for len(s.resv) <= int(j.Index) {
		s.resv = append(s.resv, math.NaN())
	}
	s.resv[j.Index] = math.NaN()
	s.q.Push(j)
	s.dirty = true
}

// Finished forgets j. A job that ends before the end of its place in the
// profile (earlier than estimated, or a zero-length job, which holds its
// start instant) frees room: the next pass compresses.
func (s *oldConservative) Finished(j *policy.Job) {
	s.run.remove(j)
	s.dirty = true
	if j.End < max(estEnd(j), math.Nextafter(j.Start, math.Inf(1))) {
		s.valid = false
	}
}

// Waiting is the queue length.
func (s *oldConservative) Waiting() int { return s.q.Len() }

// Schedule compresses the reservations in queue order, gives the new jobs
// theirs, and starts the jobs whose reservation is now.
func (s *oldConservative) Schedule(sys policy.System) {
	if !s.dirty || s.q.Len() == 0 {
		s.dirty = false
		return
	}
	s.dirty = false
	if s.quick(sys) {
		return
	}
	s.valid = !s.noQuick
	al := sys.Capacity()
	waiting := s.q.Jobs()
	now := sys.Now()
	// The profiles: free processors now, +procs at each running job's
	// estimated end (outrunning jobs count as ending now); full also
	// holds every reservation (one in the past, whose job could not
	// start, counts from now).
	base, full := &s.base, &s.full
	full.reset(now, al.Free())
	for _, r := range s.run {
		full.release(max(estEnd(r), now), r.Alloc.Procs())
		if r.Start == now && estEnd(r) <= now {
			// Started at this instant with a zero estimate (by the quick
			// pass that handed over to this one): it holds its start
			// instant, as the reservation it started from did, and is not
			// free before it completes.
			full.reserve(now, 0, r.Alloc.Procs())
		}
	}
	s.init = append(s.init[:0], full.seg...)
	held := func(j *policy.Job) (float64, bool) {
		if !s.hasRes(j) {
			return 0, false
		}
		t := s.resOf(j)
		return max(t, now), !math.IsInf(t, 1)
	}
	for _, j := range waiting {
		if t, ok := held(j); ok {
			full.reserve(t, j.Estimate, j.Procs)
		}
	}
	// base (running jobs and the jobs ahead, as re-placed) is needed only
	// when a job's old slot is gone or the allocator fails: it is built
	// then, at job k, and kept up to date from there on.
	haveBase := false
	needBase := func(k int) {
		if haveBase {
			return
		}
		haveBase = true
		base.seg = append(base.seg[:0], s.init...)
		for _, w := range waiting[:k] {
			if w.Start >= 0 {
				base.reserve(now, w.Estimate, w.Alloc.Procs())
			} else if t := s.resOf(w); !math.IsInf(t, 1) {
				base.reserve(t, w.Estimate, w.Procs)
			}
		}
	}
	started := false
	for k, j := range waiting {
		old, ok := held(j)
		if ok {
			full.reserve(old, j.Estimate, -j.Procs) // give it up
		}
		t := full.earliest(j.Procs, j.Estimate, now)
		if ok && t > old {
			// The old slot is gone (a running job outran its estimate):
			// the jobs behind give way.
			needBase(k)
			t = base.earliest(j.Procs, j.Estimate, now)
		}
		if ok && t != old {
			// A job moved: the jobs ahead of it, already placed, may
			// now find an earlier slot. The next pass compresses again.
			s.valid = false
		}
		if t == now && al.Free() >= j.Procs {
			if sys.Start(j) {
				s.run.add(j)
				started = true
				if haveBase {
					base.reserve(now, j.Estimate, j.Alloc.Procs())
				}
				full.reserve(now, j.Estimate, j.Alloc.Procs())
				continue
			}
			// Enough processors are free but the allocator cannot place
			// them (fragmentation): defer the reservation to the next
			// time processors are released.
			needBase(k)
			t = base.earliest(j.Procs, j.Estimate, math.Nextafter(now, math.Inf(1)))
			s.valid = false
		}
		if !math.IsInf(t, 1) {
			if haveBase {
				base.reserve(t, j.Estimate, j.Procs)
			}
			full.reserve(t, j.Estimate, j.Procs)
		}
		s.resv[j.Index] = t
	}
	if started {
		s.q.RemoveStarted()
	}
}

// quick is a pass without compression, for when nothing has freed room
// since the last pass (only arrivals, and completions at their estimated
// ends): the reservations held are then still the earliest possible, the
// profile full of the last pass still holds for the future, the jobs
// whose reservation is now start, and the new jobs take their slots behind
// all the others. It reports false, having changed nothing but perhaps
// started some jobs, when a full pass is needed (room freed, a
// reservation in the past, or a start the allocator refuses).
func (s *oldConservative) quick(sys policy.System) bool {
	if !s.valid {
		return false
	}
	now := sys.Now()
	waiting := s.q.Jobs()
	for _, j := range waiting {
		if s.hasRes(j) && s.resOf(j) < now {
			s.valid = false // a job that should have started: compress
			return false
		}
	}
	full, al := &s.full, sys.Capacity()
	full.advance(now)
	ok, started := true, false
	for _, j := range waiting {
		if s.hasRes(j) {
			if s.resOf(j) == now {
				if al.Free() < j.Procs || !sys.Start(j) {
					ok = false
					break
				}
				started = true
				s.run.add(j)
				if j.Alloc.Procs() != j.Procs {
					ok = false // the sliceProfile holds j.Procs
					break
				}
			}
			continue
		}
		t := full.earliest(j.Procs, j.Estimate, now)
		if t == now {
			if al.Free() < j.Procs || !sys.Start(j) {
				ok = false
				break
			}
			started = true
			s.run.add(j)
			full.reserve(now, j.Estimate, j.Alloc.Procs())
			continue
		}
		if !math.IsInf(t, 1) {
			full.reserve(t, j.Estimate, j.Procs)
		}
		s.resv[j.Index] = t
	}
	if started {
		s.q.RemoveStarted()
	}
	if !ok {
		s.valid = false
	}
	return ok
}

// profile is a sliceStep function of free processors over time: seg[i].free
// processors are free from seg[i].t until seg[i+1].t (the last segment
// lasts forever). Times are strictly increasing.
type sliceProfile struct {
	seg []sliceStep
}

type sliceStep struct {
	t    float64
	free int
}

func (p *sliceProfile) reset(now float64, free int) {
	p.seg = append(p.seg[:0], sliceStep{now, free})
}

// advance drops the past: the profile starts at now (≥ its start).
func (p *sliceProfile) advance(now float64) {
	i := sort.Search(len(p.seg), func(i int) bool { return p.seg[i].t > now }) - 1
	n := copy(p.seg, p.seg[i:])
	p.seg = p.seg[:n]
	p.seg[0].t = now
}

// split makes t a breakpoint and returns its index (t ≥ seg[0].t).
func (p *sliceProfile) split(t float64) int {
	i := sort.Search(len(p.seg), func(i int) bool { return p.seg[i].t >= t })
	if i < len(p.seg) && p.seg[i].t == t {
		return i
	}
	// seg[i-1].t < t < seg[i].t
	p.seg = append(p.seg, sliceStep{})
	copy(p.seg[i+1:], p.seg[i:])
	p.seg[i] = sliceStep{t, p.seg[i-1].free}
	return i
}

// release adds k free processors from t on.
func (p *sliceProfile) release(t float64, k int) {
	for i := p.split(t); i < len(p.seg); i++ {
		p.seg[i].free += k
	}
}

// reserve takes k processors during [t, t+d). A zero-length reservation
// (d = 0, or d too small to move t) holds them at the instant t only: it
// takes the shortest segment that floating point allows, [t, next float
// after t), so that no later job may overlap the instant, yet a job ending
// at t or starting after it is unaffected.
func (p *sliceProfile) reserve(t, d float64, k int) {
	end := max(t+d, math.Nextafter(t, math.Inf(1)))
	i := p.split(t)
	e := p.split(end)
	for ; i < e; i++ {
		p.seg[i].free -= k
	}
}

// earliest returns the earliest breakpoint t ≥ from such that k
// processors are free throughout [t, t+d) (at t when d = 0), +Inf if none.
func (p *sliceProfile) earliest(k int, d float64, from float64) float64 {
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
