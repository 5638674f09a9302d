package backfill

import (
	"os"
	"slices"
	"strconv"
	"strings"
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

// realLogs are the real logs of ../shared/traces with their machines.
var realLogs = []struct {
	file  string
	procs int // 0: the log's MaxProcs
}{
	{"KTH-SP2-1996-2.1-cln.swf.gz", 100},
	{"NASA-iPSC-1993-3.1-cln.swf.gz", 128},
	{"CTC-SP2-1996-3.1-cln.swf.gz", 0},
	{"HPC2N-2002-2.2-cln.swf.gz", 0},
	{"SDSC-BLUE-2000-4.2-cln.swf.gz", 0},
	{"RICC-2010-2.swf.gz", 8192},
}

// realLogJobs reads a real log as jobs on flat:procs (procs 0: the log's
// MaxProcs), the requested times as estimates; skipped when absent. Only
// the first BACKFILL_JOBS jobs are kept when that variable is set.
func realLogJobs(tb testing.TB, file string, procs int) ([]policy.Job, policy.Machine) {
	tb.Helper()
	path := "../../../shared/traces/" + file
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("%s not available", file)
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	if procs == 0 {
		procs = int(tr.MaxProcs())
	}
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
	if n, err := strconv.Atoi(os.Getenv("BACKFILL_JOBS")); err == nil && n < len(jobs) {
		jobs = jobs[:n]
	}
	return jobs, m
}

// BenchmarkRealLogs replays every real log of ../shared/traces under the
// backfilling schedulers (engine.Run only; BACKFILL_JOBS=n keeps the first
// n jobs of each).
func BenchmarkRealLogs(b *testing.B) {
	for _, l := range realLogs {
		for _, spec := range []string{"easy", "easy:backfill=sjf", "easy:predict=user2", "depth:k=2", "depth:k=8", "conservative", "conservative:order=sjf"} {
			b.Run(strings.TrimSuffix(l.file, ".swf.gz")+"/"+spec, func(b *testing.B) {
				src, m := realLogJobs(b, l.file, l.procs)
				benchJobs(b, src, m, func() policy.Scheduler { return benchSched(b, spec, m) })
			})
		}
	}
}

// benchSched builds the scheduler of spec from Schedulers.
func benchSched(tb testing.TB, spec string, m policy.Machine) policy.Scheduler {
	name, p, err := policy.ParseSpec(spec)
	if err != nil {
		tb.Fatal(err)
	}
	for _, s := range Schedulers() {
		if s.Name == name {
			sc, err := s.New(m, p)
			if err != nil {
				tb.Fatal(err)
			}
			return sc
		}
	}
	tb.Fatalf("no scheduler %s", name)
	return nil
}

// BenchmarkOldProfileEquality is the benchmark-sized check of conservative
// backfilling against the old profile (oldprofile_test.go) on the real
// logs too long for TestConservativeProfileEquality: every job must start
// at the same time (RICC-2010-2 only with BACKFILL_JOBS, the old profile
// being far too slow for the whole log).
func BenchmarkOldProfileEquality(b *testing.B) {
	for _, l := range realLogs[2:] {
		b.Run(strings.TrimSuffix(l.file, ".swf.gz"), func(b *testing.B) {
			if l.procs == 8192 && os.Getenv("BACKFILL_JOBS") == "" {
				b.Skip("set BACKFILL_JOBS")
			}
			src, m := realLogJobs(b, l.file, l.procs)
			for i := 0; i < b.N; i++ {
				var starts [2][]float64
				for k, s := range []policy.Scheduler{newOldConservative(), NewConservative()} {
					jobs := slices.Clone(src)
					res, err := engine.Run(jobs, m, flat.NewCount(m.Procs), s, engine.Options{})
					if err != nil {
						b.Fatal(err)
					}
					for _, j := range res.Jobs {
						starts[k] = append(starts[k], j.Start)
					}
				}
				for i := range starts[0] {
					if starts[0][i] != starts[1][i] {
						b.Fatalf("job %d starts at %g with the old profile, %g with the new", src[i].ID, starts[0][i], starts[1][i])
					}
				}
			}
		})
	}
}
