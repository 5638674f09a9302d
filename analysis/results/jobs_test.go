package results_test

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/metrics"
)

func TestStatsAndGroupBy(t *testing.T) {
	jobs := []results.Job{
		{JobID: 1, Submit: 0, Start: 2, End: 10, Run: 8, ReqProcs: 1, User: 3},
		{JobID: 2, Submit: 5, Start: 5, End: 25, Run: 20, ReqProcs: 3, User: 1},
		{JobID: 3, Submit: 6, Start: 16, End: 36, Run: 20, ReqProcs: 4, User: 3},
		{JobID: 4, Submit: 7, Start: 8, End: 12, Run: 4, ReqProcs: 0, AllocProcs: 9, User: 10},
	}
	s := results.Stats(jobs[:3], 10)
	// Responses 10, 20, 30; waits 2, 0, 10; bounded slowdowns 1, 1, 1.5.
	if s.N != 3 || s.MeanResponse != 20 || s.SDResponse != 10 || s.MeanWait != 4 || s.MaxWait != 10 || math.Abs(s.MeanBSLD-3.5/3) > 1e-12 {
		t.Errorf("%+v", s)
	}
	// The one definition: the accumulator the replay uses.
	a := metrics.NewAccumulator(10)
	for _, j := range jobs {
		a.Add(j.Submit, j.Start, j.End, j.Run)
	}
	if got := results.Stats(jobs, 10); got != a.Stats() {
		t.Errorf("Stats %+v, accumulator %+v", got, a.Stats())
	}
	if e := results.Stats(nil, 10); !math.IsNaN(e.MeanResponse) || e.N != 0 {
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

func TestSizeClass(t *testing.T) {
	for p, want := range map[int64]int{1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 128: 7, 129: 8, 0: -1, -1: -1} {
		if got := results.SizeClass(p); got != want {
			t.Errorf("SizeClass(%d) = %d, want %d", p, got, want)
		}
	}
	if results.SizeClassLabel(3) != "5-8" || results.SizeClassLabel(0) != "1" || results.SizeClassLabel(1) != "2" || results.SizeClassLabel(-1) != "unknown" {
		t.Error("labels")
	}
	// A fractional (time-averaged) allocation rounds up.
	if k := results.JobSizeClass(&results.Job{ReqProcs: -1, AllocProcs: 4.5}); k != 3 {
		t.Errorf("alloc 4.5: class %d", k)
	}
}
