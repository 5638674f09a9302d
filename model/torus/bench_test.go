package torus_test

import (
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/model/torus"
	"github.com/schedlab/schedlab/model/workload"
)

// BenchmarkReplayFCFS replays 100,000 jobs on torus:16x16x16 (4,096
// nodes; sizes uniform, exponential service of mean 10, offered load
// 0.5) under FCFS with each allocator and reports jobs/s of the whole
// simulation (engine.Run, placements recorded as in a replay).
func BenchmarkReplayFCFS(b *testing.B) {
	const machine = "torus:16x16x16"
	m, err := policy.ParseMachine(machine)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := workload.Generate(workload.WorkloadSpec{
		Machine:  machine,
		Size:     workload.SizeSpec{Dist: workload.SizeUniform},
		Service:  workload.Service{Kind: workload.ServiceExp, Mean: 10},
		Arrivals: workload.Arrivals{Load: 0.5, Jobs: 100000},
		Seed:     1,
	})
	if err != nil {
		b.Fatal(err)
	}
	src, rej := admit.Jobs(tr, m, admit.EstimatesRequested)
	if len(rej) > 0 {
		b.Fatalf("%d jobs rejected", len(rej))
	}
	var fcfs policy.SchedulerSpec
	for _, s := range sched.Schedulers() {
		if s.Name == "fcfs" {
			fcfs = s
		}
	}
	for _, spec := range []string{"curve:order=hilbert,fit=first", "curve:order=row,fit=first", "curve:order=hilbert,fit=best", "curve:order=snake,fit=sorted",
		"mbs3d", "mc1x1", "random3d", "cuboid-ff", "cuboid-bf"} {
		name, p, err := policy.ParseSpec(spec)
		if err != nil {
			b.Fatal(err)
		}
		var as policy.AllocatorSpec
		for _, s := range torus.Allocators(torus.MeshKind) {
			if s.Name == name {
				as = s
			}
		}
		b.Run(spec, func(b *testing.B) {
			jobs := make([]policy.Job, len(src))
			for b.Loop() {
				copy(jobs, src)
				s, err := fcfs.New(m, policy.Params{})
				if err != nil {
					b.Fatal(err)
				}
				a, err := as.New(m, p)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := engine.Run(jobs, m, a, s, engine.Options{Placement: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
