package dragonfly

import (
	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// Spread is the "df-spread" allocator, group-spread placement: a job's
// nodes are dealt one per group in turn, from group 0, round after round,
// skipping full groups; each group's share is its lowest-numbered free
// nodes. Our reading of SST's DflyRRNAllocator (round-robin nodes over
// groups; sst-elements v10.1, src/sst/elements/scheduler/allocators/
// DflyRRNAllocator.cc), one of the baselines SST implemented beside
// Level-Spread (Zhang et al., IPDPS 2018; df-hybrid); spreading a job over
// the groups balances the load on the global links, which Yang et al.
// ("Watch Out for the Bully! Job Interference Study on Dragonfly Network",
// SC 2016) contrast with contiguous placement. SST's allocator walks the
// groups from 0 for every job, taking the first free node of the group it
// stands on and moving to the next group, which gives every group
// min(free, t) nodes for the largest round t that fits, and the first
// groups with room one more. O(groups · log(A·P) + pieces).
type Spread struct {
	base
	out []int32
}

// NewSpread returns the group-spread allocator on d, all nodes free.
func NewSpread(d Dragonfly) *Spread { return &Spread{newBase(d), make([]int32, d.G)} }

// Allocate deals j's nodes over the groups.
func (a *Spread) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := a.want(j)
	if !ok {
		return nil, false
	}
	al := &nodepool.Alloc{}
	a.spreadGroups(k, al, a.out)
	return al, true
}

// Clone returns an independent copy.
func (a *Spread) Clone() policy.Allocator { return &Spread{a.clone(), make([]int32, a.d.G)} }
