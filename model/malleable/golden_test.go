package malleable

import (
	"fmt"
	"math"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// TestGoldenSchedules replays two- and three-job cases whose departures are
// worked by hand. γ(p) = (1+β)p/(β+p); ε = 100 is perfect (γ = p). On P = 2
// ε = 75 gives β = 2, γ(1) = 1, γ(2) = 1.5; on P = 4 ε = 50 gives β = 2,
// γ(2) = 1.5, γ(4) = 2, and ε = 75 gives β = 8, γ(p) = 9p/(8+p): γ(1) = 1,
// γ(2) = 1.8, γ(3) = 27/11, γ(4) = 3.
func TestGoldenSchedules(t *testing.T) {
	cases := []struct {
		name   string
		sched  string
		params policy.Params
		procs  int
		jobs   []mj
		end    []float64
	}{
		// [0,1) A alone, p = 2: W_A 4 → 2. [1,2) p = 1 each: B (1) ends
		// at 2, W_A → 1. A alone again: 1/2 → 2.5.
		{"eq perfect", "eq", nil, 2, []mj{{0, 4, 100, 0}, {1, 1, 100, 0}}, []float64{2.5, 2}},
		// At 1, W_A = 2 > W_B = 1: B takes both processors, ends at 1.5;
		// A resumes with 2 left: 2.5.
		{"lrwf perfect", "lrwf", nil, 2, []mj{{0, 4, 100, 0}, {1, 1, 100, 0}}, []float64{2.5, 1.5}},
		// At 1, A (2 left) takes both: ends at 2; B then: 2.5.
		{"mrwf perfect", "mrwf", nil, 2, []mj{{0, 4, 100, 0}, {1, 1, 100, 0}}, []float64{2, 2.5}},
		// p = 1 each, γ = 1: B ends at 1; A has 2 left at γ(2) = 1.5: 1 + 4/3.
		{"eq imperfect", "eq", nil, 2, []mj{{0, 3, 75, 0}, {0, 1, 75, 0}}, []float64{7.0 / 3, 1}},
		// α = 1, X = work: p ∝ W: 2 and 1 on P = 3: both end at 1.
		{"alpha a=1", "alpha", policy.Params{"a": "1"}, 3, []mj{{0, 2, 100, 0}, {0, 1, 100, 0}}, []float64{1, 1}},
		// α = −1: p ∝ 1/W: A 1, B 2: B ends at 0.5, A has 1.5 left on 3: 1.
		{"alpha a=-1", "alpha", policy.Params{"a": "-1"}, 3, []mj{{0, 2, 100, 0}, {0, 1, 100, 0}}, []float64{1, 0.5}},
		// X = Acc, α = −1: A alone (Acc 0) has P; at 1 A has Acc 2, B 0:
		// B's infinite weight takes P, ends at 1.5; A (2 left): 2.5.
		{"alpha acc", "alpha", policy.Params{"x": "acc", "a": "-1"}, 2, []mj{{0, 4, 100, 0}, {1, 1, 100, 0}}, []float64{2.5, 1.5}},
		// X = Time, α = −1: at 1, A's Time is 1, B's 0: B takes P, as above.
		{"alpha time", "alpha", policy.Params{"x": "time", "a": "-1"}, 2, []mj{{0, 4, 100, 0}, {1, 1, 100, 0}}, []float64{2.5, 1.5}},
		// W&ε, ε = 50 on P = 4 (f = 2): B (less work) 2, A 2, γ = 1.5: B
		// ends at 2; A has 3 left, phase 1 gives 2, phase 2 the other 2:
		// γ(4) = 2: 3.5.
		{"we", FEff, nil, 4, []mj{{0, 6, 50, 0}, {0, 3, 50, 0}}, []float64{3.5, 2}},
		// W&F, ε = 50: F = 30 → f = 1.2 each, phase 2 adds 0.8 each: 2 and
		// 2, as W&ε above.
		{"wf", FF, nil, 4, []mj{{0, 6, 50, 0}, {0, 3, 50, 0}}, []float64{3.5, 2}},
		// W&k, ε = 75 on P = 4 (β = 8, f = 4): B has all 4, γ = 3: ends at
		// 1; A alone: 6/3 → 3.
		{"wk", FKnee, nil, 4, []mj{{0, 6, 75, 0}, {0, 3, 75, 0}}, []float64{3, 1}},
		// W&ε, ε = 75 (f = 3): B 3 (γ = 27/11), A the last 1 (γ = 1): B
		// ends at 11/9; A has 6 − 11/9 = 43/9 left on 4 (γ = 3): 11/9 + 43/27.
		{"we 75", FEff, nil, 4, []mj{{0, 6, 75, 0}, {0, 3, 75, 0}}, []float64{76.0 / 27, 11.0 / 9}},
		// Equipartition, ε = 75: 2 each (γ = 1.8): B ends at 5/3, A has 3
		// left on 4 (γ = 3): 8/3.
		{"eq 75", "eq", nil, 4, []mj{{0, 6, 75, 0}, {0, 3, 75, 0}}, []float64{8.0 / 3, 5.0 / 3}},
		// Water-filling, P = 4: A capped at 1, B (N = 4) and C share 3:
		// 1.5 each. A ends at 1; B and C have 1.5 left, 2 each: 1.75.
		{"eq capped", "eq", nil, 4, []mj{{0, 1, 100, 1}, {0, 3, 100, 4}, {0, 3, 100, 0}}, []float64{1, 1.75, 1.75}},
		// cap=false ignores N: 4/3 each: A ends at 0.75; B and C have 2
		// left, 2 each: 1.75.
		{"eq cap=false", "eq", policy.Params{"cap": "false"}, 4, []mj{{0, 1, 100, 1}, {0, 3, 100, 4}, {0, 3, 100, 0}}, []float64{0.75, 1.75, 1.75}},
		// LRWF with caps, P = 4: A (least work) gets its N = 1, B the other
		// 3: A ends at 2, B has 2 left on 4: 2.5.
		{"lrwf capped", "lrwf", nil, 4, []mj{{0, 2, 100, 1}, {0, 8, 100, 0}}, []float64{2, 2.5}},
		// Active list of P = 2 jobs: C waits until 2 (A and B, 1 each, end
		// at 2), then runs alone on 2: 3.
		{"active list", "eq", nil, 2, []mj{{0, 2, 100, 0}, {0, 2, 100, 0}, {0, 2, 100, 0}}, []float64{2, 2, 3}},
		// No work: ends on arrival, without disturbing A.
		{"zero work", "eq", nil, 2, []mj{{0, 2, 100, 0}, {0.5, 0, 100, 0}}, []float64{1, 0.5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _ := replay(t, c.procs, c.sched, c.params, jobsOf(c.jobs))
			for i, want := range c.end {
				if got := res.Jobs[i].End; !near(got, want) {
					t.Errorf("job %d ends at %.12g, want %.12g", i+1, got, want)
				}
			}
		})
	}
}

// TestActiveListStart: the job that waited for the active list starts
// when a job leaves it, not on arrival.
func TestActiveListStart(t *testing.T) {
	res, _ := replay(t, 2, "eq", nil, jobsOf([]mj{{0, 2, 100, 0}, {0, 2, 100, 0}, {0, 2, 100, 0}}))
	if s := res.Jobs[2].Start; s != 2 {
		t.Errorf("third job started at %g, want 2 (when the active list had room)", s)
	}
	if res.MaxQueue != 1 {
		t.Errorf("max queue %d, want 1", res.MaxQueue)
	}
}

// TestCappedShare: in the water-filling case above, the repartition at 0
// caps A (1 of the 2 allocations to jobs with N_i), the one at 1 leaves B
// under its N = 4 (0 of 1): 1/3.
func TestCappedShare(t *testing.T) {
	_, s := replay(t, 4, "eq", nil, jobsOf([]mj{{0, 1, 100, 1}, {0, 3, 100, 4}, {0, 3, 100, 0}}))
	if got := s.CappedShare(); !near(got, 1.0/3) {
		t.Errorf("capped share %g, want 1/3", got)
	}
	_, s = replay(t, 4, "eq", nil, jobsOf([]mj{{0, 1, 100, 0}}))
	if got := s.CappedShare(); !math.IsNaN(got) {
		t.Errorf("capped share %g without caps, want NaN", got)
	}
}

// TestF checks W&F(ε) against the extraction's sample values and its
// pieces' ends.
func TestF(t *testing.T) {
	for _, c := range []struct{ eps, f float64 }{
		{1, 1}, {20, 20}, {25, 21.67}, {30, 23.33}, {40, 26.67}, {50, 30}, {60, 46.67},
		{70, 63.33}, {75, 71.67}, {79, 78.33}, {80, 80}, {99, 99}, {100, 100},
	} {
		if got := F(c.eps); math.Abs(got-c.f) > 0.005 {
			t.Errorf("F(%g) = %.4f, want %g", c.eps, got, c.f)
		}
	}
}

// TestPrepareErrors: a trace without work or efficiency is refused, naming
// the job, its record and the column.
func TestPrepareErrors(t *testing.T) {
	jobs := jobsOf([]mj{{0, 1, 100, 0}, {1, 1, 100, 0}, {2, 1, 100, 0}})
	jobs[1].Malleable = nil
	jobs[2].Malleable = &policy.Malleable{Work: 5, Efficiency: -1, MaxPar: -1}
	err := Prepare(jobs, 4)
	want := "malleable mode: job 2 (record 1): no work (column work), and 1 more jobs"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	jobs = jobsOf([]mj{{0, 1, 10, 0}})
	if err := Prepare(jobs, 4); err == nil || err.Error() != fmt.Sprintf("malleable mode: job 1 (record 0): efficiency 10 outside [100/P, 100] = [25, 100] (column efficiency)") {
		t.Errorf("got %v", err)
	}
	jobs = jobsOf([]mj{{0, 1, 100, 0}})
	jobs[0].Malleable.Efficiency = -1
	if err := Prepare(jobs, 4); err == nil || err.Error() != "malleable mode: job 1 (record 0): no efficiency (column efficiency)" {
		t.Errorf("got %v", err)
	}
}
