package sched

import "github.com/schedlab/schedlab/model/policy"

// NewLargest returns Largest-Job-First (Chu 1995, §6.1; evaluated in §6.3.2): one queue
// ordered by requested processors, most first, ties by arrival order. With
// one queue it is also Babbar and Krueger's mesh ScanDown (Chu §2.5.3).
// scanAll selects Chu's "LargestJF (SA)" variant (see Ordered).
func NewLargest(scanAll bool) *Ordered { return NewOrdered(keyLargest, scanAll) }

func keyLargest(j *policy.Job) float64 { return -float64(j.Procs) }
