package fattree

import (
	"math/rand/v2"

	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// Random is the random baseline: a job of k nodes takes k free nodes
// chosen uniformly at random (as model/mesh's random, after Lo, Windisch,
// Liu & Nitzberg 1997), from a PCG stream seeded by the seed parameter and
// the job's trace record (Job.Record), so that a job's placement depends
// only on them and the free nodes, whatever runs around it.
type Random struct {
	base
	Seed uint64
}

// NewRandom returns the random allocator on t, all nodes free.
func NewRandom(t *Tree, seed uint64) *Random { return &Random{newBase(t), seed} }

// Allocate takes j's nodes at random among the free ones.
func (a *Random) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := a.want(j)
	if !ok {
		return nil, false
	}
	al := &nodepool.Alloc{}
	a.pool.Random(rand.New(rand.NewPCG(a.Seed, uint64(j.Record))), k, al, a.up)
	return al, true
}

// Clone returns an independent copy.
func (a *Random) Clone() policy.Allocator { return &Random{a.clone(), a.Seed} }
