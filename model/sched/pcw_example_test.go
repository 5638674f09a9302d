package sched

import (
	"fmt"
	"os"

	"github.com/schedlab/schedlab/model/policy"
)

// A case study in the spirit of Ghoneim & Fahmy 2003, §5, Case 1: on a
// 6-cube, x (d_x = 4, priority 3, estimate 6, deadline 22) arrives at
// t = 10 when five running jobs all have lower priority (Group1 = ∅,
// Group2 = {1, ..., 5}), and no 4-cube is free although 32 nodes are:
//
//	job  subcube         priority  remaining  deadline
//	1    3-cube  0-7     0         9          24
//	2    3-cube 24-31    1         5          20
//	3    2-cube 32-35    0         2          14
//	4    2-cube 44-47    2         7          30
//	5    3-cube 48-55    1         12         40
//
// (free: 8-15, 16-23, 36-39, 40-43, 56-63). Preempting job 1, 2 or 5
// frees a 4-cube, jobs 3 and 4 share one; compacting job 2 or 5 moves it
// to 8-15 (the buddy allocator's lowest free 3-cube), 1 or 3 hops away;
// with latency 0.5 and data 3, δ = 0.5·1 + 3/3 = 1.5 and 0.5·3 + 3/3 =
// 2.5. Waiting, x starts when job 2 ends, at 15, with a laxity of 1.
// Preempting jobs 1 and 2 would make them miss; compacting job 2 costs
// x and job 2 1.5 each, the least loss of laxity, and wins.
func ExampleDecide() {
	b := newBuddy(6)
	x := &policy.Job{ID: 6, Index: 5, Submit: 10, Procs: 16, Estimate: 6, Window: &policy.Window{Priority: 3, Deadline: 22}}
	sit := Situation{Now: 10, Head: x, HeadRem: x.Estimate, Alloc: b}
	for i, r := range []struct {
		base, dim, prio int
		rem, deadline   float64
	}{{0, 3, 0, 9, 24}, {24, 3, 1, 5, 20}, {32, 2, 0, 2, 14}, {44, 2, 2, 7, 30}, {48, 3, 1, 12, 40}} {
		j := &policy.Job{ID: int64(i + 1), Index: int32(i), Procs: 1 << r.dim, Window: &policy.Window{Priority: r.prio, Deadline: r.deadline},
			Start: float64(i + 1), Alloc: b.take(r.base, r.dim)}
		sit.Running = append(sit.Running, Running{Job: j, Rem: r.rem, End: sit.Now + r.rem})
	}
	d := Decide(sit, PCWConfig{Action: ActionAuto, Compaction: true, Latency: 0.5, Data: 3})
	d.WriteTable(os.Stdout)
	o := d.Options[d.Chosen]
	fmt.Printf("decision: %s job %d, delay %g: x starts at %g with laxity %g, job %d keeps %g\n",
		d.Action, d.Job.ID, d.Delay, o.Start, o.LaxHead, d.Job.ID, o.LaxJob)
	// Output:
	// action   job   start  hops  delay      L_x      L_c   L_c(0)    score  note
	// wait     -        15     -      -        1        -        -       44  fallback (Group1 empty)
	// preempt  3         -     -      -        -        -        2        -  infeasible
	// compact  3         -     -      -        -        -        2        -  infeasible
	// preempt  1        10     -      -        6       -1        5       43  unsafe
	// compact  1         -     -      -        -        -        5        -  infeasible
	// preempt  5        10     -      -        6       12       18       43
	// compact  5      12.5     3    2.5      3.5     15.5       18       44
	// preempt  2        10     -      -        6       -1        5       43  unsafe
	// compact  2      11.5     1    1.5      4.5      3.5        5       46  chosen
	// preempt  4         -     -      -        -        -       13        -  infeasible
	// compact  4         -     -      -        -        -       13        -  infeasible
	// decision: compact job 2, delay 1.5: x starts at 11.5 with laxity 4.5, job 2 keeps 3.5
}
