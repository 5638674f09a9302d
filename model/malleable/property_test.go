package malleable

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
)

// snap is the allocation of the active jobs after one repartition.
type snap struct {
	t   float64
	idx []int     // job positions
	p   []float64 // their shares
}

// recorder wraps a malleable scheduler and records every repartition.
type recorder struct {
	*Scheduler
	snaps []snap
}

func (r *recorder) Schedule(sys policy.System) {
	r.Scheduler.Schedule(sys)
	s := snap{t: sys.Now()}
	for _, a := range r.active {
		s.idx = append(s.idx, int(a.job.Index))
		s.p = append(s.p, a.p)
	}
	r.snaps = append(r.snaps, s)
}

// randomJobs draws n malleable jobs for P processors: Poisson arrivals at
// load about 0.8 of the whole machine, exponential work, efficiencies
// from 100/P to 100 (a fifth perfect), a cap on half of them.
func randomJobs(seed uint64, n, procs int) []mj {
	r := rand.New(rand.NewPCG(seed, 1))
	ms := make([]mj, n)
	t := 0.0
	for i := range ms {
		t += r.ExpFloat64() * 1.25
		eps := 100.0
		if r.IntN(5) > 0 {
			eps = float64(100/procs + 1 + r.IntN(100-100/procs-1))
		}
		c := 0
		if r.IntN(2) == 0 {
			c = 1 + r.IntN(procs)
		}
		w := r.ExpFloat64() * float64(procs)
		if r.IntN(20) == 0 {
			w = 0
		}
		ms[i] = mj{t, w, eps, c}
	}
	return ms
}

var propertyPolicies = []struct {
	name string
	p    policy.Params
}{
	{"eq", nil}, {"alpha", policy.Params{"a": "-10"}}, {"alpha", policy.Params{"x": "acc", "a": "-1"}},
	{"alpha", policy.Params{"x": "time", "a": "0.5"}}, {"alpha", policy.Params{"x": "beta", "a": "1"}},
	{"alpha", policy.Params{"x": "beta", "a": "-2"}}, {"lrwf", nil}, {"mrwf", nil}, {FKnee, nil}, {FEff, nil}, {FF, nil},
}

// TestProperties replays random traces under every policy, with and
// without caps, and checks at every repartition that Σp_i ≤ P (= P when
// caps are off: every policy shares the whole machine), 0 ≤ p_i and
// p_i ≤ N_i when capped; that no job ends before W_i/γ(min(P, N_i)) after
// its arrival; and that the work each job received, Σγ(p_i)·Δt over the
// recorded allocations, is its W_i (the engine's completions agree with
// the shares).
func TestProperties(t *testing.T) {
	const procs = 8
	for _, pol := range propertyPolicies {
		for _, capOn := range []string{"true", "false"} {
			params := policy.Params{"cap": capOn}
			for k, v := range pol.p {
				params[k] = v
			}
			t.Run(pol.name+":"+params.String(), func(t *testing.T) {
				for seed := uint64(1); seed <= 3; seed++ {
					ms := randomJobs(seed, 400, procs)
					jobs := jobsOf(ms)
					m := policy.Machine{Kind: Kind, Procs: procs}
					if err := Prepare(jobs, procs); err != nil {
						t.Fatal(err)
					}
					s, err := schedulerSpec(t, pol.name).New(m, params)
					if err != nil {
						t.Fatal(err)
					}
					rec := &recorder{Scheduler: s.(*Scheduler)}
					res, err := engine.Run(jobs, m, NewAllocator(m), rec, engine.Options{Check: true})
					if err != nil {
						t.Fatal(err)
					}
					checkRun(t, ms, res, rec.snaps, procs, capOn == "true")
				}
			})
		}
	}
}

func checkRun(t *testing.T, ms []mj, res *engine.Result, snaps []snap, procs int, capOn bool) {
	t.Helper()
	P := float64(procs)
	limit := func(i int) float64 {
		if capOn && ms[i].cap > 0 {
			return float64(ms[i].cap)
		}
		return math.Inf(1)
	}
	done := make([]float64, len(ms))
	for k, s := range snaps {
		sum := 0.0
		for x, i := range s.idx {
			p := s.p[x]
			if !(p >= 0) || p > limit(i)*(1+1e-12) {
				t.Fatalf("t=%g: job %d has p = %g (cap %g)", s.t, i+1, p, limit(i))
			}
			sum += p
			if k+1 < len(snaps) {
				end := math.Min(snaps[k+1].t, res.Jobs[i].End)
				if d := end - s.t; d > 0 {
					done[i] += Gamma(p, beta(ms[i].eps, procs)) * d
				}
			}
		}
		if sum > P*(1+1e-12) {
			t.Fatalf("t=%g: Σp = %.15g > P = %g", s.t, sum, P)
		}
		if !capOn && len(s.idx) > 0 && math.Abs(sum-P) > 1e-9*P {
			t.Fatalf("t=%g: Σp = %.15g with caps off, want all P = %g", s.t, sum, P)
		}
	}
	for i, m := range ms {
		j := &res.Jobs[i]
		fastest := m.w / Gamma(math.Min(P, limit(i)), beta(m.eps, procs))
		if r := j.End - j.Submit; r < fastest*(1-1e-9) {
			t.Errorf("job %d: response %g, below W/γ(min(P, N)) = %g", i+1, r, fastest)
		}
		if math.Abs(done[i]-m.w) > 1e-7*math.Max(1, m.w) {
			t.Errorf("job %d: received work %.12g, has %.12g", i+1, done[i], m.w)
		}
	}
}
