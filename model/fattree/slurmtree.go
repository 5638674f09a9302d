package fattree

import (
	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// SlurmTree is Slurm's topology/tree node selection (the "ft-tree"
// allocator), as the Slurm Topology Guide states it ("identify the lowest
// level switch in the hierarchy that can satisfy a job's request and then
// allocate resources on its underlying leaf switches using a best-fit
// algorithm") and as earlier releases implemented it (select/cons_res's
// _eval_nodes_topo and select/cons_tres's reservation test,
// src/plugins/select/cons_*/job_test.c). Our readings:
//
//  1. The switch: among the switches with at least k free nodes, the one
//     of the lowest level (Slurm's level: 0 for a leaf switch, else one
//     more than its highest child), then the fewest free nodes ("best
//     fit"); ties go to the first switch in Slurm's switch table (the
//     order of topology.conf's lines; on fattree:R1x... leaves first, in
//     node order, then each level in node order).
//  2. The leaves: repeatedly, among the leaf switches under it with free
//     nodes, the first whose free nodes cover the rest of the request
//     with the fewest ("tightest fit"), else the one with the most ("
//     nothing yet large enough, but this is biggest"); ties to the first in
//     node order. The leaf's free nodes are taken lowest-numbered first
//     (Slurm's bitmap order) until the request is met.
//
// Left out, as they do not arise here: CPU counts and cores (one job per
// node: a node is free or not), node weights, required nodes and
// --switches (the leaf-switch limit with its wait). Current Slurm
// (src/plugins/topology/tree/eval_nodes_tree.c) starts from the highest
// switch with enough nodes and weighs the leaf choice by the fit of the
// leaves' ancestors and their distance to the leaves already chosen; that
// refinement is not modelled. O(switches + leaves), the leaves bucketed
// by free count.
type SlurmTree struct {
	base
	// Scratch of the bucketed leaf choice: leaves by free count
	// (order[next[v]:end[v]] have v free, in node order).
	next, end, order []int32
}

// bucketMax is the largest leaf switch (in nodes) for which the leaf choice
// buckets leaves by their free count, O(leaves + bucketMax), instead of
// scanning them again for every leaf taken, O(leaves × leaves used). Both
// choose the same leaves (TestSlurmTreeBuckets).
var bucketMax = 4096

// NewSlurmTree returns the tree allocator on t, all nodes free.
func NewSlurmTree(t *Tree) *SlurmTree { return &SlurmTree{base: newBase(t)} }

// Allocate places j on the lowest-level switch that can hold it, best fit
// among its leaf switches.
func (a *SlurmTree) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := a.want(j)
	if !ok {
		return nil, false
	}
	t := a.t
	best := -1
	for s, f := range a.sw {
		if int(f) < k {
			continue
		}
		if best < 0 || t.Level[s] < t.Level[best] || t.Level[s] == t.Level[best] && f < a.sw[best] {
			best = s
		}
	}
	if best < 0 {
		return nil, false // the free nodes are on switches with no common parent (cannot happen in one tree)
	}
	al := &nodepool.Alloc{}
	lo, hi := int(t.LeafLo[best]), int(t.LeafHi[best])
	if a.maxLeaf() <= bucketMax {
		a.bucketed(lo, hi, k, al)
	} else {
		a.scan(lo, hi, k, al)
	}
	return al, true
}

// maxLeaf is the largest leaf switch's node count.
func (a *SlurmTree) maxLeaf() int {
	if a.end == nil {
		m := int32(0)
		for l := range a.t.Leaf {
			m = max(m, a.t.Bound[l+1]-a.t.Bound[l])
		}
		a.end = make([]int32, m+2)
		a.next = make([]int32, m+2)
		a.order = make([]int32, len(a.t.Leaf))
	}
	return len(a.end) - 2
}

// scan takes rem nodes from leaves lo..hi−1, choosing each leaf by a scan.
func (a *SlurmTree) scan(lo, hi, rem int, al *nodepool.Alloc) {
	free := a.pool.Free
	for rem > 0 {
		bl, bf, suff := -1, int32(0), false
		for l := lo; l < hi; l++ {
			f := free[l]
			if f == 0 {
				continue
			}
			s := int(f) >= rem
			if bl < 0 || s && !suff || s && f < bf || !s && !suff && f > bf {
				bl, bf, suff = l, f, s
			}
		}
		n := min(int(bf), rem)
		a.take(bl, n, al)
		rem -= n
	}
}

// bucketed takes rem nodes from leaves lo..hi−1 as scan does, from the
// leaves bucketed by free count: while no leaf covers the rest, the first
// leaf of the fullest bucket (it is emptied); then the first leaf of the
// least full bucket that covers the rest.
func (a *SlurmTree) bucketed(lo, hi, rem int, al *nodepool.Alloc) {
	free := a.pool.Free
	next, end := a.next, a.end
	clear(end)
	top := 0
	for l := lo; l < hi; l++ {
		if f := free[l]; f > 0 {
			end[f]++
			top = max(top, int(f))
		}
	}
	pos := int32(0)
	for v := top; v >= 1; v-- { // bucket starts, fullest first
		next[v] = pos
		pos += end[v]
		end[v] = next[v]
	}
	for l := lo; l < hi; l++ {
		if f := free[l]; f > 0 {
			a.order[end[f]] = int32(l)
			end[f]++
		}
	}
	for rem > 0 {
		for next[top] == end[top] {
			top--
		}
		if top >= rem {
			v := rem
			for next[v] == end[v] {
				v++
			}
			a.take(int(a.order[next[v]]), rem, al)
			return
		}
		l := int(a.order[next[top]])
		next[top]++
		a.take(l, top, al)
		rem -= top
	}
}

// Clone returns an independent copy.
func (a *SlurmTree) Clone() policy.Allocator { return &SlurmTree{base: a.clone()} }
