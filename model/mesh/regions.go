package mesh

// FreeRegions returns the free regions of a w×h request (Bhattacharya &
// Tsai, "Lookahead Processor Allocation in Mesh-Connected Massively
// Parallel Multicomputer", 1994, as described by Chu 1995 §2.4.7 and
// Fig. 8.3 steps 3–4): disjoint rectangles of bases whose union is
// exactly the set of bases of the free w×h submeshes. Each Rect is a
// rectangle of bases, not of nodes: every (x, y) with X ≤ x ≤ X2 and
// Y ≤ y ≤ Y2 is the lower-left corner of a free w×h submesh.
//
// The computation starts from the base-eligible region <0,0,W−w,H−h>
// (Chu prints <0,0,W−w+1,H−h+1>, one too far on each axis: a base at
// x = W−w+1 would put the submesh's last column outside the mesh) and
// subtracts the coverage submesh of every allocated submesh <x1,y1,x2,y2>,
// <max(0,x1−w+1), max(0,y1−h+1), x2, y2> (Chuang & Tzeng's formula, Chu
// §2.4.2): the bases whose submesh would overlap it.
//
// The result depends on the order of subtraction and on how a region is
// cut (Chu §2.4.7). Ours: the allocated submeshes in busy-list order
// (allocation order); a region overlapping a coverage submesh C is
// replaced, in place in the list, by up to four pieces: the full-width
// part below C, the full-width part above C, then, within C's rows, the
// part left of C and the part right of C (horizontal cuts first).
//
// The regions are appended to dst[:0], which is returned. The cost is
// O(N_A · R) for N_A allocated submeshes and R regions (O(N_A) in
// Bhattacharya & Tsai's analysis, so O(N_A²) in all).
func FreeRegions(s *State, w, h int, dst []Rect) []Rect {
	dst = dst[:0]
	if w < 1 || h < 1 || w > s.W || h > s.H {
		return dst
	}
	dst = append(dst, Rect{0, 0, s.W - w + 1, s.H - h + 1})
	for _, b := range s.List {
		c := coverage(b.Rect, w, h)
		// The pieces of this step go after the current regions, then
		// replace them.
		n := len(dst)
		for i := 0; i < n; i++ {
			dst = subtract(dst, dst[i], c)
		}
		dst = dst[:copy(dst, dst[n:])]
		if len(dst) == 0 {
			break
		}
	}
	return dst
}

// coverage is the coverage submesh of b for a w×h request: the bases of
// the w×h submeshes that overlap b (Chuang & Tzeng, Chu §2.4.2).
func coverage(b Rect, w, h int) Rect {
	x, y := max(0, b.X-w+1), max(0, b.Y-h+1)
	return Rect{x, y, b.X2() - x + 1, b.Y2() - y + 1}
}

// subtract appends to dst the pieces of r outside c: r itself when they
// do not overlap, else below, above, left, right.
func subtract(dst []Rect, r, c Rect) []Rect {
	if !r.Overlaps(c) {
		return append(dst, r)
	}
	if r.Y < c.Y {
		dst = append(dst, Rect{r.X, r.Y, r.W, c.Y - r.Y})
	}
	if r.Y2() > c.Y2() {
		dst = append(dst, Rect{r.X, c.Y2() + 1, r.W, r.Y2() - c.Y2()})
	}
	y0, y1 := max(r.Y, c.Y), min(r.Y2(), c.Y2())
	if r.X < c.X {
		dst = append(dst, Rect{r.X, y0, c.X - r.X, y1 - y0 + 1})
	}
	if r.X2() > c.X2() {
		dst = append(dst, Rect{c.X2() + 1, y0, r.X2() - c.X2(), y1 - y0 + 1})
	}
	return dst
}

// regionBases sets dst (resized to s's rows of words) to the bases of the
// regions, laid out as Grid.Bases: bit x of row y set when (x, y) lies in
// one. From FreeRegions, it equals Grid.Bases without its cost.
func regionBases(s *State, regs []Rect, dst []uint64) []uint64 {
	words := s.Words()
	n := s.H * words
	if cap(dst) < n {
		dst = make([]uint64, n)
	}
	dst = dst[:n]
	clear(dst)
	for _, g := range regs {
		for y := g.Y; y <= g.Y2(); y++ {
			row := dst[y*words : (y+1)*words]
			for x, k := g.X, g.W; k > 0; {
				i, off := x/64, uint(x)%64
				m := min(k, 64-int(off))
				row[i] |= ^uint64(0) >> (64 - uint(m)) << off
				x += m
				k -= m
			}
		}
	}
	return dst
}

// overlap is the number of nodes (or bases) r and c share.
func overlap(r, c Rect) int {
	w := min(r.X2(), c.X2()) - max(r.X, c.X) + 1
	h := min(r.Y2(), c.Y2()) - max(r.Y, c.Y) + 1
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}
