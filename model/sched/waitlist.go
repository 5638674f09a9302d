package sched

import (
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// waitList is a FCFS list of waiting jobs that finds, in O(log n), the
// first job at or after a position that asks for at most x processors. It
// lets a scan without blocking skip the jobs that cannot fit, so that a
// long queue costs only for the jobs that start. Removed jobs leave holes
// (nil) until the next compaction.
type waitList struct {
	jobs []*policy.Job // positions; nil once removed
	head int           // no live job before head
	n    int           // live jobs
	size int           // leaves of tree (a power of two ≥ len(jobs))
	tree []int32       // min processor count per subtree; leaves at size+i
}

const noJob = math.MaxInt32

func (w *waitList) len() int { return w.n }

// front is the first live job (n > 0).
func (w *waitList) front() *policy.Job { return w.jobs[w.head] }

// push appends j.
func (w *waitList) push(j *policy.Job) {
	if len(w.jobs) == w.size {
		w.rebuild()
	}
	i := len(w.jobs)
	w.jobs = append(w.jobs, j)
	w.n++
	w.set(i, int32(min(j.Procs, noJob-1)))
}

// remove deletes the job at position i.
func (w *waitList) remove(i int) {
	w.jobs[i] = nil
	w.n--
	w.set(i, noJob)
	for w.head < len(w.jobs) && w.jobs[w.head] == nil {
		w.head++
	}
}

// first is the smallest position ≥ from holding a job of at most x
// processors, or -1.
func (w *waitList) first(from, x int) int {
	if from >= len(w.jobs) || w.size == 0 || int(w.tree[1]) > x {
		return -1
	}
	return w.find(1, 0, w.size, from, int32(min(x, noJob-1)))
}

func (w *waitList) find(node, lo, hi, from int, x int32) int {
	if hi <= from || w.tree[node] > x {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	mid := (lo + hi) / 2
	if r := w.find(2*node, lo, mid, from, x); r >= 0 {
		return r
	}
	return w.find(2*node+1, mid, hi, from, x)
}

func (w *waitList) set(i int, v int32) {
	k := w.size + i
	w.tree[k] = v
	for k > 1 {
		k /= 2
		w.tree[k] = min(w.tree[2*k], w.tree[2*k+1])
	}
}

// rebuild compacts the live jobs to the front and sizes the tree for at
// least twice as many.
func (w *waitList) rebuild() {
	live := w.jobs[:0]
	for _, j := range w.jobs[w.head:] {
		if j != nil {
			live = append(live, j)
		}
	}
	clear(w.jobs[len(live):])
	w.jobs, w.head = live, 0
	size := 16
	for size < 2*len(live) {
		size *= 2
	}
	if size != w.size {
		w.size = size
		w.tree = make([]int32, 2*size)
	}
	for i := range w.tree[size:] {
		w.tree[size+i] = noJob
	}
	for i, j := range live {
		w.tree[size+i] = int32(min(j.Procs, noJob-1))
	}
	for k := size - 1; k >= 1; k-- {
		w.tree[k] = min(w.tree[2*k], w.tree[2*k+1])
	}
}
