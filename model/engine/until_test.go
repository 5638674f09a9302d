package engine_test

import (
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// TestUntil ends a hand-worked FCFS schedule at an observation window.
// flat:2; (id, submit, run, procs):
//
//	1 at 0, runs 0..4 on 2 procs
//	2 at 1, waits for 1, runs 4..9 on 1 proc
//	3 at 2, runs 4..6 on 1 proc
//	4 at 5, waits: 2 runs; starts at 6 (job 3 ends), would end 6+10
//	5 at 7, waits (2 procs, 0 free until 9... and 16)
//	6 at 11, after the window
//
// With Until = 8: jobs 1 and 3 completed, 2 and 4 running (End = -1),
// 5 waiting (Start = -1), 6 never submitted. Busy processors: 2 on
// [0,4), 2 on [4,6) (jobs 2 and 3), 2 on [6,8) (2 and 4): BusyArea 16.
// Waiting: 1 on [1,2), 2 on [2,4), 0 on [4,5), 1 on [5,6), 0 on [6,7),
// 1 on [7,8): QueueArea 1+4+1+1 = 7.
func TestUntil(t *testing.T) {
	jobs := mk(
		[4]float64{1, 0, 4, 2},
		[4]float64{2, 1, 5, 1},
		[4]float64{3, 2, 2, 1},
		[4]float64{4, 5, 10, 1},
		[4]float64{5, 7, 1, 2},
		[4]float64{6, 11, 1, 1},
	)
	m := policy.Machine{Kind: policy.Flat, Procs: 2}
	res, err := engine.Run(jobs, m, flat.NewCount(2), &fifo{}, engine.Options{Check: true, Until: 8})
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]float64{{0, 4}, {4, -1}, {4, 6}, {6, -1}, {-1, -1}, {-1, -1}}
	for i, w := range want {
		if j := res.Jobs[i]; j.Start != w[0] || j.End != w[1] {
			t.Errorf("job %d: start %g end %g, want %g %g", j.ID, j.Start, j.End, w[0], w[1])
		}
	}
	if !res.Stopped || res.Last != 8 || res.First != 0 {
		t.Errorf("stopped %v, first %g, last %g; want true, 0, 8", res.Stopped, res.First, res.Last)
	}
	if res.BusyArea != 16 || res.QueueArea != 7 {
		t.Errorf("busy area %g, queue area %g; want 16, 7", res.BusyArea, res.QueueArea)
	}

	// A window past the last completion changes nothing.
	full := mk(
		[4]float64{1, 0, 4, 2},
		[4]float64{2, 1, 5, 1},
	)
	res, err = engine.Run(full, m, flat.NewCount(2), &fifo{}, engine.Options{Check: true, Until: 100})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped || res.Last != 9 || full[1].End != 9 {
		t.Errorf("window past the end: stopped %v, last %g, job 2 ends %g; want false, 9, 9", res.Stopped, res.Last, full[1].End)
	}

	// A window before the first arrival is empty.
	late := mk([4]float64{1, 10, 4, 2})
	res, err = engine.Run(late, m, flat.NewCount(2), &fifo{}, engine.Options{Until: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.First != 5 || res.Last != 5 || late[0].Start != -1 {
		t.Errorf("empty window: stopped %v, first %g, last %g, start %g", res.Stopped, res.First, res.Last, late[0].Start)
	}
}
