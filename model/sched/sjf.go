package sched

import "github.com/schedlab/schedlab/model/policy"

// NewSJF returns Shortest-Job-First (Chu 1995, §6.1; evaluated in §6.3.2): one queue
// ordered by runtime estimate, shortest first, ties by arrival order. Chu
// does not say whether his simulation ordered by the exact or an estimated
// run time; the key here is policy.Job.Estimate, which is the requested time
// or, when the engine is told to use actual times, the actual run time.
// scanAll selects Chu's "SJF (SA)" variant (see Ordered).
func NewSJF(scanAll bool) *Ordered { return NewOrdered(keySJF, scanAll) }

func keySJF(j *policy.Job) float64 { return j.Estimate }
