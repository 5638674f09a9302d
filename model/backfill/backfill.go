// Package backfill implements the backfilling schedulers of batch
// systems, driven by user runtime estimates (policy.Job.Estimate;
// replay's --estimates=requested|actual chooses where estimates come
// from) or by predictions:
//
//   - easy (easy.go): EASY backfilling (Lifka, "The ANL/IBM SP scheduling
//     system", JSSPP 1995; as defined by Mu'alem and Feitelson,
//     "Utilization, predictability, workloads, and user runtime estimates
//     in scheduling the IBM SP2 with backfilling", IEEE TPDS 12(6) 2001,
//     §2). Only the job at the head of the queue holds a reservation.
//     Parameters: the queue order (order.go), the order of the backfill
//     candidates (backfill=sjf: SJBF), and Tsafrir, Etsion & Feitelson
//     2007's user-based predictions (predict=user2, predict.go).
//   - conservative: conservative backfilling (Mu'alem and Feitelson 2001,
//     §2): every waiting job holds a reservation, and a job may move ahead
//     only if it delays no reservation. Parameter: the queue order.
//   - depth: reservation depth k: the first k waiting jobs hold
//     reservations (conservative's machinery, limited to k); k = 1 gives
//     EASY's schedules, k = inf is conservative.
//
// docs/backfilling.md describes the orders, the depth and the predictions
// with their sources and modelling choices.
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
//   - conservative keeps every reservation from pass to pass and compresses
//     the schedule at every pass, in queue order: each job gives up its
//     reservation and takes the earliest slot left by the running jobs and
//     all the other reservations, so a reservation never moves later and no
//     job is delayed beyond it (tested against the definition on random
//     workloads). Only a running job that outruns its estimate can make a
//     held slot unusable; that job then takes the earliest slot among the
//     running jobs and the jobs ahead of it, and the jobs behind give way.
//     Compression is one sweep per pass; a pass where nothing has freed
//     room since a pass that moved no job skips it (it would change
//     nothing; tested to give the same schedules). Within a sweep, a job
//     is not searched again when the profile has gained no room where
//     its size could fit before its reservation since its last search
//     (gains are kept per size class, a power of two, and per pass), so
//     that it cannot have moved (every skip checked against the search in
//     the tests). A job that needs at least the processors and the time
//     of the job placed just before it, which kept its slot with the
//     profile as it is, searches only from that slot on (job arrays);
//     searches of base likewise start from the last slot found there.
//     (Recomputing every reservation from scratch in queue order, as an
//     earlier version did, is not conservative backfilling: a job moving
//     up could take the slot of a job behind it and push that one back.)
//   - When a job's reservation is now and enough processors are free but
//     the allocator cannot place it (fragmentation, e.g. contig), its
//     reservation is deferred to the next breakpoint of the profile (the
//     next estimated release of processors) instead of holding processors
//     it cannot use; with count (exact counts) this never happens. EASY
//     does the analogue for its head: shadow time now, extra processors =
//     free − head's request.
//   - The availability profile of conservative (profile.go) is a sorted
//     array of breakpoints with the free count from each: a reservation
//     adds to the breakpoints it spans, and the earliest slot is found by
//     a scan that skips the breakpoints with too few free processors and
//     follows each run with enough (a balanced tree of breakpoints, tried
//     first, was 1.6 times slower on a loaded 120,000-job trace, whose
//     profile has about 100 breakpoints). It is kept from pass to pass
//     (the past dropped, the jobs done since giving back the rest of their
//     places) rather than rebuilt, and a job whose slot cannot move keeps
//     its reservation untouched. Schedules are exactly those of the sorted
//     array of steps it replaced (tested on real logs and random
//     workloads).
//   - A zero-estimate job needs its processors only at its start instant;
//     conservative reserves that instant (the shortest floating-point
//     interval), so that no later job may overlap it.
package backfill

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/model/policy"
)

// Schedulers returns the backfilling schedulers for the catalog.
func Schedulers() []policy.SchedulerSpec {
	orderParam := policy.Param{Name: "order", Default: "fcfs", Doc: "order of the waiting queue (reservations and backfill candidates), ties by arrival then job ID: " + orderDoc()}
	return []policy.SchedulerSpec{
		{
			Name: "easy",
			Doc:  "EASY backfilling: the head job holds a reservation (Lifka 1995; Mu'alem & Feitelson TPDS 2001 §2); easy:backfill=sjf is SJBF and easy:predict=user2,backfill=sjf EASY++ (Tsafrir, Etsion & Feitelson TPDS 2007)",
			Params: []policy.Param{
				orderParam,
				{Name: "backfill", Default: "the order", Doc: "order in which the backfill candidates are tried (one of the orders; sjf with order=fcfs: SJBF, Tsafrir, Etsion & Feitelson 2007)"},
				{Name: "predict", Default: predictOff, Doc: "off: the runtime estimates; user2: Tsafrir, Etsion & Feitelson 2007's prediction (the mean run time of the user's last two completed jobs, capped by the estimate, corrected when outlived; docs/backfilling.md)"},
			},
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check("backfill", "order", "predict"); err != nil {
					return nil, fmt.Errorf("easy: %w", err)
				}
				ord, err := parseOrder(p, "order", "fcfs")
				if err != nil {
					return nil, fmt.Errorf("easy: %w", err)
				}
				bf, err := parseOrder(p, "backfill", ord.name)
				if err != nil {
					return nil, fmt.Errorf("easy: %w", err)
				}
				pred, err := p.Choice("predict", predictOff, predictOff, predictUser2)
				if err != nil {
					return nil, fmt.Errorf("easy: %w", err)
				}
				return newEASY(ord, bf, pred), nil
			},
		},
		{
			Name:   "conservative",
			Doc:    "conservative backfilling: every waiting job holds a reservation (Mu'alem & Feitelson TPDS 2001 §2); depth:k=inf",
			Params: []policy.Param{orderParam},
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check("order"); err != nil {
					return nil, fmt.Errorf("conservative: %w", err)
				}
				ord, err := parseOrder(p, "order", "fcfs")
				if err != nil {
					return nil, fmt.Errorf("conservative: %w", err)
				}
				return newDepth(infDepth, ord), nil
			},
		},
		{
			Name: "depth",
			Doc:  "backfilling with reservation depth k: the first k waiting jobs hold reservations, kept and compressed as conservative's; k=0 none (aggressive), k=1 EASY's schedule, k=inf conservative (Flux's reserve depth; Maui's RESERVATIONDEPTH)",
			Params: []policy.Param{
				{Name: "k", Default: "1", Doc: "reservation depth: an integer ≥ 0, or inf"},
				orderParam,
			},
			// Run only when named: at its default it repeats easy's
			// schedule, and the default pairs stay as they were.
			Named: true,
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check("k", "order"); err != nil {
					return nil, fmt.Errorf("depth: %w", err)
				}
				k, err := parseDepth(p)
				if err != nil {
					return nil, fmt.Errorf("depth: %w", err)
				}
				ord, err := parseOrder(p, "order", "fcfs")
				if err != nil {
					return nil, fmt.Errorf("depth: %w", err)
				}
				return newDepth(k, ord), nil
			},
		},
	}
}

// parseDepth reads parameter k: an integer ≥ 0, or inf (infDepth).
func parseDepth(p policy.Params) (int, error) {
	v, ok := p["k"]
	if !ok {
		return 1, nil
	}
	if v == "inf" {
		return infDepth, nil
	}
	k, err := strconv.Atoi(v)
	if err != nil || k < 0 {
		return 0, fmt.Errorf("parameter k=%q: want an integer ≥ 0 or inf", v)
	}
	return k, nil
}

// runSet is the set of running jobs ordered by estimated end
// (start + estimate), then job ID.
type runSet []*policy.Job

func estEnd(j *policy.Job) float64 { return j.Start + j.Estimate }

func (r runSet) search(j *policy.Job) int { return r.searchBy(j, estEnd) }

// searchBy is search with end as the estimated end of a job.
func (r runSet) searchBy(j *policy.Job, end func(*policy.Job) float64) int {
	e := end(j)
	return sort.Search(len(r), func(i int) bool {
		ei := end(r[i])
		return ei > e || ei == e && r[i].ID >= j.ID
	})
}

func (r *runSet) add(j *policy.Job) { r.addBy(j, estEnd) }

// addBy is add with end as the estimated end of a job.
func (r *runSet) addBy(j *policy.Job, end func(*policy.Job) float64) {
	i := r.searchBy(j, end)
	*r = append(*r, nil)
	copy((*r)[i+1:], (*r)[i:])
	(*r)[i] = j
}

func (r *runSet) remove(j *policy.Job) { r.removeBy(j, estEnd) }

// removeBy is remove with end as the estimated end of a job.
func (r *runSet) removeBy(j *policy.Job, end func(*policy.Job) float64) {
	for i := r.searchBy(j, end); i < len(*r); i++ {
		if (*r)[i] == j {
			*r = append((*r)[:i], (*r)[i+1:]...)
			return
		}
	}
	panic(fmt.Sprintf("backfill: finished job %d was not running", j.ID))
}

// Conservative is conservative backfilling: every waiting job holds a
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
type Conservative struct {
	q queue
	// limited: only the first depth waiting jobs in queue order hold
	// reservations (else all do); the others start only if they fit now
	// without delaying any reservation (see newDepth).
	limited bool
	depth   int
	resv    []float64 // reservation of each waiting job, by Job.Index (resOf)
	// The epoch of full (profile.newEpoch, one per compressing pass) of
	// each waiting job's last search of full, by Job.Index, when that
	// search showed that full then had no slot for it before the
	// reservation it holds (noEpoch otherwise): see unchanged.
	seen []int32
	run  runSet
	base profile // running jobs and the reservations already re-placed
	// The last search of base in this pass: bmemoP processors over
	// bmemoE found no slot before bmemoAt (see baseEarliest).
	bmemo           bool
	bmemoP          int
	bmemoE, bmemoAt float64
	full            profile // base plus the reservations not yet re-placed
	dirty           bool    // a job arrived or finished since the last pass
	// The running jobs and free processors at the start of the pass
	// (base starts from them).
	initRun  runSet
	pm       []int32 // prefix minima of full's free counts (fitsNow), empty when stale
	initFree int
	procs    []int  // processors held by each running job, by Job.Index
	sum      blocks // block summaries of the queue (limited depth: candidates)
	// In arrival order with a limited depth (lazy), the jobs started stay
	// in q, their requests marked by blocks.kill, until they make up half
	// of it (removeStarted): dead counts them, and heads are the positions
	// (absolute) of those started by the current pass from a reservation,
	// not yet marked.
	dead  int
	heads []int
	// pass numbers the compressing passes; startedIn is the pass in which
	// each running job started, by Job.Index.
	pass      int32
	startedIn []int32
	done      []done // jobs finished since the last pass
	// full, advanced to the next pass's time and rid of the jobs done
	// since, is that pass's starting profile: it need not be rebuilt
	// (see catchUp).
	synced bool
	verify bool // tests: check every catchUp against a rebuild
	// full still describes the schedule after the last pass, and no job
	// has since finished before the end of its place in it: the next pass
	// need not compress (see quick).
	valid   bool
	noQuick bool // tests: always compress
	// tests: candidates scans every job (no block of the queue skipped)
	noBlockSkip bool
}

// done is a finished job's place in full: procs processors until end.
type done struct {
	end   float64
	procs int
}

// noEpoch marks a job whose last search shows nothing (seen).
const noEpoch = math.MinInt32

// unchanged reports whether j, holding the reservation old, cannot have
// an earlier slot in full, without searching (skip), and otherwise the
// time before which such a slot must start (by ≤ old). Its last search
// of full (in this pass's epoch or the one before) found no slot before
// old. A slot before old now has a time τ in it, before old, where fewer
// than j.Procs were free at that search, else the breakpoint that then
// began its segment started a run of j.Procs free at least as long, no
// later, and it was a slot then. So full has since gained free
// processors at τ, and the last gain there left j.Procs free: skip when
// every such gain is at or after old, and the slot starts before the end
// of the latest. The slot holds the earliest such gain τ ≥ from, so it
// starts after from − j.Estimate (at τ when the estimate is 0): lo is the
// last breakpoint at or before that time (or now), where a search may
// begin.
func (s *Conservative) unchanged(j *policy.Job, old, now float64) (skip bool, lo, by float64) {
	e := s.seen[j.Index]
	if e == noEpoch {
		return false, now, old
	}
	from, until := s.full.gainedSince(int32(j.Procs), e)
	lo = now
	if b := from - j.Estimate; b > now && from < old {
		lo = s.full.t[s.full.index(b)]
	}
	return from >= old, lo, min(until, old)
}

// NewConservative returns a conservative backfilling scheduler.
func NewConservative() *Conservative { return newDepth(infDepth, nil) }

// newDepth returns backfilling with reservation depth k (infDepth:
// conservative) and queue order ord (nil: arrival order).
func newDepth(k int, ord *order) *Conservative {
	s := &Conservative{depth: k, limited: k != infDepth}
	s.q = queue{ord: ord, est: func(j *policy.Job) float64 { return j.Estimate }}
	if s.limited {
		s.q.sum = &s.sum // the candidates' scan (candidates)
	}
	return s
}

// resOf is the reservation of a waiting job: NaN before its first pass,
// +Inf when none is possible.
func (s *Conservative) resOf(j *policy.Job) float64 { return s.resv[j.Index] }

// hasRes reports whether j has had its first pass.
func (s *Conservative) hasRes(j *policy.Job) bool { return !math.IsNaN(s.resv[j.Index]) }

// Submit appends j to the queue, without a reservation yet.
func (s *Conservative) Submit(j *policy.Job) {
	for len(s.resv) <= int(j.Index) {
		s.resv = append(s.resv, math.NaN())
	}
	s.resv[j.Index] = math.NaN()
	for len(s.seen) <= int(j.Index) {
		s.seen = append(s.seen, noEpoch)
	}
	s.seen[j.Index] = noEpoch
	s.q.Push(j, j.Submit)
	s.dirty = true
}

// Finished forgets j. A job that ends before the end of its place in the
// profile (earlier than estimated, or a zero-length job, which holds its
// start instant) frees room: the next pass compresses.
func (s *Conservative) Finished(j *policy.Job) {
	s.run.remove(j)
	s.dirty = true
	end := resEnd(j.Start, j.Estimate)
	if j.End < end {
		s.valid = false
	}
	s.done = append(s.done, done{end, s.procs[j.Index]})
}

// started records that j started (sys.Start succeeded).
func (s *Conservative) started(j *policy.Job) {
	s.run.add(j)
	for len(s.procs) <= int(j.Index) {
		s.procs = append(s.procs, 0)
		s.startedIn = append(s.startedIn, 0)
	}
	s.procs[j.Index] = j.Alloc.Procs()
	s.startedIn[j.Index] = s.pass
	if s.lazy() {
		s.dead++
		s.resv[j.Index] = math.NaN() // it holds none (holders)
	}
}

// Waiting is the queue length.
func (s *Conservative) Waiting() int { return s.q.Len() - s.dead }

// lazy reports whether started jobs leave the queue lazily (dead).
func (s *Conservative) lazy() bool { return s.limited && !s.q.sorted() }

// removeStarted takes the jobs started by a pass out of the queue: at
// once, or when lazy by marking them (blocks.kill) and removing them only
// from the head or once they make up half of the queue.
func (s *Conservative) removeStarted() {
	q := &s.q
	if !s.lazy() {
		q.RemoveStarted(0)
		return
	}
	for _, i := range s.heads {
		s.sum.kill(q, i)
	}
	s.heads = s.heads[:0]
	n := 0
	for _, j := range q.Jobs() {
		if j.Start < 0 {
			break
		}
		n++
	}
	q.Pop(n)
	if s.dead -= n; s.dead > q.Len()/2 {
		q.RemoveStarted(0)
		s.dead = 0
	}
}

// Schedule compresses the reservations in queue order, gives the new jobs
// theirs, and starts the jobs whose reservation is now.
func (s *Conservative) Schedule(sys policy.System) {
	if !s.dirty || s.Waiting() == 0 {
		s.dirty = false
		return
	}
	s.dirty = false
	s.full.track = true
	if s.q.sorted() {
		s.q.resort(sys.Now())
		if s.limited {
			s.dropBeyondDepth()
		}
	}
	if s.quick(sys) {
		return
	}
	s.valid = !s.noQuick
	al := sys.Capacity()
	waiting := s.q.Jobs()
	now := sys.Now()
	held := func(j *policy.Job) (float64, bool) {
		if !s.hasRes(j) {
			return 0, false
		}
		t := s.resOf(j)
		return max(t, now), !math.IsInf(t, 1)
	}
	base, full := &s.base, &s.full
	full.compact = true // every search of full starts now
	s.initRun = append(s.initRun[:0], s.run...)
	s.initFree = al.Free()
	full.newEpoch()
	s.pass++
	if holders := s.holders(waiting); !s.synced || !s.catchUp(now, holders) {
		s.rebuild(full, now, holders)
	}
	s.done = s.done[:0]
	s.synced = true
	// base (running jobs and the jobs ahead, as re-placed) is needed only
	// when a job's old slot is gone or the allocator fails: it is built
	// then, at job k, and kept up to date from there on.
	haveBase := false
	needBase := func(k int) {
		if haveBase {
			return
		}
		haveBase = true
		s.bmemo = false
		s.rebuild(base, now, nil)
		for _, w := range waiting[:k] {
			if w.Start >= 0 {
				if s.startedIn[w.Index] == s.pass { // else running, in initRun
					base.reserve(now, w.Estimate, w.Alloc.Procs())
				}
			} else if t := s.resOf(w); s.hasRes(w) && !math.IsInf(t, 1) {
				base.reserve(t, w.Estimate, w.Procs)
			}
		}
	}
	started := false
	nres := 0 // waiting jobs holding a reservation after this pass so far
	depth := s.maxRes()
	// The jobs from firstCand on hold no reservation: they are tried once
	// every reservation is placed.
	firstCand := -1
	// The last job placed, when it kept its slot at memoAt in full, which
	// had no slot for memoP processors over memoE before it; memo false
	// once full changed since (see below, "The job before").
	var (
		memo          bool
		memoP         int
		memoE, memoAt float64
	)
	for k, j := range waiting {
		if j.Start >= 0 {
			continue // started by an earlier pass, still queued (lazy)
		}
		prevMemo := memo
		memo = false
		if nres >= depth {
			// Beyond the reservation depth: j holds none (it gives up the
			// one it held if jobs placed ahead of it took its place in
			// the order), and starts now if it fits without delaying any
			// reservation.
			if old, ok := held(j); ok {
				full.reserve(old, j.Estimate, -j.Procs)
				s.valid = false
			}
			s.resv[j.Index], s.seen[j.Index] = math.NaN(), noEpoch
			if firstCand < 0 {
				firstCand = k
			}
			if !s.q.sorted() {
				break // in arrival order no job behind holds one
			}
			continue
		}
		old, ok := held(j)
		// keep: j's reservation stays in full as it is (an unchanged slot
		// need not be given up and taken again).
		keep := false
		kept := false // the old slot was free in full, and has no earlier one
		pending := false
		var t float64
		if ok && (full.nonNegative() || full.holds(old, resEnd(old, j.Estimate), 0)) {
			// The old slot is still free, so j's earliest slot is no later:
			// only the breakpoints before it need a look, and there j's own
			// reservation does not count.
			var moved bool
			if skip, lo, by := s.unchanged(j, old, now); skip {
				t, moved = old, false
				if s.verify {
					if t1, m1 := full.earliestBefore(j.Procs, j.Estimate, now, old); m1 {
						panic(fmt.Sprintf("backfill: at %g job %d, skipped, has a slot at %g before %g", now, j.ID, t1, old))
					}
				}
			} else {
				// The job before, if it kept its slot at memoAt ≤ old with
				// full as it is now, had no slot starting before memoAt: a
				// slot τ < memoAt for j (at least as many processors, at
				// least as long) would be one for it too, full being the
				// same over [τ, min(τ+memoE, memoAt)) ⊆ [τ, min(τ+d,
				// old)). On a queue of like jobs (job arrays) most
				// searches stop there.
				if prevMemo && j.Procs >= memoP && j.Estimate >= memoE && memoAt <= old {
					lo = max(lo, memoAt)
				}
				t, moved = old, false
				if lo < by {
					t, moved = full.earliestStarting(j.Procs, j.Estimate, lo, by, old)
				}
				if s.verify && (by < old || lo > now) {
					if t1, m1 := full.earliestBefore(j.Procs, j.Estimate, now, old); t1 != t || m1 != moved {
						panic(fmt.Sprintf("backfill: at %g job %d's search of slots starting before %g finds %g %v, of all %g %v", now, j.ID, by, t, moved, t1, m1))
					}
				}
			}
			if !moved {
				keep, kept = true, true
			} else {
				pending = true // give it up (when j takes its new place: place)
			}
		} else if ok {
			// The old slot is gone (a running job outran its estimate). Is
			// there a slot before it in full without j's reservation?
			// (Searched without giving it up: j gives it up only to
			// move; later slots come from base, below.)
			var found bool
			from := now
			if prevMemo && j.Procs >= memoP && j.Estimate >= memoE && memoAt <= old {
				// As above: a slot τ < memoAt for j without its own
				// reservation would be one for the job before, whose
				// window reaches past old only inside its own place.
				from = memoAt
			}
			t, found = full.earliestWithout(j.Procs, j.Estimate, from, old, old, resEnd(old, j.Estimate))
			if s.verify && from > now {
				if t1, f1 := full.earliestWithout(j.Procs, j.Estimate, now, old, old, resEnd(old, j.Estimate)); t1 != t || f1 != found {
					panic(fmt.Sprintf("backfill: at %g job %d's search without its slot from %g, where the job before had no slot, finds %g %v, of all %g %v", now, j.ID, from, t, found, t1, f1))
				}
			}
			if found {
				full.reserve(old, j.Estimate, -j.Procs) // give it up
			} else {
				t, pending = math.Inf(1), true
			}
		} else {
			t = full.earliest(j.Procs, j.Estimate, now)
		}
		sure := true // full had no slot for j before t
		if ok && t > old {
			// The old slot is gone (a running job outran its estimate):
			// the jobs behind give way.
			needBase(k)
			t = s.baseEarliest(j.Procs, j.Estimate, now)
			sure = false
			if pending && t == old {
				// The jobs ahead leave j where it was: full, which
				// still holds it there, stays as it is (and had no slot
				// for it before, without it: kept).
				keep, kept, pending = true, true, false
			}
		}
		if ok && t != old {
			// A job moved: the jobs ahead of it, already placed, may
			// now find an earlier slot. The next pass compresses again.
			s.valid = false
		}
		if t == now && al.Free() >= j.Procs {
			if sys.Start(j) {
				s.started(j)
				s.heads = append(s.heads, s.q.head+k)
				started = true
				if haveBase {
					base.reserve(now, j.Estimate, j.Alloc.Procs())
				}
				if !keep || j.Alloc.Procs() != j.Procs {
					if keep {
						full.reserve(old, j.Estimate, -j.Procs)
					}
					s.place(j, pending, old, now, j.Alloc.Procs())
				}
				continue
			}
			// Enough processors are free but the allocator cannot place
			// them (fragmentation): defer the reservation to the next
			// time processors are released.
			needBase(k)
			t = s.baseEarliest(j.Procs, j.Estimate, math.Nextafter(now, math.Inf(1)))
			sure = false
			s.valid = false
			if keep {
				full.reserve(old, j.Estimate, -j.Procs)
				keep = false
			}
		}
		if !math.IsInf(t, 1) {
			if haveBase {
				base.reserve(t, j.Estimate, j.Procs)
			}
			if !keep {
				s.place(j, pending, old, t, j.Procs)
			}
		} else if pending {
			full.reserve(old, j.Estimate, -j.Procs)
		}
		s.resv[j.Index] = t
		s.seen[j.Index] = noEpoch
		if sure {
			s.seen[j.Index] = full.epoch
		}
		if kept && keep && t == old {
			memo, memoP, memoE, memoAt = true, j.Procs, j.Estimate, old
		}
		nres++
	}
	if firstCand >= 0 {
		s.pm = s.pm[:0]
		if s.candidates(sys, firstCand) {
			started = true
		}
	}
	if started {
		s.removeStarted()
	}
}

// rebuild makes p the profile at the start of the pass at now: free
// processors now (initFree), +procs at each running job's estimated end
// (initRun; outrunning jobs count as ending now), and the reservations
// held by waiting (one in the past, whose job could not start, counts from
// now).
func (s *Conservative) rebuild(p *profile, now float64, waiting []*policy.Job) {
	p.reset(now, s.initFree)
	// The releases, appended in initRun's order (estimated end): the
	// profile that releasing each in turn makes (p.release), built in one
	// sweep.
	for _, r := range s.initRun {
		t, k := max(estEnd(r), now), int32(s.procs[r.Index])
		last := len(p.t) - 1
		switch {
		case t == p.t[last]:
			p.f[last] += k
		case k != 0 || !p.compact:
			p.t = append(p.t, t)
			p.f = append(p.f, p.f[last]+k)
		}
	}
	for _, r := range s.initRun {
		if estEnd(r) > now {
			break
		}
		if r.Start == now {
			// Started at this instant with a zero estimate (by the quick
			// pass that handed over to this one): it holds its start
			// instant, as the reservation it started from did, and is not
			// free before it completes.
			p.reserve(now, 0, s.procs[r.Index])
		}
	}
	for _, j := range waiting {
		if t := s.resOf(j); s.hasRes(j) && !math.IsInf(t, 1) {
			p.reserve(max(t, now), j.Estimate, j.Procs)
		}
	}
}

// catchUp turns full, the profile after the last pass, into the profile
// rebuild makes at now, without rebuilding it: the past is dropped, the
// jobs done since give back the rest of their places, and the
// reservations in the past (whose jobs could not start) move to now. The
// running jobs need nothing: each holds its place until its estimated end
// (start + estimate, or its start instant), which is where rebuild puts
// it, or until a time now or earlier, when rebuild frees it now. Only the
// breakpoints may differ: full keeps some where its free count does not
// change, which no search from now can return (the breakpoint before
// would do). It reports false, full then unusable, when verify finds a
// difference.
func (s *Conservative) catchUp(now float64, waiting []*policy.Job) bool {
	full := &s.full
	full.advance(now)
	for _, d := range s.done {
		if d.end > now {
			full.addRange(now, d.end, int32(d.procs))
		}
	}
	for _, j := range waiting {
		if t := s.resOf(j); s.hasRes(j) && t < now {
			if e := resEnd(t, j.Estimate); e > now {
				full.addRange(now, e, int32(j.Procs))
			}
			full.reserve(now, j.Estimate, j.Procs)
		}
	}
	if s.verify {
		var p profile
		s.rebuild(&p, now, waiting)
		if !sameSteps(full, &p) {
			panic(fmt.Sprintf("backfill: at %g the profile kept differs from the profile rebuilt", now))
		}
	}
	return true
}

// quick is a pass without compression, for when nothing has freed room
// since the last pass (only arrivals, and completions at their estimated
// ends): the reservations held are then still the earliest possible, the
// profile full of the last pass still holds for the future, the jobs
// whose reservation is now start, and the new jobs take their slots behind
// all the others. It reports false, having changed nothing but perhaps
// started some jobs, when a full pass is needed (room freed, a
// reservation in the past, or a start the allocator refuses).
func (s *Conservative) quick(sys policy.System) bool {
	if !s.valid {
		return false
	}
	now := sys.Now()
	waiting := s.q.Jobs()
	for _, j := range s.holders(waiting) {
		if s.hasRes(j) && s.resOf(j) < now {
			s.valid = false // a job that should have started: compress
			return false
		}
	}
	full, al := &s.full, sys.Capacity()
	full.advance(now)
	ok, started := true, false
	nres, depth := 0, s.maxRes()
	s.pm = s.pm[:0] // full changes until the first candidate
	for k, j := range waiting {
		if j.Start >= 0 {
			continue // started by an earlier pass, still queued (lazy)
		}
		if nres >= depth {
			if !s.q.sorted() {
				// In arrival order no job behind holds a reservation.
				if s.candidates(sys, k) {
					started = true
				}
				break
			}
			if s.hasRes(j) {
				ok = false // a reservation beyond the depth: a full pass drops it
				break
			}
			if al.Free() == 0 {
				if !s.q.sorted() {
					break // in arrival order no job behind holds one
				}
				continue
			}
			if s.backfill(sys, j) {
				started = true
			}
			continue
		}
		if s.hasRes(j) {
			if s.resOf(j) == now {
				if al.Free() < j.Procs || !sys.Start(j) {
					ok = false
					break
				}
				started = true
				s.started(j)
				s.heads = append(s.heads, s.q.head+k)
				if j.Alloc.Procs() != j.Procs {
					ok = false // the profile holds j.Procs
					break
				}
				continue
			}
			nres++
			continue
		}
		t := full.earliest(j.Procs, j.Estimate, now)
		if t == now {
			if al.Free() < j.Procs || !sys.Start(j) {
				ok = false
				break
			}
			started = true
			s.started(j)
			s.heads = append(s.heads, s.q.head+k)
			full.reserve(now, j.Estimate, j.Alloc.Procs())
			s.pm = s.pm[:0]
			continue
		}
		if !math.IsInf(t, 1) {
			full.reserve(t, j.Estimate, j.Procs)
			s.pm = s.pm[:0]
		}
		s.resv[j.Index] = t
		s.seen[j.Index] = full.epoch
		nres++
	}
	if started {
		s.removeStarted()
	}
	if !ok {
		s.valid = false
		s.synced = false
	}
	s.done = s.done[:0] // each ended at or after the end of its place
	return ok
}

// place reserves k processors for j at t in full; pending: j gives up its
// reservation at old at the same time. Moving a reservation to a time that
// overlaps its old place changes only the parts that differ (the same
// step function, and so the same breakpoints in a compact profile, as
// giving up then reserving; the gains recorded are the net ones).
func (s *Conservative) place(j *policy.Job, pending bool, old, t float64, k int) {
	full := &s.full
	if !pending {
		full.reserve(t, j.Estimate, k)
		return
	}
	oe, te := resEnd(old, j.Estimate), resEnd(t, j.Estimate)
	if k != j.Procs || t >= old || te <= old || !full.compact {
		full.reserve(old, j.Estimate, -j.Procs)
		full.reserve(t, j.Estimate, k)
		return
	}
	full.addRange(t, old, int32(-k))
	if te < oe { // t + d and old + d may round to the same time
		full.addRange(te, oe, int32(k))
	}
}

// backfill starts j, a waiting job beyond the reservation depth (it holds
// no reservation), if it fits now without delaying any reservation: full
// has j.Procs free from now until now + its estimate. A zero-estimate job
// needs only to fit now: it is done at the instant it starts, and a
// reservation at now whose job could not start now (a running job outran
// its estimate) cannot use those processors at this instant anyway (as
// EASY: it ends by the shadow time). It reports whether j started.
func (s *Conservative) backfill(sys policy.System, j *policy.Job) bool {
	now, full := sys.Now(), &s.full
	if j.Procs > sys.Capacity().Free() || (j.Estimate > 0 && !s.fitsNow(resEnd(now, j.Estimate), int32(j.Procs))) || !sys.Start(j) {
		return false
	}
	s.started(j)
	full.reserve(now, j.Estimate, j.Alloc.Procs())
	s.pm = s.pm[:0]
	return true
}

// baseEarliest is base.earliest(k, d, from). Within a pass base only
// gains reservations, so its free counts only fall: a job with at least
// the processors and the estimate of the last one searched from now
// (bmemo) has no slot before that one's, and its search starts there.
// (A slot at a breakpoint made since would lie in a segment of base then
// whose start was a slot for that one.)
func (s *Conservative) baseEarliest(k int, d, from float64) float64 {
	lo := from
	if s.bmemo && k >= s.bmemoP && d >= s.bmemoE {
		lo = max(lo, s.bmemoAt)
	}
	t := s.base.earliest(k, d, lo)
	if s.verify && t != s.base.earliest(k, d, from) {
		panic(fmt.Sprintf("backfill: base's earliest slot for %d processors over %g from %g is %g, not %g", k, d, from, s.base.earliest(k, d, from), t))
	}
	if from <= s.base.t[0] {
		// From now only: a search from later skips the slots that start
		// inside base's first segment, which a breakpoint made since
		// may start.
		s.bmemo, s.bmemoP, s.bmemoE, s.bmemoAt = true, k, d, t
	}
	return t
}

// holders is the part of waiting where the jobs holding a reservation
// are: all of it, but in arrival order with a limited depth, where they
// are the first ones (the jobs behind the depth never had one), up to the
// first without.
func (s *Conservative) holders(waiting []*policy.Job) []*policy.Job {
	if !s.limited || s.q.sorted() {
		return waiting
	}
	for k, j := range waiting {
		if j.Start < 0 && !s.hasRes(j) {
			return waiting[:k]
		}
	}
	return waiting
}

// candidates tries the waiting jobs from position from (relative to the
// queue's head) on, in queue order, each started if it holds no
// reservation and fits now without delaying any (backfill). It skips the
// blocks of the queue (blocks) where no job can: their smallest request
// exceeds the free processors, or their smallest estimate outlasts the
// room for their smallest request (full's free count, least from now,
// only falls with a later end). It reports whether a job started.
func (s *Conservative) candidates(sys policy.System, from int) bool {
	q := &s.q
	s.sum.update(q)
	jobs, procs := q.jobs, q.procs // absolute positions
	bp, be := s.sum.minP, s.sum.minEst
	now, al := sys.Now(), sys.Capacity()
	free := int32(al.Free())
	started := false
	for i := q.head + from; i < len(jobs) && free > 0; {
		if k := i / blockSize; i%blockSize == 0 && !s.noBlockSkip && (bp[k] > free || be[k] > 0 && !s.fitsNow(resEnd(now, be[k]), bp[k])) {
			i += blockSize
			continue
		}
		for end := min(i-i%blockSize+blockSize, len(jobs)); i < end && free > 0; i++ {
			if procs[i] > free {
				continue
			}
			if j := jobs[i]; j.Start < 0 && !s.hasRes(j) && s.backfill(sys, j) {
				s.sum.kill(q, i)
				started = true
				free = int32(al.Free())
			}
		}
	}
	return started
}

// fitsNow reports whether full, which starts now, has k free from now
// until end (> now): the least free count of its breakpoints before end
// (full.holds, from prefix minima computed once for the candidates of a
// pass, and again after each start).
func (s *Conservative) fitsNow(end float64, k int32) bool {
	f := s.full.f
	if len(s.pm) == 0 {
		m := f[0]
		for _, x := range f {
			m = min(m, x)
			s.pm = append(s.pm, m)
		}
	}
	return s.pm[search(s.full.t, end)-1] >= k
}

// maxRes is the number of waiting jobs that may hold reservations.
func (s *Conservative) maxRes() int {
	if s.limited {
		return s.depth
	}
	return infDepth
}

// dropBeyondDepth takes their reservations from the waiting jobs that hold
// one behind depth others in queue order (after the order changed:
// never in arrival order, where the jobs ahead only leave).
func (s *Conservative) dropBeyondDepth() {
	nres := 0
	for _, j := range s.q.Jobs() {
		if !s.hasRes(j) {
			continue
		}
		if nres < s.depth {
			nres++
			continue
		}
		if t := s.resOf(j); s.synced && !math.IsInf(t, 1) {
			s.full.reserve(t, j.Estimate, -j.Procs)
		}
		s.resv[j.Index] = math.NaN()
		s.seen[j.Index] = noEpoch
		s.valid = false
	}
}
