package engine_test

import (
	"fmt"
	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/trace"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// periodic is strict FCFS that also asks for a scheduling pass every 10
// time units, as a policy with a periodic backfilling interval would.
type periodic struct{ fifo }

func (p *periodic) Schedule(s policy.System) {
	p.fifo.Schedule(s)
	s.Wake(s.Now() + 10)
}

// stubborn never starts anything but keeps asking to be woken up.
type stubborn struct{ idle }

func (s *stubborn) Schedule(sys policy.System) { sys.Wake(sys.Now() + 1) }

// within runs f and fails the test if it has not returned after d (the
// engine looping forever is the defect under test).
func within(t *testing.T, d time.Duration, f func() (*engine.Result, error)) (*engine.Result, error) {
	t.Helper()
	type out struct {
		res *engine.Result
		err error
	}
	c := make(chan out, 1)
	go func() { r, err := f(); c <- out{r, err} }()
	select {
	case o := <-c:
		return o.res, o.err
	case <-time.After(d):
		t.Fatalf("engine.Run did not return within %v", d)
		return nil, nil
	}
}

func TestPeriodicTimerEnds(t *testing.T) {
	// A scheduler that always has a wake-up pending must not keep the run
	// going once every job has completed.
	jobs := mk([4]float64{1, 0, 5, 1}, [4]float64{2, 3, 5, 2})
	m := policy.Machine{Kind: policy.Flat, Procs: 2}
	res, err := within(t, 5*time.Second, func() (*engine.Result, error) {
		return engine.Run(jobs, m, flat.NewCount(2), &periodic{}, engine.Options{Check: true, Series: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	// Job 1 runs 0..5, job 2 (2 procs) waits for it: 5..10.
	if got := starts(res); got[0] != 0 || got[1] != 5 || res.Last != 10 {
		t.Errorf("starts %v last %g, want [0 5] and 10", got, res.Last)
	}
	// Events: 0, 3, 5, 10 (a wake-up at 10 coincides with the completion);
	// nothing after the last completion.
	if n := len(res.Series); n != 4 || res.Series[n-1].Time != 10 {
		t.Errorf("series %v, want 4 samples ending at 10", res.Series)
	}
}

func TestTimerLivelock(t *testing.T) {
	// Jobs wait on an idle machine with no arrival to come; the scheduler
	// starts nothing and only sets timers. That is a deadlock too.
	jobs := mk([4]float64{1, 0, 5, 1})
	m := policy.Machine{Kind: policy.Flat, Procs: 2}
	_, err := within(t, 20*time.Second, func() (*engine.Result, error) {
		return engine.Run(jobs, m, flat.NewCount(2), &stubborn{}, engine.Options{})
	})
	if err == nil || !strings.Contains(err.Error(), "deadlock") {
		t.Fatalf("err %v, want a deadlock", err)
	}
}

// faulty wraps the count allocator and breaks one of its promises.
type faulty struct {
	*flat.Count
	fault string
	used  int
}

// listed is an allocation with a made-up node list.
type listed struct {
	n     int
	nodes []int
}

func (l listed) Procs() int { return l.n }
func (l listed) Placement(dst []policy.Piece) []policy.Piece {
	for _, q := range l.nodes {
		dst = append(dst, policy.Range(q, 1))
	}
	return dst
}

func (f *faulty) Allocate(j *policy.Job) (policy.Allocation, bool) {
	switch f.fault {
	case "short": // gives one processor fewer than asked
		k := *j
		k.Procs--
		return f.Count.Allocate(&k)
	case "outside": // counts right, names a processor the machine lacks
		if _, ok := f.Count.Allocate(j); !ok {
			return nil, false
		}
		return listed{j.Procs, append(make([]int, j.Procs-1), 1000)}, true
	case "miscount": // lists one processor fewer than it holds
		a, ok := f.Count.Allocate(j)
		if !ok {
			return nil, false
		}
		return listed{a.Procs(), policy.Nodes(a, policy.Machine{}, nil)[1:]}, true
	case "overbook": // never runs out: processors numbered on and on
		l := listed{n: j.Procs}
		for q := f.used; q < f.used+j.Procs; q++ {
			l.nodes = append(l.nodes, q)
		}
		f.used += j.Procs
		return l, true
	case "nil":
		return nil, true
	}
	return f.Count.Allocate(j)
}

func (f *faulty) Release(a policy.Allocation) {
	switch f.fault {
	case "leak": // forgets to free the processors
		return
	case "overbook":
		f.used -= a.Procs()
		return
	case "outside", "miscount":
		return
	}
	f.Count.Release(a)
}

func (f *faulty) Free() int {
	if f.fault == "overbook" {
		return f.Size() - f.used
	}
	return f.Count.Free()
}

// liar reports a wrong number of waiting jobs.
type liar struct{ fifo }

func (l *liar) Waiting() int { return len(l.q) + 1 }

// twice starts the same job twice.
type twice struct{ fifo }

func (s *twice) Schedule(sys policy.System) {
	for _, j := range s.q {
		sys.Start(j)
		sys.Start(j)
	}
	s.q = nil
}

func TestCheckerCatchesInjectedFaults(t *testing.T) {
	fcfs := func() policy.Scheduler { return &fifo{} }
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	// Job 1 (2 procs) runs 0..5, job 2 (4 procs) arrives at 1, job 3 at 2.
	rows := [][4]float64{{1, 0, 5, 2}, {2, 1, 5, 4}, {3, 2, 1, 1}}
	for _, c := range []struct {
		fault string
		sched func() policy.Scheduler
		want  string // in the error; "" → no error
		check bool   // fault only visible with Check
	}{
		{"", fcfs, "", false},
		{"short", fcfs, "asked for 2 processors and was given 1", true},
		{"outside", fcfs, "processor 1000 outside 0..3", true},
		{"miscount", fcfs, "allocation lists 1 processors but holds 2", true},
		{"overbook", fcfs, "capacity exceeded (2 busy + 4 > 4)", true},
		{"leak", fcfs, "after job 1 ended the allocator has 2 processors busy, engine counts 0", true},
		{"nil", fcfs, "nil allocation", false},
		{"", func() policy.Scheduler { return &liar{} }, "scheduler reports 1 jobs waiting, engine counts 0", true},
		{"", func() policy.Scheduler { return &twice{} }, "started twice", false},
	} {
		for _, check := range []bool{true, false} {
			jobs := mk(rows...)
			s := c.sched()
			_, err := engine.Run(jobs, m, &faulty{Count: flat.NewCount(4), fault: c.fault}, s, engine.Options{Check: check})
			want := c.want
			if c.check && !check {
				want = ""
			}
			switch {
			case want == "" && err != nil && (c.fault == "" || !c.check):
				t.Errorf("fault %q %T check=%v: unexpected error %v", c.fault, s, check, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("fault %q %T check=%v: err %v, want %q", c.fault, s, check, err, want)
			}
		}
	}
}

func TestJobsRejectsNonFinite(t *testing.T) {
	// A Parquet trace can carry NaN or ±Inf times (SWF text cannot): such a
	// job must be rejected like any other hole, not reach the event loop
	// (a NaN submit time never compares equal to the clock).
	tr := &trace.Trace{}
	add := func(id int64, submit, run, reqTime float64) {
		j := trace.NewJob(id)
		j.Submit, j.Run, j.ReqProcs, j.ReqTime = submit, run, 1, reqTime
		tr.Jobs = append(tr.Jobs, j)
	}
	add(1, 0, 5, 10)
	add(2, math.NaN(), 5, 10)
	add(3, 1, math.NaN(), 10)
	add(4, 2, math.Inf(1), 10)
	add(5, math.Inf(1), 5, 10)
	add(6, 3, 5, math.NaN()) // estimate unknown → actual run time
	add(7, 4, 5, math.Inf(1))
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	jobs, rej := admit.Jobs(tr, m, admit.EstimatesRequested)
	var got, rg []string
	for _, j := range jobs {
		got = append(got, fmt.Sprintf("%d:%g", j.ID, j.Estimate))
	}
	for _, r := range rej {
		rg = append(rg, fmt.Sprint(r.ID))
	}
	if g, w := strings.Join(got, " "), "1:10 6:5 7:5"; g != w {
		t.Errorf("jobs %s, want %s", g, w)
	}
	if g, w := strings.Join(rg, " "), "2 3 4 5"; g != w {
		t.Errorf("rejected %s, want %s", g, w)
	}
	if _, err := within(t, 5*time.Second, func() (*engine.Result, error) {
		return engine.Run(jobs, m, flat.NewCount(4), &fifo{}, engine.Options{Check: true})
	}); err != nil {
		t.Fatal(err)
	}
}
