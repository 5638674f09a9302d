package experiment

import (
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/trace"
)

// Progress advances within a run: the jobs done and the simulated time of
// the run under way are reported before it ends, never go back, and end
// at every job of every run.
func TestProgressWithinRuns(t *testing.T) {
	defer func(k int) { engine.TickInstants = k }(engine.TickInstants)
	engine.TickInstants = 1
	tr := &trace.Trace{Name: "line", Header: trace.Header{{Key: "MaxProcs", Value: "2"}}}
	tr.Provenance.Load = -1
	for i := int64(1); i <= 40; i++ {
		j := trace.NewJob(i)
		j.Submit, j.Run, j.ReqProcs, j.Status = float64(10*i), 15, 2, 1
		tr.Jobs = append(tr.Jobs, j)
	}
	for _, workers := range []int{1, 2} {
		var got []Progress
		_, err := Run([]*trace.Trace{tr}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs", "easy"}, Workers: workers,
			Progress: func(p Progress) { got = append(got, p) }})
		if err != nil {
			t.Fatal(err)
		}
		within, prev := false, Progress{}
		for _, p := range got {
			if p.Total != 2 || p.TotalJobs != 80 || p.Jobs < prev.Jobs || p.Done < prev.Done || p.Span < 0 || p.Span > 1 {
				t.Fatalf("workers %d: %+v after %+v", workers, p, prev)
			}
			if p.Done == 0 && p.Jobs > 0 && p.Running > 0 && p.Span > 0 {
				within = true
			}
			prev = p
		}
		if !within {
			t.Errorf("workers %d: no progress reported within the first run: %+v", workers, got)
		}
		if last := got[len(got)-1]; last.Done != 2 || last.Jobs != 80 || last.Running != 0 || last.Fraction() != 1 {
			t.Errorf("workers %d: last report %+v", workers, last)
		}
	}
}
