package sched

import (
	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// ImmediateFit is Chu's Immediate Fit (IF) scheme (Chu 1995, §5.1,
// Fig. 5.1): one waiting queue in arrival order and a waiting-time limit
// (WTL) against starvation.
//
//   - When a job arrives: if the queue is not empty and its head has
//     exceeded the WTL, the job joins the tail. Otherwise it is started at
//     once if it fits (jumping ahead of the waiting jobs), else it joins the
//     tail.
//   - When a job completes: the head is started for as long as it fits; a
//     head that does not fit blocks the queue, as in FCFS.
//
// Since the queue stays in arrival order, looking at the head is the same as
// asking whether any waiting job has exceeded the limit. wtl=0 is FCFS; the
// default wtl=inf never blocks arrivals.
type ImmediateFit struct{ fitQueue }

// NewImmediateFit returns Immediate Fit with waiting-time limit wtl
// (math.Inf(1) for none).
func NewImmediateFit(wtl float64) *ImmediateFit { return &ImmediateFit{fitQueue{wtl: wtl}} }

// Schedule applies the completion rule, then the arrival rule per arrival.
func (s *ImmediateFit) Schedule(sys policy.System) {
	if s.takeFreed() {
		for s.q.Len() > 0 && tryStart(sys, s.q.Front()) {
			s.q.Pop()
		}
	}
	s.arrive(sys, sys.Now())
	s.markHead(sys.Now())
}

// fitQueue is what Immediate Fit and Scan All share: one queue in arrival
// order, a waiting-time limit, and Immediate Fit's arrival rule.
type fitQueue struct {
	inbox
	q   fifo.Queue
	wtl float64
	// fromHead counts a job's wait from when it reached the head of the
	// queue (parameter from=head) instead of from its arrival: only the
	// head, as it was when the pass began, can have exceeded the limit.
	fromHead  bool
	head      *policy.Job
	headSince float64
}

// over reports whether waiting job j has exceeded the limit at now.
func (s *fitQueue) over(j *policy.Job, now float64) bool {
	if s.fromHead {
		return j == s.head && now-s.headSince >= s.wtl
	}
	return exceeded(j, now, s.wtl)
}

// markHead notes, at the end of a pass, the job at the head of the queue
// and since when it has been there.
func (s *fitQueue) markHead(now float64) {
	if !s.fromHead {
		return
	}
	var f *policy.Job
	if s.q.Len() > 0 {
		f = s.q.Front()
	}
	if f != s.head {
		s.head, s.headSince = f, now
	}
}

// Waiting is the number of jobs waiting.
func (s *fitQueue) Waiting() int { return s.q.Len() + len(s.arrivals) }

// arrive applies the arrival rule to each arrival in order, then forgets
// them: a job is started at once if it fits, unless the head of the queue
// has exceeded the WTL; otherwise it joins the tail.
func (s *fitQueue) arrive(sys policy.System, now float64) {
	for _, j := range s.arrivals {
		if s.q.Len() > 0 && s.over(s.q.Front(), now) || !tryStart(sys, j) {
			s.q.Push(j)
		}
	}
	s.done()
}
