package sched

import (
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// The waiting-time limit counted from arrival or from reaching the head,
// worked by hand on flat:4 with wtl=5: A holds the machine until 10; B (2
// processors) and C (3) wait; at 10 B starts and C, which arrived at 2,
// becomes the head. D (1 processor) arrives at 12 with 2 processors free:
// from arrival C has waited 10 ≥ 5 and blocks D; from the head it has
// waited 2 and D starts at once.
func TestWTLFrom(t *testing.T) {
	for _, tc := range []struct {
		sched, from string
		dStart      float64
	}{
		{"if", "arrival", 20}, {"if", "head", 12},
		{"sa", "arrival", 20}, {"sa", "head", 12},
	} {
		jobs := []policy.Job{
			{Index: 0, ID: 1, Submit: 0, Run: 10, Procs: 4},
			{Index: 1, ID: 2, Submit: 1, Run: 10, Procs: 2},
			{Index: 2, ID: 3, Submit: 2, Run: 5, Procs: 3},
			{Index: 3, ID: 4, Submit: 12, Run: 1, Procs: 1},
		}
		for i := range jobs {
			jobs[i].Estimate, jobs[i].Start, jobs[i].End = jobs[i].Run, -1, -1
		}
		var spec policy.SchedulerSpec
		for _, s := range Schedulers() {
			if s.Name == tc.sched {
				spec = s
			}
		}
		m := policy.Machine{Kind: policy.Flat, Procs: 4}
		s, err := spec.New(m, policy.Params{"wtl": "5", "from": tc.from})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Run(jobs, m, flat.NewCount(4), s, engine.Options{Check: true}); err != nil {
			t.Fatal(err)
		}
		if jobs[3].Start != tc.dStart || jobs[1].Start != 10 {
			t.Errorf("%s from=%s: B at %g, D at %g; want 10 and %g", tc.sched, tc.from, jobs[1].Start, jobs[3].Start, tc.dStart)
		}
	}
}
