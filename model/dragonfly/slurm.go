package dragonfly

import (
	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// BestFit is the "df-slurm" allocator, our reading of SST's
// DflySlurmAllocator (sst-elements v10.1, src/sst/elements/scheduler/
// allocators/DflySlurmAllocator.cc), SST's rendering of Slurm's best-fit
// selection on a dragonfly, one of the baselines beside Level-Spread
// (Zhang et al., IPDPS 2018; df-hybrid):
//
//  1. k ≤ P: the router with the fewest free nodes that still has k (the
//     first such); the job takes its lowest-numbered free nodes;
//  2. otherwise (or when no router has k): repeatedly the router with the
//     fewest free nodes, at least one (the first such), whose free nodes
//     the job takes, lowest-numbered first, until it has k.
//
// It fills the most occupied routers first, packing jobs into the holes
// others left. O(routers × routers used).
type BestFit struct{ base }

// NewBestFit returns the df-slurm allocator on d, all nodes free.
func NewBestFit(d Dragonfly) *BestFit { return &BestFit{newBase(d)} }

// Allocate places j on the best-fit router, else on the fullest routers
// with free nodes.
func (a *BestFit) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := a.want(j)
	if !ok {
		return nil, false
	}
	free := a.pool.Free
	al := &nodepool.Alloc{}
	if k <= a.d.P {
		best := -1
		for r, f := range free {
			if int(f) >= k && (best < 0 || f < free[best]) {
				best = r
			}
		}
		if best >= 0 {
			a.take(best, k, al)
			return al, true
		}
	}
	for k > 0 {
		best := -1
		for r, f := range free {
			if f > 0 && (best < 0 || f < free[best]) {
				best = r
			}
		}
		n := min(k, int(free[best]))
		a.take(best, n, al)
		k -= n
	}
	return al, true
}

// Clone returns an independent copy.
func (a *BestFit) Clone() policy.Allocator { return &BestFit{a.clone()} }
