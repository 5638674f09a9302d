package fattree

import (
	"fmt"

	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// base is the bookkeeping every fat-tree allocator shares: the free nodes
// (a bitmap, free counts per leaf switch) and the free nodes under every
// switch. Allocations are *nodepool.Alloc: ranges of node numbers.
type base struct {
	t    *Tree
	pool *nodepool.Pool
	sw   []int32 // free nodes under each switch
}

func newBase(t *Tree) base {
	b := base{t: t, pool: nodepool.New(t.Bound), sw: make([]int32, t.Switches())}
	for s := range b.sw {
		b.sw[s] = t.Hi[s] - t.Lo[s]
	}
	return b
}

// up adds n free nodes to leaf l's switch and its ancestors.
func (b *base) up(l, n int) {
	for s := b.t.Leaf[l]; s >= 0; s = b.t.Parent[s] {
		b.sw[s] += int32(n)
	}
}

// take moves k free nodes of leaf l, the lowest-numbered, into a.
func (b *base) take(l, k int, a *nodepool.Alloc) {
	b.pool.Take(l, k, a)
	b.up(l, -k)
}

func (b *base) clone() base {
	return base{t: b.t, pool: b.pool.Clone(), sw: append([]int32(nil), b.sw...)}
}

// Release frees a's nodes.
func (b *base) Release(a policy.Allocation) { b.pool.Release(a.(*nodepool.Alloc), b.up) }

// Free is the number of free nodes.
func (b *base) Free() int { return b.pool.FreeCount() }

// Size is the number of nodes.
func (b *base) Size() int { return b.pool.Size() }

// Feasible refuses a job larger than the machine.
func (b *base) Feasible(j *policy.Job) error {
	if j.Need() > b.pool.Size() {
		return fmt.Errorf("needs %d nodes, the fat tree has %d", j.Need(), b.pool.Size())
	}
	return nil
}

// want is j's node count, and whether that many are free.
func (b *base) want(j *policy.Job) (int, bool) {
	k := j.Need()
	return k, k >= 1 && k <= b.pool.FreeCount()
}
