package sched_test

import (
	"fmt"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
)

// Scan All lets a small job pass a blocked large one; FCFS does not.
func Example() {
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	mk := func() []policy.Job {
		return []policy.Job{
			{Index: 0, ID: 1, Submit: 0, Run: 10, Estimate: 10, Procs: 3},
			{Index: 1, ID: 2, Submit: 1, Run: 5, Estimate: 5, Procs: 2}, // blocked until 10
			{Index: 2, ID: 3, Submit: 2, Run: 2, Estimate: 2, Procs: 1}, // fits at once
		}
	}
	for _, spec := range []string{"fcfs", "sa", "if:wtl=0.5"} {
		name, params, _ := policy.ParseSpec(spec)
		var s policy.Scheduler
		for _, sp := range sched.Schedulers() {
			if sp.Name == name {
				s, _ = sp.New(m, params)
			}
		}
		res, err := engine.Run(mk(), m, flat.NewCount(4), s, engine.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(spec, ":")
		for _, j := range res.Jobs {
			fmt.Print(" ", j.Start)
		}
		fmt.Println()
	}
	// Output:
	// fcfs: 0 10 10
	// sa: 0 10 2
	// if:wtl=0.5: 0 10 10
}
