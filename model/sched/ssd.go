package sched

import "github.com/schedlab/schedlab/model/policy"

// NewSSD returns Smallest-Service-Demand-Job-First (Chu 1995, §6.1,
// "SmallestSDJF"): one queue ordered by service demand = runtime estimate ×
// requested processors, smallest first, ties by arrival order. As for SJF the
// run time is policy.Job.Estimate. scanAll selects Chu's "SmallestSDJF (SA)"
// variant (see Ordered).
func NewSSD(scanAll bool) *Ordered { return NewOrdered(keySSD, scanAll) }

func keySSD(j *policy.Job) float64 { return j.Estimate * float64(j.Procs) }
