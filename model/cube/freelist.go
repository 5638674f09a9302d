package cube

import (
	"fmt"
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// FreeListMaxDim is the largest dimension FreeList is offered on: its
// rebuild of the lists visits up to 2^n sets of free dimensions over a
// 2^n-bit map.
const FreeListMaxDim = 16

// FreeList is the free-list strategy (J. Kim, C. R. Das and W. Lin, "A
// top-down processor allocation scheme for hypercube computers", IEEE
// Trans. Parallel Distrib. Syst. 2(1):20–30, 1991), as described by P.
// Mohapatra, C. Yu and C. R. Das, "A Lazy Scheduling Scheme for Hypercube
// Computers", 1995, §2.1, which uses it (Fig. 10) as the representative of
// complete subcube recognition: n+1 lists of available disjoint subcubes,
// one per dimension. A k-cube comes from the dimension-k list; if it is
// empty, a higher-dimensional subcube is decomposed and allocated. A
// released subcube is merged with all possible adjacent cubes to form the
// largest possible disjoint subcubes, and the lists are updated.
//
// Readings (the paper gives neither the merge rules nor the choice of
// cubes; Kim, Das and Lin do, and we have not read them):
//
//   - The subcubes are any subcubes (any mask), not only buddy blocks.
//   - A list's first subcube is its lowest-based one (then lowest mask);
//     the allocator takes the dimension-k list's first, else the first of
//     the least higher dimension that has one.
//   - Decomposition of a d-cube for a k-request: the job gets its k
//     lowest free bits (the other free bits fixed at 0, its lowest
//     addresses); the rest becomes d−k subcubes of dimensions d−1, …, k
//     (fixing the highest free bit at 1, then the next, …), added to their
//     lists.
//   - Merging: two free subcubes are adjacent when they have the same
//     free bits and their fixed bits differ in exactly one bit — any such
//     neighbour, not only the buddy. The released cube merges with the
//     first adjacent cube of its dimension's list, the result with the
//     first adjacent cube of the next list, and so on while one exists.
//   - Complete recognition, which the paper claims, does not follow from
//     merging pairs: a free region can be split into cubes no two of which
//     merge while it holds a larger subcube (e.g. on the 3-cube, 00*, *10,
//     1*1, 011 and 100 make up the whole cube). So when no listed cube is
//     large enough while enough nodes are free, the lists are rebuilt as a
//     greedy maximal decomposition of the free nodes (the largest free
//     subcube, lowest base then lowest mask first, then the largest in
//     what is left, …) and searched again. The largest free subcube comes
//     first, so the search then succeeds exactly when some free k-subcube
//     exists (a property test checks it against an exhaustive search). A
//     rebuild costs O(2^n·2^n/64) at worst and happens only on such
//     misses; a list search O(n + list lengths), a release
//     O(n·list lengths).
type FreeList struct {
	nodes
	lists [][]Sub // lists[d]: the free d-cubes
	// rebuilt says that the lists are the greedy decomposition of the free
	// nodes and nothing changed since: a second rebuild would find the
	// same.
	rebuilt bool
}

// NewFreeList returns the free-list strategy of an all-free n-cube.
func NewFreeList(n int) *FreeList {
	f := &FreeList{nodes: newNodes(n), lists: make([][]Sub, n+1)}
	f.lists[n] = []Sub{{Base: 0, Mask: 1<<n - 1}}
	return f
}

// first returns the index of list d's first subcube (lowest base, then
// mask), −1 if it is empty.
func (f *FreeList) first(d int) int {
	best := -1
	for i, s := range f.lists[d] {
		if best < 0 || s.Base < f.lists[d][best].Base || s.Base == f.lists[d][best].Base && s.Mask < f.lists[d][best].Mask {
			best = i
		}
	}
	return best
}

func (f *FreeList) del(d, i int) Sub {
	l := f.lists[d]
	s := l[i]
	l[i] = l[len(l)-1]
	f.lists[d] = l[:len(l)-1]
	return s
}

// Allocate gives j a k-cube from the lists, decomposing a larger one if
// need be.
func (f *FreeList) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := request(j, f.n)
	if !ok || 1<<k > f.free {
		return nil, false
	}
	d, i := f.find(k)
	if i < 0 {
		if f.rebuilt {
			return nil, false
		}
		f.rebuild()
		if d, i = f.find(k); i < 0 {
			return nil, false
		}
	}
	c := f.del(d, i)
	// Keep the k lowest free bits; fix the others at 0, and list the
	// halves with them at 1, highest first.
	keep := int32(0)
	for m, t := c.Mask, 0; t < k; t++ {
		low := m & -m
		keep |= low
		m &^= low
	}
	rest := c.Mask &^ keep
	for rest != 0 {
		hi := int32(1) << (31 - bits.LeadingZeros32(uint32(rest)))
		rest &^= hi
		piece := Sub{Base: c.Base | hi, Mask: keep | rest}
		e := piece.Dim()
		f.lists[e] = append(f.lists[e], piece)
	}
	f.take(int(c.Base), int(keep))
	f.rebuilt = false
	return &Sub{Base: c.Base, Mask: keep}, true
}

// find returns the list and index of the first subcube of the least
// dimension ≥ k that has one, index −1 if none.
func (f *FreeList) find(k int) (int, int) {
	for d := k; d <= f.n; d++ {
		if i := f.first(d); i >= 0 {
			return d, i
		}
	}
	return 0, -1
}

// Release returns the subcube to the lists, merged with every adjacent
// free subcube in turn.
func (f *FreeList) Release(a policy.Allocation) {
	s := *a.(*Sub)
	f.give(int(s.Base), int(s.Mask))
	f.rebuilt = false
	for d := s.Dim(); d < f.n; d++ {
		best := -1
		for i, e := range f.lists[d] {
			if x := e.Base ^ s.Base; e.Mask == s.Mask && x&(x-1) == 0 && (best < 0 || e.Base < f.lists[d][best].Base) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		e := f.del(d, best)
		x := e.Base ^ s.Base
		s = Sub{Base: s.Base &^ x, Mask: s.Mask | x}
	}
	f.lists[s.Dim()] = append(f.lists[s.Dim()], s)
}

// rebuild replaces the lists by the greedy maximal decomposition of the
// free nodes.
func (f *FreeList) rebuild() {
	for d := range f.lists {
		f.lists[d] = f.lists[d][:0]
	}
	free := make([]uint64, len(f.busy))
	for i, w := range f.busy {
		free[i] = ^w
	}
	left := f.free
	levels := make([][]uint64, f.n+1)
	for i := range levels {
		levels[i] = make([]uint64, len(free))
	}
	for left > 0 {
		s, ok := largest(f.n, free, levels)
		if !ok {
			panic(fmt.Sprintf("freelist: %d nodes free and no free subcube", left))
		}
		f.lists[s.Dim()] = append(f.lists[s.Dim()], s)
		p := pattern(int(s.Base), int(s.Mask))
		each(int(s.Base), int(s.Mask), func(w int) bool { free[w] &^= p; return true })
		left -= s.Procs()
	}
	f.rebuilt = true
}

// zeroBit[b] has a bit at every position of a word whose bit b is 0
// (b < 6).
var zeroBit = [6]uint64{
	0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f,
	0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff,
}

// largest returns the free subcube of greatest dimension in the map free
// (bit v set: node v free), lowest base then lowest mask among those. It
// visits the sets of free dimensions depth first, levels[i] holding, for
// the set of depth i, the bases of the free subcubes with those free
// dimensions; a set with none has no superset with any.
func largest(n int, free []uint64, levels [][]uint64) (Sub, bool) {
	copy(levels[0], free)
	if n < 6 {
		levels[0][0] &= 1<<(1<<n) - 1
	}
	best, found := Sub{}, false
	bestDim := -1
	var visit func(depth, mask, from int)
	visit = func(depth, mask, from int) {
		cur := levels[depth]
		base := -1
		for i, w := range cur {
			if w != 0 {
				base = i<<6 | bits.TrailingZeros64(w)
				break
			}
		}
		if base < 0 {
			return
		}
		if depth > bestDim || depth == bestDim && (int32(base) < best.Base || int32(base) == best.Base && int32(mask) < best.Mask) {
			best, bestDim, found = Sub{Base: int32(base), Mask: int32(mask)}, depth, true
		}
		for b := from; b < n; b++ {
			if depth+1+(n-1-b) < bestDim {
				break // too few dimensions left to beat the best
			}
			next := levels[depth+1]
			if b < 6 {
				sh := uint(1) << b
				for i, w := range cur {
					next[i] = w & (w >> sh) & zeroBit[b]
				}
			} else {
				off := 1 << (b - 6)
				for i, w := range cur {
					if i&off == 0 {
						next[i] = w & cur[i+off]
					} else {
						next[i] = 0
					}
				}
			}
			visit(depth+1, mask|1<<b, b+1)
		}
	}
	visit(0, 0, 0)
	return best, found
}

// Clone returns an independent copy.
func (f *FreeList) Clone() policy.Allocator {
	c := &FreeList{nodes: f.clone(), lists: make([][]Sub, len(f.lists)), rebuilt: f.rebuilt}
	for d, l := range f.lists {
		c.lists[d] = append([]Sub(nil), l...)
	}
	return c
}

// Lists returns the free subcubes of every dimension, lowest dimension
// first, in list order (for tests and reports).
func (f *FreeList) Lists() [][]Sub {
	out := make([][]Sub, len(f.lists))
	for d, l := range f.lists {
		out[d] = append([]Sub(nil), l...)
	}
	return out
}
