package backfill

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// lanlLike is a synthetic LANL-CM-5-like workload for flat:1024 (the same
// generator as model/engine's benchmark): Poisson arrivals, log-uniform
// sizes 1..1024 (powers of two half the time), exponential run times,
// estimates 1-5 times the run time.
func lanlLike(n int, rho float64, seed uint64) []policy.Job {
	r := rand.New(rand.NewPCG(seed, 11))
	const procs, meanRun = 1024, 1000.0
	jobs := make([]policy.Job, n)
	size := make([]int, n)
	sum := 0.0
	for i := range size {
		s := int(math.Exp(r.Float64() * math.Log(procs)))
		if r.IntN(2) == 0 {
			s = 1 << r.IntN(11)
		}
		size[i] = max(1, min(procs, s))
		sum += float64(size[i])
	}
	lambda := rho * procs / (meanRun * sum / float64(n))
	t := 0.0
	for i := range jobs {
		t += r.ExpFloat64() / lambda
		run := math.Round(r.ExpFloat64() * meanRun)
		est := run * (1 + 4*r.Float64())
		jobs[i] = policy.Job{Index: i, ID: int64(i + 1), Submit: t, Run: run, Estimate: est, Procs: size[i], User: -1}
	}
	return jobs
}

func bench(b *testing.B, rho float64, newSched func() policy.Scheduler) {
	src := lanlLike(100000, rho, 1)
	jobs := make([]policy.Job, len(src))
	m := policy.Machine{Kind: policy.Flat, Procs: 1024}
	var ms0, ms1 runtime.MemStats
	var alloc uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(jobs, src)
		runtime.ReadMemStats(&ms0)
		if _, err := engine.Run(jobs, m, flat.NewCount(1024), newSched(), engine.Options{}); err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&ms1)
		alloc += ms1.TotalAlloc - ms0.TotalAlloc
	}
	b.ReportMetric(float64(b.N*len(src))/b.Elapsed().Seconds(), "jobs/s")
	b.ReportMetric(float64(alloc)/float64(b.N*len(src)), "B/job")
}

// BenchmarkEASY replays 100,000 LANL-like jobs on flat:1024 under EASY,
// at offered loads 0.7 and 0.9.
func BenchmarkEASY(b *testing.B) {
	b.Run("load0.7", func(b *testing.B) { bench(b, 0.7, func() policy.Scheduler { return NewEASY() }) })
	b.Run("load0.9", func(b *testing.B) { bench(b, 0.9, func() policy.Scheduler { return NewEASY() }) })
}

// BenchmarkConservative replays the same workloads under conservative
// backfilling.
func BenchmarkConservative(b *testing.B) {
	b.Run("load0.7", func(b *testing.B) { bench(b, 0.7, func() policy.Scheduler { return NewConservative() }) })
	b.Run("load0.9", func(b *testing.B) { bench(b, 0.9, func() policy.Scheduler { return NewConservative() }) })
}
