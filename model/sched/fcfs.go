package sched

import (
	"github.com/schedlab/schedlab/model/internal/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// FCFS is strict first-come first-served with head-of-line blocking
// (Chu 1995, Ch. 1 and 5; Mohapatra, Yu and Das, seed 001 §A.2.1).
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
