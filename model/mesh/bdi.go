package mesh

import "github.com/schedlab/schedlab/model/policy"

// BDI is Chu's Busy Distance Inverse strategy (Chu 1995 Ch. 8, Fig. 8.3;
// Chu & Rover, "An Effective Two-Dimensional Mesh Partitioning Strategy",
// 1995): a best fit that puts a job in the most crowded area.
//
// Candidates are the four corners of every free region of the request
// (FreeRegions): a corner (x, y) of a region of bases is the base of the
// candidate <x, y, x+w−1, y+h−1>, whichever corner of the region it is
// (§8.3). Each candidate is scored by Value: the sum of the inverses of
// its eight busy distances (Defs 8.2–8.4), and the largest wins. Ties
// (values within 1e−9) go to the lowest base: smallest y, then smallest
// x. With no allocated submesh the job goes to <0,0,w−1,h−1> (step 2).
// The h×w request is tried only when the w×h one has no free region
// (step 6).
//
// Busy distance. From a corner node, the number of hops in a direction to
// the nearest busy node, the mesh edge counting as a busy line just
// outside the mesh: so a corner next to the edge has distance 1 (Def.
// 8.2), and with no busy node on the way the distance southward from row y
// is y+1, northward H−y, westward x+1, eastward W−x. Chu says each corner
// measures the distance "to the nearest busy processor or mesh boundary"
// (§8.1); his Fig. 8.2 values (BDI 6 for <0,0,2,2>, 5.64 for <0,5,2,7>) are
// reproduced with this reading by a busy pattern that also gives Fig.
// 8.1's Best Fit and Busy List figures (chuFig81 in regions_test.go).
type BDI struct {
	// Both compares the candidates of both orientations together
	// (bdi:rotate=both), instead of trying the rotated request only when
	// the original has no free region (Fig. 8.3 step 6, the default): the
	// alternative reading tried against Chu's Ch. 8 results.
	Both bool

	cols colGrid
	regs []Rect
}

// NewBDI returns a Busy Distance Inverse strategy.
func NewBDI() *BDI { return &BDI{} }

// bdiTie is the margin within which two BDI values count as equal.
const bdiTie = 1e-9

// Find returns the candidate of largest BDI.
func (b *BDI) Find(s *State, _ *policy.Job, w, h int) (Rect, bool) {
	b.cols.sync(s)
	r, v, ok := b.find(s, w, h)
	if w == h || ok && !b.Both {
		return r, ok
	}
	rr, rv, rok := b.find(s, h, w)
	if rok && (!ok || rv > v+bdiTie) {
		return rr, true // ties keep the requested orientation
	}
	return r, ok
}

func (b *BDI) find(s *State, w, h int) (Rect, float64, bool) {
	if w > s.W || h > s.H {
		return Rect{}, 0, false
	}
	if len(s.List) == 0 {
		return Rect{0, 0, w, h}, 0, true
	}
	b.regs = FreeRegions(s, w, h, b.regs)
	var best Rect
	bestV, ok := 0.0, false
	offer := func(x, y int) {
		r := Rect{x, y, w, h}
		v := b.value(s, r)
		if !ok || v > bestV+bdiTie || v > bestV-bdiTie && (y < best.Y || y == best.Y && x < best.X) {
			best, bestV, ok = r, v, true
		}
	}
	for _, g := range b.regs {
		offer(g.X, g.Y)
		if g.W > 1 {
			offer(g.X2(), g.Y)
		}
		if g.H > 1 {
			offer(g.X, g.Y2())
			if g.W > 1 {
				offer(g.X2(), g.Y2())
			}
		}
	}
	return best, bestV, ok
}

// Value returns BDI(r) on s (r inside the mesh; Def. 8.4).
func (b *BDI) Value(s *State, r Rect) float64 {
	b.cols.sync(s)
	return b.value(s, r)
}

func (b *BDI) value(s *State, r Rect) float64 {
	g, c := s.Grid, &b.cols
	x1, y1, x2, y2 := r.X, r.Y, r.X2(), r.Y2()
	south := func(x, y int) int { return y - prevSet(c.line(x), y) }
	north := func(x, y int) int { return nextSet(c.line(x), y, s.H) - y }
	west := func(x, y int) int { return x - prevSet(gridRow(g, y), x) }
	east := func(x, y int) int { return nextSet(gridRow(g, y), x, s.W) - x }
	inv := func(d int) float64 { return 1 / float64(d) }
	return inv(south(x1, y1)) + inv(west(x1, y1)) + // LLS, LLW
		inv(south(x2, y1)) + inv(east(x2, y1)) + // LRS, LRE
		inv(north(x1, y2)) + inv(west(x1, y2)) + // ULN, ULW
		inv(north(x2, y2)) + inv(east(x2, y2)) // URN, URE
}

// Allocated updates the strategy's column view (Tracker).
func (b *BDI) Allocated(s *State, r Rect) { b.cols.update(s, r, true) }

// Released updates the strategy's column view (Tracker).
func (b *BDI) Released(s *State, r Rect) { b.cols.update(s, r, false) }

// Clone returns an independent copy (Cloner).
func (b *BDI) Clone() Strategy { return &BDI{Both: b.Both, cols: b.cols.clone()} }
