package sched

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/model/policy"
)

// PCW is "preempt, compact or wait" (S. A. Ghoneim and H. M. A. Fahmy,
// "Job preemption, fast subcube compaction, or waiting in hypercube
// systems? A selection methodology", Parallel Computing 29(1), 2003): jobs
// carry a priority and an execution window (submit, deadline), and when the
// job at the head of the queue finds no free subcube it either preempts a
// running lower-priority job, compacts one (migrates it over all disjoint
// paths, after Tzeng & Chen, "Fast compaction in hypercubes", IEEE TPDS
// 9(1), 1998, to coalesce a free subcube), or waits, choosing the action
// that leaves the greatest remaining laxity (the paper's abstract and §2;
// its formulas are not available to us: the cost model is ours, see
// Decide).
//
// Queue. Waiting jobs, suspended ones included, are ordered by priority
// (higher first; -1, unknown, below every class), then by arrival (submit
// time, then trace order). Each pass starts jobs in that order while they
// fit. At the first that does not (the head), with Group2 the running jobs
// of lower priority than the head (§5, Case 1: Group1 = higher or equal,
// for which only waiting applies): if Group2 is empty the head waits;
// otherwise Decide chooses, and the pass goes on after a preemption and
// stops after a wait or a compaction. A waiting head's decision is taken
// again at every later pass (every arrival and completion), since the
// running jobs' laxities change.
//
//   - Preempt c: c is suspended (System.Suspend) and the head
//     starts at once in the processors freed. c keeps its remaining work
//     and waits again in the queue, but may resume only after the head
//     has ended (the paper's preemption pushes c's processing behind the
//     head's;
//     this also keeps a preemption from being a free migration, c resuming
//     elsewhere at once).
//   - Compact c: c is migrated (System.Migrate, to the place the
//     allocator gives it while its own processors are still held) with the
//     migration delay δ of the cost model, during which it makes no
//     progress; the head is suspended for δ too (the paper: "the arriving
//     job and the running job(s) are suspended during compaction"): it
//     starts at now + δ, first, and no job starts in between, so that the
//     coalesced subcube is kept for it.
//   - Wait: nothing happens; the head starts when it fits.
//
// Run times are the jobs' estimates (policy.Job.Estimate), as every
// estimate-based policy sees them: a running job's remaining time is its
// estimate less the time it has run (never below 0).
//
// Variants (action=): auto (the selection above), and the single-action
// baselines preempt, compact and wait, which take their action whenever it
// is feasible (the best candidate by the same rules) and otherwise wait;
// wait is priority-ordered FCFS and never suspends or migrates.
//
// Machines. The selection is generic over allocators: preemption and
// waiting work with any allocator (tested on flat machines too).
// Compaction's cost needs subcube placements (one cube
// piece), so it is considered on hypercubes only (NewPCW's callers set
// PCWConfig.Compaction; action=compact is refused elsewhere). The registry
// offers pcw on hypercubes only (see pcwSpec).
type PCW struct {
	cfg   PCWConfig
	queue []*policy.Job // waiting jobs, in queue order
	st    []pcwState    // per job (by Index)
	// hold: no job starts before this time (a compaction is under way);
	// reserved is the head it makes room for, started first at hold.
	hold     float64
	reserved *policy.Job
}

// pcwState is what PCW tracks of a job: the progress (time run at full
// speed) up to since, the time from which it runs (later than now during a
// migration delay), and the job it must wait for after a preemption.
type pcwState struct {
	done, since float64
	after       *policy.Job // resumes only after this job has ended; nil when free to
}

// PCW actions.
const (
	ActionAuto    = "auto"
	ActionPreempt = "preempt"
	ActionCompact = "compact"
	ActionWait    = "wait"
)

// PCWConfig parameterises PCW and Decide.
type PCWConfig struct {
	// Action is ActionAuto, or one of ActionPreempt, ActionCompact and
	// ActionWait for the single-action variants.
	Action string
	// Compaction allows compaction (hypercubes: allocations are subcubes).
	Compaction bool
	// Latency is the time per hop of a migration's header (wormhole or
	// circuit switching), and Data the time to send one node's memory
	// image over one link; both ≥ 0 (see Decide).
	Latency, Data float64
}

// Default PCW cost parameters, in the trace's time units.
const (
	DefaultPCWLatency = 0.01
	DefaultPCWData    = 1.0
)

// NewPCW returns a PCW scheduler.
func NewPCW(cfg PCWConfig) *PCW { return &PCW{cfg: cfg, hold: math.Inf(-1)} }

func (s *PCW) state(j *policy.Job) *pcwState {
	if k := int(j.Index); k >= len(s.st) {
		s.st = slices.Grow(s.st, k+1-len(s.st))[:k+1]
	}
	return &s.st[j.Index]
}

// before is the queue order: higher priority, then earlier arrival.
func before(a, b *policy.Job) bool {
	if a.Priority() != b.Priority() {
		return a.Priority() > b.Priority()
	}
	if a.Submit != b.Submit {
		return a.Submit < b.Submit
	}
	return a.Index < b.Index
}

func (s *PCW) enqueue(j *policy.Job) {
	k, _ := slices.BinarySearchFunc(s.queue, j, func(q, j *policy.Job) int {
		if before(q, j) {
			return -1
		}
		return 1
	})
	s.queue = slices.Insert(s.queue, k, j)
}

func (s *PCW) dequeue(j *policy.Job) {
	if k := slices.Index(s.queue, j); k >= 0 {
		s.queue = slices.Delete(s.queue, k, k+1)
	}
}

// Submit queues an arriving job.
func (s *PCW) Submit(j *policy.Job) {
	*s.state(j) = pcwState{}
	s.enqueue(j)
}

// Finished frees the jobs j had preempted to resume.
func (s *PCW) Finished(j *policy.Job) {
	for _, q := range s.queue {
		if st := &s.st[q.Index]; st.after == j {
			st.after = nil
		}
	}
}

// Waiting is the number of queued jobs, suspended ones included.
func (s *PCW) Waiting() int { return len(s.queue) }

// start starts j now if it fits, and records it running.
func (s *PCW) start(sys policy.System, j *policy.Job) bool {
	if !tryStart(sys, j) {
		return false
	}
	s.dequeue(j)
	s.state(j).since = sys.Now()
	return true
}

// rem is j's estimated remaining run time at now.
func (s *PCW) rem(j *policy.Job, now float64) float64 {
	st := &s.st[j.Index]
	ran := st.done
	if j.Alloc != nil { // running
		ran += max(0, now-st.since)
	}
	return max(0, j.Estimate-ran)
}

// lower reports whether some running job has a lower priority than j.
func lower(sys policy.System, j *policy.Job) bool {
	for _, r := range sys.Running() {
		if r.Priority() < j.Priority() {
			return true
		}
	}
	return false
}

// Schedule runs one pass.
func (s *PCW) Schedule(sys policy.System) {
	now := sys.Now()
	if now < s.hold {
		return
	}
	if r := s.reserved; r != nil {
		s.reserved = nil
		s.start(sys, r)
	}
	for k := 0; k < len(s.queue); {
		head := s.queue[k]
		if s.st[head.Index].after != nil {
			k++ // preempted, may not resume yet
			continue
		}
		if s.start(sys, head) {
			continue
		}
		if s.cfg.Action == ActionWait || !lower(sys, head) {
			return // Group2 is empty: wait
		}
		d := Decide(s.situation(sys, head), s.cfg)
		switch d.Action {
		case ActionPreempt:
			c := d.Job
			st := s.state(c)
			st.done += max(0, now-st.since)
			if !sys.Suspend(c) {
				return
			}
			st.after = head
			s.enqueue(c)
			if !s.start(sys, head) {
				return // the allocator placed differently from its clone
			}
			k = 0
		case ActionCompact:
			c := d.Job
			st := s.state(c)
			st.done += max(0, now-st.since)
			if !sys.Migrate(c, d.Delay) {
				return
			}
			st.since = now + d.Delay
			if d.Delay == 0 {
				s.start(sys, head)
				k = 0
				continue
			}
			s.hold, s.reserved = now+d.Delay, head
			sys.Wake(s.hold)
			return
		default:
			return
		}
	}
}

// situation is what Decide needs to know of the system for head.
func (s *PCW) situation(sys policy.System, head *policy.Job) Situation {
	now := sys.Now()
	run := sys.Running()
	sit := Situation{Now: now, Head: head, HeadRem: s.rem(head, now), Alloc: sys.Capacity(),
		Running: make([]Running, len(run))}
	for i, j := range run {
		r := s.rem(j, now)
		sit.Running[i] = Running{Job: j, Rem: r, End: max(now, s.st[j.Index].since) + r}
	}
	return sit
}

// Running is a running job as Decide sees it.
type Running struct {
	Job *policy.Job // with Alloc set
	Rem float64     // estimated remaining run time
	End float64     // estimated completion time (Now + Rem, later during a migration delay)
}

// Situation is the state in which the head of the queue does not fit.
type Situation struct {
	Now     float64
	Head    *policy.Job
	HeadRem float64 // the head's estimated remaining run time (its estimate, unless it was preempted)
	Running []Running
	// Alloc is the live allocator's capacity; Decide works on clones of it.
	Alloc policy.Capacity
}

// Option is one evaluated action.
type Option struct {
	Action   string      // ActionPreempt, ActionCompact or ActionWait
	Job      *policy.Job // the candidate preempted or migrated; nil for waiting
	Feasible bool        // the head fits after it (waiting: at some estimated time)
	Start    float64     // the head's estimated start
	Hops     int         // compaction: Hamming distance between source and target
	Dim      int         // compaction: the candidate's subcube dimension (its disjoint paths)
	Delay    float64     // compaction: migration delay δ
	LaxHead  float64     // the head's remaining laxity; NaN without a deadline
	LaxJob   float64     // the candidate's remaining laxity after the option; NaN without a deadline or for waiting
	LaxJob0  float64     // the candidate's remaining laxity if untouched; NaN without a deadline or for waiting
	Score    float64     // remaining laxity of the head and of every candidate with a deadline
	Safe     bool        // makes no laxity negative (see Decide)
	Fallback bool        // waiting while no running job has the head's priority or higher (Group1 empty): allowed only when no preemption or compaction is feasible and safe
}

// Decision is Decide's answer.
type Decision struct {
	Action string      // ActionPreempt, ActionCompact or ActionWait
	Job    *policy.Job // the candidate preempted or migrated; nil for waiting
	Delay  float64     // compaction: migration delay δ
	// Options lists every evaluated option: waiting first, then, for each
	// candidate in candidate order, preemption and compaction (the ones
	// the variant considers). Chosen indexes the decision in it.
	Options []Option
	Chosen  int
}

// laxity is deadline − end, NaN without a deadline.
func laxity(j *policy.Job, end float64) float64 {
	if j.Deadline() < 0 {
		return math.NaN()
	}
	return j.Deadline() - end
}

// orZero is x, 0 for NaN.
func orZero(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// rank orders actions from least to most disruptive, for ties.
func rank(a string) int {
	switch a {
	case ActionCompact:
		return 1
	case ActionPreempt:
		return 2
	}
	return 0
}

// Decide chooses, for a head that does not fit now, between preempting
// and compacting a running job of lower priority (Group2) and waiting.
//
// Cost model and criterion (ours: the paper's formulas are not in the
// text available to us). With x the head, R_x its estimated remaining run
// time, D its deadline and, for a running job c, R_c and E_c its estimated
// remaining time and end:
//
//   - wait: x starts at t_w, the earliest estimated completion after which
//     x fits (the running jobs are released on a clone of the allocator in
//     order of estimated end); L_x = D_x − (t_w + R_x); nobody else
//     changes.
//   - preempt c (feasible when x fits once c's processors are released):
//     x starts now, L_x = D_x − (now + R_x); c resumes when x ends,
//     L_c = D_c − (now + R_x + R_c).
//   - compact c (hypercubes; feasible when c can be placed elsewhere
//     while it still holds its subcube and x fits once the source is
//     released, all on a clone, as System.Migrate does it): the
//     delay is δ = latency·h + data/max(d_c, 1), with h the Hamming
//     distance between the source and target base addresses (the hops of
//     every node's path, source and target subcubes moving node for node)
//     and d_c the subcube dimension, the number of disjoint paths over
//     which each node's memory image (data time units over one link) is
//     split (Tzeng & Chen 1998); every node moves at once. Both wait:
//     L_x = D_x − (now + δ + R_x), L_c = D_c − (now + δ + R_c).
//
// The score of an option is the total remaining laxity of x and of every
// Group2 job with a deadline (the others do not change); a job without a
// deadline has no laxity and counts 0. Against waiting, then, preempting c
// costs R_x of c's laxity, compacting costs δ of each, and waiting costs
// t_w − now of x's. An option is safe when it makes no laxity negative:
// L_x ≥ 0 (or no deadline), and a moved c does not go from L_c ≥ 0 to
// L_c < 0. When a safe option exists, only safe ones are considered;
// then the highest score wins, ties going to waiting, then compaction,
// then preemption (the least disruptive), and among candidates to lower
// priority, then later start, then trace order.
//
// The paper's priority rule (§3, §5 Case 1): when the head has a higher
// priority than some running jobs (Group2), "the allowed actions are
// preemption or compaction"; waiting is for the termination of a running
// job of higher (or equal) priority (Group1). So waiting competes with
// preemption and compaction only when Group1 is not empty; otherwise it is
// a fallback (Option.Fallback), taken only when no preemption or
// compaction is feasible and safe (then waiting, when it is safe, or the
// best of the unsafe ones by score). A head facing only lower-priority
// jobs therefore preempts or compacts even without deadlines (all scores
// 0: compaction first, the less disruptive).
//
// The variants: ActionWait always waits; ActionPreempt and ActionCompact
// take the best option of their kind (by the same rules) whenever one is
// feasible, else wait.
func Decide(s Situation, cfg PCWConfig) Decision {
	x := s.Head
	wait := Option{Action: ActionWait, LaxJob: math.NaN(), LaxJob0: math.NaN(), Feasible: true, Start: waitStart(s)}
	wait.LaxHead = laxity(x, wait.Start+s.HeadRem)
	d := Decision{Action: ActionWait, Options: []Option{wait}}
	if cfg.Action == ActionWait {
		d.Options[0].Score, d.Options[0].Safe = orZero(wait.LaxHead), !(wait.LaxHead < 0)
		return d
	}
	var cands []Running
	for _, r := range s.Running {
		if r.Job.Priority() < x.Priority() {
			cands = append(cands, r)
		}
	}
	slices.SortStableFunc(cands, func(a, b Running) int {
		if c := cmp.Compare(a.Job.Priority(), b.Job.Priority()); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Job.Start, a.Job.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.Job.Index, b.Job.Index)
	})
	base := 0.0 // candidates' laxities untouched
	for _, c := range cands {
		base += orZero(laxity(c.Job, c.End))
	}
	d.Options[0].Score = orZero(wait.LaxHead) + base
	d.Options[0].Safe = !(wait.LaxHead < 0)
	d.Options[0].Fallback = len(cands) == len(s.Running) // Group1 is empty
	for _, c := range cands {
		l0 := laxity(c.Job, c.End)
		add := func(o Option, endX, endC float64) {
			o.Job, o.LaxJob0 = c.Job, l0
			if o.Feasible {
				o.LaxHead, o.LaxJob = laxity(x, endX), laxity(c.Job, endC)
				o.Score = orZero(o.LaxHead) + base - orZero(l0) + orZero(o.LaxJob)
				o.Safe = !(o.LaxHead < 0) && !(o.LaxJob < 0 && l0 >= 0)
			} else {
				o.LaxHead, o.LaxJob, o.Score = math.NaN(), math.NaN(), math.Inf(-1)
			}
			d.Options = append(d.Options, o)
		}
		if cfg.Action != ActionCompact {
			p := Option{Action: ActionPreempt, Start: s.Now, Feasible: fitsWithout(s.Alloc, c.Job, x)}
			add(p, s.Now+s.HeadRem, s.Now+s.HeadRem+c.Rem)
		}
		if cfg.Compaction && cfg.Action != ActionPreempt {
			o := Option{Action: ActionCompact}
			if h, dim, ok := compaction(s.Alloc, c.Job, x); ok {
				o.Feasible, o.Hops, o.Dim = true, h, dim
				o.Delay = cfg.Latency*float64(h) + cfg.Data/float64(max(dim, 1))
				o.Start = s.Now + o.Delay
			}
			add(o, o.Start+s.HeadRem, o.Start+c.Rem)
		}
	}
	// Choose: safe options first when any, then score, then rank. Waiting
	// is a candidate only in auto mode with Group1 not empty; otherwise it
	// is the fallback.
	waitCand := cfg.Action == ActionAuto && !d.Options[0].Fallback
	anySafe := false
	for i, o := range d.Options {
		if o.Feasible && o.Safe && (i > 0 || waitCand) {
			anySafe = true
		}
	}
	best := -1
	for i, o := range d.Options {
		if !o.Feasible || anySafe && !o.Safe || i == 0 && !waitCand {
			continue
		}
		if best < 0 || o.Score > d.Options[best].Score ||
			o.Score == d.Options[best].Score && rank(o.Action) < rank(d.Options[best].Action) {
			best = i
		}
	}
	if best < 0 || !anySafe && !waitCand && d.Options[0].Safe && cfg.Action == ActionAuto {
		best = 0 // nothing else feasible, or only unsafe actions where waiting is safe
	}
	o := d.Options[best]
	d.Chosen, d.Action, d.Job, d.Delay = best, o.Action, o.Job, o.Delay
	return d
}

// waitStart is the head's estimated start if it waits: the earliest
// estimated completion after which it fits, +Inf when it never does.
func waitStart(s Situation) float64 {
	a := s.Alloc.Clone()
	if fitsOn(a, s.Head) {
		return s.Now
	}
	run := slices.Clone(s.Running)
	slices.SortStableFunc(run, func(p, q Running) int { return cmp.Compare(p.End, q.End) })
	for i, r := range run {
		a.Release(r.Job.Alloc)
		if i+1 < len(run) && run[i+1].End == r.End {
			continue // release every job ending at the same time first
		}
		if fitsOn(a, s.Head) {
			return max(s.Now, r.End)
		}
	}
	return math.Inf(1)
}

// fitsOn reports whether j could be placed on a now, leaving a unchanged.
func fitsOn(a policy.Allocator, j *policy.Job) bool {
	if j.Procs > a.Free() {
		return false
	}
	b, ok := a.Clone().Allocate(j)
	return ok && b != nil
}

// fitsWithout reports whether x fits once c's processors are released.
func fitsWithout(live policy.Capacity, c, x *policy.Job) bool {
	a := live.Clone()
	a.Release(c.Alloc)
	return fitsOn(a, x)
}

// compaction reports whether c can be migrated so that x fits (c placed
// while its subcube is still held, then the source released), with the
// Hamming distance between source and target and c's subcube dimension.
func compaction(live policy.Capacity, c, x *policy.Job) (hops, dim int, ok bool) {
	src, ok := subcube(c.Alloc)
	if !ok {
		return 0, 0, false
	}
	a := live.Clone()
	b, ok := a.Allocate(c)
	if !ok || b == nil {
		return 0, 0, false
	}
	dst, ok := subcube(b)
	if !ok {
		return 0, 0, false
	}
	a.Release(c.Alloc)
	if !fitsOn(a, x) {
		return 0, 0, false
	}
	return bits.OnesCount32(uint32(src.X ^ dst.X)), bits.OnesCount32(uint32(src.Mask)), true
}

// subcube returns the one cube piece of a.
func subcube(a policy.Allocation) (policy.Piece, bool) {
	ps := a.Placement(nil)
	if len(ps) != 1 || ps[0].H != 1 || ps[0].Size() != 1<<bits.OnesCount32(uint32(ps[0].Mask)) {
		return policy.Piece{}, false
	}
	return ps[0], true
}

// WriteTable writes the decision's options as a table, for case studies.
func (d *Decision) WriteTable(w io.Writer) error {
	num := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fmt.Sprintf("%g", x)
	}
	line := func(cols ...any) error {
		s := fmt.Sprintf("%-8s %-4s %6s %5s %6s %8s %8s %8s %8s  %s", cols...)
		_, err := io.WriteString(w, strings.TrimRight(s, " ")+"\n")
		return err
	}
	if err := line("action", "job", "start", "hops", "delay", "L_x", "L_c", "L_c(0)", "score", "note"); err != nil {
		return err
	}
	for i, o := range d.Options {
		job := "-"
		if o.Job != nil {
			job = fmt.Sprint(o.Job.ID)
		}
		note := ""
		switch {
		case !o.Feasible:
			note = "infeasible"
		case !o.Safe:
			note = "unsafe"
		}
		if o.Fallback && note == "" {
			note = "fallback (Group1 empty)"
		}
		if i == d.Chosen {
			note = "chosen"
		}
		start, hops, delay, score := num(o.Start), "-", "-", num(o.Score)
		if o.Action == ActionCompact && o.Feasible {
			hops, delay = fmt.Sprint(o.Hops), num(o.Delay)
		}
		if !o.Feasible {
			start, score = "-", "-"
		}
		if err := line(o.Action, job, start, hops, delay, num(o.LaxHead), num(o.LaxJob), num(o.LaxJob0), score, note); err != nil {
			return err
		}
	}
	return nil
}

// pcwSpec is pcw's registry entry.
func pcwSpec() policy.SchedulerSpec {
	return policy.SchedulerSpec{
		Name: "pcw",
		// Generic over allocators (tested on flat count and contig too), but
		// offered on hypercubes only: compaction needs subcubes, and on a
		// trace without priorities pcw is FCFS, a duplicate in every flat
		// and mesh default pair list.
		Kinds: []string{policy.Cube},
		Doc:   "preempt, compact or wait: a higher-priority head that does not fit preempts or compacts (migrates over all disjoint paths) a lower-priority job, or waits, whichever leaves the most remaining laxity (Ghoneim & Fahmy, Parallel Computing 29(1), 2003; compaction after Tzeng & Chen, IEEE TPDS 9(1), 1998; cost model ours)",
		Params: []policy.Param{
			{Name: "action", Default: ActionAuto, Doc: "auto: choose by laxity; preempt, compact, wait: that action whenever feasible, else wait (compact: hypercubes only)"},
			{Name: "latency", Default: fmt.Sprint(DefaultPCWLatency), Doc: "compaction: time per hop (δ = latency·hops + data/max(dim, 1))"},
			{Name: "data", Default: fmt.Sprint(DefaultPCWData), Doc: "compaction: time to send one node's memory image over one link"},
		},
		New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
			s, err := newPCW(m, p)
			if err != nil {
				return nil, fmt.Errorf("pcw: %w", err)
			}
			return s, nil
		},
	}
}

func newPCW(m policy.Machine, p policy.Params) (*PCW, error) {
	if err := p.Check("action", "latency", "data"); err != nil {
		return nil, err
	}
	act, err := p.Choice("action", ActionAuto, ActionAuto, ActionPreempt, ActionCompact, ActionWait)
	if err != nil {
		return nil, err
	}
	cube := policy.RequestOf(m.Kind) == policy.RequestSubcube // compaction moves subcubes over a hypercube's disjoint paths
	if act == ActionCompact && !cube {
		return nil, fmt.Errorf("parameter action=compact: compaction needs a hypercube (machine %s)", m)
	}
	cfg := PCWConfig{Action: act, Compaction: cube}
	for _, f := range []struct {
		key string
		def float64
		dst *float64
	}{{"latency", DefaultPCWLatency, &cfg.Latency}, {"data", DefaultPCWData, &cfg.Data}} {
		v, err := p.Float(f.key, f.def)
		if err == nil && !(v >= 0 && !math.IsInf(v, 1)) {
			err = fmt.Errorf("parameter %s=%q: want a finite number ≥ 0", f.key, p[f.key])
		}
		if err != nil {
			return nil, err
		}
		*f.dst = v
	}
	return NewPCW(cfg), nil
}
