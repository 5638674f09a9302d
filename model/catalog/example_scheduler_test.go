package catalog_test

import (
	"fmt"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// greedy starts, at every instant, each waiting job that fits, in
// arrival order (no head-of-line blocking).
type greedy struct{ q fifo.Queue }

func (s *greedy) Submit(j *policy.Job) { s.q.Push(j) }
func (s *greedy) Finished(*policy.Job) {}
func (s *greedy) Waiting() int         { return s.q.Len() }
func (s *greedy) Schedule(sys policy.System) {
	s.q.Scan(func(j *policy.Job) (remove, stop bool) { return sys.Start(j), false })
}

func init() {
	catalog.RegisterScheduler(policy.SchedulerSpec{
		Name: "greedy", Doc: "every waiting job that fits, in arrival order",
		New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
			return &greedy{}, p.Check() // no parameters
		},
	})
}

// A scheduler registered from init runs like a built-in one: here beside
// fcfs, on three jobs where the third can pass the blocked second.
func ExampleRegisterScheduler() {
	tr := &trace.Trace{Name: "tiny", Jobs: []trace.Job{
		{ID: 1, Submit: 0, Run: 10, ReqTime: 10, ReqProcs: 3, Status: 1},
		{ID: 2, Submit: 1, Run: 5, ReqTime: 5, ReqProcs: 2, Status: 1},
		{ID: 3, Submit: 2, Run: 2, ReqTime: 2, ReqProcs: 1, Status: 1},
	}}
	rows, err := experiment.Run([]*trace.Trace{tr}, experiment.Options{
		Machine: "flat:4", Allocs: []string{"count"}, Scheds: []string{"fcfs", "greedy"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%s/%s: mean wait %.2f s\n", r.Alloc, r.Sched, r.MeanWait)
	}
	// Output:
	// count/fcfs: mean wait 5.67 s
	// count/greedy: mean wait 3.00 s
}
