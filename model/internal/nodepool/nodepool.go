// Package nodepool is the free-node bookkeeping shared by the fat-tree and
// dragonfly allocators (model/fattree, model/dragonfly): a machine's nodes
// 0..N−1 split into consecutive leaves (a fat tree's leaf switches, a
// dragonfly's routers), a free bitmap and a free count per leaf. An
// allocation is a list of node ranges (policy.Range pieces), its storage
// O(pieces).
package nodepool

import (
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// Pool is the free nodes of a machine whose leaves are the consecutive
// ranges Bound[l]..Bound[l+1]−1.
type Pool struct {
	bits  []uint64 // bit q%64 of word q/64 set: node q free
	free  int
	n     int
	Bound []int32  // leaf boundaries, Bound[0] = 0, Bound[L] = N (shared, read-only)
	Free  []int32  // free nodes per leaf
	width int      // > 0: every leaf has width nodes (leaf of q = q/width)
	mark  []uint64 // scratch of Random
}

// New returns a pool of the nodes 0..bound[len−1]−1, all free, whose leaves
// are the ranges of bound.
func New(bound []int32) *Pool {
	n := int(bound[len(bound)-1])
	p := &Pool{bits: make([]uint64, (n+63)/64), free: n, n: n, Bound: bound, Free: make([]int32, len(bound)-1)}
	for i := range p.bits {
		p.bits[i] = ^uint64(0)
	}
	if r := n & 63; r != 0 {
		p.bits[len(p.bits)-1] = 1<<uint(r) - 1
	}
	w := bound[1] - bound[0]
	for l := range p.Free {
		p.Free[l] = bound[l+1] - bound[l]
		if p.Free[l] != w {
			w = 0
		}
	}
	p.width = int(w)
	return p
}

// Leaves is the number of leaves.
func (p *Pool) Leaves() int { return len(p.Free) }

// LeafOf is the leaf holding node q.
func (p *Pool) LeafOf(q int) int {
	if p.width > 0 {
		return q / p.width
	}
	l, ok := slices.BinarySearch(p.Bound, int32(q))
	if !ok {
		l--
	}
	return l
}

// Span is the nodes Lo..Lo+N−1.
type Span struct{ Lo, N int32 }

// Alloc is an allocation: ranges of node numbers in the order taken, never
// overlapping.
type Alloc struct {
	Spans []Span
	N     int
}

// Procs implements policy.Allocation.
func (a *Alloc) Procs() int { return a.N }

// Placement implements policy.Allocation: one range per span.
func (a *Alloc) Placement(dst []policy.Piece) []policy.Piece {
	for _, s := range a.Spans {
		dst = append(dst, policy.Range(int(s.Lo), int(s.N)))
	}
	return dst
}

func (a *Alloc) add(lo, n int) {
	if k := len(a.Spans) - 1; k >= 0 && int(a.Spans[k].Lo+a.Spans[k].N) == lo {
		a.Spans[k].N += int32(n)
	} else {
		a.Spans = append(a.Spans, Span{int32(lo), int32(n)})
	}
	a.N += n
}

// Size is the number of nodes.
func (p *Pool) Size() int { return p.n }

// FreeCount is the number of free nodes.
func (p *Pool) FreeCount() int { return p.free }

// IsFree reports whether node q is free.
func (p *Pool) IsFree(q int) bool { return p.bits[q>>6]>>(uint(q)&63)&1 == 1 }

// Take moves the k lowest-numbered free nodes of leaf l (k ≤ Free[l]) into
// a and returns k.
func (p *Pool) Take(l, k int, a *Alloc) int {
	if k <= 0 {
		return 0
	}
	lo, hi := int(p.Bound[l]), int(p.Bound[l+1])
	need := k
	for w := lo >> 6; need > 0 && w<<6 < hi; w++ {
		x := p.bits[w]
		if w<<6 < lo {
			x &^= 1<<uint(lo&63) - 1
		}
		if (w+1)<<6 > hi {
			x &= 1<<uint(hi&63) - 1
		}
		for x != 0 && need > 0 {
			s := bits.TrailingZeros64(x)
			run := bits.TrailingZeros64(^(x >> uint(s)))
			if run > need {
				run = need
			}
			m := (^uint64(0) >> uint(64-run)) << uint(s)
			x &^= m
			p.bits[w] &^= m
			a.add(w<<6+s, run)
			need -= run
		}
	}
	p.Free[l] -= int32(k)
	p.free -= k
	return k
}

// TakeNode moves free node q into a.
func (p *Pool) TakeNode(q int, a *Alloc) {
	p.bits[q>>6] &^= 1 << (uint(q) & 63)
	p.Free[p.LeafOf(q)]--
	p.free--
	a.add(q, 1)
}

// Release frees the nodes of a; up, when set, is told every leaf's change
// (the leaf, the number of nodes freed there).
func (p *Pool) Release(a *Alloc, up func(leaf, n int)) {
	for _, s := range a.Spans {
		q, end := int(s.Lo), int(s.Lo+s.N)
		for q < end {
			l := p.LeafOf(q)
			e := min(end, int(p.Bound[l+1]))
			p.set(q, e-q)
			p.Free[l] += int32(e - q)
			if up != nil {
				up(l, e-q)
			}
			q = e
		}
	}
	p.free += a.N
}

// Leaves calls f for every leaf a holds nodes on, with their number.
func (p *Pool) EachLeaf(a *Alloc, f func(leaf, n int)) {
	for _, s := range a.Spans {
		q, end := int(s.Lo), int(s.Lo+s.N)
		for q < end {
			l := p.LeafOf(q)
			e := min(end, int(p.Bound[l+1]))
			f(l, e-q)
			q = e
		}
	}
}

// set marks nodes lo..lo+n−1 (n ≥ 1) free.
func (p *Pool) set(lo, n int) {
	i, j := lo>>6, (lo+n-1)>>6
	first := ^uint64(0) << uint(lo&63)
	last := ^uint64(0) >> uint(63-(lo+n-1)&63)
	if i == j {
		p.bits[i] |= first & last
		return
	}
	p.bits[i] |= first
	for k := i + 1; k < j; k++ {
		p.bits[k] = ^uint64(0)
	}
	p.bits[j] |= last
}

// Clone returns an independent copy (sharing the read-only bounds).
func (p *Pool) Clone() *Pool {
	c := *p
	c.bits = slices.Clone(p.bits)
	c.Free = slices.Clone(p.Free)
	c.mark = nil
	return &c
}

// Random moves k free nodes (k ≤ FreeCount) chosen uniformly at random into
// a, in increasing order: a uniform k-subset of the ranks 0..Free−1 by
// Floyd's algorithm (k draws, marked in a bitset), then the free nodes of
// those ranks, found in one pass over the free bitmap. The choice depends
// only on rng's stream and the free set. up, when set, is told every
// leaf's change. O(k · 64 + N/64).
func (p *Pool) Random(rng *rand.Rand, k int, a *Alloc, up func(leaf, n int)) {
	m := p.free
	words := (m + 63) / 64
	if cap(p.mark) < words {
		p.mark = make([]uint64, words)
	}
	mark := p.mark[:words]
	clear(mark)
	for j := m - k; j < m; j++ {
		t := rng.IntN(j + 1)
		if mark[t>>6]>>(uint(t)&63)&1 == 1 {
			t = j
		}
		mark[t>>6] |= 1 << (uint(t) & 63)
	}
	rank, taken := 0, 0
	for w := 0; taken < k; w++ {
		x := p.bits[w]
		c := bits.OnesCount64(x)
		if c == 0 {
			continue
		}
		// the marks of ranks rank..rank+c−1
		lo, off := rank>>6, uint(rank&63)
		win := mark[lo] >> off
		if off != 0 && lo+1 < len(mark) {
			win |= mark[lo+1] << (64 - off)
		}
		if c < 64 {
			win &= 1<<uint(c) - 1
		}
		// the chosen free nodes of word w: deposit win's bits on x's set
		// bits (a few by selecting each, many by walking x)
		var sel uint64
		if bits.OnesCount64(win) <= 4 {
			for win != 0 {
				b := bits.TrailingZeros64(win)
				win &= win - 1
				y := x
				for ; b > 0; b-- {
					y &= y - 1
				}
				sel |= y & -y
			}
		} else {
			for y := x; y != 0 && win != 0; y &= y - 1 {
				if win&1 == 1 {
					sel |= y & -y
				}
				win >>= 1
			}
		}
		p.bits[w] &^= sel
		for sel != 0 {
			q := w<<6 + bits.TrailingZeros64(sel)
			run := bits.TrailingZeros64(^(sel >> uint(q&63)))
			sel &^= (^uint64(0) >> uint(64-run)) << uint(q&63)
			for run > 0 { // split the run at leaf boundaries
				l := p.LeafOf(q)
				n := min(run, int(p.Bound[l+1])-q)
				p.Free[l] -= int32(n)
				if up != nil {
					up(l, -n)
				}
				a.add(q, n)
				q += n
				run -= n
				taken += n
			}
		}
		rank += c
	}
	p.free -= k
}

// Deal spreads k items over bins of the given capacities (Σ cap ≥ k) as
// dealing one item per bin in index order, round after round, skipping full
// bins: every bin gets min(cap, t) for the largest level t that fits, and the
// first bins (in index order) with room above t one more. It writes the
// counts to out (len(cap)).
func Deal(cap []int32, k int, out []int32) {
	lo, hi := 0, 0
	for _, c := range cap {
		hi = max(hi, int(c))
	}
	fill := func(t int) int {
		s := 0
		for _, c := range cap {
			s += min(int(c), t)
		}
		return s
	}
	for lo < hi { // the largest t with fill(t) ≤ k
		mid := (lo + hi + 1) / 2
		if fill(mid) <= k {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	rest := k - fill(lo)
	for i, c := range cap {
		out[i] = min(c, int32(lo))
		if rest > 0 && int(c) > lo {
			out[i]++
			rest--
		}
	}
}
