package torus_test

import (
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/workload"
)

// TestEverySchedulerChecked: every scheduler of the catalog that runs on
// these families (fcfs, easy, conservative, ...) with every allocator
// (default parameters) replays a synthetic workload on a 3-D mesh, a 3-D
// torus and a 2-D torus with the engine's invariant checks on; every job
// starts or is rejected.
func TestEverySchedulerChecked(t *testing.T) {
	jobs := 400
	if testing.Short() {
		jobs = 120
	}
	for _, machine := range []string{"mesh3d:6x4x3", "torus:4x4x4", "torus:6x5"} {
		m, err := policy.ParseMachine(machine)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := workload.Generate(workload.WorkloadSpec{Machine: machine, Size: workload.SizeSpec{Dist: "uniform"},
			Service: workload.Service{Kind: "exp", Mean: 10}, Arrivals: workload.Arrivals{Kind: "poisson", Load: 0.7, Jobs: jobs}, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		pairs, err := catalog.Pairs(m, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, p := range pairs {
			seen[p.Sched] = true
			t.Run(machine+"/"+p.Alloc+"/"+p.Sched, func(t *testing.T) {
				a, err := p.NewAllocator(m)
				if err != nil {
					t.Fatal(err)
				}
				s, err := p.NewScheduler(m)
				if err != nil {
					t.Fatal(err)
				}
				js, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
				res, err := engine.Run(js, m, a, s, engine.Options{Check: true, Placement: true})
				if err != nil {
					t.Fatal(err)
				}
				started := 0
				for i := range res.Jobs {
					if res.Jobs[i].Start >= 0 {
						started++
					}
				}
				if started+len(res.Rejected) != len(js) {
					t.Errorf("%d started, %d rejected, of %d", started, len(res.Rejected), len(js))
				}
			})
		}
		for _, want := range []string{"fcfs", "easy", "conservative"} {
			if !seen[want] {
				t.Errorf("%s: scheduler %s not among the pairs", machine, want)
			}
		}
	}
}
