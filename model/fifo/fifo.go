// Package fifo is the first-come first-served job queue shared by the
// scheduling family (model/sched), the backfilling schedulers
// (model/backfill) and the malleable policies; it is public so that a
// scheduler written in another module can keep its waiting jobs the same
// way (docs/write-a-policy.md).
package fifo

import "github.com/schedlab/schedlab/model/policy"

// Queue is a queue of jobs in insertion order with O(1) pop at the head
// and in-place removal during scans. The zero value is an empty queue.
type Queue struct {
	jobs []*policy.Job
	head int
}

// Push appends j at the tail.
func (q *Queue) Push(j *policy.Job) { q.jobs = append(q.jobs, j) }

// Len is the number of jobs queued.
func (q *Queue) Len() int { return len(q.jobs) - q.head }

// Front is the head (Len() > 0).
func (q *Queue) Front() *policy.Job { return q.jobs[q.head] }

// Jobs are the jobs queued, head first. The slice is the queue's own:
// valid until the next Push, Pop or Scan, and not to be modified.
func (q *Queue) Jobs() []*policy.Job { return q.jobs[q.head:] }

// Pop removes and returns the head (Len() > 0).
func (q *Queue) Pop() *policy.Job {
	j := q.jobs[q.head]
	q.jobs[q.head] = nil
	q.head++
	if q.head == len(q.jobs) {
		q.jobs = q.jobs[:0]
		q.head = 0
	} else if q.head >= 64 && q.head*2 >= len(q.jobs) {
		n := copy(q.jobs, q.jobs[q.head:])
		clear(q.jobs[n:])
		q.jobs = q.jobs[:n]
		q.head = 0
	}
	return j
}

// Scan visits the queue from the head. visit reports whether to remove
// the job (e.g. it was started) and whether to stop the scan; the jobs
// kept stay in order.
func (q *Queue) Scan(visit func(*policy.Job) (remove, stop bool)) {
	w := q.head
	r := q.head
	for r < len(q.jobs) {
		j := q.jobs[r]
		r++
		remove, stop := visit(j)
		if !remove {
			q.jobs[w] = j
			w++
		}
		if stop {
			break
		}
	}
	q.close(w, r)
}

// RemoveStarted removes the jobs that have started (Start ≥ 0). (Scan
// could do it, at the cost of a call per job: backfilling calls it on long
// queues.)
func (q *Queue) RemoveStarted() {
	w := q.head
	for _, j := range q.jobs[q.head:] {
		if j.Start < 0 {
			q.jobs[w] = j
			w++
		}
	}
	q.close(w, len(q.jobs))
}

// close closes the gap [w, r) left by the jobs removed.
func (q *Queue) close(w, r int) {
	if w == r {
		return
	}
	n := w + copy(q.jobs[w:], q.jobs[r:])
	clear(q.jobs[n:])
	q.jobs = q.jobs[:n]
	if q.head == len(q.jobs) {
		q.jobs = q.jobs[:0]
		q.head = 0
	}
}
