package backfill

import (
	"runtime"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/internal/benchload"
	"github.com/schedlab/schedlab/model/policy"
)

func bench(b *testing.B, rho float64, newSched func() policy.Scheduler) {
	src := benchload.LANLLike(100000, rho, 1)
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
