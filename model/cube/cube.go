// Package cube models a hypercube machine, cube:n: 2^n nodes numbered by
// their n-bit addresses, two nodes adjacent when their addresses differ in
// one bit.
//
// A job asks for a k-cube: its processor count rounded up to 2^k (Dim), so
// that a job of 3 processors holds 4 nodes and the fourth counts as
// internal fragmentation. A request above 2^n can never be placed: the
// allocators reject it on arrival (Feasible).
//
// An allocation is a subcube (Sub): the nodes {Base | s : s ⊆ Mask}, whose
// addresses agree on the n−k fixed bits outside Mask. A basic (buddy)
// k-cube has Mask = 2^k − 1; the Gray-code, modified-buddy and free-list
// allocators also give non-basic subcubes. Every allocation is placed as
// one policy.Subcube piece, from which the engine's checker proves that no
// node is held twice.
//
// The allocators (one file each, registry.go lists them) follow P.
// Mohapatra, C. Yu and C. R. Das, "A Lazy Scheduling Scheme for Hypercube
// Computers", J. Parallel Distrib. Comput. 27(1):26–37, 1995, §2.1 (the
// survey of hypercube allocation strategies) and §3.2 (the buddy free
// lists F_0..F_n that the paper uses under every scheduler).
package cube

import (
	"fmt"
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// MaxDim is the largest hypercube dimension the allocators are offered on.
const MaxDim = 20

// Dim is the dimension k of the subcube a job of p ≥ 1 processors asks
// for: the least k with 2^k ≥ p.
func Dim(p int) int {
	if p <= 1 {
		return 0
	}
	return bits.Len(uint(p - 1))
}

// Sub is a subcube allocation: the nodes Base | s for every s ⊆ Mask. Base
// has the Mask bits zero; the subcube's dimension is the number of bits of
// Mask.
type Sub struct {
	Base, Mask int32
}

// Dim is the subcube's dimension.
func (s *Sub) Dim() int { return bits.OnesCount32(uint32(s.Mask)) }

// Procs is the number of nodes held, 2^Dim.
func (s *Sub) Procs() int { return 1 << s.Dim() }

// Placement appends the subcube as one piece (policy.Allocation).
func (s *Sub) Placement(dst []policy.Piece) []policy.Piece {
	return append(dst, policy.Subcube(int(s.Base), int(s.Mask)))
}

// String writes the subcube as its address pattern, highest bit first,
// with * for a free bit: 01** is base 0100, mask 0011 on a 4-cube.
func (s *Sub) String() string { return s.Pattern(bits.Len32(uint32(s.Base | s.Mask))) }

// Pattern writes the subcube's n-bit address pattern.
func (s *Sub) Pattern(n int) string {
	b := make([]byte, n)
	for i := 0; i < n; i++ {
		bit := int32(1) << (n - 1 - i)
		switch {
		case s.Mask&bit != 0:
			b[i] = '*'
		case s.Base&bit != 0:
			b[i] = '1'
		default:
			b[i] = '0'
		}
	}
	return string(b)
}

// machines says whether an allocator is offered on m: dimensions 0..lim.
func machines(lim int) func(m policy.Machine) error {
	return func(m policy.Machine) error {
		if m.Kind != policy.Cube {
			return fmt.Errorf("machine %s is not a hypercube", m)
		}
		if m.Dim > lim {
			return fmt.Errorf("offered on hypercubes of dimension ≤ %d, not %s", lim, m)
		}
		return nil
	}
}

// feasible rejects a job that asks for more than the whole n-cube.
func feasible(j *policy.Job, n int) error {
	if j.Procs > 1<<n {
		return fmt.Errorf("needs a %d-cube (%d processors), machine cube:%d has %d nodes", Dim(j.Procs), j.Procs, n, 1<<n)
	}
	return nil
}

// request returns the dimension j asks for, ok false when it is larger than
// the n-cube or has no processors.
func request(j *policy.Job, n int) (int, bool) {
	if j.Procs < 1 || j.Procs > 1<<n {
		return 0, false
	}
	return Dim(j.Procs), true
}

// nodes is the busy/free state of every node: bit v of the bitmap set when
// node v is busy. Bits beyond 2^n (a cube smaller than a word) are kept
// busy, so that no search finds them free.
type nodes struct {
	n    int
	busy []uint64
	free int
}

func newNodes(n int) nodes {
	s := nodes{n: n, busy: make([]uint64, max(1, (1<<n)/64)), free: 1 << n}
	if n < 6 {
		s.busy[0] = ^uint64(0) << (1 << n)
	}
	return s
}

func (s *nodes) clone() nodes {
	return nodes{n: s.n, busy: append([]uint64(nil), s.busy...), free: s.free}
}

// The methods of policy.Allocator that every
// bitmap strategy shares (BuddyBitmap, Gray, MultiGray, ModBuddy,
// FreeList), promoted from the embedded nodes; each strategy adds
// Allocate and Clone (FreeList its own Release).

// Release frees the subcube.
func (s *nodes) Release(a policy.Allocation) {
	sub := a.(*Sub)
	s.give(int(sub.Base), int(sub.Mask))
}

// Free is the number of free nodes.
func (s *nodes) Free() int { return s.free }

// Size is 2^n.
func (s *nodes) Size() int { return 1 << s.n }

// Feasible rejects a request larger than the n-cube.
func (s *nodes) Feasible(j *policy.Job) error { return feasible(j, s.n) }

// pattern is the bits of the word that subcube (base, mask) has in its
// words: the low six bits of base spread over the low six bits of mask.
func pattern(base, mask int) uint64 {
	p := uint64(1) << (base & 63)
	for m := mask & 63; m != 0; m &= m - 1 {
		p |= p << (1 << bits.TrailingZeros(uint(m)))
	}
	return p
}

// each calls f for every word index of subcube (base, mask), in
// increasing order, until f returns false.
func each(base, mask int, f func(w int) bool) bool {
	hb, hm := base>>6, mask>>6
	for x := 0; ; x = (x - hm) & hm {
		if !f(hb | x) {
			return false
		}
		if x == hm {
			return true
		}
	}
}

// isFree reports whether every node of subcube (base, mask) is free.
func (s *nodes) isFree(base, mask int) bool {
	p := pattern(base, mask)
	return each(base, mask, func(w int) bool { return s.busy[w]&p == 0 })
}

// take marks subcube (base, mask) busy; it panics if a node is busy.
func (s *nodes) take(base, mask int) {
	p := pattern(base, mask)
	each(base, mask, func(w int) bool {
		if s.busy[w]&p != 0 {
			panic(fmt.Sprintf("cube: subcube base %d mask %d overlaps a busy node", base, mask))
		}
		s.busy[w] |= p
		return true
	})
	s.free -= 1 << bits.OnesCount(uint(mask))
}

// give marks subcube (base, mask) free; it panics if a node is free.
func (s *nodes) give(base, mask int) {
	p := pattern(base, mask)
	each(base, mask, func(w int) bool {
		if s.busy[w]&p != p {
			panic(fmt.Sprintf("cube: subcube base %d mask %d released while partly free", base, mask))
		}
		s.busy[w] &^= p
		return true
	})
	s.free += 1 << bits.OnesCount(uint(mask))
}
