package engine_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// lanlLike is a synthetic LANL-CM-5-like workload for flat:1024: Poisson
// arrivals, log-uniform sizes 1..1024 (whole powers of two half the time,
// as on the CM-5's partitions), exponential run times, offered load rho.
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

// BenchmarkFCFS replays 100,000 LANL-like jobs on flat:1024 (count
// allocator, strict FCFS) and reports jobs/s and bytes allocated per job.
func BenchmarkFCFS(b *testing.B) {
	src := lanlLike(100000, 0.7, 1)
	jobs := make([]policy.Job, len(src))
	m := policy.Machine{Kind: policy.Flat, Procs: 1024}
	var ms0, ms1 runtime.MemStats
	b.ResetTimer()
	var alloc uint64
	for i := 0; i < b.N; i++ {
		copy(jobs, src)
		runtime.ReadMemStats(&ms0)
		if _, err := engine.Run(jobs, m, flat.NewCount(1024), &fifo{}, engine.Options{}); err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&ms1)
		alloc += ms1.TotalAlloc - ms0.TotalAlloc
	}
	b.ReportMetric(float64(b.N*len(src))/b.Elapsed().Seconds(), "jobs/s")
	b.ReportMetric(float64(alloc)/float64(b.N*len(src)), "B/job")
	b.ReportMetric(retained(b, src, m, func() policy.Scheduler { return &fifo{} }), "retainedB/job")
}

// retained is the heap still in use per job after a run, result alive,
// beyond the jobs slice itself.
func retained(b *testing.B, src []policy.Job, m policy.Machine, s func() policy.Scheduler) float64 {
	b.StopTimer()
	defer b.StartTimer()
	jobs := append([]policy.Job(nil), src...)
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	res, err := engine.Run(jobs, m, flat.NewCount(m.Procs), s(), engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms1)
	runtime.KeepAlive(res)
	return (float64(ms1.HeapAlloc) - float64(ms0.HeapAlloc)) / float64(len(src))
}
