package engine_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// hooked is FCFS with a hook called at the start of every Schedule.
type hooked struct {
	fifo
	hook func(sys policy.System)
}

func (h *hooked) Schedule(s policy.System) {
	if h.hook != nil {
		h.hook(s)
	}
	h.fifo.Schedule(s)
}

// halfWhenShared is a progress model: every running job runs at half speed
// while two or more jobs run (a shared network, say), at full speed alone.
type halfWhenShared struct{ rateOnly }

// rateOnly is a progress model's Started and Left, ignored.
type rateOnly struct{}

func (rateOnly) Started(*policy.Job, policy.Progress) {}
func (rateOnly) Left(*policy.Job, policy.Progress)    {}

func (halfWhenShared) Rates(_ policy.Progress, running []*policy.Job, rate []float64) {
	for i := range rate {
		rate[i] = 1
		if len(running) >= 2 {
			rate[i] = 0.5
		}
	}
}

// Worked by hand: flat:4. Job 1 (run 10) runs alone on [0,2): 8 left. Job
// 2 (run 4) arrives at 2: both at half speed; job 2 needs 8 time units and
// ends at 10, when job 1 has 8 − 4 = 4 left; alone again, job 1 ends at 14.
// Job 3 (run 0) arrives at 4 and ends at once, whatever the rates.
func TestProgressModel(t *testing.T) {
	for _, c := range []struct {
		name  string
		sched policy.Scheduler
		opt   policy.ProgressModel
	}{
		{"options", &fifo{}, halfWhenShared{}},
		{"scheduler", &paced{}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			jobs := mk([4]float64{1, 0, 10, 1}, [4]float64{2, 2, 4, 1}, [4]float64{3, 4, 0, 1})
			res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewCount(4), c.sched,
				engine.Options{Check: true, Progress: c.opt, Series: true})
			if err != nil {
				t.Fatal(err)
			}
			if j := res.Jobs; j[0].End != 14 || j[1].End != 10 || j[2].Start != 4 || j[2].End != 4 || res.Last != 14 {
				t.Errorf("ends %g %g %g, last %g; want 14 10 4, 14", j[0].End, j[1].End, j[2].End, res.Last)
			}
			// Busy: 1 on [0,2), 2 on [2,10), 1 on [10,14) = 2 + 16 + 4.
			if res.BusyArea != 22 {
				t.Errorf("busy area %g, want 22", res.BusyArea)
			}
		})
	}
}

// paced is FCFS that is its own progress model.
type paced struct {
	fifo
	halfWhenShared
}

// Without a progress model, or with one that keeps every rate at 1, a job
// ends at exactly Start + Run.
func TestProgressModelIdentity(t *testing.T) {
	jobs := randomJobs(300, 16, 7)
	a := append([]policy.Job(nil), jobs...)
	b := append([]policy.Job(nil), jobs...)
	m := policy.Machine{Kind: policy.Flat, Procs: 16}
	ra, err := engine.Run(a, m, flat.NewCount(16), &fifo{}, engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := engine.Run(b, m, flat.NewCount(16), &fifo{}, engine.Options{Check: true, Progress: fullSpeed{}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range ra.Jobs {
		if ra.Jobs[i].Start != rb.Jobs[i].Start || ra.Jobs[i].End != rb.Jobs[i].End || ra.Jobs[i].End != ra.Jobs[i].Start+ra.Jobs[i].Run {
			t.Fatalf("job %d: %g..%g vs %g..%g", ra.Jobs[i].ID, ra.Jobs[i].Start, ra.Jobs[i].End, rb.Jobs[i].Start, rb.Jobs[i].End)
		}
	}
}

type fullSpeed struct{ rateOnly }

func (fullSpeed) Rates(_ policy.Progress, _ []*policy.Job, rate []float64) {
	for i := range rate {
		rate[i] = 1
	}
}

// randomJobs returns n jobs on procs processors, sorted by submit time.
func randomJobs(n, procs int, seed int) []policy.Job {
	jobs := make([]policy.Job, n)
	t := 0.0
	for i := range jobs {
		t += float64((i*7919 + seed*31) % 5)
		run := float64((i*104729 + seed) % 23)
		p := 1 + (i*31+seed)%procs
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: t, Run: run, Estimate: run, Procs: p, User: -1}
	}
	return jobs
}

// lazy hands a completing job's allocation to the first waiting job it
// fits (lazy scheduling).
type lazy struct{ fifo }

func (l *lazy) Handoff(done *policy.Job, _ policy.System) *policy.Job {
	for i, j := range l.q {
		if j.Procs <= done.Alloc.Procs() {
			l.q = append(l.q[:i], l.q[i+1:]...)
			return j
		}
	}
	return nil
}

// flat:4, contig. Jobs 1 (2 procs, 0..5) and 2 (2 procs, 0..10) take 0-1
// and 2-3; job 3 (2 procs) arrives at 1 and gets job 1's processors 0-1 at
// 5 directly, the allocator never seeing them free.
func TestHandoff(t *testing.T) {
	jobs := mk([4]float64{1, 0, 5, 2}, [4]float64{2, 0, 10, 2}, [4]float64{3, 1, 3, 2})
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewContig(4), &lazy{},
		engine.Options{Check: true, Placement: true})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[2]; j.Start != 5 || j.End != 8 || fmt.Sprint(res.Placement(2)) != fmt.Sprint([]policy.Piece{policy.Range(0, 2)}) {
		t.Errorf("job 3: %g..%g on %v; want 5..8 on 0-1", j.Start, j.End, res.Placement(2))
	}
}

// preempter suspends job 1 at 3 to run job 2, and migrates job 3 at 2.
type preempter struct {
	fifo
	suspended []*policy.Job
}

func (p *preempter) Schedule(s policy.System) {
	if s.Now() == 0 {
		s.Wake(3)
	}
	if s.Now() == 3 {
		for _, j := range s.Running() {
			if j.ID == 1 && s.Suspend(j) {
				p.suspended = append(p.suspended, j)
			}
		}
	}
	p.fifo.Schedule(s)
	// Resume the suspended jobs when they fit.
	for len(p.suspended) > 0 && s.Start(p.suspended[0]) {
		p.suspended = p.suspended[1:]
	}
}
func (p *preempter) Waiting() int { return len(p.q) + len(p.suspended) }

// flat:4. Job 1 (4 procs, run 10) starts at 0, is suspended at 3 with 7
// left; job 2 (4 procs, run 2, arrived at 1) runs 3..5; job 1 resumes at 5
// and ends at 12. Its first start stays 0.
func TestSuspendResume(t *testing.T) {
	jobs := mk([4]float64{1, 0, 10, 4}, [4]float64{2, 1, 2, 4})
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewCount(4), &preempter{},
		engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	j1, j2 := res.Jobs[0], res.Jobs[1]
	if j1.Start != 0 || j1.End != 12 || j2.Start != 3 || j2.End != 5 {
		t.Errorf("job 1 %g..%g, job 2 %g..%g; want 0..12 and 3..5", j1.Start, j1.End, j2.Start, j2.End)
	}
	if res.Suspensions == nil || res.Suspensions[0] != 1 || res.Suspensions[1] != 0 {
		t.Errorf("suspensions %v", res.Suspensions)
	}
	want := []engine.Event{{Time: 3, Index: 0, Kind: engine.Suspended}, {Time: 5, Index: 0, Kind: engine.Resumed}}
	if fmt.Sprint(res.Events) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", res.Events, want)
	}
}

// mover migrates job 1 at time 2, with a delay of 1.
type mover struct{ fifo }

func (m *mover) Schedule(s policy.System) {
	if s.Now() == 0 {
		s.Wake(2)
	}
	if s.Now() == 2 {
		for _, j := range s.Running() {
			if j.ID == 1 && !s.Migrate(j, 1) {
				panic("migration failed")
			}
		}
	}
	m.fifo.Schedule(s)
}

// flat:4, contig. Job 1 (2 procs, run 10) starts on 0-1, moves at 2 to 2-3
// (taken while 0-1 are still held), makes no progress during the delay of
// 1 and ends at 2 + 1 + 8 = 11.
func TestMigrate(t *testing.T) {
	jobs := mk([4]float64{1, 0, 10, 2})
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewContig(4), &mover{},
		engine.Options{Check: true, Placement: true})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[0]; j.Start != 0 || j.End != 11 || res.Migrations[0] != 1 ||
		fmt.Sprint(res.Placement(0)) != fmt.Sprint([]policy.Piece{policy.Range(2, 2)}) {
		t.Errorf("job 1: %g..%g, migrations %v, placement %v; want 0..11, 1, 2-3", j.Start, j.End, res.Migrations, res.Placement(0))
	}
}

// small is a count allocator that can never place more than 2 processors
// per job, and records the time it was told before each allocation.
type small struct {
	*flat.Count
	run   policy.RunContext
	times []float64
}

func (s *small) Feasible(j *policy.Job) error {
	if j.Procs > 2 {
		return errors.New("more than 2 processors per job")
	}
	return nil
}
func (s *small) SetContext(c policy.RunContext) { s.run = c }
func (s *small) Allocate(j *policy.Job) (policy.Allocation, bool) {
	s.times = append(s.times, s.run.Now())
	return s.Count.Allocate(j)
}

// A job the allocator could never place is rejected on arrival (not a
// deadlock), the others run; the allocator learns the time of each event.
func TestFeasibilityAndClock(t *testing.T) {
	jobs := mk([4]float64{1, 0, 5, 2}, [4]float64{2, 1, 5, 3}, [4]float64{3, 4, 1, 2})
	a := &small{Count: flat.NewCount(4)}
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, a, &fifo{}, engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rejected) != 1 || res.Rejected[0].ID != 2 || res.Rejected[0].Reason != "more than 2 processors per job" {
		t.Errorf("rejected %+v", res.Rejected)
	}
	if j := res.Jobs; j[1].Start != -1 || j[0].End != 5 || j[2].Start != 4 {
		t.Errorf("jobs %+v", j)
	}
	if fmt.Sprint(a.times) != "[0 4]" {
		t.Errorf("allocations at %v, want [0 4]", a.times)
	}
}

// halves hands out half a processor per job (a fractional share).
type halves struct{ *flat.Count }

type half struct{ policy.Allocation }

func (half) Share() float64 { return 0.5 }

func (h halves) Allocate(j *policy.Job) (policy.Allocation, bool) {
	a, ok := h.Count.Allocate(j)
	if !ok {
		return nil, false
	}
	return half{a}, true
}
func (h halves) Release(a policy.Allocation) { h.Count.Release(a.(half).Allocation) }

// Fractional shares count in the busy area and in AllocProcs.
func TestFractionalShare(t *testing.T) {
	jobs := mk([4]float64{1, 0, 4, 1}, [4]float64{2, 0, 2, 1})
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 2}, halves{flat.NewCount(2)}, &fifo{},
		engine.Options{Check: true, Series: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.BusyArea != 3 || res.AllocProcs[0] != 0.5 || res.Series[0].Busy != 1 {
		t.Errorf("busy area %g (want 0.5·4 + 0.5·2 = 3), alloc %v, series %v", res.BusyArea, res.AllocProcs, res.Series)
	}
}

var _ policy.Handoff = (*lazy)(nil)
var _ policy.Contextual = (*small)(nil)

// equi hands out allocations whose share the scheduler sets (malleable
// equipartition): a share starts at 0 and follows *share.
type equi struct{ *flat.Count }

type eqAlloc struct {
	policy.Allocation
	share *float64
}

func (a eqAlloc) Share() float64 { return *a.share }

func (q equi) Allocate(j *policy.Job) (policy.Allocation, bool) {
	a, ok := q.Count.Allocate(j)
	if !ok {
		return nil, false
	}
	return eqAlloc{a, new(float64)}, true
}
func (q equi) Release(a policy.Allocation) { q.Count.Release(a.(eqAlloc).Allocation) }

// equiSched starts every job at once and shares the 4 processors equally
// among the running jobs.
type equiSched struct{ fifo }

func (s *equiSched) Schedule(sys policy.System) {
	s.fifo.Schedule(sys)
	run := sys.Running()
	for _, j := range run {
		*j.Alloc.(eqAlloc).share = 4 / float64(len(run))
	}
}

// Worked by hand: flat:4, equipartition. Job 1 (run 10) holds 4 on [0,2),
// 2 on [2,6) while job 2 (run 4) holds the other 2, then 4 on [6,10): it
// held (8 + 8 + 16)/10 = 3.2 on average, job 2 exactly 2; the machine is
// full throughout.
func TestChangingShares(t *testing.T) {
	jobs := mk([4]float64{1, 0, 10, 1}, [4]float64{2, 2, 4, 1})
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, equi{flat.NewCount(4)}, &equiSched{},
		engine.Options{Check: true, Series: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.AllocProcs[0] != 3.2 || res.AllocProcs[1] != 2 || res.BusyArea != 40 {
		t.Errorf("alloc %v busy area %g; want [3.2 2] and 40", res.AllocProcs, res.BusyArea)
	}
	if got, want := fmt.Sprint(res.Series), "[{0 4 1 0} {2 4 2 0} {6 4 1 0} {10 0 0 0}]"; got != want {
		t.Errorf("series %s, want %s", got, want)
	}
}

// Every placement a job held is recorded: the ones it left at suspensions
// and migrations in the event log, the last in Placement.
func TestEventPlacements(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	r := func(lo, n int) string { return fmt.Sprint([]policy.Piece{policy.Range(lo, n)}) }
	// TestMigrate's run: job 1 moves from 0-1 to 2-3 at 2.
	res, err := engine.Run(mk([4]float64{1, 0, 10, 2}), m, flat.NewContig(4), &mover{}, engine.Options{Check: true, Placement: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 1 || fmt.Sprint(res.EventPlacement(0)) != r(0, 2) || fmt.Sprint(res.Placement(0)) != r(2, 2) {
		t.Errorf("events %v left %v, placement %v; want a migration from 0-1 to 2-3", res.Events, res.EventPlacement(0), res.Placement(0))
	}
	// TestSuspendResume's run: job 1 leaves 0-3 at 3 and resumes on 0-3.
	res, err = engine.Run(mk([4]float64{1, 0, 10, 4}, [4]float64{2, 1, 2, 4}), m, flat.NewCount(4), &preempter{},
		engine.Options{Check: true, Placement: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 2 || fmt.Sprint(res.EventPlacement(0)) != r(0, 4) || res.EventPlacement(1) != nil ||
		fmt.Sprint(res.Placement(0)) != r(0, 4) || res.AllocProcs[0] != 4 {
		t.Errorf("events %v left %v %v, placement %v, alloc %g", res.Events, res.EventPlacement(0), res.EventPlacement(1), res.Placement(0), res.AllocProcs[0])
	}
	// Without Options.Placement nothing is recorded.
	res, err = engine.Run(mk([4]float64{1, 0, 10, 2}), m, flat.NewContig(4), &mover{}, engine.Options{})
	if err != nil || res.EventPlacement(0) != nil || res.Placement(0) != nil {
		t.Errorf("placements recorded without the option (%v)", err)
	}
}

// chaos is FCFS that, at every pass, suspends or migrates running jobs at
// random (never during a migration delay), and resumes suspended jobs
// before starting new ones.
type chaos struct {
	fifo
	r         *rand.Rand
	suspended []*policy.Job
	delays    map[int64]float64 // total migration delay per job ID
	calm      map[int64]float64 // end of the current delay per job ID
}

func (c *chaos) Schedule(s policy.System) {
	now := s.Now()
	for _, j := range append([]*policy.Job(nil), s.Running()...) {
		if c.calm[j.ID] > now {
			continue
		}
		switch x := c.r.IntN(10); {
		case x == 0:
			if !s.Suspend(j) {
				panic("suspend failed")
			}
			c.suspended = append(c.suspended, j)
		case x == 1:
			d := float64(c.r.IntN(3)) / 2
			if s.Migrate(j, d) {
				c.delays[j.ID] += d
				c.calm[j.ID] = now + d
			}
		}
	}
	for len(c.suspended) > 0 && s.Start(c.suspended[0]) {
		c.suspended = c.suspended[1:]
	}
	if len(c.suspended) == 0 {
		c.fifo.Schedule(s)
	}
}
func (c *chaos) Waiting() int { return len(c.q) + len(c.suspended) }

// Random suspensions and migrations under the invariant checker: every job
// ends once, holds what it asked for, and runs for exactly its run time
// plus its migration delays, reconstructed from the event log.
func TestPreemptionProperty(t *testing.T) {
	for _, name := range []string{"count", "contig"} {
		for seed := uint64(1); seed <= 20; seed++ {
			jobs := randomJobs(200, 16, int(seed))
			m := policy.Machine{Kind: policy.Flat, Procs: 16}
			var a policy.Allocator = flat.NewCount(16)
			if name == "contig" {
				a = flat.NewContig(16)
			}
			c := &chaos{r: rand.New(rand.NewPCG(seed, 9)), delays: map[int64]float64{}, calm: map[int64]float64{}}
			res, err := engine.Run(jobs, m, a, c, engine.Options{Check: true, Placement: true})
			if err != nil {
				t.Fatalf("%s seed %d: %v", name, seed, err)
			}
			ran := make([]float64, len(jobs))
			from := make([]float64, len(jobs))
			for i, j := range res.Jobs {
				from[i] = j.Start
			}
			for k, ev := range res.Events {
				i := ev.Index
				switch ev.Kind {
				case engine.Suspended:
					ran[i] += ev.Time - from[i]
				case engine.Resumed:
					from[i] = ev.Time
				}
				if (ev.Kind == engine.Resumed) != (res.EventPlacement(k) == nil) {
					t.Fatalf("%s seed %d: event %d (%v) left placement %v", name, seed, k, ev, res.EventPlacement(k))
				}
			}
			for i, j := range res.Jobs {
				ran[i] += j.End - from[i]
				want := j.Run + c.delays[j.ID]
				if math.Abs(ran[i]-want) > 1e-9*max(1, want) || res.AllocProcs[i] != float64(j.Procs) {
					t.Fatalf("%s seed %d: job %d ran %g, want %g (alloc %g)", name, seed, j.ID, ran[i], want, res.AllocProcs[i])
				}
			}
			if len(res.Events) == 0 {
				t.Fatalf("%s seed %d: nothing happened", name, seed)
			}
			total := 0.0
			for _, d := range c.delays {
				total += d
			}
			if math.Abs(res.MigrationTime-total) > 1e-9*max(1, total) {
				t.Fatalf("%s seed %d: migration time %g, want %g", name, seed, res.MigrationTime, total)
			}
		}
	}
}

// A rounding allocator migrates a job onto a different number of
// processors: AllocProcs is the time average. Job 1 (1 processor, run 10)
// holds 1 on [0,2) and 2 on [2,10): (2 + 16)/10 = 1.8.
func TestMigrateAverage(t *testing.T) {
	a := &rounding{Count: flat.NewCount(4)}
	res, err := engine.Run(mk([4]float64{1, 0, 10, 1}), policy.Machine{Kind: policy.Flat, Procs: 4}, a, &mover{},
		engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	// The delay of 1 keeps the job on its 2 processors without progress: it
	// ends at 11, holding 1 on [0,2) and 2 on [2,11): (2 + 18)/11.
	if j := res.Jobs[0]; j.End != 11 || res.AllocProcs[0] != 20.0/11 || res.BusyArea != 20 {
		t.Errorf("end %g alloc %g busy area %g; want 11, 20/11, 20", j.End, res.AllocProcs[0], res.BusyArea)
	}
}

// rounding gives its second and later allocations one processor more than
// asked.
type rounding struct {
	*flat.Count
	n int
}

func (r *rounding) Allocate(j *policy.Job) (policy.Allocation, bool) {
	r.n++
	if r.n == 1 {
		return r.Count.Allocate(j)
	}
	k := *j
	k.Procs++
	return r.Count.Allocate(&k)
}

// A flat allocator rejects a job larger than the machine on arrival, with
// the reason, instead of a deadlock.
func TestFlatFeasibility(t *testing.T) {
	for _, a := range []policy.Allocator{flat.NewCount(4), flat.NewContig(4)} {
		res, err := engine.Run(mk([4]float64{1, 0, 5, 2}, [4]float64{2, 1, 5, 5}), policy.Machine{Kind: policy.Flat, Procs: 4}, a, &fifo{},
			engine.Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rejected) != 1 || res.Rejected[0].ID != 2 || res.Rejected[0].Reason != "needs 5 processors, machine has 4" ||
			res.Jobs[1].Start != -1 || res.Jobs[1].End != -1 || res.Last != 5 {
			t.Errorf("%T: rejected %+v, job 2 %+v, last %g", a, res.Rejected, res.Jobs[1], res.Last)
		}
	}
}

// looker records, at each allocation, the two largest other waiting jobs.
type looker struct {
	*flat.Count
	w    policy.RunContext
	seen []string
}

func (l *looker) SetContext(c policy.RunContext) { l.w = c }
func (l *looker) Allocate(j *policy.Job) (policy.Allocation, bool) {
	var ids []int64
	for _, o := range l.w.Largest(2, j, nil) {
		ids = append(ids, o.ID)
	}
	l.seen = append(l.seen, fmt.Sprint(j.ID, ids))
	return l.Count.Allocate(j)
}

// A Contextual allocator sees the waiting jobs, largest first, without
// the job being allocated and without the running ones.
func TestContextLargest(t *testing.T) {
	jobs := mk([4]float64{1, 0, 10, 4}, [4]float64{2, 1, 1, 1}, [4]float64{3, 2, 1, 3}, [4]float64{4, 3, 1, 2}, [4]float64{5, 3, 1, 3})
	a := &looker{Count: flat.NewCount(4)}
	if _, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, a, &fifo{}, engine.Options{Check: true}); err != nil {
		t.Fatal(err)
	}
	// FIFO tries the head at every event. t=0: 1 alone; 2 at t=1, 2, 3
	// (seeing 3, then 3 and 5: three processors each, 3 first), and at
	// t=10, when it starts; then 3 sees 5 and 4; 4 does not fit until
	// t=11, when 5 does not; 5 starts at t=12.
	want := "[1 [] 2 [] 2 [3] 2 [3 5] 2 [3 5] 3 [5 4] 4 [5] 4 [5] 5 [] 5 []]"
	if got := fmt.Sprint(a.seen); got != want {
		t.Errorf("allocations saw %s, want %s", got, want)
	}
}

// External fragmentation, worked by hand on flat:4 with the contiguous
// allocator: four one-processor jobs take 0, 1, 2, 3; at t=2 the jobs on 1
// and 3 end, leaving two free processors that are not adjacent, so job 5
// (2 processors, waiting since t=1) waits with room until t=10.
func TestExternalFragmentation(t *testing.T) {
	jobs := mk([4]float64{1, 0, 10, 1}, [4]float64{2, 0, 2, 1}, [4]float64{3, 0, 10, 1}, [4]float64{4, 0, 2, 1}, [4]float64{5, 1, 2, 2})
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewContig(4), &fifo{}, engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[4].Start != 10 {
		t.Fatalf("job 5 started at %g, want 10", res.Jobs[4].Start)
	}
	if res.ExtFragTime != 8 || res.ExtFragInstants != 1 {
		t.Errorf("external fragmentation %g over %d instants, want 8 over 1", res.ExtFragTime, res.ExtFragInstants)
	}
	// Under the count allocator the two free processors serve: none.
	jobs = mk([4]float64{1, 0, 10, 1}, [4]float64{2, 0, 2, 1}, [4]float64{3, 0, 10, 1}, [4]float64{4, 0, 2, 1}, [4]float64{5, 1, 2, 2})
	res, err = engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewCount(4), &fifo{}, engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExtFragTime != 0 || res.ExtFragInstants != 0 {
		t.Errorf("count allocator: external fragmentation %g over %d instants", res.ExtFragTime, res.ExtFragInstants)
	}
}

// tracer is a progress model that runs every job at half speed and logs
// what the engine tells it: starts, departures and the remaining work of
// the running jobs at each Rates call.
type tracer struct{ log []string }

func (m *tracer) Started(j *policy.Job, p policy.Progress) {
	m.log = append(m.log, fmt.Sprintf("start %d@%g", j.ID, p.Now()))
}
func (m *tracer) Left(j *policy.Job, p policy.Progress) {
	m.log = append(m.log, fmt.Sprintf("left %d@%g", j.ID, p.Now()))
}
func (m *tracer) Rates(p policy.Progress, running []*policy.Job, rate []float64) {
	for k, j := range running {
		m.log = append(m.log, fmt.Sprintf("rem %d@%g=%g", j.ID, p.Now(), p.Remaining(j)))
		rate[k] = 0.5
	}
}

// flat:4 at half speed. Job 1 (run 10) runs 0..20; job 2 (run 1) arrives
// at 4 and runs 4..6; job 3 (4 procs, run 2) arrives at 5, is suspended at
// 8 (2 − 1.5 = 0.5 left) and resumed at 9, ending at 10 (its rate 1 again
// from 9: the model is called at 9 after the resumption and sets 0.5).
func TestProgressStartedLeftRemaining(t *testing.T) {
	jobs := mk([4]float64{1, 0, 10, 1}, [4]float64{2, 4, 1, 1}, [4]float64{3, 5, 2, 2})
	m := &tracer{}
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewCount(4), &pauser{},
		engine.Options{Check: true, Progress: m})
	if err != nil {
		t.Fatal(err)
	}
	want := "start 1@0 rem 1@0=10 start 2@4 rem 1@4=8 rem 2@4=1 start 3@5 rem 1@5=7.5 rem 2@5=0.5 rem 3@5=2 " +
		"left 2@6 rem 1@6=7 rem 3@6=1.5 left 3@8 rem 1@8=6 start 3@9 rem 1@9=5.5 rem 3@9=0.5 left 3@10 rem 1@10=5 left 1@20"
	if got := strings.Join(m.log, " "); got != want {
		t.Errorf("log\n%s\nwant\n%s", got, want)
	}
	if j := res.Jobs; j[0].End != 20 || j[1].End != 6 || j[2].Start != 5 || j[2].End != 10 {
		t.Errorf("jobs %+v", j)
	}
}

// pauser is FCFS that suspends job 3 at 8 and resumes it at 9.
type pauser struct {
	fifo
	held *policy.Job
}

func (p *pauser) Schedule(s policy.System) {
	switch s.Now() {
	case 0:
		s.Wake(8)
		s.Wake(9)
	case 8:
		for _, j := range s.Running() {
			if j.ID == 3 && s.Suspend(j) {
				p.held = j
			}
		}
	case 9:
		if !s.Start(p.held) {
			panic("job 3 does not resume")
		}
		p.held = nil
	}
	p.fifo.Schedule(s)
}
func (p *pauser) Waiting() int {
	if p.held != nil {
		return len(p.q) + 1
	}
	return len(p.q)
}
