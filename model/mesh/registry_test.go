package mesh

import (
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/model/workload"
)

// Every registered allocator replays a mesh workload under FCFS with the
// engine's invariant checks on (no node held twice, capacity, placements
// inside the mesh), and only the lookahead ones see the waiting jobs.
func TestRegistryReplay(t *testing.T) {
	m := policy.Machine{Kind: policy.Mesh, Width: 16, Height: 8, Procs: 128}
	tr, err := workload.Generate(workload.WorkloadSpec{Machine: "mesh:16x8", Size: workload.SizeSpec{Dist: "uniform"},
		Service: workload.Service{Kind: "exp", Mean: 10}, Arrivals: workload.Arrivals{Kind: "poisson", Load: 0.5, Jobs: 1500}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var fcfs policy.SchedulerSpec
	for _, s := range sched.Schedulers() {
		if s.Name == "fcfs" {
			fcfs = s
		}
	}
	for _, spec := range Allocators() {
		t.Run(spec.Name, func(t *testing.T) {
			if spec.Machines != nil && spec.Machines(m) != nil {
				t.Skip("not offered on mesh:16x8")
			}
			a, err := spec.New(m, policy.Params{})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := a.(policy.Contextual); !ok {
				t.Error("not policy.Contextual: learns neither the time nor the waiting jobs")
			}
			_, multi := a.(*MultiAllocator)
			if _, rv := a.(policy.Reserver); rv == multi {
				t.Errorf("reservations %v for a non-contiguous allocator %v", rv, multi)
			}
			s, err := fcfs.New(m, policy.Params{})
			if err != nil {
				t.Fatal(err)
			}
			jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
			res, err := engine.Run(jobs, m, a, s, engine.Options{Check: true, Placement: true})
			if err != nil {
				t.Fatal(err)
			}
			started := 0
			for i := range res.Jobs {
				if res.Jobs[i].Start >= 0 {
					started++
				}
			}
			if started+len(res.Rejected) != len(jobs) {
				t.Errorf("%d started, %d rejected, of %d", started, len(res.Rejected), len(jobs))
			}
		})
	}
}
