package dragonfly

import (
	"fmt"

	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// base is the bookkeeping every dragonfly allocator shares: the free nodes
// (a bitmap, free counts per router) and the free nodes per group.
// Allocations are *nodepool.Alloc: ranges of node numbers.
type base struct {
	d    Dragonfly
	pool *nodepool.Pool
	grp  []int32 // free nodes per group
}

func newBase(d Dragonfly) base {
	bound := make([]int32, d.G*d.A+1)
	for r := range bound {
		bound[r] = int32(r * d.P)
	}
	b := base{d: d, pool: nodepool.New(bound), grp: make([]int32, d.G)}
	for i := range b.grp {
		b.grp[i] = int32(d.A * d.P)
	}
	return b
}

// up adds n free nodes to router r's group.
func (b *base) up(r, n int) { b.grp[r/b.d.A] += int32(n) }

// take moves the k lowest-numbered free nodes of router r into a.
func (b *base) take(r, k int, a *nodepool.Alloc) {
	if k > 0 {
		b.pool.Take(r, k, a)
		b.up(r, -k)
	}
}

// takeGroup moves the k lowest-numbered free nodes of group i into a.
func (b *base) takeGroup(i, k int, a *nodepool.Alloc) {
	for r := i * b.d.A; k > 0; r++ {
		n := min(k, int(b.pool.Free[r]))
		b.take(r, n, a)
		k -= n
	}
}

func (b *base) clone() base {
	return base{d: b.d, pool: b.pool.Clone(), grp: append([]int32(nil), b.grp...)}
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
		return fmt.Errorf("needs %d nodes, the dragonfly has %d", j.Need(), b.pool.Size())
	}
	return nil
}

// want is j's node count, and whether that many are free.
func (b *base) want(j *policy.Job) (int, bool) {
	k := j.Need()
	return k, k >= 1 && k <= b.pool.FreeCount()
}

// spreadGroups deals k nodes over the groups, one per group in turn
// (SST's DflyRRNAllocator), each group's share its lowest-numbered free
// nodes.
func (b *base) spreadGroups(k int, a *nodepool.Alloc, out []int32) {
	nodepool.Deal(b.grp, k, out)
	for i, n := range out {
		b.takeGroup(i, int(n), a)
	}
}
