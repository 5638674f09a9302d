package fattree_test

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/fattree"
	"github.com/schedlab/schedlab/model/internal/benchload"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
)

// BenchmarkFCFS replays 100,000 LANL-like jobs (sizes scaled ×4) under
// FCFS on fattree:16x16x16 (4,096 nodes) with each allocator: jobs/s is
// the engine and allocator alone.
func BenchmarkFCFS(b *testing.B) {
	m, err := policy.ParseMachine("fattree:16x16x16")
	if err != nil {
		b.Fatal(err)
	}
	src := benchload.LANLLike(100000, 0.9, 1)
	for i := range src {
		src[i].Procs = min(m.Procs, src[i].Procs*4)
	}
	for _, s := range fattree.Allocators() {
		b.Run(s.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				a, err := s.New(m, policy.Params{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := engine.Run(slices.Clone(src), m, a, sched.NewFCFS(), engine.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
