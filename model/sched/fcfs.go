package sched

import (
	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// FCFS is strict first-come first-served with head-of-line blocking
// (Chu 1995, Ch. 1 and 5; P. Mohapatra, C. Yu and C. R. Das, "A Lazy
// Scheduling Scheme for Hypercube Computers", 1995, §1 and §2.3, which name
// its two defects: blocking at the head, and greedy allocation on arrival).
//
// On arrival a job is started only if the queue is empty and it fits;
// otherwise it joins the tail. On completion the head is started for as long
// as it fits. A job that does not fit at the head blocks every job behind
// it, even jobs that would fit. Both rules amount to "start from the head
// while the head fits", which is what Schedule does.
type FCFS struct {
	q fifo.Queue
}

// NewFCFS returns an FCFS scheduler.
func NewFCFS() *FCFS { return &FCFS{} }

// Submit appends j to the tail of the queue.
func (s *FCFS) Submit(j *policy.Job) { s.q.Push(j) }

// Finished does nothing: FCFS keeps no state about running jobs.
func (s *FCFS) Finished(*policy.Job) {}

// Schedule starts jobs from the head of the queue until the head does not
// fit.
func (s *FCFS) Schedule(sys policy.System) {
	for s.q.Len() > 0 && tryStart(sys, s.q.Front()) {
		s.q.Pop()
	}
}

// Waiting is the queue length.
func (s *FCFS) Waiting() int { return s.q.Len() }
