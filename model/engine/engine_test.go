package engine_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/internal/race"
	"github.com/schedlab/schedlab/model/policy"
)

// fifo is a strict FCFS scheduler for the engine's own tests.
type fifo struct {
	q   []*policy.Job
	log *[]string
}

func (f *fifo) Submit(j *policy.Job) {
	f.q = append(f.q, j)
	if f.log != nil {
		*f.log = append(*f.log, fmt.Sprintf("submit %d", j.ID))
	}
}
func (f *fifo) Finished(j *policy.Job) {
	if f.log != nil {
		*f.log = append(*f.log, fmt.Sprintf("finish %d", j.ID))
	}
}
func (f *fifo) Schedule(s policy.System) {
	if f.log != nil {
		*f.log = append(*f.log, fmt.Sprintf("schedule %g free=%d", s.Now(), s.Capacity().Free()))
	}
	for len(f.q) > 0 && s.Start(f.q[0]) {
		if f.log != nil {
			*f.log = append(*f.log, fmt.Sprintf("start %d", f.q[0].ID))
		}
		f.q = f.q[1:]
	}
}
func (f *fifo) Waiting() int { return len(f.q) }

// mk builds jobs from (id, submit, run, procs) rows.
func mk(rows ...[4]float64) []policy.Job {
	jobs := make([]policy.Job, len(rows))
	for i, r := range rows {
		jobs[i] = policy.Job{Index: int32(i), ID: int64(r[0]), Submit: r[1], Run: r[2], Estimate: r[2], Procs: int(r[3]), User: -1}
	}
	return jobs
}

func run(t *testing.T, jobs []policy.Job, procs int, log *[]string) *engine.Result {
	t.Helper()
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	res, err := engine.Run(jobs, m, flat.NewCount(procs), &fifo{log: log}, engine.Options{Check: true, Series: true, Placement: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func starts(res *engine.Result) []float64 {
	s := make([]float64, len(res.Jobs))
	for i, j := range res.Jobs {
		s[i] = j.Start
	}
	return s
}

func TestEventOrder(t *testing.T) {
	// flat:4. Job 1 (4 procs) runs 0..10. Job 2 (4 procs) arrives at 10,
	// exactly when job 1 ends: completions come first, so it starts at 10.
	// Job 3 arrives at 10 too and waits for job 2 (10..15).
	var log []string
	res := run(t, mk([4]float64{1, 0, 10, 4}, [4]float64{2, 10, 5, 4}, [4]float64{3, 10, 1, 1}), 4, &log)
	if got, want := fmt.Sprint(starts(res)), "[0 10 15]"; got != want {
		t.Errorf("starts %s, want %s", got, want)
	}
	want := []string{
		"submit 1", "schedule 0 free=4", "start 1",
		"finish 1", "submit 2", "submit 3", "schedule 10 free=4", "start 2",
		"finish 2", "schedule 15 free=4", "start 3",
		"finish 3", "schedule 16 free=4",
	}
	if strings.Join(log, "|") != strings.Join(want, "|") {
		t.Errorf("event log\n got %q\nwant %q", log, want)
	}
	if res.First != 0 || res.Last != 16 || res.Instants != 4 {
		t.Errorf("first %g last %g instants %d, want 0 16 4", res.First, res.Last, res.Instants)
	}
	// busy: 4 on [0,15), 1 on [15,16) → 61; queue: 1 job (3) on [10,15) → 5.
	if res.BusyArea != 61 || res.QueueArea != 5 || res.MaxQueue != 1 {
		t.Errorf("busy area %g queue area %g max queue %d, want 61 5 1", res.BusyArea, res.QueueArea, res.MaxQueue)
	}
	wantSeries := "[{0 4 1 0} {10 4 1 1} {15 1 1 0} {16 0 0 0}]"
	if got := fmt.Sprint(res.Series); got != wantSeries {
		t.Errorf("series %s, want %s", got, wantSeries)
	}
}

func TestCompletionOrderByID(t *testing.T) {
	// Jobs 7 and 3 both end at 5: job 3's completion comes first.
	var log []string
	run(t, mk([4]float64{7, 0, 5, 1}, [4]float64{3, 0, 5, 1}), 2, &log)
	got := strings.Join(log, "|")
	if !strings.Contains(got, "finish 3|finish 7|schedule 5") {
		t.Errorf("log %q: want job 3 finished before job 7, then one schedule", got)
	}
}

func TestZeroLengthJobs(t *testing.T) {
	// flat:4, FCFS. Jobs 1, 2 and 3 all arrive at 0 needing 4 processors;
	// 1 and 2 run 0 s. Job 1 starts at 0 and ends at 0; job 2 must start at
	// 0 on the processors job 1 freed at that instant, and so must job 3.
	// Job 4 (4 procs, 0 s) arrives at 3 while job 3 runs until 7.
	res := run(t, mk([4]float64{1, 0, 0, 4}, [4]float64{2, 0, 0, 4}, [4]float64{3, 0, 7, 4}, [4]float64{4, 3, 0, 4}), 4, nil)
	if got, want := fmt.Sprint(starts(res)), "[0 0 0 7]"; got != want {
		t.Errorf("starts %s, want %s", got, want)
	}
	for _, j := range res.Jobs {
		if j.End != j.Start+j.Run {
			t.Errorf("job %d ends %g, want %g", j.ID, j.End, j.Start+j.Run)
		}
	}
	if got := res.Placement(0); len(got) != 1 || got[0] != policy.Range(0, 4) || res.AllocProcs[3] != 4 {
		t.Errorf("placement %v alloc %g", got, res.AllocProcs[3])
	}
}

// idle never starts anything.
type idle struct{ n int }

func (s *idle) Submit(*policy.Job)     { s.n++ }
func (s *idle) Finished(*policy.Job)   {}
func (s *idle) Schedule(policy.System) {}
func (s *idle) Waiting() int           { return s.n }

func TestDeadlock(t *testing.T) {
	jobs := mk([4]float64{1, 0, 5, 1}, [4]float64{2, 3, 5, 1})
	_, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 2}, flat.NewCount(2), &idle{}, engine.Options{})
	if err == nil || !strings.Contains(err.Error(), "deadlock at t=3") {
		t.Fatalf("err %v, want a deadlock at t=3", err)
	}
}

// badAlloc hands out processor 0 to everybody.
type badAlloc struct{ free int }

type one struct{ n int }

func (o one) Procs() int                                  { return o.n }
func (o one) Placement(dst []policy.Piece) []policy.Piece { return append(dst, policy.Range(0, 1)) }
func (b *badAlloc) Feasible(*policy.Job) error            { return nil }
func (b *badAlloc) Release(a policy.Allocation)           { b.free += a.Procs() }
func (b *badAlloc) Free() int                             { return b.free }
func (b *badAlloc) Size() int                             { return 4 }
func (b *badAlloc) Clone() policy.Allocator               { c := *b; return &c }
func (b *badAlloc) Allocate(j *policy.Job) (policy.Allocation, bool) {
	if j.Procs > b.free {
		return nil, false
	}
	b.free -= j.Procs
	return one{j.Procs}, true
}

func TestCheckCatchesViolations(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	// Two 1-processor jobs both given processor 0.
	_, err := engine.Run(mk([4]float64{1, 0, 5, 1}, [4]float64{2, 0, 5, 1}), m, &badAlloc{free: 4}, &fifo{}, engine.Options{Check: true})
	if err == nil || !strings.Contains(err.Error(), "job 2 given processor 0 already held by job 1") {
		t.Errorf("err %v, want a double-held processor", err)
	}
	// Without Check the run goes through.
	if _, err := engine.Run(mk([4]float64{1, 0, 5, 1}, [4]float64{2, 0, 5, 1}), m, &badAlloc{free: 4}, &fifo{}, engine.Options{}); err != nil {
		t.Errorf("unchecked run: %v", err)
	}
}

// eager starts a job that has not arrived yet.
type eager struct{ jobs []policy.Job }

func (s *eager) Submit(*policy.Job)         {}
func (s *eager) Finished(*policy.Job)       {}
func (s *eager) Schedule(sys policy.System) { sys.Start(&s.jobs[1]) }
func (s *eager) Waiting() int               { return 0 }

func TestStartBeforeArrival(t *testing.T) {
	jobs := mk([4]float64{1, 0, 5, 1}, [4]float64{2, 3, 5, 1})
	_, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 2}, flat.NewCount(2), &eager{jobs}, engine.Options{})
	if err == nil || !strings.Contains(err.Error(), "job 2 started before its arrival") {
		t.Fatalf("err %v", err)
	}
}

// erlangC is the M/M/c mean wait in queue (Erlang C formula) for arrival
// rate lambda and service rate mu per server.
func erlangC(c int, lambda, mu float64) float64 {
	a := lambda / mu
	rho := a / float64(c)
	sum, term := 0.0, 1.0
	for k := 0; k < c; k++ {
		if k > 0 {
			term *= a / float64(k)
		}
		sum += term
	}
	last := term * a / float64(c) / (1 - rho)
	pw := last / (sum + last)
	return pw / (float64(c)*mu - lambda)
}

// mmc returns jobs of an M/M/c queue with 1-processor jobs, service rate 1.
func mmc(n, c int, rho float64, seed uint64) []policy.Job {
	r := rand.New(rand.NewPCG(seed, 7))
	lambda := rho * float64(c)
	jobs := make([]policy.Job, n)
	t := 0.0
	for i := range jobs {
		t += r.ExpFloat64() / lambda
		run := r.ExpFloat64()
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: t, Run: run, Estimate: run, Procs: 1}
	}
	return jobs
}

func TestErlangC(t *testing.T) {
	// 1,000,000 jobs (10% warm-up dropped) keep every case within 3%;
	// -short runs 300,000 with a looser 8% bound.
	n, tol := 1000000, 0.03
	if testing.Short() || race.Enabled {
		n, tol = 300000, 0.08
	}
	for _, c := range []struct {
		c   int
		rho float64
	}{{1, 0.5}, {16, 0.5}, {1, 0.8}, {16, 0.8}} {
		jobs := mmc(n, c.c, c.rho, 42)
		m := policy.Machine{Kind: policy.Flat, Procs: c.c}
		res, err := engine.Run(jobs, m, flat.NewCount(c.c), &fifo{}, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		warm := n / 10
		sum := 0.0
		for _, j := range res.Jobs[warm:] {
			sum += j.Start - j.Submit
		}
		got := sum / float64(n-warm)
		want := erlangC(c.c, c.rho*float64(c.c), 1)
		if math.Abs(got-want)/want > tol {
			t.Errorf("M/M/%d at load %g: mean wait %.4f, Erlang C %.4f (off by %.1f%%)", c.c, c.rho, got, want, 100*math.Abs(got-want)/want)
		} else {
			t.Logf("M/M/%d at load %g: mean wait %.4f, Erlang C %.4f", c.c, c.rho, got, want)
		}
	}
}

// delayed starts each job 5 time units after it arrives, on a timer.
type delayed struct {
	q []*policy.Job
}

func (d *delayed) Submit(j *policy.Job) { d.q = append(d.q, j) }
func (d *delayed) Finished(*policy.Job) {}
func (d *delayed) Waiting() int         { return len(d.q) }
func (d *delayed) Schedule(s policy.System) {
	w := 0
	for _, j := range d.q {
		switch {
		case s.Now() >= j.Submit+5 && s.Start(j):
		case s.Now() < j.Submit+5:
			s.Wake(j.Submit + 5)
			d.q[w] = j
			w++
		default:
			d.q[w] = j
			w++
		}
	}
	d.q = d.q[:w]
}

func TestWake(t *testing.T) {
	// Jobs at 0 and 1 start at 5 and 6 on timers; duplicate wake-ups are
	// harmless. Wake at a past time is an error.
	jobs := mk([4]float64{1, 0, 2, 1}, [4]float64{2, 1, 2, 1})
	res, err := engine.Run(jobs, policy.Machine{Kind: policy.Flat, Procs: 2}, flat.NewCount(2), &delayed{}, engine.Options{Check: true, Series: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(starts(res)); got != "[5 6]" {
		t.Errorf("starts %s, want [5 6]", got)
	}
	if res.Last != 8 || res.QueueArea != 10 {
		t.Errorf("last %g queue area %g, want 8 and 10", res.Last, res.QueueArea)
	}
}
