package cube

import (
	"github.com/schedlab/schedlab/model/policy"
)

// Gray is the single Gray-code strategy (M.-S. Chen and K. G. Shin,
// "Processor allocation in an N-cube multiprocessor using Gray codes",
// IEEE Trans. Comput. C-36(12), 1987), as described by P. Mohapatra, C. Yu
// and C. R. Das, "A Lazy Scheduling Scheme for Hypercube Computers", 1995,
// §2.1: the allocation bits are kept in binary-reflected Gray code (BRGC)
// order, position i holding node i XOR (i >> 1); a k-cube request gets the
// nodes at positions (i mod 2^n), i ∈ [m·2^(k−1), (m+2)·2^(k−1) − 1], for
// the least m, 0 ≤ m < 2^(n−k+1), for which they are all free.
//
// Any 2^k cyclically consecutive BRGC positions starting at a multiple of
// 2^(k−1) form a k-subcube: the two halves are the blocks of positions
// h = m and h = m+1 (mod 2^(n−k+1)) of 2^(k−1) positions, whose Gray codes
// agree on the high bits except one. The subcube is therefore the low k−1
// bits plus that one bit, on the bits both codes share; the allocation
// carries it as (base, mask), and it may be non-basic: for k = 2 on the
// 3-cube, positions 2..5 hold nodes 011, 010, 110, 111, the subcube *1*.
// A 0-cube request gets the node at the least free position m.
//
// Readings: "least m" scans m upwards from 0 and the last window wraps
// round to position 0 (the code is cyclic); m < 2^(n−k+1) covers every
// window once (for k = n both windows are the whole cube). One Gray code
// recognises twice as many subcubes as buddy but not all of them (a test
// shows a free subcube it misses); MultiGray uses C(n, ⌊n/2⌋) codes for
// complete recognition. Allocation is O(2^n), release O(2^k).
type Gray struct {
	nodes
	codes []grayCode
}

// grayCode is a BRGC with its bits assigned to node dimensions: code bit b
// is node dimension perm[b]. The identity is the binary-reflected Gray
// code itself.
type grayCode struct{ perm []int8 }

// node maps a code-space address to a node address.
func (c grayCode) node(x int) int {
	v := 0
	for b := 0; x != 0; b, x = b+1, x>>1 {
		v |= (x & 1) << c.perm[b]
	}
	return v
}

// NewGray returns the single-Gray-code strategy of an all-free n-cube.
func NewGray(n int) *Gray {
	id := make([]int8, n)
	for i := range id {
		id[i] = int8(i)
	}
	return &Gray{nodes: newNodes(n), codes: []grayCode{{id}}}
}

// gray is the binary-reflected Gray code of i.
func gray(i int) int { return i ^ i>>1 }

// window returns the k-subcube, in code space, of the m-th window of
// 2^k consecutive positions of an n-bit BRGC starting at m·2^(k−1)
// (k ≥ 1), or position m (k = 0).
func window(n, k, m int) (base, mask int) {
	if k == 0 {
		return gray(m), 0
	}
	h1, h2 := m, (m+1)&(1<<(n-k+1)-1)
	g1, g2 := gray(h1), gray(h2)
	low := 1<<(k-1) - 1
	return (g1 & g2) << (k - 1), (g1^g2)<<(k-1) | low
}

// search returns the first free k-subcube of the codes, in code order and
// then position order.
func (s *nodes) search(codes []grayCode, k int) (base, mask int, ok bool) {
	windows := 1 << (s.n - k + 1)
	if k == 0 {
		windows = 1 << s.n
	}
	for _, c := range codes {
		for m := 0; m < windows; m++ {
			b, mk := window(s.n, k, m)
			b, mk = c.node(b), c.node(mk)
			if s.isFree(b, mk) {
				return b, mk, true
			}
		}
	}
	return 0, 0, false
}

// Allocate gives j the first free window of the Gray code.
func (g *Gray) Allocate(j *policy.Job) (policy.Allocation, bool) { return g.allocate(g.codes, j) }

func (s *nodes) allocate(codes []grayCode, j *policy.Job) (policy.Allocation, bool) {
	k, ok := request(j, s.n)
	if !ok || 1<<k > s.free {
		return nil, false
	}
	b, m, ok := s.search(codes, k)
	if !ok {
		return nil, false
	}
	s.take(b, m)
	return &Sub{Base: int32(b), Mask: int32(m)}, true
}

// Clone returns an independent copy (the codes are shared: read-only).
func (g *Gray) Clone() policy.Allocator { return &Gray{nodes: g.clone(), codes: g.codes} }
