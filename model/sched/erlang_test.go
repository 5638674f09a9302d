package sched

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/internal/race"
	"github.com/schedlab/schedlab/model/policy"
)

// erlangC is the probability that an arrival waits in an M/M/c queue with
// offered traffic a = λ/μ < c, from the Erlang B recurrence
// B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)), which is numerically stable,
// and C = c·B / (c − a·(1 − B)).
func erlangC(c int, a float64) float64 {
	b := 1.0
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	return float64(c) * b / (float64(c) - a*(1-b))
}

// mmcWait is the M/M/c mean waiting time: C(c, a) / (cμ − λ).
func mmcWait(c int, lambda, mu float64) float64 {
	return erlangC(c, lambda/mu) / (float64(c)*mu - lambda)
}

func TestErlangC(t *testing.T) {
	// Known values: M/M/1 has C = ρ; M/M/2 at a = 1: C = 1/3; M/M/4 at
	// a = 2: C = 4/23; M/M/16 values from the direct formula
	// (a^c/c!·c/(c−a)) / (Σ_{k<c} a^k/k! + a^c/c!·c/(c−a)).
	cases := []struct {
		c       int
		a, want float64
	}{
		{1, 0.5, 0.5}, {1, 0.8, 0.8}, {2, 1, 1.0 / 3}, {4, 2, 4.0 / 23},
		{16, 8, 0.0090188}, {16, 12.8, 0.3048839}, // direct sums
	}
	for _, k := range cases {
		if got := erlangC(k.c, k.a); math.Abs(got-k.want) > 1e-6 {
			t.Errorf("erlangC(%d, %g) = %.7f, want %.7f", k.c, k.a, got, k.want)
		}
	}
}

// mmcReplications replays reps independent replications of n one-processor
// jobs (Poisson arrivals at rate ρc, exponential service of mean 1, each
// replication starting empty) under FCFS on flat:c with the count
// allocator. It returns the mean wait over all jobs and the standard error
// of that mean estimated from the spread of the replication means.
func mmcReplications(t testing.TB, seed uint64, c int, rho float64, reps, n int) (mean, se float64) {
	lambda := rho * float64(c)
	m := policy.Machine{Kind: policy.Flat, Procs: c}
	jobs := make([]policy.Job, n)
	means := make([]float64, reps)
	for rep := range means {
		r := rand.New(rand.NewPCG(seed, uint64(rep)))
		at := 0.0
		for i := range jobs {
			at += r.ExpFloat64() / lambda
			run := r.ExpFloat64()
			jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: at, Run: run, Estimate: run, Procs: 1, User: -1}
		}
		res, err := engine.Run(jobs, m, flat.NewCount(c), NewFCFS(), engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, j := range res.Jobs {
			sum += j.Start - j.Submit
		}
		means[rep] = sum / float64(n)
		mean += means[rep] / float64(reps)
	}
	if reps > 1 {
		v := 0.0
		for _, x := range means {
			v += (x - mean) * (x - mean)
		}
		se = math.Sqrt(v / float64(reps-1) / float64(reps))
	}
	return mean, se
}

// erlangCase is one M/M/c configuration and its run length, as
// replications × jobs per replication.
type erlangCase struct {
	c       int
	rho     float64
	reps, n int
}

// checkErlang compares FCFS's mean wait with Erlang C within tol, the
// configurations in parallel.
func checkErlang(t *testing.T, seed uint64, cases []erlangCase, tol float64) {
	for _, k := range cases {
		t.Run(fmt.Sprintf("c=%d/rho=%.1f", k.c, k.rho), func(t *testing.T) {
			t.Parallel()
			want := mmcWait(k.c, k.rho*float64(k.c), 1)
			got, se := mmcReplications(t, seed, k.c, k.rho, k.reps, k.n)
			rel := got/want - 1
			t.Logf("M/M/%d ρ=%.1f, %d×%d jobs: mean wait %.5f ± %.5f (s.e.), Erlang C %.5f: %+.2f%% (s.e. %.2f%%)",
				k.c, k.rho, k.reps, k.n, got, se, want, 100*rel, 100*se/want)
			if math.Abs(rel) > tol {
				t.Errorf("M/M/%d ρ=%.1f: FCFS mean wait %.5f, Erlang C %.5f: off by %+.2f%% (> %.0f%%)",
					k.c, k.rho, got, want, 100*rel, 100*tol)
			}
		})
	}
}

// TestFCFSErlangC is the acceptance test: with one-processor jobs,
// Poisson arrivals and exponential service, FCFS on flat:c is an M/M/c
// queue, and its mean wait must match Erlang C within 3% for c = 1, 16 at
// loads 0.5, 0.8 (fixed seed).
//
// Run lengths: replications of 100,000 jobs, each starting empty. The
// relative standard errors measured from the replications' spread are about
// 0.6% (c=1, ρ=0.5, 400k jobs), 0.6% (c=1, ρ=0.8, 2M), 0.9% (c=16, ρ=0.8,
// 4M) and 1.5% (c=16, ρ=0.5, 12M: waiting is a rare event there,
// P(wait) ≈ 0.009, so the estimate is noisy): 3% is two to five standard
// errors. About 18M jobs, 2 s on two cores. TestFCFSErlangCLong runs longer.
func TestFCFSErlangC(t *testing.T) {
	checkErlang(t, 1, []erlangCase{
		{1, 0.5, 4, 100_000},
		{1, 0.8, 20, 100_000},
		{16, 0.5, 120, 100_000},
		{16, 0.8, 40, 100_000},
	}, 0.03)
}

// TestFCFSErlangCLong is the long version (skipped with -short): 56M jobs
// with another seed; the standard errors are about 0.6%, 0.6%, 0.8% and 0.8%,
// so 3% is at least 3.5 standard errors for every configuration (7 s on two
// cores).
func TestFCFSErlangCLong(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("long run; skipped with -short and under the race detector")
	}
	checkErlang(t, 2, []erlangCase{
		{1, 0.5, 10, 100_000},
		{1, 0.8, 50, 100_000},
		{16, 0.5, 400, 100_000},
		{16, 0.8, 100, 100_000},
	}, 0.03)
}
