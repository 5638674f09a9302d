package sched

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// buddy is a minimal test-only buddy subcube allocator for cube:n (the
// free-list form of Mohapatra, Yu & Das 1995 §3.2, after Knuth): free
// lists F_0..F_n of aligned block bases; a k-cube (2^⌈log2 procs⌉ nodes)
// comes from F_k, else from the smallest larger non-empty list, split by
// the buddy rule; the lowest base is taken; a released block merges with
// its buddy while the buddy is free. The real hypercube allocators live in
// model/cube; pcw only needs one deterministic, clonable subcube allocator.
type buddy struct {
	n    int
	free [][]int // free[k]: sorted bases of the free k-cubes
	nfre int
}

func newBuddy(n int) *buddy {
	b := &buddy{n: n, free: make([][]int, n+1), nfre: 1 << n}
	b.free[n] = []int{0}
	return b
}

// testSubcube is a k-cube at base.
type testSubcube struct{ base, k int }

func (a testSubcube) Procs() int { return 1 << a.k }
func (a testSubcube) Placement(dst []policy.Piece) []policy.Piece {
	return append(dst, policy.Subcube(a.base, 1<<a.k-1))
}
func (a testSubcube) Nodes(dst []int) []int {
	for i := 0; i < 1<<a.k; i++ {
		dst = append(dst, a.base+i)
	}
	return dst
}

// dim is the dimension of the subcube a job of procs processors needs.
func dim(procs int) int { return bits.Len(uint(procs - 1)) }

func (b *buddy) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k := dim(j.Procs)
	if k > b.n {
		return nil, false
	}
	l := k
	for l <= b.n && len(b.free[l]) == 0 {
		l++
	}
	if l > b.n {
		return nil, false
	}
	base := b.free[l][0]
	b.free[l] = b.free[l][1:]
	for l > k { // split: keep the lower half, free the upper
		l--
		b.insert(l, base+1<<l)
	}
	b.nfre -= 1 << k
	return testSubcube{base, k}, true
}

func (b *buddy) insert(k, base int) {
	i, _ := slices.BinarySearch(b.free[k], base)
	b.free[k] = slices.Insert(b.free[k], i, base)
}

func (b *buddy) Release(a policy.Allocation) {
	c := a.(testSubcube)
	b.nfre += 1 << c.k
	base, k := c.base, c.k
	for k < b.n {
		bud := base ^ 1<<k
		i, ok := slices.BinarySearch(b.free[k], bud)
		if !ok {
			break
		}
		b.free[k] = slices.Delete(b.free[k], i, i+1)
		base &^= 1 << k
		k++
	}
	b.insert(k, base)
}

// take allocates the k-cube at base (which must be free), to set up a
// hand-made state.
func (b *buddy) take(base, k int) testSubcube {
	for l := k; l <= b.n; l++ {
		top := base &^ (1<<l - 1)
		i, ok := slices.BinarySearch(b.free[l], top)
		if !ok {
			continue
		}
		b.free[l] = slices.Delete(b.free[l], i, i+1)
		for l > k { // split towards base
			l--
			half := top + 1<<l
			if base >= half {
				b.insert(l, top)
				top = half
			} else {
				b.insert(l, half)
			}
		}
		b.nfre -= 1 << k
		return testSubcube{base, k}
	}
	panic(fmt.Sprintf("take(%d, %d): not free", base, k))
}

func (b *buddy) Free() int { return b.nfre }
func (b *buddy) Size() int { return 1 << b.n }
func (b *buddy) Clone() policy.Allocator {
	c := &buddy{n: b.n, free: make([][]int, len(b.free)), nfre: b.nfre}
	for k := range b.free {
		c.free[k] = slices.Clone(b.free[k])
	}
	return c
}

func (b *buddy) Feasible(j *policy.Job) error {
	if dim(j.Procs) > b.n {
		return fmt.Errorf("needs a %d-cube, machine is a %d-cube", dim(j.Procs), b.n)
	}
	return nil
}
