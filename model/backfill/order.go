package backfill

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/model/fifo"
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

// queue is a waiting queue in an order: arrival order (a fifo.Queue) or
// sorted by the order's key, ties by arrival time then job ID. A dynamic
// order is re-sorted by resort before each pass.
type queue struct {
	ord  *order
	est  func(*policy.Job) float64 // the scheduler's estimate of a job
	fifo fifo.Queue
	jobs []*policy.Job // sorted orders: the jobs, in order
	keys []float64     // sorted orders: their keys
}

func (q *queue) sorted() bool { return q.ord != nil && q.ord.key != nil }

// Push inserts j at its place (at the tail in arrival order).
func (q *queue) Push(j *policy.Job, now float64) {
	if !q.sorted() {
		q.fifo.Push(j)
		return
	}
	k := q.ord.key(j, q.est(j), now)
	// The place: after every job that sorts before or equal to j.
	lo, hi := 0, len(q.jobs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmpKey(q.keys[m], q.jobs[m], k, j) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	q.jobs = slices.Insert(q.jobs, lo, j)
	q.keys = slices.Insert(q.keys, lo, k)
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
	for i, j := range q.jobs {
		q.keys[i] = q.ord.key(j, q.est(j), now)
	}
	for i := 1; i < len(q.jobs); i++ {
		k, j := q.keys[i], q.jobs[i]
		m := i
		for m > 0 && cmpKey(q.keys[m-1], q.jobs[m-1], k, j) > 0 {
			q.keys[m], q.jobs[m] = q.keys[m-1], q.jobs[m-1]
			m--
		}
		q.keys[m], q.jobs[m] = k, j
	}
}

// Len is the number of jobs queued.
func (q *queue) Len() int {
	if !q.sorted() {
		return q.fifo.Len()
	}
	return len(q.jobs)
}

// Jobs are the jobs queued, in order (the queue's own slice, valid until
// the next change).
func (q *queue) Jobs() []*policy.Job {
	if !q.sorted() {
		return q.fifo.Jobs()
	}
	return q.jobs
}

// RemoveStarted removes the jobs that have started (Start ≥ 0).
func (q *queue) RemoveStarted() {
	if !q.sorted() {
		q.fifo.RemoveStarted()
		return
	}
	w := 0
	for i, j := range q.jobs {
		if j.Start < 0 {
			q.jobs[w], q.keys[w] = j, q.keys[i]
			w++
		}
	}
	clear(q.jobs[w:])
	q.jobs, q.keys = q.jobs[:w], q.keys[:w]
}

// infDepth is the depth of conservative backfilling: every waiting job
// holds a reservation.
const infDepth = math.MaxInt
