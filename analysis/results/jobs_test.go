package results_test

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/analysis/results"
)

func TestStatsAndGroupBy(t *testing.T) {
	jobs := []results.Job{
		{JobID: 1, Response: 10, Wait: 2, Run: 8, BoundedSlowdown: 1.25, Slowdown: 1.25, ReqProcs: 1, User: 3},
		{JobID: 2, Response: 20, Wait: 0, Run: 20, BoundedSlowdown: 1, Slowdown: 1, ReqProcs: 3, User: 1},
		{JobID: 3, Response: 30, Wait: 10, Run: 20, BoundedSlowdown: 1.5, Slowdown: 1.5, ReqProcs: 4, User: 3},
		{JobID: 4, Response: 5, Wait: 1, Run: 4, BoundedSlowdown: 1, Slowdown: 1.25, ReqProcs: 0, AllocProcs: 9, User: 10},
	}
	s := results.Stats(jobs[:3])
	if s.N != 3 || s.MeanResponse != 20 || s.SDResponse != 10 || s.MeanWait != 4 || s.MaxWait != 10 || math.Abs(s.MeanBSLD-3.75/3) > 1e-12 {
		t.Errorf("%+v", s)
	}
	if e := results.Stats(nil); !math.IsNaN(e.MeanResponse) {
		t.Error("empty stats")
	}
	gs := results.GroupBy(jobs, results.BySizeClass)
	// Classes: 1→0, 3→2, 4→2, alloc 9→4.
	if len(gs) != 3 || gs[0].Key != "0" || gs[1].Key != "2" || len(gs[1].Jobs) != 2 || gs[2].Key != "4" {
		t.Errorf("size classes %+v", gs)
	}
	us := results.GroupBy(jobs, results.ByUser)
	// Numeric order: 1, 3, 10 (not "1", "10", "3").
	if len(us) != 3 || us[0].Key != "1" || us[1].Key != "3" || us[2].Key != "10" || len(us[1].Jobs) != 2 {
		t.Errorf("users %+v", us)
	}
}
