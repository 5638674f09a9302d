package torus

import (
	"fmt"
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// Curve orders and selections of the one-dimensional allocators.
const (
	OrderRow     = "row"     // row-major: x fastest, then y, then z (node numbers)
	OrderSnake   = "snake"   // boustrophedon: every other row reversed, every other plane's rows reversed
	OrderHilbert = "hilbert" // the Hilbert curve (Skilling 2004's construction)

	FitFirst  = "first"  // the first free interval (along the curve) that holds the job
	FitBest   = "best"   // the shortest free interval that holds it
	FitSorted = "sorted" // the job's count of free nodes first along the curve (a sorted free list)
)

// Curve is Leung et al.'s one-dimensional allocation ("Processor
// allocation on Cplant: achieving general processor locality using
// one-dimensional allocation strategies", Leung, Arkin, Bender, Bunde,
// Johnston, Lal, Mitchell, Phillips & Seiden, 2002, as SST's scheduler
// element implemented it: LinearAllocator with FirstFitAllocator,
// BestFitAllocator and SortedFreeListAllocator). The nodes are ordered
// along a curve (Order) and the machine is treated as a line: a maximal
// run of free nodes along the curve is an interval (a bin).
//
//   - first fit takes the first k nodes of the first interval (in curve
//     order) holding at least k;
//   - best fit those of the shortest such interval (the first of equal
//     length);
//   - sorted free list the first k free nodes along the curve, whatever
//     the gaps (Cplant's own allocator, on its curve).
//
// When no interval holds the job, first and best fit take, as SST's
// LinearAllocator did, the k free nodes of smallest span along the curve
// (the window of k consecutive free nodes, in curve order, whose first
// and last are closest; the first such window). So every selection
// places a job whenever k nodes are free, exactly k nodes.
//
// Readings: SST's intervals and span are along the curve's positions; so
// are ours. The Hilbert curve is Skilling's ("Programming the Hilbert
// curve", 2004) in three dimensions on an X×Y×Z machine (two on a 2-D
// torus); on a machine that is not a cube (square) of power-of-two side,
// the curve of the smallest such cube covering it, its positions outside
// the machine skipped (SST ran Hilbert on power-of-two meshes only); it is
// offered when that cube has at most 2^24 nodes (the order is built once
// per allocator).
type Curve struct {
	Order, Fit string
	order      []int32  // curve position → node
	pos        []int32  // node → curve position
	free       []uint64 // by curve position: 1 free
	scratch    []int
	all        []int    // scratch: the free positions (least-span windows)
	set        []uint64 // scratch: the nodes chosen, by node number
	ivLo, ivN  int      // the interval of positions place chose (ivN = 0: the positions in scratch)
}

// NewCurve returns the one-dimensional allocator of order and fit on g.
func NewCurve(g Geom, order, fit string) (*Curve, error) {
	o, err := curveOrder(g, order)
	if err != nil {
		return nil, err
	}
	c := &Curve{Order: order, Fit: fit, order: o, pos: make([]int32, len(o)), free: make([]uint64, (len(o)+63)/64)}
	for i, n := range o {
		c.pos[n] = int32(i)
	}
	for i := range o {
		c.free[i>>6] |= 1 << (uint(i) & 63)
	}
	return c, nil
}

// curveOrder returns the nodes of g in the order of the curve.
func curveOrder(g Geom, order string) ([]int32, error) {
	out := make([]int32, 0, g.N())
	switch order {
	case OrderRow:
		for n := 0; n < g.N(); n++ {
			out = append(out, int32(n))
		}
	case OrderSnake:
		row := 0
		for z := 0; z < g.Z; z++ {
			for j := 0; j < g.Y; j++ {
				y := j
				if z%2 == 1 {
					y = g.Y - 1 - j
				}
				for i := 0; i < g.X; i++ {
					x := i
					if row%2 == 1 {
						x = g.X - 1 - i
					}
					out = append(out, int32(g.Node(x, y, z)))
				}
				row++
			}
		}
	case OrderHilbert:
		if err := hilbertMachines(g); err != nil {
			return nil, err
		}
		dims := 3
		if g.Z == 1 {
			dims = 2
		}
		b := bits.Len(uint(max(g.X, g.Y, g.Z) - 1))
		total := uint64(1) << uint(b*dims)
		for h := uint64(0); h < total; h++ {
			p := hilbertAxes(h, b, dims)
			if int(p[0]) < g.X && int(p[1]) < g.Y && int(p[2]) < g.Z {
				out = append(out, int32(g.Node(int(p[0]), int(p[1]), int(p[2]))))
			}
		}
	default:
		return nil, fmt.Errorf("order %q: want %s, %s or %s", order, OrderRow, OrderSnake, OrderHilbert)
	}
	return out, nil
}

// hilbertMachines says whether the Hilbert order is offered on g: the
// power-of-two cube (square, on a 2-D torus) covering it holds at most
// 2^24 nodes.
func hilbertMachines(g Geom) error {
	dims := 3
	if g.Z == 1 {
		dims = 2
	}
	b := bits.Len(uint(max(g.X, g.Y, g.Z) - 1))
	if b*dims > 24 {
		return fmt.Errorf("hilbert order: the power-of-two cube covering %dx%dx%d has more than 2^24 nodes", g.X, g.Y, g.Z)
	}
	return nil
}

// hilbertAxes returns the coordinates of point h of the dims-dimensional
// Hilbert curve of side 2^b: h's bits dealt out to the axes (the
// "transpose"), then Skilling's TransposetoAxes (Gray decoding, then
// undoing the excess work level by level).
func hilbertAxes(h uint64, b, dims int) [3]uint32 {
	var x [3]uint32
	for i := 0; i < b*dims; i++ {
		bit := uint32(h>>uint(b*dims-1-i)) & 1
		x[i%dims] |= bit << uint(b-1-i/dims)
	}
	if b == 0 {
		return x
	}
	n := uint32(2) << uint(b-1)
	t := x[dims-1] >> 1
	for i := dims - 1; i > 0; i-- {
		x[i] ^= x[i-1]
	}
	x[0] ^= t
	for q := uint32(2); q != n; q <<= 1 {
		p := q - 1
		for i := dims - 1; i >= 0; i-- {
			if x[i]&q != 0 {
				x[0] ^= p
			} else {
				t = (x[0] ^ x[i]) & p
				x[0] ^= t
				x[i] ^= t
			}
		}
	}
	return x
}

func (c *Curve) clone() strategy {
	d := *c
	d.free = append([]uint64(nil), c.free...)
	d.scratch, d.set, d.all = nil, nil, nil
	return &d
}

// allocated marks busy the positions place chose (an interval, else the
// positions kept in scratch: place is followed by allocated).
func (c *Curve) allocated(_ *State, _ []policy.Piece) {
	if c.ivN > 0 {
		for lo, hi := c.ivLo, c.ivLo+c.ivN; lo < hi; {
			n := min(hi-lo, 64-lo&63)
			m := ^uint64(0)
			if n < 64 {
				m = (uint64(1)<<uint(n) - 1) << (uint(lo) & 63)
			}
			c.free[lo>>6] &^= m
			lo += n
		}
		return
	}
	for _, p := range c.scratch {
		c.free[p>>6] &^= 1 << (uint(p) & 63)
	}
}

func (c *Curve) released(s *State, ps []policy.Piece) { c.flip(s, ps, true) }

// flip marks the curve positions of the pieces' nodes free or busy.
func (c *Curve) flip(s *State, ps []policy.Piece, free bool) {
	g := s.G
	for _, p := range ps {
		q, _ := g.CuboidOf(p)
		for k := 0; k < q.C; k++ {
			z := (q.Z0 + k) % g.Z
			for j := 0; j < q.B; j++ {
				row := g.X * ((q.Y0+j)%g.Y + g.Y*z)
				for i := 0; i < q.A; i++ {
					x := q.X0 + i
					if x >= g.X {
						x -= g.X
					}
					pos := c.pos[row+x]
					if free {
						c.free[pos>>6] |= 1 << (uint(pos) & 63)
					} else {
						c.free[pos>>6] &^= 1 << (uint(pos) & 63)
					}
				}
			}
		}
	}
}

// nextFree returns the first free position ≥ i, or len(order).
func (c *Curve) nextFree(i int) int {
	n := len(c.order)
	for i < n {
		w := c.free[i>>6] >> (uint(i) & 63)
		if w != 0 {
			return min(i+bits.TrailingZeros64(w), n)
		}
		i = (i | 63) + 1
	}
	return n
}

// nextBusy returns the first busy position ≥ i, or len(order).
func (c *Curve) nextBusy(i int) int {
	n := len(c.order)
	for i < n {
		w := ^c.free[i>>6] >> (uint(i) & 63)
		if w != 0 {
			return min(i+bits.TrailingZeros64(w), n)
		}
		i = (i | 63) + 1
	}
	return n
}

func (c *Curve) place(s *State, _ *policy.Job, k int, dst []policy.Piece) ([]policy.Piece, bool) {
	n := len(c.order)
	pos := c.scratch[:0]
	switch c.Fit {
	case FitSorted:
		for i := c.nextFree(0); len(pos) < k && i < n; i = c.nextFree(i + 1) {
			pos = append(pos, i)
		}
	default:
		start, best := -1, n+1
		for i := c.nextFree(0); i < n; {
			e := c.nextBusy(i)
			if l := e - i; l >= k && l < best {
				start, best = i, l
				if c.Fit == FitFirst {
					break
				}
			}
			i = c.nextFree(e)
		}
		if start >= 0 {
			// One interval: its nodes straight into the set, its positions
			// cleared by words in allocated.
			if len(c.set) == 0 {
				c.set = make([]uint64, len(c.free))
			}
			for _, n := range c.order[start : start+k] {
				c.set[n>>6] |= 1 << (uint(n) & 63)
			}
			c.ivLo, c.ivN = start, k
			c.scratch = pos
			return s.G.runsOfBuf(c.set, dst, &s.rb), true
		}
		// No interval holds the job: the k free positions of least span.
		all := c.all[:0]
		for i := c.nextFree(0); i < n; i = c.nextFree(i + 1) {
			all = append(all, i)
		}
		c.all = all
		if len(all) < k {
			return dst, false
		}
		from := 0
		for i := 1; i+k <= len(all); i++ {
			if all[i+k-1]-all[i] < all[from+k-1]-all[from] {
				from = i
			}
		}
		pos = append(pos, all[from:from+k]...)
	}
	if len(pos) < k {
		return dst, false
	}
	c.ivN = 0
	if len(c.set) == 0 {
		c.set = make([]uint64, len(c.free))
	}
	for _, p := range pos {
		n := c.order[p]
		c.set[n>>6] |= 1 << (uint(n) & 63)
	}
	c.scratch = pos
	return s.G.runsOfBuf(c.set, dst, &s.rb), true
}
