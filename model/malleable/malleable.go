package malleable

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/workload"
)

// Gamma is Dowdy's execution rate γ(p, β) = (1 + β)p/(β + p) (Guha 1995
// §3.2): the work done per time unit on p processors; p when β = ∞
// (perfect efficiency), 1 for any p > 0 when β = 0, 0 when p = 0.
func Gamma(p, beta float64) float64 {
	if p <= 0 {
		return 0
	}
	if math.IsInf(beta, 1) {
		return p
	}
	return (1 + beta) * p / (beta + p)
}

// Prepare checks that every job has what the malleable mode needs, a work
// W ≥ 0 and an effective efficiency 100/P ≤ ε ≤ 100 (the trace's work and
// efficiency columns), and sets each job's Run to T(P) = W/γ(P, β), its
// time alone on the whole machine of procs processors (the engine's full
// speed). The error names the first job at fault, its record (0-based, in
// the trace) and the column, and counts the others.
func Prepare(jobs []policy.Job, procs int) error {
	lo := 100 / float64(procs)
	var first string
	bad := 0
	for i := range jobs {
		j := &jobs[i]
		ml := j.Malleable
		why := ""
		switch {
		case ml == nil || ml.Work < 0:
			why = "no work (column work)"
		case ml.Efficiency < 0:
			why = "no efficiency (column efficiency)"
		case ml.Efficiency < lo*(1-1e-12) || ml.Efficiency > 100:
			why = fmt.Sprintf("efficiency %g outside [100/P, 100] = [%.4g, 100] (column efficiency)", ml.Efficiency, lo)
		}
		if why != "" {
			if bad == 0 {
				first = fmt.Sprintf("job %d (record %d): %s", j.ID, j.Record, why)
			}
			bad++
			continue
		}
		j.Run = ml.Work / Gamma(float64(procs), beta(ml.Efficiency, procs))
	}
	switch bad {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("malleable mode: %s", first)
	}
	return fmt.Errorf("malleable mode: %s, and %d more jobs", first, bad-1)
}

// beta is β = (P·ε − 100)/(100 − ε), clamped at 0 (ε within rounding of
// 100/P).
func beta(eps float64, procs int) float64 {
	return max(0, workload.Beta(eps, procs))
}

// Share is one active job: its active-list slot (the allocation the engine
// sees, a policy.Sharer) and the policy's view of it.
type Share struct {
	p    float64     // current allocation p_i
	job  *policy.Job // nil once released
	w    float64     // remaining work W_i (when the rule needs it)
	acc  float64     // Acc_i = ∫p_i dt, processor-time received (when the rule needs it)
	beta float64     // β_i
	eps  float64     // ε_i, percent
	cap  float64     // N_i; +Inf when none or ignored (cap=false)
	gP   float64     // γ(P, β_i), the rate of full speed
	seq  int64       // admission order: ties in sorts
	pos  int32       // place in the active list
	from *Allocator  // the allocator the slot belongs to
}

// Share implements policy.Sharer.
func (s *Share) Share() float64 { return s.p }

// Procs implements policy.Allocation: the processors the share touches.
func (s *Share) Procs() int { return int(math.Ceil(s.p - 1e-9)) }

// Placement implements policy.Allocation: a share holds no particular
// processor.
func (s *Share) Placement(dst []policy.Piece) []policy.Piece { return dst }

// Allocator hands out the active-list slots of a machine of P processors:
// at most P shares are held at once (the thesis's active-list limit), each
// of 0 processors until the scheduler sets it.
type Allocator struct {
	size int
	held int
	used float64 // Σ shares, as the scheduler last set them
	free []*Share
	slab []Share
}

// NewAllocator returns the share allocator of m.
func NewAllocator(m policy.Machine) *Allocator { return &Allocator{size: m.Procs} }

// Allocate implements policy.Allocator: a slot while fewer than P are held.
func (a *Allocator) Allocate(j *policy.Job) (policy.Allocation, bool) {
	if a.held >= a.size {
		return nil, false
	}
	a.held++
	var s *Share
	if n := len(a.free); n > 0 {
		s, a.free = a.free[n-1], a.free[:n-1]
	} else {
		if len(a.slab) == 0 {
			a.slab = make([]Share, 256)
		}
		s, a.slab = &a.slab[0], a.slab[1:]
	}
	*s = Share{job: j, from: a}
	return s, true
}

// Release implements policy.Allocator.
func (a *Allocator) Release(al policy.Allocation) {
	s := al.(*Share)
	a.held--
	a.used -= s.p
	s.job = nil
	a.free = append(a.free, s)
}

// Free implements policy.Allocator: the whole processors no share uses.
func (a *Allocator) Free() int {
	return max(0, a.size-int(math.Ceil(a.used-1e-9)))
}

// Size implements policy.Allocator.
func (a *Allocator) Size() int { return a.size }

// Feasible implements policy.Allocator: any job fits a malleable machine,
// at the share it is given.
func (a *Allocator) Feasible(*policy.Job) error { return nil }

// Clone implements policy.Allocator (the counts only: shares belong to
// the run).
func (a *Allocator) Clone() policy.Allocator {
	return &Allocator{size: a.size, held: a.held, used: a.used}
}

// rule is a repartition policy: it sets s.p of every active job, with
// Σp ≤ P and, when capped, p ≤ s.cap.
type rule interface {
	repartition(c *ctx, act []*Share)
}

// needs says what a rule reads of the active jobs, so that the scheduler
// keeps only that up to date.
type needs struct{ work, acc bool }

// ctx is what a rule may use: the machine, the time and scratch space.
type ctx struct {
	P   float64
	now float64
	w   []float64 // scratch, one value per active job: weights,
	lim []float64 // limits,
	out []float64 // and results of fill
	suf []float64 // fill's suffix sums (n + 1)
	idx []int32
}

// Scheduler is the malleable scheduler of one policy: an active list of
// at most P jobs with a FIFO wait queue (Guha 1995 §4.3), repartitioned by
// its rule at every arrival and departure; it is also the run's
// policy.ProgressModel.
type Scheduler struct {
	rule  rule
	needs needs
	capOn bool
	procs int
	P     float64

	queue  fifo.Queue
	active []*Share
	at     []int32 // job Index → place in active + 1; 0 when not active
	last   float64 // time of the last repartition
	seq    int64
	c      ctx

	allocs, capped int64 // allocations to jobs with N_i, and those with p_i ≥ N_i
}

func newScheduler(m policy.Machine, r rule, nd needs, capOn bool) *Scheduler {
	return &Scheduler{rule: r, needs: nd, capOn: capOn, procs: m.Procs, P: float64(m.Procs), c: ctx{P: float64(m.Procs)}}
}

// Submit implements policy.Scheduler: the job waits for the active list.
func (s *Scheduler) Submit(j *policy.Job) { s.queue.Push(j) }

// Waiting implements policy.Scheduler.
func (s *Scheduler) Waiting() int { return s.queue.Len() }

// Finished implements policy.Scheduler: the job leaves the active list.
func (s *Scheduler) Finished(j *policy.Job) {
	k := s.at[j.Index] - 1
	s.at[j.Index] = 0
	last := len(s.active) - 1
	if int(k) != last {
		m := s.active[last]
		s.active[k] = m
		m.pos = k
		s.at[m.job.Index] = k + 1
	}
	s.active[last] = nil
	s.active = s.active[:last]
}

// Schedule implements policy.Scheduler: bring the active jobs' remaining
// work up to now, admit waiting jobs while the active list has room, and
// repartition.
func (s *Scheduler) Schedule(sys policy.System) {
	now := sys.Now()
	if dt := now - s.last; dt > 0 && (s.needs.work || s.needs.acc) {
		for _, a := range s.active {
			if a.p > 0 {
				if s.needs.work {
					a.w = max(0, a.w-Gamma(a.p, a.beta)*dt)
				}
				a.acc += a.p * dt
			}
		}
	}
	s.last = now
	for len(s.active) < s.procs && s.queue.Len() > 0 {
		j := s.queue.Front()
		if !sys.Start(j) {
			break // cannot happen: the allocator has a slot per place in the list
		}
		s.queue.Pop()
		s.admit(j)
	}
	if len(s.active) == 0 {
		return
	}
	s.c.now = now
	s.rule.repartition(&s.c, s.active)
	used := 0.0
	for _, a := range s.active {
		used += a.p
		if n := a.job.Malleable.MaxPar; n > 0 {
			s.allocs++
			if a.p >= float64(n)*(1-1e-9) {
				s.capped++
			}
		}
	}
	s.active[0].from.used = used // the slots' allocator
}

// admit puts j, just started on its slot, at the end of the active list.
func (s *Scheduler) admit(j *policy.Job) {
	a := j.Alloc.(*Share)
	ml := j.Malleable
	a.eps = ml.Efficiency
	a.beta = beta(ml.Efficiency, s.procs)
	a.w = ml.Work
	a.gP = Gamma(s.P, a.beta)
	a.cap = math.Inf(1)
	if s.capOn && ml.MaxPar > 0 {
		a.cap = float64(ml.MaxPar)
	}
	a.seq = s.seq
	s.seq++
	a.pos = int32(len(s.active))
	s.active = append(s.active, a)
	if k := int(j.Index); k >= len(s.at) {
		n := max(2*len(s.at), k+1, 1024)
		at := make([]int32, n)
		copy(at, s.at)
		s.at = at
	}
	s.at[j.Index] = a.pos + 1
}

// Started implements policy.ProgressModel (the scheduler admits the job
// itself).
func (s *Scheduler) Started(*policy.Job, policy.Progress) {}

// Left implements policy.ProgressModel (Finished forgets the job).
func (s *Scheduler) Left(*policy.Job, policy.Progress) {}

// Rates implements policy.ProgressModel: γ(p_i, β_i)/γ(P, β_i), the
// engine's rate 1 being the whole machine (Prepare).
func (s *Scheduler) Rates(_ policy.Progress, running []*policy.Job, rate []float64) {
	for k, j := range running {
		a := j.Alloc.(*Share)
		if a.gP > 0 {
			rate[k] = Gamma(a.p, a.beta) / a.gP
		} else {
			rate[k] = 1 // no work: Run is 0 and the job is already over
		}
	}
}

// CappedShare is the share of allocations bounded by N_i (Guha 1995 §7.5):
// over every repartition and every active job with a cap N_i, the fraction
// in which p_i = N_i (p_i ≥ N_i when caps are ignored, cap=false). NaN when
// no job had a cap.
func (s *Scheduler) CappedShare() float64 { return metrics.CappedShare(s.capped, s.allocs) }

// grow makes the scratch slices of c hold n values.
func (c *ctx) grow(n int) {
	if cap(c.w) < n {
		c.w = make([]float64, n, 2*n)
		c.lim = make([]float64, n, 2*n)
		c.out = make([]float64, n, 2*n)
		c.idx = make([]int32, n, 2*n)
		c.suf = make([]float64, n+1, 2*n+1)
	}
	c.w, c.lim, c.out, c.idx = c.w[:n], c.lim[:n], c.out[:n], c.idx[:n]
}
