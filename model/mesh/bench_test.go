package mesh

import (
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/model/workload"
)

// replayBenchJobs generates the benchmark's workload on machine: 50,000
// jobs (Chu 1995 §3's run length), sides uniform, exponential service of
// mean 10, offered load 0.5, estimates Normal(y, 0.5y) clipped at 0 (Chu
// 1995 §7.3; only EET reads them).
func replayBenchJobs(b *testing.B, machine string) (policy.Machine, []policy.Job) {
	m, err := policy.ParseMachine(machine)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := workload.Generate(workload.WorkloadSpec{
		Machine:   machine,
		Size:      workload.SizeSpec{Dist: workload.SizeUniform},
		Service:   workload.Service{Kind: workload.ServiceExp, Mean: 10},
		Arrivals:  workload.Arrivals{Load: 0.5, Jobs: 50000},
		Estimates: workload.Estimates{Kind: workload.EstimatesEET, C: 0.5},
		Seed:      1,
	})
	if err != nil {
		b.Fatal(err)
	}
	jobs, rej := engine.Jobs(tr, m, engine.EstimatesRequested)
	if len(rej) > 0 {
		b.Fatalf("%d jobs rejected: %v", len(rej), rej[0])
	}
	return m, jobs
}

// BenchmarkReplayFCFS replays the workload of replayBenchJobs on
// mesh:32x32 and mesh:128x128 under FCFS with every registered allocator
// and reports jobs/s of the whole simulation (engine.Run).
func BenchmarkReplayFCFS(b *testing.B) {
	var fcfs policy.SchedulerSpec
	for _, s := range sched.Schedulers() {
		if s.Name == "fcfs" {
			fcfs = s
		}
	}
	if fcfs.New == nil {
		b.Fatal("no fcfs scheduler")
	}
	for _, machine := range []string{"mesh:32x32", "mesh:128x128"} {
		m, src := replayBenchJobs(b, machine)
		for _, spec := range Allocators() {
			if spec.Machines != nil && spec.Machines(m) != nil {
				continue
			}
			b.Run(machine+"/"+spec.Name, func(b *testing.B) {
				jobs := make([]policy.Job, len(src))
				for b.Loop() {
					copy(jobs, src)
					s, err := fcfs.New(m, policy.Params{})
					if err != nil {
						b.Fatal(err)
					}
					a, err := spec.New(m, policy.Params{})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := engine.Run(jobs, m, a, s, engine.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
			})
		}
	}
}
