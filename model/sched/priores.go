package sched

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// PrioRes is Das Sharma and Pradhan's priority + reservation scheduler
// (D. Das Sharma and D. K. Pradhan, "Job scheduling in mesh
// multicomputers", ICPP 1994, as described by Y.-K. Chu, "Processor
// Allocation and Job Scheduling in Two-Dimensional Mesh Systems", 1995,
// §2.5.4). It works
// with any allocator. Jobs wait in two FCFS lists, the reservation list
// (jobs holding a reservation) and the waiting list; both are processed in
// order without blocking, except for the priority rule.
//
//   - Priority (starvation counter): every waiting job counts the jobs that
//     arrived after it and were started while it waited. Waiting jobs do not
//     block anyone unless the head of the waiting list has seen more than
//     MAX_PRI (max_pri) such jobs; it then has top priority: no other job of
//     the waiting list and no arriving job is started (or reserves) before
//     it. Jobs of the reservation list are not held back by it: their
//     processors are already set aside. The head's counter is computed in
//     closed form: jobs started so far, minus the jobs that arrived before
//     it, plus those of them still in the reservation list.
//   - When a job arrives: unless the head has top priority (then it joins
//     the waiting list), it is started if it fits in the unreserved free
//     processors; otherwise it tries to reserve; a job with a reservation
//     joins the reservation list, otherwise the waiting list.
//   - When a job completes, three phases: (1) start every reserved job whose
//     reserved processors are now all free; (2) scan the reservation list
//     again and start every reserved job that fits in its own reserved free
//     processors plus the unreserved free ones; (3) start, in order, the
//     waiting jobs that fit in the unreserved free processors, then try to
//     reserve for the remaining waiting jobs, in order. In that second pass
//     a job that now fits (the pass may reach jobs that the first one did
//     not, once a prioritized head has reserved and left the waiting list)
//     is started instead of reserving.
//
// Submesh reservation. The paper reserves a submesh: the candidate with the
// fewest free processors, ties broken by the fewest overlapping allocated
// submeshes; no processor is reserved twice, and a reserved processor is
// not given to another job even while free. With an allocator that can
// reserve (policy.Reserver: the mesh allocators) the reservation is its
// place, chosen by the allocator (model/mesh/reserve.go), and the phases
// read: (1) start every reserved job whose reserved processors are all
// free, exactly there; (2) start every other reserved job that the
// allocator can now place anywhere in the processors free and not
// reserved for another job, its own reserved ones counting as free (its
// reservation then ends); (3) as above, a job without a reservation never
// being given a reserved processor. A job whose reservation is all free
// when made (its strategy missed the place, as frame sliding can) starts
// on it at once.
//
// Reservation on a topology-blind allocator (modelling choice). Without
// policy.Reserver a reservation is a count of processors: as many busy
// processors as possible (fewest free ones), claimed from the running jobs
// with the most unclaimed processors first (fewest overlapping running jobs;
// ties by start order), and the rest taken from the unreserved free
// processors and held idle. A busy processor is claimed by at most one
// reservation; when its job completes it becomes a held free processor of
// the reservation. A job without a reservation may start only if its
// request fits in Free − (held processors). A reservation fails when the
// unclaimed busy plus unreserved free processors are fewer than the
// request (Job.Need: on a hypercube the 2^k nodes of the job's subcube).
// On flat machines with the count allocator this is exact; with a
// topology-aware allocator (a hypercube's) the reservation is a count, not a place, so a
// reserved job whose processors are all free may still fail to be placed
// (it then keeps its reservation and is retried at the next completion).
//
// Parameters: reserve=false gives the priority technique alone; max_pri
// defaults to inf (Chu's thesis does not give the ICPP'94 value, and ∞ is the
// only value it discusses: Chu §5.4 found SA with wtl=inf to behave exactly
// like the priority scheme with MAX_PRI = ∞, which prio-res:reserve=false
// reproduces).
type PrioRes struct {
	inbox
	maxPri  float64
	reserve bool

	waiting waitList
	rv      policy.Reserver     // the allocator, when it reserves places (else nil: counts)
	res     []*reservation      // FCFS
	held    int                 // free processors held by reservations
	claimed map[*policy.Job]int // busy processors of running jobs claimed
	nClaim  int                 // sum of claimed
	started int64               // jobs started so far
	arrived int64               // jobs submitted so far
	rank    []int64             // arrival rank of each job submitted, by Job.Index
	cands   []*policy.Job

	// Cache of the number of reserved jobs that arrived before a waiting
	// job (for the starvation counter), valid while resVer is unchanged.
	cacheJob *policy.Job
	cacheVer int64
	cacheN   int64
	resVer   int64
}

// reservation is one job's reservation: held free processors, plus busy
// processors claimed from running jobs; neither when the allocator keeps
// the reservation (policy.Reserver).
type reservation struct {
	j      *policy.Job
	held   int
	claims []claim
}

type claim struct {
	r *policy.Job
	n int
}

// NewPrioRes returns the priority scheduler with MAX_PRI = maxPri
// (math.Inf(1) for none), with reservations when reserve is true.
func NewPrioRes(maxPri float64, reserve bool) *PrioRes {
	return &PrioRes{maxPri: maxPri, reserve: reserve, claimed: map[*policy.Job]int{}}
}

// Submit records an arrival and its arrival rank.
func (s *PrioRes) Submit(j *policy.Job) {
	for len(s.rank) <= int(j.Index) {
		s.rank = append(s.rank, -1)
	}
	s.rank[j.Index] = s.arrived
	s.arrived++
	s.inbox.Submit(j)
}

// rankOf is the arrival rank of a submitted job (0 for the first).
func (s *PrioRes) rankOf(j *policy.Job) int64 { return s.rank[j.Index] }

// Waiting is the number of jobs waiting, reserved or not.
func (s *PrioRes) Waiting() int { return s.waiting.len() + len(s.res) + len(s.arrivals) }

// Finished turns the processors of j claimed by reservations into held
// free processors of those reservations.
func (s *PrioRes) Finished(j *policy.Job) {
	s.freed = true
	n := s.claimed[j]
	if n == 0 {
		return
	}
	delete(s.claimed, j)
	s.nClaim -= n
	for _, r := range s.res {
		for k := 0; k < len(r.claims); k++ {
			if c := r.claims[k]; c.r == j {
				r.held += c.n
				s.held += c.n
				r.claims = slices.Delete(r.claims, k, k+1)
				k--
			}
		}
	}
}

// Schedule applies the three completion phases, then the arrival rule per
// arrival.
func (s *PrioRes) Schedule(sys policy.System) {
	if s.reserve {
		s.rv = sys.Reservations()
	}
	if s.takeFreed() {
		// Phase 1: reserved jobs whose reserved processors are all free.
		s.res = slices.DeleteFunc(s.res, func(r *reservation) bool {
			if s.rv != nil {
				return s.rv.Ready(r.j) && s.startReserved(sys, r)
			}
			return len(r.claims) == 0 && s.startReserved(sys, r)
		})
		s.resVer++
		// Phase 2: reserved jobs that fit with the free processors now
		// (the allocator knows which of them are the job's own).
		s.res = slices.DeleteFunc(s.res, func(r *reservation) bool {
			if s.rv != nil {
				return r.j.Need() <= sys.Capacity().Free() && s.startReserved(sys, r)
			}
			return r.j.Need() <= s.unreserved(sys)+r.held && s.startReserved(sys, r)
		})
		s.resVer++
		// Phase 3: the waiting list, allocation then reservation. Jobs
		// that cannot fit are skipped through the index (they would fail).
		for i := s.waiting.first(0, s.unreserved(sys)); i >= 0; i = s.waiting.first(i+1, s.unreserved(sys)) {
			j := s.waiting.jobs[i]
			if j != s.waiting.front() && s.prioritized(s.waiting.front()) {
				break
			}
			if s.startFree(sys, j) {
				s.waiting.remove(i)
			}
		}
		if s.reserve {
			// A job that moves to the reservation list stops blocking,
			// so jobs the first pass did not reach may fit now: they are
			// started rather than given a reservation.
			for i := s.waiting.first(0, s.reservable(sys)); i >= 0; i = s.waiting.first(i+1, s.reservable(sys)) {
				j := s.waiting.jobs[i]
				if j != s.waiting.front() && s.prioritized(s.waiting.front()) {
					break
				}
				if s.startFree(sys, j) || s.reserveFor(sys, j) {
					s.waiting.remove(i)
				}
			}
		}
	}
	for _, j := range s.arrivals {
		switch {
		case s.waiting.len() > 0 && s.prioritized(s.waiting.front()):
		case s.startFree(sys, j):
			continue
		case s.reserve && s.reserveFor(sys, j):
			continue
		}
		s.waiting.push(j)
	}
	s.done()
}

// reservable is the number of processors a new reservation could take:
// unclaimed busy plus unreserved free (the whole machine when the
// allocator reserves places: it alone knows).
func (s *PrioRes) reservable(sys policy.System) int {
	a := sys.Capacity()
	return a.Size() - a.Free() - s.nClaim + a.Free() - s.held
}

// prioritized reports whether waiting job h (the head of the waiting list)
// has seen more than MAX_PRI later jobs started.
func (s *PrioRes) prioritized(h *policy.Job) bool {
	if math.IsInf(s.maxPri, 1) {
		return false
	}
	// Every job that arrived before h is started or reserved; the count of
	// jobs started after h's arrival that arrived later than h follows.
	if s.cacheJob != h || s.cacheVer != s.resVer {
		s.cacheJob, s.cacheVer, s.cacheN = h, s.resVer, 0
		for _, r := range s.res {
			if s.rankOf(r.j) < s.rankOf(h) {
				s.cacheN++
			}
		}
	}
	return float64(s.started-s.rankOf(h)+s.cacheN) > s.maxPri
}

// unreserved is the number of free processors not held by reservations.
func (s *PrioRes) unreserved(sys policy.System) int {
	if s.rv != nil {
		return sys.Capacity().Free() - s.rv.Held()
	}
	return sys.Capacity().Free() - s.held
}

// startFree starts a job without a reservation if it fits in the
// unreserved free processors.
func (s *PrioRes) startFree(sys policy.System, j *policy.Job) bool {
	if j.Need() > s.unreserved(sys) || !sys.Start(j) {
		return false
	}
	s.started++
	return true
}

// startReserved starts a reserved job and drops its reservation.
func (s *PrioRes) startReserved(sys policy.System, r *reservation) bool {
	if r.j.Need() > sys.Capacity().Free() || !sys.Start(r.j) {
		return false
	}
	s.started++
	s.held -= r.held
	for _, c := range r.claims {
		if s.claimed[c.r] -= c.n; s.claimed[c.r] == 0 {
			delete(s.claimed, c.r)
		}
		s.nClaim -= c.n
	}
	return true
}

// reserveFor reserves processors for j and appends it to the reservation
// list; false when not enough processors are unreserved.
func (s *PrioRes) reserveFor(sys policy.System, j *policy.Job) bool {
	if s.rv != nil {
		return s.reservePlace(sys, j)
	}
	if j.Need() > s.reservable(sys) {
		return false // not enough unclaimed busy plus unreserved free processors
	}
	free := s.unreserved(sys)
	s.cands = s.cands[:0]
	busy := 0
	for _, r := range sys.Running() {
		if u := r.Alloc.Procs() - s.claimed[r]; u > 0 {
			s.cands = append(s.cands, r)
			busy += u
		}
	}
	if j.Need() > busy+free {
		return false
	}
	// Most unclaimed processors first; the sort is stable, so ties keep the
	// start order of Running.
	slices.SortStableFunc(s.cands, func(a, b *policy.Job) int {
		return cmp.Compare(b.Alloc.Procs()-s.claimed[b], a.Alloc.Procs()-s.claimed[a])
	})
	r := &reservation{j: j}
	need := j.Need()
	for _, c := range s.cands {
		if need == 0 {
			break
		}
		take := min(need, c.Alloc.Procs()-s.claimed[c])
		r.claims = append(r.claims, claim{c, take})
		s.claimed[c] += take
		s.nClaim += take
		need -= take
	}
	r.held = need
	s.held += need
	s.res = append(s.res, r)
	s.resVer++
	clear(s.cands)
	return true
}

// reservePlace has the allocator reserve a place for j (policy.Reserver)
// and appends j to the reservation list, or starts it there at once when
// the place is all free; false when nothing can be reserved.
func (s *PrioRes) reservePlace(sys policy.System, j *policy.Job) bool {
	if !s.rv.Reserve(j) {
		return false
	}
	if s.rv.Ready(j) && sys.Start(j) {
		s.started++
		return true
	}
	s.res = append(s.res, &reservation{j: j})
	s.resVer++
	return true
}
