package engine_test

import (
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
