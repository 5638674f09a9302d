package fattree

import (
	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// Spread is the "ft-spread" allocator, a contrast to Slurm's tree selection:
// a job's nodes are dealt one per leaf switch in turn, leaf after leaf in
// node order and round after round, skipping full leaves, so that it
// touches as many leaf switches as it can (the leaf-switch analogue of
// SST's round-robin dragonfly allocators, Zhang et al.'s "spread"
// placement). Each leaf's share is its lowest-numbered free nodes.
// O(leaves · log R1) per allocation.
type Spread struct {
	base
	out []int32 // each leaf's share
}

// NewSpread returns the spread allocator on t, all nodes free.
func NewSpread(t *Tree) *Spread {
	return &Spread{base: newBase(t), out: make([]int32, len(t.Leaf))}
}

// Allocate deals j's nodes over the leaf switches.
func (a *Spread) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := a.want(j)
	if !ok {
		return nil, false
	}
	nodepool.Deal(a.pool.Free, k, a.out)
	al := &nodepool.Alloc{}
	for l, n := range a.out {
		if n > 0 {
			a.take(l, int(n), al)
		}
	}
	return al, true
}

// Clone returns an independent copy.
func (a *Spread) Clone() policy.Allocator {
	return &Spread{base: a.clone(), out: make([]int32, len(a.out))}
}
