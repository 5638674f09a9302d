package sched

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
)

// randomJobs is a mixed workload for flat:n: Poisson arrivals at the given
// offered load, sizes half powers of two and half uniform on 1..n, run
// times exponential (mean 100, 2% zero), estimates 1–3 times the run time.
// With integer=true times are rounded to integers, so that arrivals and
// completions coincide often.
func randomJobs(seed uint64, count, n int, load float64, integer bool) []policy.Job {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	const meanRun = 100.0
	meanProcs := 0.0
	sizes := make([]int, count)
	for i := range sizes {
		if r.IntN(2) == 0 {
			sizes[i] = 1 << r.IntN(bitsLen(n))
		} else {
			sizes[i] = 1 + r.IntN(n)
		}
		meanProcs += float64(sizes[i])
	}
	meanProcs /= float64(count)
	iat := meanProcs * meanRun / (float64(n) * load)
	jobs := make([]policy.Job, count)
	t := 0.0
	for i := range jobs {
		t += r.ExpFloat64() * iat
		run := r.ExpFloat64() * meanRun
		if r.IntN(50) == 0 {
			run = 0
		}
		est := run * (1 + 2*r.Float64())
		sub := t
		if integer {
			sub, run, est = math.Floor(t), math.Round(run), math.Ceil(est)
		}
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: sub, Run: run, Estimate: est,
			Procs: sizes[i], User: -1, Start: -1, End: -1}
	}
	return jobs
}

// bitsLen is the number of powers of two ≤ n.
func bitsLen(n int) int {
	k := 0
	for 1<<k <= n {
		k++
	}
	return k
}

// allSpecs covers every scheduler and the interesting parameter values.
var allSpecs = []string{
	"fcfs",
	"sjf", "sjf:scan=all", "smallest", "smallest:scan=all",
	"largest", "largest:scan=all", "ssd", "ssd:scan=all",
	"if", "if:wtl=500", "if:wtl=0", "sa", "sa:wtl=500", "sa:wtl=0",
	"mq", "mq:order=up", "mq:q=1", "mq:q=4,wtl=500", "mq:q=64,order=up", "mq:by=procs,q=3,order=down,wtl=0",
	"scan", "scan:order=down", "scan:sf=true", "scan:order=down,sf=true",
	"prio-res", "prio-res:reserve=false", "prio-res:max_pri=0", "prio-res:max_pri=5",
	"prio-res:max_pri=5,reserve=false",
}

// run replays jobs (copied) under spec on flat:n with the named allocator
// and the engine's invariant checker.
func run(t testing.TB, spec, alloc string, n int, jobs []policy.Job) []policy.Job {
	t.Helper()
	jobs = slices.Clone(jobs)
	m := policy.Machine{Kind: policy.Flat, Procs: n}
	res, err := engine.Run(jobs, m, newAlloc(alloc, n), newSched(t, spec, m), engine.Options{Check: true})
	if err != nil {
		t.Fatalf("%s/%s: %v", spec, alloc, err)
	}
	return res.Jobs
}

// TestInvariants replays a random workload under every scheduler with both
// flat allocators and the invariant checker: no violation, every job starts
// at or after its arrival and runs exactly its run time, all finish.
func TestInvariants(t *testing.T) {
	for _, integer := range []bool{false, true} {
		jobs := randomJobs(1, 2000, 64, 0.9, integer)
		for _, alloc := range []string{"count", "contig"} {
			for _, spec := range allSpecs {
				got := run(t, spec, alloc, 64, jobs)
				for _, j := range got {
					if j.Start < j.Submit || j.End != j.Start+j.Run {
						t.Fatalf("%s/%s integer=%v: job %d submit %g start %g end %g run %g",
							spec, alloc, integer, j.ID, j.Submit, j.Start, j.End, j.Run)
					}
				}
			}
		}
	}
}

// starts returns the jobs' start times.
func starts(jobs []policy.Job) []float64 {
	s := make([]float64, len(jobs))
	for i, j := range jobs {
		s[i] = j.Start
	}
	return s
}

// TestEquivalences checks the exact reductions between schemes on random
// workloads: identical start times for every job.
//
//   - SA = MQ with one queue (Chu §6.2), with and without a WTL;
//   - FCFS = IF with wtl=0 = SA with wtl=0 (Chu, Fig. 5.12 text);
//   - SA = priority without reservation and MAX_PRI = ∞ (Chu §5.4's claim
//     about Das Sharma and Pradhan's scheme);
//   - MQ with one queue per size (q = N) by processors = SmallestJF (SA)
//     under ScanUp and LargestJF (SA) under ScanDown.
func TestEquivalences(t *testing.T) {
	groups := [][]string{
		{"sa", "mq:q=1", "prio-res:reserve=false", "prio-res:reserve=false,max_pri=inf"},
		{"sa:wtl=300", "mq:q=1,wtl=300", "mq:q=1,wtl=300,order=up"},
		{"fcfs", "if:wtl=0", "sa:wtl=0", "mq:q=1,wtl=0"},
		{"mq:q=64,order=up", "smallest:scan=all"},
		{"mq:q=64,order=down", "largest:scan=all"},
	}
	for seed := uint64(1); seed <= 3; seed++ {
		for _, integer := range []bool{false, true} {
			jobs := randomJobs(seed, 2000, 64, 0.95, integer)
			for _, alloc := range []string{"count", "contig"} {
				for _, g := range groups {
					want := starts(run(t, g[0], alloc, 64, jobs))
					for _, spec := range g[1:] {
						got := starts(run(t, spec, alloc, 64, jobs))
						if i := firstDiff(got, want); i >= 0 {
							t.Errorf("seed %d integer=%v %s: %s and %s differ at job %d: start %g vs %g",
								seed, integer, alloc, g[0], spec, i+1, want[i], got[i])
						}
					}
				}
			}
		}
	}
}

// TestDistinct guards the equivalence test against a workload on which
// nothing matters: the schemes it relates must differ from FCFS and from
// each other.
func TestDistinct(t *testing.T) {
	jobs := randomJobs(1, 2000, 64, 0.95, false)
	seen := map[string]string{}
	for _, spec := range []string{"fcfs", "sa", "sa:wtl=300", "if", "mq", "mq:order=up", "smallest:scan=all", "largest:scan=all", "prio-res", "scan", "scan:sf=true", "sjf"} {
		key := fmt.Sprint(starts(run(t, spec, "count", 64, jobs)))
		if other, ok := seen[key]; ok {
			t.Errorf("%s and %s give the same schedule", other, spec)
		}
		seen[key] = spec
	}
}

func firstDiff(a, b []float64) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestDeterminism: a scheduler replays the same workload identically.
func TestDeterminism(t *testing.T) {
	jobs := randomJobs(7, 1000, 64, 0.9, true)
	for _, spec := range allSpecs {
		a := starts(run(t, spec, "count", 64, jobs))
		b := starts(run(t, spec, "count", 64, jobs))
		if i := firstDiff(a, b); i >= 0 {
			t.Errorf("%s: two runs differ at job %d", spec, i+1)
		}
	}
}
