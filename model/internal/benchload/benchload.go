// Package benchload makes the synthetic workloads that the model's
// benchmarks share, so that figures from different packages are measured on
// the same jobs.
package benchload

import (
	"math"
	"math/rand/v2"

	"github.com/schedlab/schedlab/model/policy"
)

// LANLLike is a synthetic LANL-CM-5-like workload of n jobs for flat:1024:
// Poisson arrivals at offered load rho, log-uniform sizes 1..1024 (whole
// powers of two half the time, as on the CM-5's partitions), exponential run
// times with mean 1000, and estimates 1 to 5 times the run time.
func LANLLike(n int, rho float64, seed uint64) []policy.Job {
	r := rand.New(rand.NewPCG(seed, 11))
	const procs, meanRun = 1024, 1000.0
	jobs := make([]policy.Job, n)
	size := make([]int, n)
	sum := 0.0
	for i := range size {
		s := int(math.Exp(r.Float64() * math.Log(procs)))
		if r.IntN(2) == 0 {
			s = 1 << r.IntN(11)
		}
		size[i] = max(1, min(procs, s))
		sum += float64(size[i])
	}
	lambda := rho * procs / (meanRun * sum / float64(n))
	t := 0.0
	for i := range jobs {
		t += r.ExpFloat64() / lambda
		run := math.Round(r.ExpFloat64() * meanRun)
		est := run * (1 + 4*r.Float64())
		jobs[i] = policy.Job{Index: int32(i), Record: int32(i), ID: int64(i + 1), Submit: t, Run: run, Estimate: est, Procs: size[i], User: -1}
	}
	return jobs
}
