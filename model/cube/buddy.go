package cube

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// Buddy is the buddy system with free lists F_0..F_n (D. E. Knuth, The Art
// of Computer Programming, Vol. 1, §2.5, Algorithms R and S), the
// allocator that P. Mohapatra, C. Yu and C. R. Das, "A Lazy Scheduling
// Scheme for Hypercube Computers", 1995, §3.2 (Buddy_Request,
// Buddy_Release) use under every scheduler. F_i holds the free basic
// i-cubes (base a multiple of 2^i, mask 2^i − 1); at first F_n holds the
// whole n-cube.
//
//   - Request of a k-cube: the first block of F_k; if F_k is empty, the
//     first block of the first non-empty F_j, j = k+1..n, split by the
//     buddy rule down to a k-cube: the lower half is kept and the upper
//     half (base + 2^(j−1)) goes to F_(j−1), and so on.
//   - Release: the block returns to F_k; while its buddy (base XOR 2^k) is
//     a free k-cube in F_k, the two merge into a (k+1)-cube (base AND NOT
//     2^k), one level up.
//
// Readings of what the paper leaves open (Knuth's choices): a list's
// "first" block is its head, and a released or split-off block is put at
// the head (Knuth's AVAIL lists are stacks); the lists are doubly linked
// through per-node arrays (Knuth keeps TAG, KVAL and the links in the
// block's first word), so that removing a buddy is O(1) and request and
// release are O(n). Buddy recognises only basic subcubes: a free k-cube
// made of two non-buddy halves is missed (a test shows one).
type Buddy struct {
	n          int
	free       int
	head       []int32 // head[k]: first block of F_k, −1 when empty
	next, prev []int32 // links of the free block based at a node
	kval       []int8  // dimension of the free block based at a node, −1 when none
}

// NewBuddy returns the buddy system of an all-free n-cube.
func NewBuddy(n int) *Buddy {
	N := 1 << n
	b := &Buddy{n: n, free: N, head: make([]int32, n+1),
		next: make([]int32, N), prev: make([]int32, N), kval: make([]int8, N)}
	for k := range b.head {
		b.head[k] = -1
	}
	for i := range b.kval {
		b.kval[i] = -1
	}
	b.push(0, n)
	return b
}

// push puts the free k-cube based at x at the head of F_k.
func (b *Buddy) push(x int32, k int) {
	h := b.head[k]
	b.next[x], b.prev[x], b.kval[x] = h, -1, int8(k)
	if h >= 0 {
		b.prev[h] = x
	}
	b.head[k] = x
}

// remove takes the free k-cube based at x out of F_k.
func (b *Buddy) remove(x int32, k int) {
	n, p := b.next[x], b.prev[x]
	if p >= 0 {
		b.next[p] = n
	} else {
		b.head[k] = n
	}
	if n >= 0 {
		b.prev[n] = p
	}
	b.kval[x] = -1
}

// Allocate is Buddy_Request.
func (b *Buddy) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := request(j, b.n)
	if !ok || 1<<k > b.free {
		return nil, false
	}
	i := k
	for i <= b.n && b.head[i] < 0 {
		i++
	}
	if i > b.n {
		return nil, false
	}
	x := b.head[i]
	b.remove(x, i)
	for i > k {
		i--
		b.push(x+1<<i, i)
	}
	b.free -= 1 << k
	return &Sub{Base: x, Mask: 1<<k - 1}, true
}

// Release is Buddy_Release.
func (b *Buddy) Release(a policy.Allocation) {
	s := a.(*Sub)
	x, k := s.Base, s.Dim()
	if s.Mask != 1<<k-1 || x&s.Mask != 0 || b.kval[x] >= 0 {
		panic(fmt.Sprintf("buddy: release of %s, not an allocated basic subcube", s.Pattern(b.n)))
	}
	b.free += 1 << k
	for k < b.n {
		y := x ^ 1<<k
		if b.kval[y] != int8(k) {
			break
		}
		b.remove(y, k)
		x &^= 1 << k
		k++
	}
	b.push(x, k)
}

// Free is the number of free nodes.
func (b *Buddy) Free() int { return b.free }

// Size is 2^n.
func (b *Buddy) Size() int { return 1 << b.n }

// Feasible rejects a request larger than the n-cube.
func (b *Buddy) Feasible(j *policy.Job) error { return feasible(j, b.n) }

// Clone returns an independent copy.
func (b *Buddy) Clone() policy.Allocator {
	return &Buddy{n: b.n, free: b.free, head: append([]int32(nil), b.head...),
		next: append([]int32(nil), b.next...), prev: append([]int32(nil), b.prev...),
		kval: append([]int8(nil), b.kval...)}
}

// FreeList returns the bases of the blocks of F_k in list order (for tests
// and reports).
func (b *Buddy) FreeList(k int) []int {
	var out []int
	for x := b.head[k]; x >= 0; x = b.next[x] {
		out = append(out, int(x))
	}
	return out
}
