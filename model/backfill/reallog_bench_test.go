package backfill

import (
	"os"
	"sync"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
)

// lublinJobs is a 120,000-job Lublin–Feitelson trace on flat:1024 with
// estimates three times the run times (synth lublin --procs 1024 --jobs
// 120000 --estimates factor:x=3), its arrival times multiplied by
// compress (1: the model's own load, about 0.57; 0.7: about 0.81, with
// LANL-CM-5-like queues of tens to hundreds of jobs).
func lublinJobs(tb testing.TB, compress float64) ([]policy.Job, policy.Machine) {
	tb.Helper()
	lublinOnce.Do(func() {
		est, err := workload.ParseEstimates("factor:x=3")
		if err != nil {
			panic(err)
		}
		lublinTrace, lublinErr = workload.GenerateLublin(workload.LublinSpec{Procs: 1024, Jobs: 120000, Estimates: est, Seed: 1})
	})
	if lublinErr != nil {
		tb.Fatal(lublinErr)
	}
	m := policy.Machine{Kind: policy.Flat, Procs: 1024}
	jobs, _ := admit.Jobs(lublinTrace, m, admit.EstimatesRequested)
	for i := range jobs {
		jobs[i].Submit *= compress
	}
	return jobs, m
}

var (
	lublinOnce  sync.Once
	lublinTrace *trace.Trace
	lublinErr   error
)

// benchJobs replays src on m with the count allocator under the scheduler
// newSched makes, reporting jobs/s (engine.Run only).
func benchJobs(b *testing.B, src []policy.Job, m policy.Machine, newSched func() policy.Scheduler) {
	jobs := make([]policy.Job, len(src))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(jobs, src)
		if _, err := engine.Run(jobs, m, flat.NewCount(m.Procs), newSched(), engine.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(src))/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkRealLog replays real-log-shaped workloads, whose estimates
// overestimate the run times (so that jobs end early and conservative
// backfilling compresses its schedule at nearly every completion), under
// EASY and conservative backfilling: the KTH SP2 log on flat:100 (its
// users' requested times; skipped when ../shared/traces is absent) and the
// 120,000-job Lublin traces of lublinJobs at their own load and with
// arrivals compressed to 0.7.
func BenchmarkRealLog(b *testing.B) {
	scheds := []struct {
		name string
		new  func() policy.Scheduler
	}{
		{"easy", func() policy.Scheduler { return NewEASY() }},
		{"conservative", func() policy.Scheduler { return NewConservative() }},
	}
	type load struct {
		name string
		jobs func(testing.TB) ([]policy.Job, policy.Machine)
	}
	loads := []load{
		{"KTH", func(tb testing.TB) ([]policy.Job, policy.Machine) {
			if _, err := os.Stat("../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"); err != nil {
				b.Skip("KTH-SP2 log not available")
			}
			tr, err := trace.ReadFile("../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz", trace.ReadOptions{})
			if err != nil {
				tb.Fatal(err)
			}
			m := policy.Machine{Kind: policy.Flat, Procs: 100}
			jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
			return jobs, m
		}},
		{"lublin120k", func(tb testing.TB) ([]policy.Job, policy.Machine) { return lublinJobs(tb, 1) }},
		{"lublin120k-x0.7", func(tb testing.TB) ([]policy.Job, policy.Machine) { return lublinJobs(tb, 0.7) }},
	}
	for _, l := range loads {
		for _, s := range scheds {
			b.Run(l.name+"/"+s.name, func(b *testing.B) {
				src, m := l.jobs(b)
				benchJobs(b, src, m, s.new)
			})
		}
	}
}
