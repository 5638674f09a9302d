package backfill

import (
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// bySubmit is the order of the jobs within an xfQueue group: arrival
// time, then job ID (the key is the arrival time, ties by arrival then ID).
var bySubmit = &order{name: "submit", key: func(j *policy.Job, est, now float64) float64 { return j.Submit }}

// groupedOrders are the queue orders for which EASY keeps its queue as an
// xfQueue (when the backfill order is the queue's): their jobs fall into
// few groups (RICC-2010-2 has 154 distinct requested times). Not saf,
// whose keys (processors × estimate) are nearly all distinct.
var groupedOrders = map[string]bool{"sjf": true, "ljf": true, "smallest": true, "largest": true, "xf": true}

// xfQueue is EASY's waiting queue in an order of groupedOrders, kept as
// groups of jobs in arrival order (arrival time, then ID: the orders'
// ties), so that a job is queued without moving others and a dynamic
// order is never re-sorted. For a static order a group is the jobs of one
// key: their order is the arrival order. For xf (largest expansion factor
// first, order.go), a group is the jobs of one estimate: their expansion
// factors (now − submit + est)/max(est, 1) differ only by their arrival
// times, and floating-point rounding is monotone, so at any time their xf
// order is the arrival order. The queue's order at now is the merge of
// the groups by key, computed only for the jobs a pass considers: the
// first of each group (for the head), and each group's first job that can
// be backfilled.
type xfQueue struct {
	ord *order
	est func(*policy.Job) float64
	// group is the group of a job with estimate est: its estimate for a
	// dynamic order (xf), its key for a static one.
	group  func(j *policy.Job, est float64) float64
	groups []*xfGroup // the groups with waiting jobs
	byEst  map[float64]*xfGroup
	n      int // jobs waiting
}

// xfGroup is the jobs waiting with one estimate, in arrival order, with
// the started ones marked (blocks.kill) until compacted.
type xfGroup struct {
	id   float64 // the estimate of its jobs (xf), or their key
	q    queue
	sum  blocks
	live int // jobs waiting
	dead int // jobs started, still in q
	cand int // during a backfill pass: absolute position of the candidate, −1 none
	// minP is at most the smallest request of its waiting jobs: the
	// smallest queued since it was last empty.
	minP int32
}

func newXFQueue(ord *order, est func(*policy.Job) float64) *xfQueue {
	x := &xfQueue{ord: ord, est: est, byEst: map[float64]*xfGroup{}}
	x.group = func(j *policy.Job, est float64) float64 { return ord.key(j, est, 0) }
	if ord.dynamic {
		x.group = func(j *policy.Job, est float64) float64 { return est }
	}
	return x
}

// push queues j.
func (x *xfQueue) push(j *policy.Job) {
	id := x.group(j, x.est(j))
	g := x.byEst[id]
	if g == nil {
		g = &xfGroup{id: id}
		g.q = queue{ord: bySubmit, est: x.est, sum: &g.sum}
		x.byEst[id] = g
	}
	if g.live == 0 {
		x.groups = append(x.groups, g)
		g.minP = math.MaxInt32
	}
	g.minP = min(g.minP, int32(j.Procs))
	g.q.Push(j, j.Submit)
	g.live++
	x.n++
}

// key is j's key at now.
func (x *xfQueue) key(g *xfGroup, j *policy.Job, now float64) float64 {
	if x.ord.dynamic {
		return x.ord.key(j, g.id, now)
	}
	return g.id
}

// head returns the first job in the xf order at now and its group (nil
// when none waits).
func (x *xfQueue) head(now float64) (*xfGroup, *policy.Job) {
	var bg *xfGroup
	var bj *policy.Job
	bk := 0.0
	for _, g := range x.groups {
		j := g.q.jobs[g.q.head]
		if k := x.key(g, j, now); bj == nil || cmpKey(k, j, bk, bj) < 0 {
			bg, bj, bk = g, j, k
		}
	}
	return bg, bj
}

// started records that the job at absolute position i of g started; it
// stays in g's queue, marked, until tidy.
func (x *xfQueue) started(g *xfGroup, i int) {
	g.sum.kill(&g.q, i)
	g.live--
	g.dead++
	x.n--
}

// tidy removes the started jobs at the front of g's queue, g itself from
// the groups when none of its jobs waits, and every started job from its
// queue when they are many. Positions in g's queue change.
func (x *xfQueue) tidy(g *xfGroup) {
	q := &g.q
	n := 0
	for q.head+n < len(q.jobs) && q.procs[q.head+n] == math.MaxInt32 {
		n++
	}
	if n > 0 {
		q.Pop(n)
		g.dead -= n
	}
	if g.live == 0 {
		for k, h := range x.groups {
			if h == g {
				x.groups[k] = x.groups[len(x.groups)-1]
				x.groups = x.groups[:len(x.groups)-1]
				break
			}
		}
		return
	}
	if g.dead > blockSize && g.dead > g.live {
		q.RemoveStarted(0)
		g.dead = 0
	}
}

// first is the absolute position of the first job of g from absolute
// position from on that can be backfilled (fits) with free processors
// free, extra processors extra and shadow time shadow, −1 when none.
func (g *xfGroup) first(from int, free int32, extra int, now, shadow float64) int {
	q := &g.q
	g.sum.update(q)
	bp, be := g.sum.minP, g.sum.minEst
	for i := from; i < len(q.jobs); i++ {
		if i%blockSize == 0 {
			if k := i / blockSize; bp[k] > free || int(bp[k]) > extra && !(now+be[k] <= shadow) {
				i += blockSize - 1
				continue
			}
		}
		if fits(q.procs[i], q.ests[i], free, extra, now, shadow) {
			return i
		}
	}
	return -1
}

// fits reports whether a job requesting p processors with estimate est
// can be backfilled now: it fits, and it ends by the shadow time or uses
// no more than the extra processors.
func fits(p int32, est float64, free int32, extra int, now, shadow float64) bool {
	return p <= free && (int(p) <= extra || now+est <= shadow)
}

// scheduleXF is Schedule with the xf queue.
func (s *EASY) scheduleXF(sys policy.System, now float64) {
	x := s.xf
	al := sys.Capacity()
	for {
		g, j := x.head(now)
		if j == nil || j.Procs > al.Free() || !sys.Start(j) {
			break
		}
		s.start(sys, j)
		x.started(g, g.q.head)
		x.tidy(g)
	}
	if x.n >= 2 && int32(al.Free()) >= s.minP {
		hg, head := x.head(now)
		s.backfillXF(sys, now, x, head, hg, hg.q.head)
	}
}

// scheduleBFX is Schedule with the backfill candidates in the grouped
// queue bfx (SJBF: the queue in arrival order, the candidates shortest
// estimate first): the heads come from q, and stay in bfx until started.
func (s *EASY) scheduleBFX(sys policy.System, now float64) {
	x := s.bfx
	if s.dead > s.q.Len()/2 {
		s.q.RemoveStarted(0)
		s.dead = 0
	}
	s.q.resort(now)
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
		g, i := x.locate(j)
		x.started(g, i)
		x.tidy(g)
		n++
	}
	if n > 0 {
		s.q.Pop(n)
	}
	if s.q.Len() >= 2 && int32(al.Free()) >= s.minP {
		head := s.q.Jobs()[0]
		hg, hpos := x.locate(head)
		s.dead += s.backfillXF(sys, now, x, head, hg, hpos)
	}
}

// locate returns j's group and absolute position in it.
func (x *xfQueue) locate(j *policy.Job) (*xfGroup, int) {
	g := x.byEst[x.group(j, x.est(j))]
	i := g.q.head
	for g.q.jobs[i] != j {
		i++
	}
	return g, i
}

// backfillXF is backfill with the grouped queue x around head (in group
// hg at absolute position hpos), returning the number of jobs started.
// The jobs are tried in x's order at now, the next one always the first
// in that order among each group's first job that can be backfilled. The
// jobs a scan of the whole queue in that order would start are the same:
// the test only gets stricter as jobs start.
func (s *EASY) backfillXF(sys policy.System, now float64, x *xfQueue, head *policy.Job, hg *xfGroup, hpos int) int {
	s.touched = s.touched[:0]
	defer func() {
		for _, g := range s.touched {
			x.tidy(g)
		}
	}()
	al := sys.Capacity()
	shadow, extra := s.shadow(al, head, now)
	free := int32(al.Free())
	// next sets g's candidate: its first job from position from on that
	// can be backfilled, the head excepted.
	next := func(g *xfGroup, from int) {
		if g == hg && from <= hpos {
			from = hpos + 1
		}
		g.cand = g.first(from, free, extra, now, shadow)
	}
	minP := int32(math.MaxInt32)
	for _, g := range x.groups {
		next(g, g.q.head)
		minP = min(minP, g.minP)
	}
	for {
		var bg *xfGroup
		var bj *policy.Job
		bk := 0.0
		for _, g := range x.groups {
			if g.cand < 0 {
				continue
			}
			j := g.q.jobs[g.cand]
			if k := x.key(g, j, now); bj == nil || cmpKey(k, j, bk, bj) < 0 {
				bg, bj, bk = g, j, k
			}
		}
		if bj == nil {
			break
		}
		i := bg.cand
		if !sys.Start(bj) {
			next(bg, i+1)
			continue
		}
		s.start(sys, bj)
		if !(now+bg.q.ests[i] <= shadow) {
			extra -= bj.Alloc.Procs()
		}
		x.started(bg, i)
		s.touched = append(s.touched, bg)
		if free = int32(al.Free()); free == 0 {
			return len(s.touched) // minP stays a lower bound
		}
		for _, g := range x.groups {
			switch {
			case g == bg:
				next(g, i+1)
			case g.cand >= 0 && !fits(g.q.procs[g.cand], g.q.ests[g.cand], free, extra, now, shadow):
				next(g, g.cand+1)
			}
		}
	}
	s.minP = minP
	return len(s.touched)
}
