package sched

import "github.com/schedlab/schedlab/model/policy"

// FCFS is strict first-come first-served with head-of-line blocking.
type FCFS struct {
	q queue
}

// Submit appends j to the queue.
func (s *FCFS) Submit(j *policy.Job) { s.q.push(j) }

// Finished does nothing: FCFS keeps no state about running jobs.
func (s *FCFS) Finished(j *policy.Job) {}

// Schedule starts jobs from the head of the queue until the head does not fit.
func (s *FCFS) Schedule(sys policy.System) {
	for s.q.len() > 0 && sys.Start(s.q.front()) {
		s.q.pop()
	}
}

// Waiting is the queue length.
func (s *FCFS) Waiting() int { return s.q.len() }

// queue is a FIFO of jobs.
type queue struct {
	jobs []*policy.Job
	head int
}

func (q *queue) push(j *policy.Job) { q.jobs = append(q.jobs, j) }
func (q *queue) len() int           { return len(q.jobs) - q.head }
func (q *queue) front() *policy.Job { return q.jobs[q.head] }
func (q *queue) pop() *policy.Job {
	j := q.jobs[q.head]
	q.jobs[q.head] = nil
	q.head++
	if q.head > 64 && q.head*2 > len(q.jobs) {
		n := copy(q.jobs, q.jobs[q.head:])
		clear(q.jobs[n:])
		q.jobs = q.jobs[:n]
		q.head = 0
	}
	return j
}
