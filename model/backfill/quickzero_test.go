package backfill

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// TestConservativeQuickZeroEstimate is the regression for a fast-path bug:
// at t=10 the quick pass started zero-estimate job 3, then found job 4's
// slot unusable (job 1 outran its estimate) and fell back to a full pass,
// which counted job 3's processors as already released, so job 5, behind
// job 4 in the queue, took the processors at 10 and pushed job 4 to 15.
// flat:8, count. Job 1 (1 proc, estimate 1) runs 100; job 2 (7 procs)
// runs 0..10; at t=2 arrive job 3 (2 procs, 0 s, estimate 0), job 4 (6
// procs, 5 s) and job 5 (2 procs, 5 s). At 10 job 2 ends: 7 processors are
// free; job 3 starts and ends at 10, and then job 4 (6 of the 7) must
// start at 10, before job 5, which waits for job 4's end at 15.
func TestConservativeQuickZeroEstimate(t *testing.T) {
	rows := []row{{1, 0, 1, 100, 1}, {2, 0, 7, 10, 10}, {3, 2, 2, 0, 0}, {4, 2, 6, 5, 5}, {5, 2, 2, 5, 5}}
	want := "J1@0 J2@0 J3@10 J4@10 J5@15 "
	for name, s := range map[string]*Conservative{"quick": NewConservative(), "noQuick": {noQuick: true}} {
		if got := replay(t, s, 8, rows); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

// zeroOverrunJobs is a random workload that combines, often, what the
// fast path of conservative backfilling found hard together: ties in
// submit times, zero-length jobs, zero estimates (also for jobs that run),
// and jobs running past their estimates. The proportions (two arrivals in
// three tie with the previous one, one job in four runs 0 s, one in three
// has a zero estimate, the others 0.2–1.5 times the run time) are those
// that showed the fast-path bug most often: on 8 processors, 60-job
// workloads, about 23 in 1000 before the fix (7 of seeds 1–300).
func zeroOverrunJobs(n, procs int, seed uint64) []policy.Job {
	r := rand.New(rand.NewPCG(seed, 23))
	jobs := make([]policy.Job, n)
	t := 0.0
	for i := range jobs {
		if r.IntN(3) == 0 { // else a tie with the previous arrival
			t += math.Floor(r.ExpFloat64() * 6)
		}
		run := math.Round(r.ExpFloat64() * 15)
		if r.IntN(4) == 0 {
			run = 0
		}
		est := math.Round(run * (0.2 + 1.3*r.Float64()))
		if r.IntN(3) == 0 {
			est = 0
		}
		p := 1 + r.IntN(procs)
		if r.IntN(2) == 0 {
			p = 1 + r.IntN(max(1, procs/4))
		}
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: t, Run: run, Estimate: est, Procs: p, User: -1}
	}
	return jobs
}

// TestConservativeQuickPassZeroOverrun: quick passes give exactly the
// schedule of compressing at every pass on zeroOverrunJobs workloads.
func TestConservativeQuickPassZeroOverrun(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		if msg := quickDiffers(t, zeroOverrunJobs(60, 8, seed), 8, func() policy.Allocator { return flat.NewCount(8) }); msg != "" {
			t.Fatalf("seed %d: %s", seed, msg)
		}
	}
}

// TestConservativeDefinitionZeroOverrun checks conservative backfilling
// against its definition (consRef with overruns) on zeroOverrunJobs
// workloads: every arriving job gets the earliest slot behind the running
// jobs and the reservations held, and a reservation moves later only to
// the earliest slot left by the running jobs and the jobs ahead of it, so
// a job behind never delays one ahead.
func TestConservativeDefinitionZeroOverrun(t *testing.T) {
	const procs = 8
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	for seed := uint64(1); seed <= 300; seed++ {
		for _, s := range []*Conservative{NewConservative(), {noQuick: true}} {
			ref := &consRef{Conservative: s, t: t, size: procs, overruns: true,
				first: map[*policy.Job]float64{}, last: map[*policy.Job]float64{}}
			if _, err := engine.Run(zeroOverrunJobs(60, procs, seed), m, flat.NewCount(procs), ref, engine.Options{Check: true}); err != nil {
				t.Fatal(err)
			}
			if t.Failed() {
				t.Fatalf("seed %d, noQuick %v", seed, s.noQuick)
			}
		}
	}
}
