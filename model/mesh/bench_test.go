package mesh

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/model/admit"
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
	jobs, rej := admit.Jobs(tr, m, admit.EstimatesRequested)
	if len(rej) > 0 {
		b.Fatalf("%d jobs rejected: %v", len(rej), rej[0])
	}
	return m, jobs
}

// BenchmarkReplayFCFS replays the workload of replayBenchJobs on
// mesh:32x32 and mesh:128x128 under FCFS with every registered allocator
// and reports jobs/s of the whole simulation (engine.Run), and the mean
// wall time of one Allocate call (µs/alloc: Chu 1995 §3 measured 0.2 ms for
// BDI to 10 ms for BF per allocation on a SPARCstation 10, 32×32).
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
				// One more run, timing each Allocate call.
				copy(jobs, src)
				s, _ := fcfs.New(m, policy.Params{})
				a, _ := spec.New(m, policy.Params{})
				t := timed(a)
				if _, err := engine.Run(jobs, m, t, s, engine.Options{}); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(t.stats().spent.Seconds()*1e6/float64(t.stats().calls), "µs/alloc")
			})
		}
	}
}

// timing counts the Allocate calls of an allocator and their wall time.
type timing struct {
	calls int
	spent time.Duration
}

// timedAlloc wraps a mesh allocator (Contextual, as every mesh allocator)
// and times its Allocate calls.
type timedAlloc struct {
	policy.Allocator
	t *timing
}

func (a timedAlloc) Allocate(j *policy.Job) (policy.Allocation, bool) {
	start := time.Now()
	al, ok := a.Allocator.Allocate(j)
	a.t.spent += time.Since(start)
	a.t.calls++
	return al, ok
}
func (a timedAlloc) SetContext(c policy.RunContext) { a.Allocator.(policy.Contextual).SetContext(c) }
func (a timedAlloc) stats() *timing                 { return a.t }

type timer interface {
	policy.Allocator
	stats() *timing
}

// timed wraps a.
func timed(a policy.Allocator) timer { return timedAlloc{a, &timing{}} }
