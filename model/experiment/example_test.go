package experiment_test

import (
	"fmt"

	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/trace"
)

// A whole run through the library: an in-memory trace replayed under two
// pairs on a 4-processor machine, one summary row per (trace, pair).
// Setting Options.Out would also write the Parquet files `replay run`
// writes.
func ExampleRun() {
	tr := &trace.Trace{Name: "tiny", Jobs: []trace.Job{
		{ID: 1, Submit: 0, Run: 10, ReqTime: 10, ReqProcs: 3, Status: 1},
		{ID: 2, Submit: 1, Run: 5, ReqTime: 20, ReqProcs: 2, Status: 1},
		{ID: 3, Submit: 2, Run: 2, ReqTime: 5, ReqProcs: 1, Status: 1},
	}}
	rows, err := experiment.Run([]*trace.Trace{tr}, experiment.Options{
		Machine: "flat:4", Allocs: []string{"count"}, Scheds: []string{"fcfs", "easy"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%s %s %s/%s: %d jobs, mean wait %.2f s, makespan %g s\n",
			r.Trace, r.Machine, r.Alloc, r.Sched, r.Jobs, r.MeanWait, r.Makespan)
	}
	// Output:
	// tiny flat:4 count/easy: 3 jobs, mean wait 3.00 s, makespan 15 s
	// tiny flat:4 count/fcfs: 3 jobs, mean wait 5.67 s, makespan 15 s
}
