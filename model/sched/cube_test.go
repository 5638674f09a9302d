package sched

import (
	"fmt"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/cube"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
)

// cubeMachine is cube:n.
func cubeMachine(n int) policy.Machine {
	return policy.Machine{Kind: policy.Cube, Dim: n, Procs: 1 << n}
}

// cubeAlloc builds a registered cube allocator.
func cubeAlloc(t testing.TB, name string, m policy.Machine) policy.Allocator {
	t.Helper()
	for _, s := range cube.Allocators() {
		if s.Name == name {
			a, err := s.New(m, policy.Params{})
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	t.Fatalf("no cube allocator %q", name)
	return nil
}

// replayCube runs jobs (copied) under spec on cube:n with the named
// allocator and the invariant checker, and returns the start times.
func replayCube(t testing.TB, spec, alloc string, n int, jobs []policy.Job) []float64 {
	t.Helper()
	jobs = slices.Clone(jobs)
	m := cubeMachine(n)
	res, err := engine.Run(jobs, m, cubeAlloc(t, alloc, m), newSched(t, spec, m), engine.Options{Check: true, Placement: true})
	if err != nil {
		t.Fatalf("%s/%s: %v", spec, alloc, err)
	}
	return starts(res.Jobs)
}

// Lazy scheduling on cube:3 with buddy, worked by hand. Jobs (submit,
// run, processors → dimension):
//
//	1: t=0, 10, 4 → 2    2: t=0, 5, 2 → 1
//	3: t=1, 5, 4 → 2     4: t=1, 5, 3 → 2
//
//	t=0  job 1: |Q_2| = 1 > N_2 = 0: buddy splits *** → 0** (1** to F_2);
//	     N_2 = 1. Job 2: |Q_1| = 1 > N_1 = 0: buddy splits 1** → 10*
//	     (11* to F_1); N_1 = 1.
//	t=1  job 3: |Q_2| = 1 ≤ N_2 = 1: it waits (lazily: 11* is free but
//	     too small anyway). Job 4: |Q_2| = 2 > 1: the head, job 3, is
//	     tried and refused (no free 2-cube); N_2 stays 1.
//	t=5  job 2 ends: Q_1 is empty, 10* goes back to buddy and merges
//	     with 11* into 1**; N_1 = 0. Literally nothing retries Q_2.
//	t=10 job 1 ends: its 2-cube is handed to the head of Q_2, job 3
//	     (N_2 unchanged).
//	t=15 job 3 ends: handed to job 4.
//
// So [0 0 10 15]. With retry=true, at t=5 |Q_2| = 2 > N_2 = 1 and job 3
// gets 1** (N_2 = 2); at t=10 job 1's 0** is handed to job 4: [0 0 5 10].
// With wait=3 (fixed threshold), at t=5 the oldest waiting job (3, since
// t=1) has waited 4 > 3: stop_alloc; 10* is released and job 3 gets 1**
// (stop_alloc cleared). At t=10 job 4 has waited 9 > 3: stop_alloc, so
// job 1's cube is not handed over but released (as is job 3's, ending
// then too), and job 4 gets a 2-cube: [0 0 5 10].
func TestGoldenLazy(t *testing.T) {
	jobs := mkJobs([]row{{0, 10, 4, 0}, {0, 5, 2, 0}, {1, 5, 4, 0}, {1, 5, 3, 0}})
	for _, c := range []struct {
		spec string
		want []float64
	}{
		{"lazy:wait=inf", []float64{0, 0, 10, 15}},
		{"lazy:wait=inf,retry=true", []float64{0, 0, 5, 10}},
		{"lazy:wait=3", []float64{0, 0, 5, 10}},
		// wait=5: at t=5 job 3 has waited 4 ≤ 5; at t=10 it has waited 9 > 5:
		// stop_alloc, job 1's cube is released and job 3 gets a 2-cube by the
		// starvation rule; at t=15 likewise job 4 (waited 14).
		{"lazy:wait=5", []float64{0, 0, 10, 15}},
	} {
		if got := replayCube(t, c.spec, "buddy", 3, jobs); !slices.Equal(got, c.want) {
			t.Errorf("%s: starts %v, want %v", c.spec, got, c.want)
		}
	}
}

// Static partitioning on cube:2 (S_1 one 1-cube, S_0 two 0-cubes; Q_2
// for whole-machine jobs), worked by hand:
//
//	1, 2: t=0, run 10, 1 proc: both 0-cube servers, start 0.
//	3: t=1, run 5, 1 proc: S_0 busy, waits.
//	4: t=1, run 2, 2 procs: S_1, start 1 (ends 3).
//	5: t=2, run 3, 2 procs: waits for S_1, start 3 (ends 6).
//	6: t=4, run 1, 4 procs: the whole machine; from now on no partition
//	   takes a job: job 3 does not get S_0 at t=10; the machine is empty
//	   at t=10 (jobs 1, 2 end), job 6 starts then and ends at 11.
//	7: t=5, run 1, 2 procs: waits behind the whole-machine job.
//	At t=11 jobs 3 and 7 start.
func TestGoldenStatic(t *testing.T) {
	jobs := mkJobs([]row{{0, 10, 1, 0}, {0, 10, 1, 0}, {1, 5, 1, 0}, {1, 2, 2, 0}, {2, 3, 2, 0}, {4, 1, 4, 0}, {5, 1, 2, 0}})
	want := []float64{0, 0, 11, 1, 3, 10, 11}
	if got := replayCube(t, "static", "buddy", 2, jobs); !slices.Equal(got, want) {
		t.Errorf("starts %v, want %v", got, want)
	}
}

// Scan on a cube: its queues are the dimensions Q_0..Q_n, visited C-SCAN.
// cube:2 with buddy:
//
//	1: t=0, run 10, 4 procs (Q_2): the first visit goes Q_0, Q_1, Q_2:
//	   job 1 starts at 0.
//	2: t=1, run 1, 1 proc (Q_0); Q_2 is empty, so the scan moves on to
//	   Q_0: job 2 is refused (machine full) and blocks everything.
//	3: t=2, run 1, 2 procs (Q_1). 4: t=3, run 1, 4 procs (Q_2).
//	ScanUp: t=10 job 2 starts, Q_0 empty → Q_1: job 3 starts; Q_1 empty
//	→ Q_2: job 4 refused; t=11 it starts. [0 10 10 11].
//	ScanDown: t=10 job 2 starts; Q_0 empty → Q_2 (down, wrapping): job 4
//	refused and blocks Q_1; t=11 job 4 starts (ends 12), then Q_1: job 3
//	refused; t=12 job 3 starts. [0 10 12 11].
func TestGoldenScanCube(t *testing.T) {
	jobs := mkJobs([]row{{0, 10, 4, 0}, {1, 1, 1, 0}, {2, 1, 2, 0}, {3, 1, 4, 0}})
	for spec, want := range map[string][]float64{
		"scan":            {0, 10, 10, 11},
		"scan:order=down": {0, 10, 12, 11},
	} {
		if got := replayCube(t, spec, "buddy", 2, jobs); !slices.Equal(got, want) {
			t.Errorf("%s: starts %v, want %v", spec, got, want)
		}
	}
}

// randomCubeJobs is a workload for cube:n with dimensions uniform on
// 0..maxDim and processor counts anywhere in (2^(k−1), 2^k].
func randomCubeJobs(seed uint64, count, n, maxDim int, load float64) []policy.Job {
	jobs := randomJobs(seed, count, 1<<n, load, true)
	for i := range jobs {
		k := int(jobs[i].ID*7919+int64(seed)) % (maxDim + 1)
		p := 1 << k
		if k > 0 && jobs[i].ID%3 == 0 {
			p = 1<<(k-1) + 1 + int(jobs[i].ID)%(1<<(k-1))
		}
		jobs[i].Procs = p
	}
	return jobs
}

// Static with buddy is exactly the paper's model of independent queues:
// n FCFS queues, one server per dimension 1..n−1 and two for dimension 0,
// each job starting at max(arrival, the earliest its queue's servers are
// free). (Every job whose partition is idle is placed by buddy.)
func TestStaticIsIndependentQueues(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		n := 5
		jobs := randomCubeJobs(seed, 3000, n, n-1, 0.9)
		got := replayCube(t, "static", "buddy", n, jobs)
		free := make([][]float64, n) // per dimension, when each server is next free
		for k := range free {
			free[k] = []float64{0}
			if k == 0 {
				free[k] = []float64{0, 0}
			}
		}
		for i, j := range jobs {
			k := cube.Dim(j.Procs)
			s := slices.Index(free[k], slices.Min(free[k]))
			start := max(j.Submit, free[k][s])
			free[k][s] = start + j.Run
			if got[i] != start {
				t.Fatalf("seed %d: job %d (dimension %d) starts at %g, the partition model says %g", seed, j.ID, k, got[i], start)
			}
		}
	}
}

// Every scheduler that supports cubes replays random cube workloads with
// every cube allocator under the engine's invariant checker (no node held
// twice, handoffs of the right size, every job completes), including jobs
// of the whole cube.
func TestCubeInvariants(t *testing.T) {
	specs := []string{"lazy", "lazy:retry=true", "lazy:wait=0", "lazy:wait=50", "lazy:wait=inf", "lazy:warmup=0", "static"}
	for _, s := range Schedulers() {
		if s.Name != "lazy" && s.Name != "static" && policy.Supports(s.Kinds, policy.Cube) {
			specs = append(specs, s.Name)
		}
	}
	specs = append(specs, "scan:sf=true", "scan:order=down")
	jobs := randomCubeJobs(11, 1500, 5, 5, 0.9)
	for _, a := range cube.Allocators() {
		for _, spec := range specs {
			got := replayCube(t, spec, a.Name, 5, jobs)
			for i, st := range got {
				if st < jobs[i].Submit {
					t.Fatalf("%s/%s: job %d not started", a.Name, spec, i+1)
				}
			}
		}
	}
}

// Lazy's variants are distinct on a loaded workload, and deterministic.
func TestLazyVariantsDiffer(t *testing.T) {
	jobs := randomCubeJobs(3, 2000, 5, 4, 0.9)
	seen := map[string]string{}
	for _, spec := range []string{"lazy", "lazy:wait=inf", "lazy:retry=true", "lazy:wait=20", "fcfs", "scan", "static"} {
		a := replayCube(t, spec, "buddy", 5, jobs)
		b := replayCube(t, spec, "buddy", 5, jobs)
		if firstDiff(a, b) >= 0 {
			t.Errorf("%s is not deterministic", spec)
		}
		key := fmt.Sprint(a)
		if other, ok := seen[key]; ok {
			t.Errorf("%s and %s give the same schedule", other, spec)
		}
		seen[key] = spec
	}
}
