package engine_test

import (
	"errors"
	"fmt"
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
type halfWhenShared struct{}

func (halfWhenShared) Rates(_ float64, running []*policy.Job, rate []float64) {
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
func TestProgressModel(t *testing.T) {
	jobs := mk([4]float64{1, 0, 10, 1}, [4]float64{2, 2, 4, 1})
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewCount(4), &fifo{},
		engine.Options{Check: true, Progress: halfWhenShared{}, Series: true})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs; j[0].End != 14 || j[1].End != 10 || res.Last != 14 {
		t.Errorf("ends %g %g, last %g; want 14 10 14", j[0].End, j[1].End, res.Last)
	}
	// Busy: 1 on [0,2), 2 on [2,10), 1 on [10,14) = 2 + 16 + 4.
	if res.BusyArea != 22 {
		t.Errorf("busy area %g, want 22", res.BusyArea)
	}
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

type fullSpeed struct{}

func (fullSpeed) Rates(_ float64, _ []*policy.Job, rate []float64) {
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
		jobs[i] = policy.Job{Index: i, ID: int64(i + 1), Submit: t, Run: run, Estimate: run, Procs: p, User: -1}
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
	pre := s.(policy.Preemptor)
	if s.Now() == 0 {
		s.Wake(3)
	}
	if s.Now() == 3 {
		for _, j := range s.Running() {
			if j.ID == 1 && pre.Suspend(j) {
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
			if j.ID == 1 && !s.(policy.Preemptor).Migrate(j, 1) {
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
	now   float64
	times []float64
}

func (s *small) Feasible(j *policy.Job) error {
	if j.Procs > 2 {
		return errors.New("more than 2 processors per job")
	}
	return nil
}
func (s *small) SetNow(t float64) { s.now = t }
func (s *small) Allocate(j *policy.Job) (policy.Allocation, bool) {
	s.times = append(s.times, s.now)
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
var _ policy.Feasibility = (*small)(nil)
var _ policy.Clocked = (*small)(nil)
