package sched

import "github.com/schedlab/schedlab/model/policy"

// NewSmallest returns Smallest-Job-First (Chu 1995, §6.1; evaluated in §6.3.2): one
// queue ordered by requested processors, fewest first, ties by arrival
// order. With one queue it is also Babbar and Krueger's mesh ScanUp (Chu
// §2.5.3). scanAll selects Chu's "SmallestJF (SA)" variant (see Ordered).
func NewSmallest(scanAll bool) *Ordered { return NewOrdered(keySmallest, scanAll) }

func keySmallest(j *policy.Job) float64 { return float64(j.Procs) }
