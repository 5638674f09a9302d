package torus_test

import (
	"syscall"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/model/torus"
	"github.com/schedlab/schedlab/model/workload"
)

// BenchmarkReplayFCFS replays 100,000 jobs on torus:16x16x16 (4,096
// nodes; sizes uniform on 1..4096 (mean 2,048), or log2: 2^k with k
// uniform on 0..12 (mean 630, a log's powers of two); exponential service
// of mean 10, offered load 0.5) under FCFS with each allocator and reports jobs/s of the whole
// simulation (engine.Run, placements recorded as in a replay), by wall
// time (jobs/s) and by the process's user and system CPU time (jobs/cpu-s:
// the figure to read on a shared machine).
func BenchmarkReplayFCFS(b *testing.B) {
	for _, size := range []string{workload.SizeUniform, workload.SizeLog2} {
		benchSizes(b, size)
	}
}

func benchSizes(b *testing.B, size string) {
	const machine = "torus:16x16x16"
	m, err := policy.ParseMachine(machine)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := workload.Generate(workload.WorkloadSpec{
		Machine:  machine,
		Size:     workload.SizeSpec{Dist: size},
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
		b.Run(size+"/"+spec, func(b *testing.B) {
			jobs := make([]policy.Job, len(src))
			cpu0 := cpuSeconds()
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
			b.ReportMetric(float64(len(src))*float64(b.N)/(cpuSeconds()-cpu0), "jobs/cpu-s")
		})
	}
}

// cpuSeconds is the process's user and system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
