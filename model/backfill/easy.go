package backfill

import (
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// EASY is EASY backfilling. When the head of the queue cannot start, it
// gets a reservation at the shadow time: walking the running jobs by
// estimated end and freeing their processors, the first time the head
// fits. The extra processors are those free at the shadow time beyond the
// head's request. A later job is backfilled when it fits now and either
// ends (now + estimate) by the shadow time or uses no more than the extra
// processors (which it then consumes).
//
// The queue is in arrival order unless an order is given (NewEASYWith);
// the backfill candidates are tried in the queue's order, or in their own
// order (SJBF: the queue in arrival order, the candidates shortest
// estimate first). Estimates are the runtime estimates, or predictions
// (estimates).
type EASY struct {
	q   queue
	bf  *queue // the candidates in the backfill order, nil when it is the queue's
	run runSet
	est estimates
	end func(*policy.Job) float64 // a running job's estimated end
}

// NewEASY returns an EASY backfilling scheduler (arrival order, runtime
// estimates).
func NewEASY() *EASY { return newEASY(nil, nil, predictOff) }

// newEASY returns EASY with queue order ord, backfill order bf (nil: the
// queue's) and prediction mode predict.
func newEASY(ord, bf *order, predict string) *EASY {
	s := &EASY{est: newEstimates(predict)}
	s.q = queue{ord: ord, est: s.est.of}
	if bf != nil && bf != ord {
		s.bf = &queue{ord: bf, est: s.est.of}
	}
	s.end = estEnd
	if s.est.on {
		s.end = func(j *policy.Job) float64 { return j.Start + s.est.pred[j.Index] }
	}
	return s
}

// Submit queues j.
func (s *EASY) Submit(j *policy.Job) {
	s.est.submit(j)
	s.q.Push(j, j.Submit)
	if s.bf != nil {
		s.bf.Push(j, j.Submit)
	}
}

// Finished forgets j.
func (s *EASY) Finished(j *policy.Job) {
	s.run.removeBy(j, s.end)
	s.est.finished(j)
}

// Waiting is the queue length.
func (s *EASY) Waiting() int { return s.q.Len() }

// start records that j started.
func (s *EASY) start(sys policy.System, j *policy.Job) {
	s.run.addBy(j, s.end)
	if t := s.est.expiry(j); t > 0 {
		sys.Wake(t)
	}
}

// correct applies the prediction corrections due at now to the running
// jobs, keeping the running set in order of predicted end.
func (s *EASY) correct(sys policy.System, now float64) {
	var moved []*policy.Job
	w := 0
	for _, r := range s.run {
		if s.est.outlived(r, now) {
			moved = append(moved, r)
			continue
		}
		s.run[w] = r
		w++
	}
	if moved == nil {
		return
	}
	s.run = s.run[:w]
	for _, r := range moved {
		s.est.correct(r, now)
		s.start(sys, r)
	}
}

// Schedule starts the head while it fits, then backfills around the head's
// reservation.
func (s *EASY) Schedule(sys policy.System) {
	now := sys.Now()
	if s.est.on {
		s.correct(sys, now)
	}
	s.q.resort(now)
	if s.bf != nil {
		s.bf.resort(now)
	}
	al := sys.Capacity()
	waiting := s.q.Jobs()
	n := 0
	for n < len(waiting) {
		j := waiting[n]
		if j.Procs > al.Free() || !sys.Start(j) {
			break
		}
		s.start(sys, j)
		n++
	}
	if !s.q.sorted() {
		for ; n > 0; n-- {
			s.q.fifo.Pop()
		}
		waiting = s.q.Jobs()
	} else {
		waiting = waiting[n:]
	}
	started := n > 0
	if len(waiting) >= 2 && al.Free() > 0 && s.backfill(sys, now, waiting) {
		started = true
	}
	if started {
		s.q.RemoveStarted()
		if s.bf != nil {
			s.bf.RemoveStarted()
		}
	}
}

// backfill backfills around the reservation of waiting[0], the head, and
// reports whether it started a job.
func (s *EASY) backfill(sys policy.System, now float64, waiting []*policy.Job) bool {
	al := sys.Capacity()
	head := waiting[0]
	// Shadow time: the first estimated release after which the head fits
	// by count; every job released at that same time counts toward the
	// extra processors. When the head fits by count now but the allocator
	// could not place it (fragmentation), the shadow time is the next
	// release after now.
	shadow, extra := math.Inf(1), 0
	avail := al.Free()
	placeFailed := avail >= head.Procs
	for k, r := range s.run {
		avail += r.Alloc.Procs()
		e := max(s.end(r), now)
		if avail < head.Procs || (placeFailed && e == now) {
			continue
		}
		if k+1 < len(s.run) && max(s.end(s.run[k+1]), now) == e {
			continue // release the whole batch ending at e first
		}
		shadow, extra = e, avail-head.Procs
		break
	}
	cands := waiting[1:]
	if s.bf != nil {
		cands = s.bf.Jobs()
	}
	started := false
	for _, j := range cands {
		free := al.Free()
		if free == 0 {
			break
		}
		if j.Procs > free || j == head || j.Start >= 0 {
			continue
		}
		endsBy := now+s.est.of(j) <= shadow
		if !endsBy && j.Procs > extra {
			continue
		}
		if !sys.Start(j) {
			continue
		}
		s.start(sys, j)
		started = true
		if !endsBy {
			extra -= j.Alloc.Procs()
		}
	}
	return started
}
