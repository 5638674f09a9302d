package engine_test

import (
	"runtime"
	"testing"

	"github.com/schedlab/schedlab/model/backfill"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/internal/benchload"
	"github.com/schedlab/schedlab/model/policy"
)

// BenchmarkFCFS replays 100,000 LANL-like jobs on flat:1024 (count
// allocator, strict FCFS) and reports jobs/s and bytes allocated per job.
func BenchmarkFCFS(b *testing.B) {
	src := benchload.LANLLike(100000, 0.7, 1)
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

// BenchmarkEvents replays 100,000 LANL-like jobs on flat:1024 under EASY
// (count allocator) in each event semantics: the cost of
// Options.Sequential's pass per event against one pass per instant.
func BenchmarkEvents(b *testing.B) {
	src := benchload.LANLLike(100000, 0.7, 1)
	m := policy.Machine{Kind: policy.Flat, Procs: 1024}
	for _, seq := range []bool{false, true} {
		name := "instant"
		if seq {
			name = "sequential"
		}
		b.Run(name, func(b *testing.B) {
			jobs := make([]policy.Job, len(src))
			for i := 0; i < b.N; i++ {
				copy(jobs, src)
				if _, err := engine.Run(jobs, m, flat.NewCount(1024), backfill.NewEASY(), engine.Options{Sequential: seq}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(src))/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
