package mesh

import (
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/model/workload"
)

// replayBenchStrategies are the strategies of BenchmarkReplayFCFS.
var replayBenchStrategies = []struct {
	name   string
	rotate bool
	new    func(side int) Strategy
}{
	{"ff", false, func(int) Strategy { return FirstFit{} }},
	{"ff-rot", true, func(int) Strategy { return FirstFit{Rotate: true} }},
	{"bf", false, func(int) Strategy { return BestFit{} }},
	{"bf-rot", true, func(int) Strategy { return BestFit{Rotate: true} }},
	{"as", true, func(int) Strategy { return AdaptiveScan{} }},
	{"fs", false, func(int) Strategy { return FrameSliding{} }},
	{"2dbs", false, func(side int) Strategy {
		b, err := NewBuddy2D(side)
		if err != nil {
			panic(err)
		}
		return b
	}},
}

// replayBenchJobs generates the benchmark's workload on machine: 50,000
// jobs (Chu 1995 §3's run length), sides uniform, exponential service of
// mean 10, offered load 0.5.
func replayBenchJobs(b *testing.B, machine string) (policy.Machine, []policy.Job) {
	m, err := policy.ParseMachine(machine)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := workload.Generate(workload.WorkloadSpec{
		Machine:  machine,
		Size:     workload.SizeSpec{Dist: workload.SizeUniform},
		Service:  workload.Service{Kind: workload.ServiceExp, Mean: 10},
		Arrivals: workload.Arrivals{Load: 0.5, Jobs: 50000},
		Seed:     1,
	})
	if err != nil {
		b.Fatal(err)
	}
	jobs, rej := engine.Jobs(tr, m, engine.EstimatesActual)
	if len(rej) > 0 {
		b.Fatalf("%d jobs rejected: %v", len(rej), rej[0])
	}
	return m, jobs
}

// BenchmarkReplayFCFS replays the workload of replayBenchJobs on
// mesh:32x32 and mesh:128x128 under FCFS with each strategy and reports
// jobs/s of the whole simulation (engine.Run).
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
		for _, st := range replayBenchStrategies {
			b.Run(machine+"/"+st.name, func(b *testing.B) {
				jobs := make([]policy.Job, len(src))
				for b.Loop() {
					copy(jobs, src)
					s, err := fcfs.New(m, policy.Params{})
					if err != nil {
						b.Fatal(err)
					}
					a := NewAllocator(st.name, m.Width, m.Height, st.new(m.Width), st.rotate)
					if _, err := engine.Run(jobs, m, a, s, engine.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
			})
		}
	}
}
