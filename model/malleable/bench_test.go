package malleable

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/workload"
)

// benchRun replays one trace of Guha's workload (P = 100, W̄ = 1000,
// C_W = 1, load ρ, ε uniform on eff or perfect, optional caps) under a
// policy, b.N times, reporting jobs per second of the whole simulation
// (engine and policy; the trace is generated once).
func benchRun(b *testing.B, name string, p policy.Params, rho float64, perfect bool, capMean float64) {
	const n = 200000
	spec := workload.MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: 1, Perfect: perfect, EffMin: 50, EffMax: 99,
		CapMean: capMean, Load: rho, Jobs: n, Seed: 1}
	if !perfect {
		spec.Load, spec.IAT = 0, 14.25 // Guha's Appendix: Fig. 7.1, 50–99%, ≈90% load
	}
	tr, err := workload.GenerateMalleable(spec)
	if err != nil {
		b.Fatal(err)
	}
	m := policy.Machine{Kind: Kind, Procs: 100}
	base, _ := admit.Jobs(tr, m, admit.EstimatesActual)
	if err := Prepare(base, 100); err != nil {
		b.Fatal(err)
	}
	jobs := make([]policy.Job, n)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		copy(jobs, base)
		s, err := schedulerSpec(b, name).New(m, p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := engine.Run(jobs, m, NewAllocator(m), s, engine.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkEquipartition is the performance goal: Equipartition, P = 100,
// ρ = 0.9, perfect efficiency (≥ 500,000 jobs/s).
func BenchmarkEquipartition(b *testing.B) { benchRun(b, "eq", nil, 0.9, true, 0) }

func BenchmarkEquipartitionCapped(b *testing.B) { benchRun(b, "eq", nil, 0.9, true, 45) }
func BenchmarkAlpha(b *testing.B)               { benchRun(b, "alpha", policy.Params{"a": "-10"}, 0.9, true, 0) }
func BenchmarkLRWF(b *testing.B)                { benchRun(b, "lrwf", nil, 0.9, true, 0) }
func BenchmarkMRWF(b *testing.B)                { benchRun(b, "mrwf", nil, 0.7, true, 0) }
func BenchmarkWF(b *testing.B)                  { benchRun(b, FF, nil, 0.9, false, 0) }
func BenchmarkWFCapped(b *testing.B)            { benchRun(b, FF, nil, 0.9, false, 45) }

// BenchmarkRepartition measures one repartition against the number n of
// active jobs (cost per event: the scheduler's share).
func BenchmarkRepartition(b *testing.B) {
	for _, pol := range []struct {
		name string
		r    rule
		capN float64
	}{{"eq", eq{}, 0}, {"eq-capped", eq{}, 3}, {"alpha", alpha{x: XWork, a: -10}, 0}, {"lrwf", lrwf{}, 0}, {"wf-capped", workEff{FF}, 3}} {
		for _, n := range []int{10, 100} {
			b.Run(pol.name+"/n="+itoa(n), func(b *testing.B) {
				act := make([]*Share, n)
				for i := range act {
					cp := math.Inf(1)
					if pol.capN > 0 {
						cp = pol.capN + float64(i%5)
					}
					act[i] = &Share{w: float64((i * 7919) % 1000), beta: float64(i), eps: float64(1 + i%99), cap: cp, seq: int64(i),
						job: &policy.Job{Submit: 0}}
				}
				c := &ctx{P: 100, now: 1}
				for range b.N {
					pol.r.repartition(c, act)
				}
			})
		}
	}
}

func itoa(n int) string {
	if n == 10 {
		return "10"
	}
	return "100"
}
