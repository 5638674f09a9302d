package sched

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// Scan is Krueger, Lai and Radiya's Scan (P. Krueger, T.-H. Lai and V. A.
// Dixit-Radiya, "Job scheduling is more important than processor allocation
// for hypercube computers", 1994), as described by P. Mohapatra, C. Yu and
// C. R. Das, "A Lazy Scheduling Scheme for Hypercube Computers", 1995, §2.3,
// and by Chu 1995, §2.5.1: one FCFS queue per size class, served like the
// C-SCAN disk scheduler.
//
//   - Size classes: a job of p processors is in class ⌈log2 p⌉ — on an
//     r-cube its subcube dimension, giving the r+1 queues Q_0..Q_r of the
//     paper; on flat and mesh machines of N processors the same power-of-two
//     classes, ⌈log2 N⌉+1 queues (a modelling choice: Babbar and Krueger's
//     mesh Scan needs square meshes and square jobs, Chu §2.5.3).
//   - Service: the queue in service has its head started whenever it fits;
//     when the head does not fit the scheduler waits for a release, and the
//     other queues wait too (our reading of Mohapatra, Yu and Das: all the
//     jobs of a class are allocated before the scheduler moves on; the paper
//     does not say what a blocked head does). When the queue in service is
//     empty, the scheduler moves to the next non-empty queue:
//     (i+1) mod (r+1) for ScanUp (order=up, default), (i−1) mod (r+1) for
//     ScanDown (order=down), going round the circle (the queue just left
//     comes last). When every queue is empty the scheduler stays where it is.
//     The first visit starts at Q_0 (up) or Q_r (down).
//   - Jobs arriving at the queue in service are served in the same pass
//     (C-SCAN), which can postpone other classes indefinitely. With sf=true
//     (ScanUpSF / ScanDownSF, starvation-free): on arriving at a queue the
//     scheduler moves all its jobs into a current queue and serves that until
//     empty; jobs arriving at that class meanwhile wait for the next visit.
type Scan struct {
	inbox
	qs      []fifo.Queue
	cq      fifo.Queue // sf: the jobs of the visit in progress
	down    bool
	sf      bool
	cur     int  // queue in service (or last served)
	serving bool // cur is being served
	n       int  // jobs in the queues
}

// NewScan returns Scan for a machine of procs processors; down selects
// ScanDown, sf the starvation-free variant.
func NewScan(procs int, down, sf bool) *Scan {
	nq := bits.Len(uint(procs-1)) + 1
	s := &Scan{qs: make([]fifo.Queue, nq), down: down, sf: sf}
	if down {
		s.cur = 0 // so that the first visit is (0−1) mod nq = nq−1
	} else {
		s.cur = nq - 1 // so that the first visit is queue 0
	}
	return s
}

// SizeClass is the power-of-two size class of a job of p ≥ 1 processors,
// ⌈log2 p⌉: class k holds the sizes in (2^(k−1), 2^k], so class 0 is 1
// processor, 1 is 2, 2 is 3–4, 3 is 5–8. These are the classes of Krueger,
// Lai and Radiya's Scan (on an r-cube, the subcube dimension). This is the
// project's one definition of the size class: Scan's queues and the
// reports' grouping of jobs by size (analysis/results) both use it. The
// result for p < 1 is meaningless; callers handle unknown sizes.
func SizeClass(p int) int { return bits.Len(uint(p - 1)) }

// Waiting is the number of jobs waiting.
func (s *Scan) Waiting() int { return s.n + len(s.arrivals) }

// Schedule serves after the releases, then queues and serves each arrival.
func (s *Scan) Schedule(sys policy.System) {
	s.takeFreed()
	s.serve(sys)
	for _, j := range s.arrivals {
		s.qs[min(SizeClass(j.Procs), len(s.qs)-1)].Push(j)
		s.n++
		s.serve(sys)
	}
	s.done()
}

// current is the queue being served.
func (s *Scan) current() *fifo.Queue {
	if s.sf {
		return &s.cq
	}
	return &s.qs[s.cur]
}

// serve starts heads of the queue in service while they fit, moving on
// when it empties.
func (s *Scan) serve(sys policy.System) {
	for {
		if !s.serving || s.current().Len() == 0 {
			if !s.advance() {
				return
			}
		}
		q := s.current()
		if !tryStart(sys, q.Front()) {
			return
		}
		q.Pop()
		s.n--
	}
}

// advance moves to the next non-empty queue in scan order; false when all
// are empty.
func (s *Scan) advance() bool {
	nq := len(s.qs)
	for k := 1; k <= nq; k++ {
		i := s.cur + k
		if s.down {
			i = s.cur - k + nq
		}
		i %= nq
		if s.qs[i].Len() > 0 {
			s.cur, s.serving = i, true
			if s.sf {
				s.cq, s.qs[i] = s.qs[i], s.cq
			}
			return true
		}
	}
	s.serving = false
	return false
}
