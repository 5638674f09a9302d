package dragonfly

import (
	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// Hybrid is the "df-hybrid" allocator: Level-Spread (Zhang, Tuncer,
// Kaplan, Olcoz, Leung & Coskun, "Level-Spread: A New Job Allocation
// Policy for Dragonfly Networks", IPDPS 2018), which spreads a job within
// the smallest network level it fits in: one router, one group, or the
// whole machine. Our reading of its implementation in SST, the
// DflyHybridAllocator (sst-elements v10.1, src/sst/elements/scheduler/
// allocators/DflyHybridAllocator.cc, which cites the paper):
//
//  1. k ≤ P: the router with the most free nodes (the first such); if
//     they are at least k, the job takes its lowest-numbered free nodes;
//  2. else, k ≤ A·P: the group with the most free nodes (the first); if
//     they are at least k, the job's nodes are dealt one per router of
//     that group in turn, from its first router, round after round;
//  3. else (or when neither fits): dealt one per group in turn over the
//     machine, as df-spread.
//
// O(routers + groups · log(A·P) + pieces).
type Hybrid struct {
	base
	out []int32
}

// NewHybrid returns the hybrid allocator on d, all nodes free.
func NewHybrid(d Dragonfly) *Hybrid { return &Hybrid{newBase(d), make([]int32, max(d.G, d.A))} }

// Allocate places j on one router, one group, or spread over the groups.
func (a *Hybrid) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := a.want(j)
	if !ok {
		return nil, false
	}
	d, free := a.d, a.pool.Free
	al := &nodepool.Alloc{}
	if k <= d.P {
		best := 0
		for r, f := range free {
			if f > free[best] {
				best = r
			}
		}
		if int(free[best]) >= k {
			a.take(best, k, al)
			return al, true
		}
	}
	if k <= d.A*d.P {
		best := 0
		for i, f := range a.grp {
			if f > a.grp[best] {
				best = i
			}
		}
		if int(a.grp[best]) >= k {
			rs := free[best*d.A : (best+1)*d.A]
			out := a.out[:d.A]
			nodepool.Deal(rs, k, out)
			for x, n := range out {
				a.take(best*d.A+x, int(n), al)
			}
			return al, true
		}
	}
	a.spreadGroups(k, al, a.out[:d.G])
	return al, true
}

// Clone returns an independent copy.
func (a *Hybrid) Clone() policy.Allocator { return &Hybrid{a.clone(), make([]int32, len(a.out))} }
