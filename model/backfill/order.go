package backfill

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/model/policy"
)

// An order is an order of the waiting queue: by a key, smallest first,
// ties by arrival time then job ID. The key of a job is computed from its
// estimate (the scheduler's: the runtime estimate, or the prediction with
// predict=user2) and, for a dynamic order, the current time.
type order struct {
	name    string
	doc     string
	key     func(j *policy.Job, est, now float64) float64 // nil: arrival order (fcfs)
	dynamic bool                                          // the key changes with time (xf)
}

// orders are the queue orders of the backfilling schedulers (parameters
// order and backfill). Sources: Chu 1995 §6.1 (sjf, smallest, largest and
// smallest service demand as queue orders); Lelong, Reis & Trystram,
// "Tuning EASY-Backfilling Queues", JSSPP 2017 (FCFS, SPF/LPF, SQF/LQF,
// SAF and the expansion factor as orders of EASY's queue); Srinivasan,
// Kettimuthu, Subramani & Sadayappan, "Characterization of backfilling
// strategies for parallel job scheduling", ICPP workshops 2002 (the
// expansion factor (wait + estimate)/estimate as a backfilling priority).
var orders = []order{
	{"fcfs", "arrival order (Mu'alem & Feitelson 2001)", nil, false},
	{"sjf", "shortest estimate first (Chu 1995 §6.1; SPF in Lelong, Reis & Trystram 2017)",
		func(j *policy.Job, est, now float64) float64 { return est }, false},
	{"ljf", "longest estimate first (LPF in Lelong, Reis & Trystram 2017)",
		func(j *policy.Job, est, now float64) float64 { return -est }, false},
	{"smallest", "fewest processors first (Chu 1995 §6.1; SQF in Lelong, Reis & Trystram 2017)",
		func(j *policy.Job, est, now float64) float64 { return float64(j.Procs) }, false},
	{"largest", "most processors first (Chu 1995 §6.1; LQF in Lelong, Reis & Trystram 2017)",
		func(j *policy.Job, est, now float64) float64 { return -float64(j.Procs) }, false},
	{"saf", "smallest area (processors × estimate) first (Chu 1995 §6.1's smallest service demand; SAF in Lelong, Reis & Trystram 2017)",
		func(j *policy.Job, est, now float64) float64 { return est * float64(j.Procs) }, false},
	{"xf", "largest expansion factor (now − submit + estimate)/max(estimate, 1 s) first, recomputed at every pass (Srinivasan et al. 2002; LEXP in Lelong, Reis & Trystram 2017)",
		func(j *policy.Job, est, now float64) float64 { return -xfactor(j, est, now) }, true},
}

// xfactor is j's expansion factor at now: (wait + estimate)/estimate, the
// estimate bounded below by 1 s so that a zero estimate gives a finite
// factor.
func xfactor(j *policy.Job, est, now float64) float64 {
	return (now - j.Submit + est) / max(est, 1)
}

// orderNames lists the names of the orders.
func orderNames() []string {
	out := make([]string, len(orders))
	for i, o := range orders {
		out[i] = o.name
	}
	return out
}

// orderDoc is the one-line documentation of the order parameters.
func orderDoc() string {
	var b strings.Builder
	for i, o := range orders {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(o.name + ": " + o.doc)
	}
	return b.String()
}

// parseOrder reads parameter key of p as an order (def when absent).
func parseOrder(p policy.Params, key, def string) (*order, error) {
	v, err := p.Choice(key, def, orderNames()...)
	if err != nil {
		return nil, err
	}
	for i := range orders {
		if orders[i].name == v {
			return &orders[i], nil
		}
	}
	return nil, fmt.Errorf("parameter %s=%q: unknown order", key, v)
}

// queue is a waiting queue in an order: arrival order, or sorted by the
// order's key, ties by arrival time then job ID; a dynamic order is
// re-sorted by resort before each pass. Besides the jobs it keeps their
// processor counts and estimates in arrays of their own, so that a scan
// for backfill candidates reads no job it does not start.
type queue struct {
	ord   *order
	est   func(*policy.Job) float64 // the scheduler's estimate of a job (nil: Job.Estimate)
	head  int                       // jobs[head:] are queued
	jobs  []*policy.Job
	procs []int32   // by position: the job's processor request
	ests  []float64 // by position: its estimate (fixed while it waits)
	keys  []float64 // sorted orders, by position: its key
	// dirty is the first position (absolute, in jobs) changed since the
	// block summaries (blocks) were last brought up to date.
	dirty int
	// sum, when set, are block summaries that Push keeps up to date
	// (blocks.inserted) while they are.
	sum *blocks
}

func (q *queue) sorted() bool { return q.ord != nil && q.ord.key != nil }

// Push inserts j at its place (at the tail in arrival order).
func (q *queue) Push(j *policy.Job, now float64) {
	p, e := int32(j.Procs), j.Estimate
	if q.est != nil {
		e = q.est(j)
	}
	if !q.sorted() {
		q.dirty = min(q.dirty, len(q.jobs))
		q.jobs = append(q.jobs, j)
		q.procs = append(q.procs, p)
		q.ests = append(q.ests, e)
		q.keys = append(q.keys, 0)
		return
	}
	k := q.ord.key(j, e, now)
	// The place: after every job that sorts before or equal to j.
	lo, hi := q.head, len(q.jobs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmpKey(q.keys[m], q.jobs[m], k, j) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	up := q.sum != nil && q.dirty >= len(q.jobs)
	q.dirty = min(q.dirty, lo)
	q.jobs = slices.Insert(q.jobs, lo, j)
	q.procs = slices.Insert(q.procs, lo, p)
	q.ests = slices.Insert(q.ests, lo, e)
	q.keys = slices.Insert(q.keys, lo, k)
	if up {
		q.sum.inserted(q, lo)
	}
}

// cmpKey compares (key ka of a) with (key kb of b): by key, then arrival
// time, then job ID.
func cmpKey(ka float64, a *policy.Job, kb float64, b *policy.Job) int {
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	case a.Submit < b.Submit:
		return -1
	case a.Submit > b.Submit:
		return 1
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}

// resort recomputes the keys of a dynamic order at now and sorts the queue
// again (an insertion sort: the order changes little between passes).
func (q *queue) resort(now float64) {
	if !q.sorted() || !q.ord.dynamic {
		return
	}
	q.dirty = min(q.dirty, q.head)
	for i := q.head; i < len(q.jobs); i++ {
		q.keys[i] = q.ord.key(q.jobs[i], q.ests[i], now)
	}
	for i := q.head + 1; i < len(q.jobs); i++ {
		k, j, p, e := q.keys[i], q.jobs[i], q.procs[i], q.ests[i]
		m := i
		for m > q.head && cmpKey(q.keys[m-1], q.jobs[m-1], k, j) > 0 {
			q.keys[m], q.jobs[m], q.procs[m], q.ests[m] = q.keys[m-1], q.jobs[m-1], q.procs[m-1], q.ests[m-1]
			m--
		}
		q.keys[m], q.jobs[m], q.procs[m], q.ests[m] = k, j, p, e
	}
}

// Len is the number of jobs queued.
func (q *queue) Len() int { return len(q.jobs) - q.head }

// Jobs are the jobs queued, in order (the queue's own slice, valid until
// the next change).
func (q *queue) Jobs() []*policy.Job { return q.jobs[q.head:] }

// Procs and Ests are the processor requests and estimates of Jobs, by
// position.
func (q *queue) Procs() []int32  { return q.procs[q.head:] }
func (q *queue) Ests() []float64 { return q.ests[q.head:] }

// Pop removes the first n jobs.
func (q *queue) Pop(n int) {
	clear(q.jobs[q.head : q.head+n])
	q.head += n
	if q.head == len(q.jobs) {
		q.reset(0)
	} else if q.head >= 64 && q.head*2 >= len(q.jobs) {
		m := copy(q.jobs, q.jobs[q.head:])
		copy(q.procs, q.procs[q.head:])
		copy(q.ests, q.ests[q.head:])
		copy(q.keys, q.keys[q.head:])
		clear(q.jobs[m:])
		q.reset(m)
	}
}

// reset keeps the first n positions, from position 0.
func (q *queue) reset(n int) {
	q.head, q.dirty = 0, 0
	q.jobs, q.procs, q.ests, q.keys = q.jobs[:n], q.procs[:n], q.ests[:n], q.keys[:n]
}

// removeAt removes the jobs at positions pos (relative to the head,
// increasing).
func (q *queue) removeAt(pos []int) {
	if len(pos) == 0 {
		return
	}
	w := q.head + pos[0]
	q.dirty = min(q.dirty, w)
	for k, p := range pos {
		from, to := q.head+p+1, len(q.jobs)
		if k+1 < len(pos) {
			to = q.head + pos[k+1]
		}
		copy(q.jobs[w:], q.jobs[from:to])
		copy(q.procs[w:], q.procs[from:to])
		copy(q.ests[w:], q.ests[from:to])
		copy(q.keys[w:], q.keys[from:to])
		w += to - from
	}
	clear(q.jobs[w:])
	q.jobs, q.procs, q.ests, q.keys = q.jobs[:w], q.procs[:w], q.ests[:w], q.keys[:w]
	if q.head == len(q.jobs) {
		q.reset(0)
	}
}

// RemoveStarted removes the jobs that have started (Start ≥ 0), from
// position from (relative to the head) on: the jobs before it must not
// have started.
func (q *queue) RemoveStarted(from int) {
	w := q.head + from
	q.dirty = min(q.dirty, w)
	for i := w; i < len(q.jobs); i++ {
		if j := q.jobs[i]; j.Start < 0 {
			q.jobs[w], q.procs[w], q.ests[w], q.keys[w] = j, q.procs[i], q.ests[i], q.keys[i]
			w++
		}
	}
	clear(q.jobs[w:])
	q.jobs, q.procs, q.ests, q.keys = q.jobs[:w], q.procs[:w], q.ests[:w], q.keys[:w]
	if q.head == len(q.jobs) {
		q.reset(0)
	}
}

// infDepth is the depth of conservative backfilling: every waiting job
// holds a reservation.
const infDepth = math.MaxInt
