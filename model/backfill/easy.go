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
// The queue is in arrival order unless an order is given (easy:order=O);
// the backfill candidates are tried in the queue's order, or in their own
// order (SJBF: the queue in arrival order, the candidates shortest
// estimate first). Estimates are the runtime estimates, or predictions
// (estimates).
//
// For speed on deep queues (thousands of waiting jobs on RICC-2010-2),
// the scan for candidates skips blocks of the queue where no job can
// start (easyscan.go), the orders of groupedOrders keep their queue as
// groups in arrival order (easyxf.go), the running jobs are kept in
// chunks with their processor sums, and the shadow time is reused while
// nothing it depends on has changed; the schedules are those of the plain
// scan (tested).
type EASY struct {
	q   queue
	bf  *queue // the candidates in the backfill order, nil when it is the queue's
	run easyRun
	est estimates
	end func(*policy.Job) float64 // a running job's estimated end
	// minP is at most the smallest request of a waiting job: when fewer
	// processors are free, no job can be backfilled.
	minP int32
	// exp holds the times at which running jobs outlive their
	// predictions (predict=user2); entries of jobs done or corrected
	// since are stale.
	exp expHeap
	// dead counts the jobs of q started by backfilling and not yet
	// removed from q (removed lazily: they are skipped as heads); bfDead
	// counts those of bf.
	dead, bfDead int
	sum          blocks // block summaries of the candidates' queue
	// xf, when set, replaces q and bf: the queue as groups of jobs in
	// arrival order (easyxf.go); touched is scratch.
	xf      *xfQueue
	bfx     *xfQueue // when set, replaces bf (backfill order in groupedOrders)
	touched []*xfGroup
	runVer  int        // counts the changes of run
	shc     shadowMemo // the last shadow computed
	// idle: the last pass is repeatable as a no-op while nothing changes
	// (see Schedule): no job was queued since, and run was at version
	// idleVer after it; shadowed: it computed a shadow time. static: the
	// orders do not change with time.
	idle, shadowed, static bool
	idleVer                int
	noSkip                 bool // tests: no pass skipped, no shadow time reused
}

// shadowMemo is a shadow time computed with the running set at version
// ver, head and free processors free: it holds at a later time while the
// running set is unchanged and the job at which the head fits (endAt) has
// not outrun its estimate (its estimated end, not now, is the shadow).
type shadowMemo struct {
	ok            bool
	ver           int
	head          *policy.Job
	free          int
	endAt, shadow float64
	extra         int
}

// NewEASY returns an EASY backfilling scheduler (arrival order, runtime
// estimates).
func NewEASY() *EASY { return newEASY(nil, nil, predictOff) }

// newEASY returns EASY with queue order ord, backfill order bf (nil: the
// queue's) and prediction mode predict.
func newEASY(ord, bf *order, predict string) *EASY {
	s := &EASY{est: newEstimates(predict), minP: math.MaxInt32}
	s.q = queue{ord: ord, est: s.est.of}
	if bf != nil && bf != ord && groupedOrders[bf.name] {
		s.bfx = newXFQueue(bf, s.est.of)
	} else if bf != nil && bf != ord {
		s.bf = &queue{ord: bf, est: s.est.of, sum: &s.sum}
	} else {
		s.q.sum = &s.sum
		if ord != nil && groupedOrders[ord.name] {
			s.xf = newXFQueue(ord, s.est.of)
		}
	}
	s.static = (ord == nil || !ord.dynamic) && (bf == nil || !bf.dynamic)
	s.end = estEnd
	if s.est.on {
		s.end = func(j *policy.Job) float64 { return j.Start + s.est.pred[j.Index] }
	}
	return s
}

// Submit queues j.
func (s *EASY) Submit(j *policy.Job) {
	s.est.submit(j)
	s.minP = min(s.minP, int32(j.Procs))
	s.idle = false
	if s.xf != nil {
		s.xf.push(j)
		return
	}
	s.q.Push(j, j.Submit)
	if s.bfx != nil {
		s.bfx.push(j)
	}
	if s.bf != nil {
		s.bf.Push(j, j.Submit)
	}
}

// Finished forgets j.
func (s *EASY) Finished(j *policy.Job) {
	s.run.remove(j, s.end(j))
	s.runVer++
	s.est.finished(j)
}

// Waiting is the queue length.
func (s *EASY) Waiting() int {
	if s.xf != nil {
		return s.xf.n
	}
	return s.q.Len() - s.dead
}

// start records that j started.
func (s *EASY) start(sys policy.System, j *policy.Job) {
	s.run.add(j, s.end(j))
	s.runVer++
	s.arm(sys, j)
}

// arm schedules the correction of running job j's prediction at the time
// it outlives it.
func (s *EASY) arm(sys policy.System, j *policy.Job) {
	if t, ok := s.est.expiry(j); ok {
		s.exp.push(expiry{t, j.ID, j})
		if t > sys.Now() {
			sys.Wake(t)
		}
	}
}

// correct applies the prediction corrections due at now to the running
// jobs, keeping the running set in order of predicted end.
//
// A correction moves a running job's predicted end from before now to
// after it. When both ends are before the job at which the head fits
// (shadowMemo.endAt), the shadow time and the extra processors are
// unchanged: the releases up to that job are the same, and those before
// it only fewer. The memo then stays valid, and so does an idle last
// pass (see Schedule): the corrections alone start nothing.
func (s *EASY) correct(sys policy.System, now float64) {
	m := &s.shc
	memo := !s.noSkip && m.ok && m.ver == s.runVer
	idle := !s.noSkip && s.idle && s.idleVer == s.runVer && (!s.shadowed || memo)
	for len(s.exp) > 0 && s.exp[0].t <= now {
		e := s.exp.pop()
		r := e.j
		if s.est.ended[r.Index] || r.Start+s.est.pred[r.Index] != e.t || !s.est.outlived(r, now) {
			continue // stale, or not yet outlived (started at now)
		}
		old := s.end(r)
		s.est.correct(r, now)
		nu := s.end(r)
		s.run.move(r, old, nu)
		s.runVer++
		if memo = memo && old < m.endAt && nu < m.endAt; memo {
			m.ver = s.runVer
		}
		if idle = idle && (!s.shadowed || memo); idle {
			s.idleVer = s.runVer
		}
		s.arm(sys, r)
	}
}

// expiry is the time t at which running job j outlives its prediction.
type expiry struct {
	t  float64
	id int64 // j.ID, kept here for the heap's comparisons
	j  *policy.Job
}

// expHeap is a min-heap of expiries by time, then job ID.
type expHeap []expiry

func (h expHeap) less(a, b int) bool {
	return h[a].t < h[b].t || h[a].t == h[b].t && h[a].id < h[b].id
}

func (h *expHeap) push(e expiry) {
	*h = append(*h, e)
	for i := len(*h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		(*h)[i], (*h)[p] = (*h)[p], (*h)[i]
		i = p
	}
}

func (h *expHeap) pop() expiry {
	old := *h
	e := old[0]
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && h.less(l, m) {
			m = l
		}
		if r := l + 1; r < n && h.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		(*h)[i], (*h)[m] = (*h)[m], (*h)[i]
		i = m
	}
	return e
}

// Schedule starts the head while it fits, then backfills around the head's
// reservation.
func (s *EASY) Schedule(sys policy.System) {
	now := sys.Now()
	if s.est.on {
		s.correct(sys, now)
	}
	// A pass after a pass that started nothing, with no job queued,
	// started, ended or corrected since, in a static order, starts nothing
	// either: the head still does not fit, and the shadow time is the same
	// (when the job at which the head fits has not outrun its estimate),
	// so the test for candidates is only stricter (now is later).
	if !s.noSkip && s.idle && s.idleVer == s.runVer && (!s.shadowed || s.shc.ok && s.shc.ver == s.runVer && s.shc.endAt >= now) {
		return
	}
	s.shadowed = false
	s.pass(sys, now)
	s.idle, s.idleVer = s.static, s.runVer
}

// pass is a scheduling pass at now.
func (s *EASY) pass(sys policy.System, now float64) {
	if s.xf != nil {
		s.scheduleXF(sys, now)
		return
	}
	if s.bfx != nil {
		s.scheduleBFX(sys, now)
		return
	}
	s.compact()
	s.q.resort(now)
	if s.bf != nil {
		s.bf.resort(now)
	}
	al := sys.Capacity()
	waiting := s.q.Jobs()
	n := 0
	for n < len(waiting) {
		j := waiting[n]
		if j.Start >= 0 { // backfilled: removed lazily
			s.dead--
			n++
			continue
		}
		if j.Procs > al.Free() || !sys.Start(j) {
			break
		}
		s.start(sys, j)
		n++
	}
	if n > 0 {
		s.q.Pop(n)
	}
	if s.q.Len() >= 2 && int32(al.Free()) >= s.minP {
		if k := s.backfill(sys, now); k > 0 {
			s.dead += k
			if s.bf != nil {
				s.bfDead += k
			}
		}
	}
	if n > 0 && s.bf != nil {
		s.bf.RemoveStarted(0) // started heads may be anywhere in s.bf
		s.bfDead = 0
	}
}

// compact removes the started jobs from the queues when they make up
// more than half of one, and before a dynamic order is re-sorted (their
// marks, kill's, have no key).
func (s *EASY) compact() {
	if s.dead > 0 && (s.dead > s.q.Len()/2 || s.bf == nil && s.q.ord != nil && s.q.ord.dynamic) {
		s.q.RemoveStarted(0)
		s.dead = 0
	}
	if s.bf != nil && s.bfDead > 0 && (s.bfDead > s.bf.Len()/2 || s.bf.ord.dynamic) {
		s.bf.RemoveStarted(0)
		s.bfDead = 0
	}
}

// backfill backfills around the reservation of the head of the queue and
// returns the number of jobs it started; they stay in the candidates'
// queue (the queue, or the backfill queue when there is one), marked by
// blocks.kill.
func (s *EASY) backfill(sys policy.System, now float64) int {
	al := sys.Capacity()
	head := s.q.Jobs()[0]
	shadow, extra := s.shadow(al, head, now)
	cq, from := &s.q, 1
	if s.bf != nil {
		cq, from = s.bf, 0
	}
	s.sum.update(cq)
	jobs, procs, ests := cq.jobs, cq.procs, cq.ests // absolute positions
	bp, be := s.sum.minP, s.sum.minEst
	started := 0
	free := int32(al.Free())
	minP := int32(math.MaxInt32) // the smallest request of the jobs scanned
	for i := cq.head + from; i < len(jobs); {
		// Skip a whole block when none of its jobs can start.
		if k := i / blockSize; i%blockSize == 0 && (bp[k] > free || int(bp[k]) > extra && !(now+be[k] <= shadow)) {
			minP = min(minP, bp[k])
			i += blockSize
			continue
		}
		for end := min(i-i%blockSize+blockSize, len(jobs)); i < end; i++ {
			p := procs[i]
			minP = min(minP, p)
			if p > free {
				continue
			}
			endsBy := now+ests[i] <= shadow
			if !endsBy && int(p) > extra {
				continue
			}
			j := jobs[i]
			if j == head || j.Start >= 0 || !sys.Start(j) {
				continue
			}
			s.start(sys, j)
			s.sum.kill(cq, i)
			started++
			if !endsBy {
				extra -= j.Alloc.Procs()
			}
			if free = int32(al.Free()); free == 0 {
				return started // minP stays a lower bound
			}
		}
	}
	if from == 1 {
		minP = min(minP, procs[cq.head]) // the head
	}
	s.minP = minP
	return started
}

// shadow returns the head's shadow time and the extra processors: the
// first estimated release after which the head fits by count; every job
// released at that same time counts toward the extra processors. When the
// head fits by count now but the allocator could not place it
// (fragmentation), the shadow time is the next release after now.
func (s *EASY) shadow(al policy.Capacity, head *policy.Job, now float64) (shadow float64, extra int) {
	s.shadowed = true
	avail := al.Free()
	placeFailed := avail >= head.Procs
	m := &s.shc
	if !s.noSkip && m.ok && m.ver == s.runVer && m.head == head && m.free == avail && !placeFailed && m.endAt >= now {
		return m.shadow, m.extra
	}
	*m = shadowMemo{ok: !placeFailed, ver: s.runVer, head: head, free: avail, endAt: math.Inf(1), shadow: math.Inf(1)}
	for k, c := range s.run.c {
		if avail+c.procs < head.Procs {
			avail += c.procs // the head does not fit within this chunk
			continue
		}
		for i := range c.e {
			r := &c.e[i]
			if avail += int(r.procs); avail < head.Procs {
				continue
			}
			m.endAt = min(m.endAt, r.end) // the first job at which the head fits
			e := max(r.end, now)
			if placeFailed && e == now {
				continue
			}
			var next *runEntry // the next entry, in this chunk or the next
			if i+1 < len(c.e) {
				next = &c.e[i+1]
			} else if k+1 < len(s.run.c) {
				next = &s.run.c[k+1].e[0]
			}
			if next != nil && max(next.end, now) == e {
				continue // release the whole batch ending at e first
			}
			m.shadow, m.extra = e, avail-head.Procs
			return e, avail - head.Procs
		}
	}
	return m.shadow, m.extra
}
