package sched

import "github.com/schedlab/schedlab/model/policy"

// inbox records what happened since the last Schedule call: the arrivals
// not yet handled (in arrival order) and whether any job finished.
type inbox struct {
	arrivals []*policy.Job
	freed    bool
}

// Submit records an arrival.
func (b *inbox) Submit(j *policy.Job) { b.arrivals = append(b.arrivals, j) }

// Finished records that processors were released.
func (b *inbox) Finished(*policy.Job) { b.freed = true }

// takeFreed reports whether a job finished since the last call, and resets
// the flag.
func (b *inbox) takeFreed() bool {
	f := b.freed
	b.freed = false
	return f
}

// done forgets the handled arrivals.
func (b *inbox) done() {
	clear(b.arrivals)
	b.arrivals = b.arrivals[:0]
}

// fifo is a queue of jobs in insertion order with O(1) pop at the head and
// in-place removal during scans.
type fifo struct {
	jobs []*policy.Job
	head int
}

func (q *fifo) push(j *policy.Job) { q.jobs = append(q.jobs, j) }

func (q *fifo) len() int { return len(q.jobs) - q.head }

func (q *fifo) front() *policy.Job { return q.jobs[q.head] }

func (q *fifo) pop() *policy.Job {
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

// scan visits the queue from the head. visit reports whether the job was
// started (it is then removed) and whether to stop the scan.
func (q *fifo) scan(visit func(*policy.Job) (started, stop bool)) {
	w := q.head
	r := q.head
	for r < len(q.jobs) {
		j := q.jobs[r]
		r++
		started, stop := visit(j)
		if !started {
			q.jobs[w] = j
			w++
		}
		if stop {
			break
		}
	}
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

// fits reports whether j can possibly fit, without asking the allocator.
func fits(sys policy.System, j *policy.Job) bool {
	return j.Procs <= sys.Allocator().Free()
}

// tryStart starts j if the allocator can place it.
func tryStart(sys policy.System, j *policy.Job) bool {
	return fits(sys, j) && sys.Start(j)
}
