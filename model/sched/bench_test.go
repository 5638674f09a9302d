package sched

import (
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// BenchmarkSchedulers replays a 100,000-job workload on flat:1024 (count
// allocator, offered load 0.9, sizes half powers of two and half uniform,
// exponential run times) and reports jobs/s.
func BenchmarkSchedulers(b *testing.B) {
	const n = 1024
	jobs := randomJobs(42, 100_000, n, 0.9, false)
	m := policy.Machine{Kind: policy.Flat, Procs: n}
	for _, spec := range []string{"fcfs", "sjf", "sjf:scan=all", "if", "sa", "mq", "scan", "scan:sf=true", "prio-res", "prio-res:reserve=false"} {
		b.Run(spec, func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.Run(jobs, m, flat.NewCount(n), newSched(b, spec, m), engine.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
