package admit

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// Tally counts, by reason, exactly the records Jobs refuses, and the
// adjustments it makes to those it accepts.
func TestTallyMatchesJobs(t *testing.T) {
	tr := &trace.Trace{}
	add := func(submit, run, req float64, reqProcs, allocProcs, status int64) {
		j := trace.NewJob(int64(len(tr.Jobs) + 1))
		j.Submit, j.Run, j.ReqTime, j.ReqProcs, j.AllocProcs, j.Status = submit, run, req, reqProcs, allocProcs, status
		tr.Jobs = append(tr.Jobs, j)
	}
	add(0, 10, 20, 4, 4, 1)   // kept as is
	add(1, 10, -1, 4, 4, 1)   // estimate = run time
	add(2, 30, 20, -1, 2, 1)  // processors from alloc_procs; outruns its request
	add(3, 10, 20, -1, -1, 1) // no processor count
	add(4, -1, 20, 2, 2, 1)   // unknown run time
	add(-1, 10, 20, 2, 2, 1)  // unknown submit time
	add(5, 10, 20, 9, 9, 1)   // larger than the machine
	add(6, 10, 20, 2, 2, 3)   // partial
	m := policy.Machine{Kind: "flat", Procs: 8}
	jobs, rej := Jobs(tr, m, EstimatesRequested)
	dropped, adjusted := Tally(tr, m, EstimatesRequested, false)
	wantDropped := []Count{{NoProcs, 1}, {NoRun, 1}, {NoSubmit, 1}, {TooLarge, 1}, {Partial, 1}}
	wantAdjusted := []Count{{ProcsFromAlloc, 1}, {EstimateIsRun, 1}, {Outruns, 1}}
	if !reflect.DeepEqual(dropped, wantDropped) || !reflect.DeepEqual(adjusted, wantAdjusted) {
		t.Fatalf("dropped %v adjusted %v", dropped, adjusted)
	}
	if len(rej) != 4 || len(jobs) != 4 {
		t.Fatalf("Jobs: %d accepted, %d rejected", len(jobs), len(rej))
	}
	// Partial records kept; actual estimates adjust no estimate.
	dropped, adjusted = Tally(tr, m, EstimatesActual, true)
	if len(dropped) != 4 || !reflect.DeepEqual(adjusted, []Count{{ProcsFromAlloc, 1}}) {
		t.Fatalf("keep partial, actual estimates: dropped %v adjusted %v", dropped, adjusted)
	}
}
