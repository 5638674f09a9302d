package sched

import (
	"math"
	"math/bits"

	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// Lazy is lazy scheduling (P. Mohapatra, C. Yu and C. R. Das, "A Lazy
// Scheduling Scheme for Hypercube Computers", J. Parallel Distrib.
// Comput. 27(1):26–37, 1995, §3.2). Jobs wait in one FCFS queue per
// dimension, Q_0..Q_n. A job waits for a running subcube of its own size
// rather than take a new one (and fragment a larger one), unless its queue
// is longer than the threshold N_k, the number of k-cubes allocated: "for
// every subcube allocated in the system, there can be another job waiting
// to acquire it". A released k-cube goes straight to the head of Q_k
// (policy.Handoff: the allocator never sees it released). A job that has
// waited longer than the maximum queueing delay stops every allocation
// (stop_alloc) until it is allocated. The paper's pseudo-code:
//
//	Lazy_Request(I_k)
//	 1. Enqueue I_k to Q_k.
//	 2. If |Q_k| > N_k and stop_alloc is FALSE, Buddy_Request(head of Q_k).
//	 3. If it succeeds, increment N_k.
//	Lazy_Release(I_k)
//	 1. Determine the oldest request. If its waiting time exceeds the
//	    threshold, set stop_alloc and save its queue Q_j.
//	 2. If |Q_k| > 0 and stop_alloc is FALSE, allocate the released
//	    subcube to the head of Q_k.
//	 3. If stop_alloc is TRUE, Buddy_Request(head of Q_j); if it
//	    succeeds, clear stop_alloc.
//	 4. Buddy_Release(I_k).
//
// The allocator is the pair's (buddy in the paper; any cube allocator
// here). The eight points the pseudo-code leaves open, settled:
//
//  1. N_k is the number of k-cubes allocated: incremented by a successful
//     request (step 3) and by the starving job's allocation (release step
//     3, N_j); unchanged by a hand-over (step 2: the cube stays
//     allocated); decremented when a k-cube is released to the allocator
//     (step 4). At first every N_k = 0, so the first job of each size is
//     tried at once.
//  2. Step 4 runs only when step 2 did not hand the cube over.
//  3. Steps 3 and 4: the cube is released first, then the head of Q_j is
//     tried, so that it can use the released nodes (the engine releases
//     every cube of an instant before Schedule; k simultaneous releases
//     are then one step 3). With stop_alloc set, the released cube is not
//     handed to Q_k.
//  4. Retries: a head whose request failed is retried only by the next
//     arrival to its queue (if still |Q_k| > N_k), a release of a k-cube
//     (step 2) or the starvation rule, as in the paper. retry=true is the
//     extension: after every release to the allocator (and stop_alloc
//     clear), every queue with |Q_j| > N_j has its head tried, oldest head
//     first, as often as it succeeds while |Q_j| > N_j.
//  5. While stop_alloc is set no arrival is allocated and no cube is
//     handed over; only the starving job is tried, at each release.
//  6. wait=dynamic: the threshold is d_t²·λ, d_t the mean queueing delay
//     of the jobs allocated so far and λ the arrivals so far over the time
//     since the first arrival, updated every time a job is allocated.
//     Start-up guard (not in the paper): until warmup jobs (default 100)
//     have been allocated the threshold is infinite (d_t ≈ 0 would make
//     every waiting job "starving"). wait=T fixes the threshold at T;
//     wait=inf disables the rule.
//  7. "Exceeds": a job starves when its wait is strictly greater than the
//     threshold (the pseudo-code's word; the text's "reaches" differs only
//     at the instant itself). The oldest request is the waiting job that
//     arrived first (ties: trace order), among the queue heads.
//  8. A job with |Q_k| ≤ N_k waits even when free nodes would hold it:
//     that is the laziness, which the paper reports costs delay at very
//     light load.
//
// One more point the paper's open-ended simulations never meet: when a
// release leaves no job running, there will be no further release to act
// on, and a head whose request failed (or that waits lazily, N_k having
// dropped to 0) would wait for an arrival to its queue, or forever at the
// end of a trace. So when the machine is empty after a release, every
// queue's head is tried as on an arrival (all N_k are then 0), oldest head
// first.
//
// The queues are per dimension k = ⌈log2 procs⌉, n+1 of them on an n-cube;
// a handed-over cube always holds the head of Q_k (same dimension).
type Lazy struct {
	qs      []fifo.Queue // Q_0..Q_n
	nk      []int        // N_k
	n       int          // jobs in the queues
	pending []*policy.Job
	freed   bool
	handed  *policy.Job // the completing job whose cube was handed over

	retry    bool
	fixed    float64 // fixed threshold (wait=T, inf); dynamic when dyn
	dyn      bool
	warmup   int
	stop     bool
	stopQ    int
	started  int
	delay    float64 // total queueing delay of the jobs started
	arrived  int
	first    float64 // first arrival time
	dynLimit float64 // current dynamic threshold
	running  int
}

// NewLazy returns lazy scheduling for a machine of procs processors (an
// n-cube when procs = 2^n). wait is the fixed maximum queueing delay
// (math.Inf(1): none) unless dynamic, in which case it is d_t²·λ once
// warmup jobs have been allocated. retry selects the retry extension.
func NewLazy(procs int, wait float64, dynamic bool, warmup int, retry bool) *Lazy {
	nq := bits.Len(uint(procs-1)) + 1
	return &Lazy{qs: make([]fifo.Queue, nq), nk: make([]int, nq), fixed: wait, dyn: dynamic,
		warmup: warmup, retry: retry, dynLimit: math.Inf(1)}
}

func (s *Lazy) dim(j *policy.Job) int { return min(SizeClass(j.Procs), len(s.qs)-1) }

// Submit records an arrival.
func (s *Lazy) Submit(j *policy.Job) {
	if s.arrived == 0 {
		s.first = j.Submit
	}
	s.arrived++
	s.pending = append(s.pending, j)
}

// Waiting is the number of jobs waiting.
func (s *Lazy) Waiting() int { return s.n + len(s.pending) }

// threshold is the current maximum queueing delay.
func (s *Lazy) threshold() float64 {
	if s.dyn {
		return s.dynLimit
	}
	return s.fixed
}

// started records that j starts now (for N_k, the caller's business, and
// the dynamic threshold).
func (s *Lazy) onStart(j *policy.Job, now float64) {
	s.started++
	s.running++
	s.delay += now - j.Submit
	if s.dyn && s.started >= s.warmup && now > s.first {
		d := s.delay / float64(s.started)
		lambda := float64(s.arrived) / (now - s.first)
		s.dynLimit = d * d * lambda
	}
}

// oldest returns the queue whose head arrived first, −1 if all are empty.
func (s *Lazy) oldest() int {
	best := -1
	for k := range s.qs {
		if s.qs[k].Len() == 0 {
			continue
		}
		h := s.qs[k].Front()
		if best < 0 {
			best = k
			continue
		}
		b := s.qs[best].Front()
		if h.Submit < b.Submit || h.Submit == b.Submit && h.Index < b.Index {
			best = k
		}
	}
	return best
}

// Handoff is Lazy_Release steps 1 and 2: the starvation check, then the
// released k-cube to the head of Q_k unless stop_alloc is set.
func (s *Lazy) Handoff(done *policy.Job, sys policy.System) *policy.Job {
	now := sys.Now()
	if j := s.oldest(); j >= 0 && now-s.qs[j].Front().Submit > s.threshold() {
		s.stop, s.stopQ = true, j
	}
	k := s.dim(done)
	if s.stop || s.qs[k].Len() == 0 || done.Alloc == nil || s.qs[k].Front().Procs > done.Alloc.Procs() {
		return nil
	}
	next := s.qs[k].Pop()
	s.n--
	s.handed = done
	s.onStart(next, now)
	return next
}

// Finished is Lazy_Release step 4's bookkeeping: N_k drops unless the cube
// was handed over.
func (s *Lazy) Finished(j *policy.Job) {
	s.freed = true
	s.running--
	if s.handed == j {
		s.handed = nil
		return
	}
	s.nk[s.dim(j)]--
}

// Schedule runs Lazy_Release step 3 (after the instant's releases), the
// empty-machine rule and the retry extension, then Lazy_Request for each
// arrival.
func (s *Lazy) Schedule(sys policy.System) {
	now := sys.Now()
	if s.freed {
		s.freed = false
		if s.stop && s.qs[s.stopQ].Len() > 0 && s.startHead(sys, s.stopQ, now) {
			s.stop = false
		}
		if !s.stop && (s.running == 0 || s.retry) {
			s.retryAll(sys, now)
		}
	}
	for _, j := range s.pending {
		k := s.dim(j)
		s.qs[k].Push(j)
		s.n++
		if s.qs[k].Len() > s.nk[k] && !s.stop {
			s.startHead(sys, k, now)
		}
	}
	clear(s.pending)
	s.pending = s.pending[:0]
}

// startHead tries the head of Q_k; on success N_k grows.
func (s *Lazy) startHead(sys policy.System, k int, now float64) bool {
	j := s.qs[k].Front()
	if !tryStart(sys, j) {
		return false
	}
	s.qs[k].Pop()
	s.n--
	s.nk[k]++
	s.onStart(j, now)
	return true
}

// retryAll tries, oldest head first, the head of every queue with
// |Q_j| > N_j, again while it succeeds and the queue stays over its
// threshold.
func (s *Lazy) retryAll(sys policy.System, now float64) {
	var failed uint64 // queues whose head did not fit in this pass
	for {
		best := -1
		for k := range s.qs {
			if failed&(1<<k) != 0 || s.qs[k].Len() <= s.nk[k] {
				continue
			}
			if best < 0 {
				best = k
				continue
			}
			h, b := s.qs[k].Front(), s.qs[best].Front()
			if h.Submit < b.Submit || h.Submit == b.Submit && h.Index < b.Index {
				best = k
			}
		}
		if best < 0 {
			return
		}
		if !s.startHead(sys, best, now) {
			failed |= 1 << best
		}
	}
}
