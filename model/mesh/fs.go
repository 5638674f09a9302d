package mesh

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// FrameSliding is Chuang & Tzeng's Frame Sliding (Chuang & Tzeng 1991,
// as described by Chu 1995 §2.4.2): starting from the lowest, leftmost
// free processor, w×h frames are tested one after another, sliding w
// nodes to the right; past the right boundary the frame moves up h nodes
// and slides right to left, and so on (a serpentine scan) until a free
// frame is found or the mesh is exhausted. No rotation. The fixed strides
// make it miss free submeshes that lie off the frame lattice: no complete
// submesh recognition.
//
// Readings of the ambiguities:
//
//   - The starting processor (x0, y0) is the first free node in row-major
//     order from the bottom (smallest y, then smallest x), and it is the
//     base of the first frame. The frames are then those of the lattice
//     anchored there: bases (x0 + k·w, y0 + l·h), k any integer, l ≥ 0,
//     that lie in the mesh with their whole frame (x ≤ W−w, y ≤ H−h;
//     the bases beyond are Chu's reject set). Row y0 is scanned from x0
//     rightward, row y0+h from its rightmost lattice frame leftward, row
//     y0+2h rightward again, and so on. (The literal slide also moves
//     past bases in the reject set and turns when the base leaves the
//     mesh; it visits the same frames in the same order.)
//   - Frames to the left of x0 are considered in the rows above y0 (the
//     leftward slide continues to the left boundary); in row y0 they would
//     hold the busy nodes left of x0. Frames below y0 are never
//     considered: every node below row y0 is busy, so none could be free.
//   - A frame is taken when none of its nodes is busy (its base lies in
//     no coverage submesh and not in the reject set), tested here on the
//     busy array row by row rather than against the busy list.
type FrameSliding struct{}

// Find returns the first free frame of the serpentine scan.
func (FrameSliding) Find(s *State, _ *policy.Job, w, h int) (Rect, bool) {
	g := s.Grid
	if w > g.W || h > g.H {
		return Rect{}, false
	}
	x0, y0, ok := lowestFree(g)
	if !ok {
		return Rect{}, false
	}
	first := x0 % w // the leftmost lattice column
	if first > g.W-w {
		return Rect{}, false // no lattice frame fits across
	}
	last := first + (g.W-w-first)/w*w // the rightmost
	for l, y := 0, y0; y <= g.H-h; l, y = l+1, y+h {
		if l%2 == 0 {
			x := first
			if l == 0 {
				x = x0
			}
			for ; x <= last; x += w {
				if frameFree(g, x, y, w, h) {
					return Rect{x, y, w, h}, true
				}
			}
		} else {
			for x := last; x >= 0; x -= w {
				if frameFree(g, x, y, w, h) {
					return Rect{x, y, w, h}, true
				}
			}
		}
	}
	return Rect{}, false
}

// lowestFree returns the free node with the smallest y, then the
// smallest x.
func lowestFree(g *Grid) (x, y int, ok bool) {
	for y := 0; y < g.H; y++ {
		row := g.rows[y*g.words : (y+1)*g.words]
		for i, v := range row {
			free := ^v
			if i == g.words-1 && g.W%64 != 0 {
				free &= uint64(1)<<uint(g.W%64) - 1
			}
			if free != 0 {
				return i*64 + bits.TrailingZeros64(free), y, true
			}
		}
	}
	return 0, 0, false
}

// frameFree reports whether the w×h frame based at (x, y), inside the
// mesh, holds no busy node; it stops at the first busy row.
func frameFree(g *Grid, x, y, w, h int) bool {
	i0, i1 := x/64, (x+w-1)/64
	m0 := ^uint64(0) << uint(x%64)
	m1 := ^uint64(0) >> uint(63-(x+w-1)%64)
	for r := y; r < y+h; r++ {
		row := g.rows[r*g.words : (r+1)*g.words]
		if i0 == i1 {
			if row[i0]&m0&m1 != 0 {
				return false
			}
			continue
		}
		if row[i0]&m0 != 0 || row[i1]&m1 != 0 {
			return false
		}
		for i := i0 + 1; i < i1; i++ {
			if row[i] != 0 {
				return false
			}
		}
	}
	return true
}
