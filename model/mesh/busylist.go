package mesh

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// BusyList is Das Sharma & Pradhan's busy-list strategy (BL; "A Fast and
// Efficient Strategy for Submesh Allocation in Mesh-Connected Parallel
// Computers", 1993, as described by Chu 1995 §2.4.6): a best fit that
// places a request where its boundary value, the number of its
// perimeter's neighbours that are busy, is highest. Both orientations,
// w×h and h×w, are compared together.
//
// Boundary value. A neighbour outside the mesh counts as busy: the mesh
// edge is a busy line. Chu does not say so, but his Fig. 8.1 needs it:
// BL's maximum there is 7, reached by <0,5,2,7> on a 10×10 mesh, whose
// neighbours inside the mesh hold at most 6 busy nodes (the BDI values of
// Fig. 8.2, the same mesh, fix which are busy: chuFig81 in
// regions_test.go). A perimeter node at a mesh corner counts both of its
// outside neighbours.
//
// Original BL (Modified false). The candidates of each orientation are
// the four mesh corners (dropped when not free) and, for every allocated
// submesh B, eight positions "at the four corners of B": at each corner,
// one on each of the two sides meeting there, against that side and
// touching B at the corner node only (the candidate right of B at its
// lower-right corner has its top row level with B's bottom row), moved
// inside the mesh when it sticks out. A candidate that is not free slides
// along its side of B, toward the side's other end, one node at a time,
// through every position that touches B inside the mesh; the first free
// position is the candidate, and there is none when it slides past B. So
// the two candidates of a side sweep all of its positions from either
// end, and BL recognises every free submesh (as Chu says it does): a
// free submesh touches a busy one, or slides to one, or to a mesh
// corner, staying free. Candidates free where they start never slide, so
// BL may miss the best position along a side.
//
// Modified BL (Modified true; Sched-All's "Busy List (modified)"): every
// free position touching an allocated submesh or the mesh edge is a
// candidate, so the choice is the free position of highest boundary value
// in either orientation (every position with a nonzero value touches one
// of them, and a free position with value 0 can slide to one of value
// ≥ 1).
//
// Ties: the requested orientation before the rotated one, then the
// smallest y, then the smallest x (so the choice is a total order over
// positions, not an artefact of the candidate order).
type BusyList struct {
	Modified bool

	cols  colGrid
	regs  []Rect   // the free regions of the orientation searched
	bases []uint64 // their bases as a bitset
}

// NewBusyList returns the original (modified false) or the modified BL.
func NewBusyList(modified bool) *BusyList { return &BusyList{Modified: modified} }

// Find returns the candidate of highest boundary value.
func (b *BusyList) Find(s *State, _ *policy.Job, w, h int) (Rect, bool) {
	b.cols.sync(s)
	var best blCandidate
	b.search(s, w, h, false, &best)
	if w != h {
		b.search(s, h, w, true, &best)
	}
	return best.r, best.ok
}

// Boundary returns the boundary value of r: its perimeter's neighbours
// that are busy or outside the mesh.
func (b *BusyList) Boundary(s *State, r Rect) int {
	b.cols.sync(s)
	return boundary(s, &b.cols, r)
}

// Allocated updates the strategy's column view (Tracker).
func (b *BusyList) Allocated(s *State, r Rect) { b.cols.update(s, r, true) }

// Released updates the strategy's column view (Tracker).
func (b *BusyList) Released(s *State, r Rect) { b.cols.update(s, r, false) }

// Clone returns an independent copy (Cloner).
func (b *BusyList) Clone() Strategy {
	return &BusyList{Modified: b.Modified, cols: b.cols.clone()}
}

// blCandidate is the best position so far of a BL search.
type blCandidate struct {
	r   Rect
	v   int  // boundary value
	rot bool // the rotated orientation
	ok  bool
}

// better reports whether c beats d: higher value, then the requested
// orientation, then smaller y, then smaller x.
func (c blCandidate) better(d blCandidate) bool {
	switch {
	case !d.ok:
		return true
	case c.v != d.v:
		return c.v > d.v
	case c.rot != d.rot:
		return !c.rot
	case c.r.Y != d.r.Y:
		return c.r.Y < d.r.Y
	}
	return c.r.X < d.r.X
}

// search offers the candidates of the w×h orientation to best.
func (b *BusyList) search(s *State, w, h int, rot bool, best *blCandidate) {
	W, H := s.W, s.H
	if w > W || h > H {
		return
	}
	b.regs = FreeRegions(s, w, h, b.regs)
	if len(b.regs) == 0 {
		return
	}
	b.bases = regionBases(s, b.regs, b.bases)
	q := blSearch{s: s, cols: &b.cols, bases: b.bases, words: s.Words(), w: w, h: h, rot: rot, best: best}
	// Mesh corners (the original) or edges (the modified).
	if b.Modified {
		q.column(0, 0, H-h)
		q.column(W-w, 0, H-h)
		q.row(0, 0, W-w)
		q.row(H-h, 0, W-w)
	} else {
		q.offer(0, 0)
		q.offer(W-w, 0)
		q.offer(0, H-h)
		q.offer(W-w, H-h)
	}
	for _, bb := range s.List {
		// The positions touching a vertical side of bb have y in
		// [ylo, yhi] (inside the mesh); those touching a horizontal
		// side, x in [xlo, xhi].
		ylo, yhi := max(0, bb.Y-h+1), min(H-h, bb.Y2())
		xlo, xhi := max(0, bb.X-w+1), min(W-w, bb.X2())
		// Vertical sides: left (x = bb.X−w) and right (bb.X2+1).
		for _, x := range [2]int{bb.X - w, bb.X2() + 1} {
			switch {
			case x < 0 || x > W-w:
			case b.Modified:
				q.column(x, ylo, yhi)
			default:
				q.slide(x, ylo, 0, 1, yhi-ylo+1)  // from bb's lower corner, up
				q.slide(x, yhi, 0, -1, yhi-ylo+1) // from bb's upper corner, down
			}
		}
		// Horizontal sides: below (y = bb.Y−h) and above (bb.Y2+1).
		for _, y := range [2]int{bb.Y - h, bb.Y2() + 1} {
			switch {
			case y < 0 || y > H-h:
			case b.Modified:
				q.row(y, xlo, xhi)
			default:
				q.slide(xlo, y, 1, 0, xhi-xlo+1)  // from bb's left corner, right
				q.slide(xhi, y, -1, 0, xhi-xlo+1) // from bb's right corner, left
			}
		}
	}
}

// blSearch is one orientation's search: the free bases as a bitset and
// the best candidate so far.
type blSearch struct {
	s     *State
	cols  *colGrid
	bases []uint64
	words int
	w, h  int
	rot   bool
	best  *blCandidate
}

func (q *blSearch) free(x, y int) bool {
	return q.bases[y*q.words+x/64]>>(uint(x)%64)&1 == 1
}

// offer scores the free base (x, y), if free.
func (q *blSearch) offer(x, y int) {
	if q.free(x, y) {
		q.score(x, y)
	}
}

// score offers the free base (x, y).
func (q *blSearch) score(x, y int) {
	c := blCandidate{r: Rect{x, y, q.w, q.h}, rot: q.rot, ok: true}
	c.v = boundary(q.s, q.cols, c.r)
	if c.better(*q.best) {
		*q.best = c
	}
}

// slide offers the first free base from (x, y) stepping by (dx, dy), up
// to n positions.
func (q *blSearch) slide(x, y, dx, dy, n int) {
	for ; n > 0; n-- {
		if q.free(x, y) {
			q.score(x, y)
			return
		}
		x, y = x+dx, y+dy
	}
}

// column offers the free bases (x, y), lo ≤ y ≤ hi.
func (q *blSearch) column(x, lo, hi int) {
	i, bit := x/64, uint(x)%64
	for y := lo; y <= hi; y++ {
		if q.bases[y*q.words+i]>>bit&1 == 1 {
			q.score(x, y)
		}
	}
}

// row offers the free bases (x, y), lo ≤ x ≤ hi, a word at a time.
func (q *blSearch) row(y, lo, hi int) {
	line := q.bases[y*q.words : (y+1)*q.words]
	for i := lo / 64; i <= hi/64; i++ {
		v := line[i]
		if i == lo/64 {
			v &= ^uint64(0) << (uint(lo) % 64)
		}
		if i == hi/64 {
			v &= ^uint64(0) >> (63 - uint(hi)%64)
		}
		for v != 0 {
			q.score(i*64+bits.TrailingZeros64(v), y)
			v &= v - 1
		}
	}
}

// boundary is the boundary value of r (inside the mesh): the busy or
// off-mesh neighbours of its perimeter.
func boundary(s *State, c *colGrid, r Rect) int {
	g := s.Grid
	v := 0
	if r.Y == 0 {
		v += r.W
	} else {
		v += lineCount(gridRow(g, r.Y-1), r.X, r.W)
	}
	if r.Y2() == s.H-1 {
		v += r.W
	} else {
		v += lineCount(gridRow(g, r.Y2()+1), r.X, r.W)
	}
	if r.X == 0 {
		v += r.H
	} else {
		v += lineCount(c.line(r.X-1), r.Y, r.H)
	}
	if r.X2() == s.W-1 {
		v += r.H
	} else {
		v += lineCount(c.line(r.X2()+1), r.Y, r.H)
	}
	return v
}

// gridRow is the words of row y of g.
func gridRow(g *Grid, y int) []uint64 { return g.rows[y*g.words : (y+1)*g.words] }

// colGrid is the busy array transposed, bit y of column x set when node
// (x, y) is busy, so that strategies look along columns as fast as along
// rows. A strategy keeps it as a Tracker and rebuilds it from the grid
// when it is out of step (a new strategy on a busy mesh).
type colGrid struct {
	w, h, words int
	bits        []uint64
	busy        int
}

// sync rebuilds c from s's grid unless it is in step.
func (c *colGrid) sync(s *State) {
	if c.bits != nil && c.w == s.W && c.h == s.H && c.busy == s.Grid.Busy() {
		return
	}
	c.w, c.h, c.words = s.W, s.H, (s.H+63)/64
	c.bits = make([]uint64, c.w*c.words)
	c.busy = s.Grid.Busy()
	g := s.Grid
	for y := 0; y < g.H; y++ {
		row := gridRow(g, y)
		for i, v := range row {
			for v != 0 {
				x := i*64 + bits.TrailingZeros64(v)
				v &= v - 1
				c.bits[x*c.words+y/64] |= 1 << (uint(y) % 64)
			}
		}
	}
}

// update marks r busy (set) or free in c after s changed.
func (c *colGrid) update(s *State, r Rect, set bool) {
	if c.bits == nil || c.w != s.W || c.h != s.H {
		c.sync(s)
		return
	}
	for x := r.X; x <= r.X2(); x++ {
		line := c.line(x)
		for y := r.Y; y <= r.Y2(); {
			i, off := y/64, uint(y)%64
			n := min(r.Y2()-y+1, 64-int(off))
			m := ^uint64(0) >> (64 - uint(n)) << off
			if set {
				line[i] |= m
			} else {
				line[i] &^= m
			}
			y += n
		}
	}
	if set {
		c.busy += r.Size()
	} else {
		c.busy -= r.Size()
	}
	c.sync(s) // a no-op unless out of step
}

func (c *colGrid) clone() colGrid {
	d := *c
	d.bits = append([]uint64(nil), c.bits...)
	return d
}

// line is the words of column x.
func (c *colGrid) line(x int) []uint64 { return c.bits[x*c.words : (x+1)*c.words] }

// lineCount is the number of set bits at positions lo..lo+n−1 of a line.
func lineCount(line []uint64, lo, n int) int {
	k := 0
	for n > 0 {
		i, off := lo/64, uint(lo)%64
		m := min(n, 64-int(off))
		k += bits.OnesCount64(line[i] & (^uint64(0) >> (64 - uint(m)) << off))
		lo += m
		n -= m
	}
	return k
}

// prevSet returns the highest set position below x in a line, or −1.
func prevSet(line []uint64, x int) int {
	if x <= 0 {
		return -1
	}
	i := (x - 1) / 64
	v := line[i] & (^uint64(0) >> (63 - uint(x-1)%64))
	for {
		if v != 0 {
			return i*64 + 63 - bits.LeadingZeros64(v)
		}
		if i--; i < 0 {
			return -1
		}
		v = line[i]
	}
}

// nextSet returns the lowest set position above x in a line, or limit
// when there is none below limit.
func nextSet(line []uint64, x, limit int) int {
	p := x + 1
	if p >= limit {
		return limit
	}
	i := p / 64
	v := line[i] & (^uint64(0) << (uint(p) % 64))
	for {
		if v != 0 {
			return min(i*64+bits.TrailingZeros64(v), limit)
		}
		if i++; i >= len(line) {
			return limit
		}
		v = line[i]
	}
}
