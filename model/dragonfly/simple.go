package dragonfly

import (
	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// Simple is the "df-simple" allocator: the job's nodes are the
// lowest-numbered free nodes, filling router after router and group after
// group in order (SST's SimpleAllocator, the first free nodes of the
// machine's list, on a dragonfly: sst-elements v10.1,
// src/sst/elements/scheduler/allocators/SimpleAllocator.cc). O(routers
// scanned + pieces).
type Simple struct{ base }

// NewSimple returns the simple allocator on d, all nodes free.
func NewSimple(d Dragonfly) *Simple { return &Simple{newBase(d)} }

// Allocate takes the lowest-numbered free nodes.
func (a *Simple) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := a.want(j)
	if !ok {
		return nil, false
	}
	al := &nodepool.Alloc{}
	for i := 0; k > 0; i++ {
		n := min(k, int(a.grp[i]))
		a.takeGroup(i, n, al)
		k -= n
	}
	return al, true
}

// Clone returns an independent copy.
func (a *Simple) Clone() policy.Allocator { return &Simple{a.clone()} }
