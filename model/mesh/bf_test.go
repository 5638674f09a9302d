package mesh

import (
	"strings"
	"testing"
)

// bfCorner is a corner of a coverage array with its score and area.
type bfCorner struct{ x, y, score, area int }

// bruteCorners lists the corners of the w×h coverage array of g as Zhu's
// Best Fit describes them (Chu 1995 §2.4.4), by brute force: C[x][y] = 1
// when the w×h submesh based at (x, y) is not free; a corner is a 0 that
// ends a run of 0s in its row and in its column; its score is the number
// of 1s among its four neighbours in the array plus 2 at an array corner
// and 1 on an array edge (on an array of one row or column, the neighbours
// outside the array count as 1s); its area is its row run's length times
// its column run's.
func bruteCorners(g *Grid, w, h int) []bfCorner {
	nx, ny := g.W-w+1, g.H-h+1
	if nx < 1 || ny < 1 {
		return nil
	}
	c := make([][]bool, nx) // true: covered (1)
	for x := range c {
		c[x] = make([]bool, ny)
		for y := range c[x] {
			c[x][y] = !g.IsFree(Rect{x, y, w, h})
		}
	}
	zero := func(x, y int) bool { return x >= 0 && x < nx && y >= 0 && y < ny && !c[x][y] }
	run := func(x, y, dx, dy int) int {
		n := 0
		for ; zero(x, y); x, y = x+dx, y+dy {
			n++
		}
		return n
	}
	var out []bfCorner
	for y := 0; y < ny; y++ {
		for x := 0; x < nx; x++ {
			if !zero(x, y) {
				continue
			}
			rowEnd := !zero(x-1, y) || !zero(x+1, y)
			colEnd := !zero(x, y-1) || !zero(x, y+1)
			if !rowEnd || !colEnd {
				continue
			}
			score := 0
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				if nb := [2]int{x + d[0], y + d[1]}; nb[0] >= 0 && nb[0] < nx && nb[1] >= 0 && nb[1] < ny && c[nb[0]][nb[1]] {
					score++
				}
			}
			edgeX := x == 0 || x == nx-1
			edgeY := y == 0 || y == ny-1
			switch {
			case nx == 1 || ny == 1: // degenerate: count the outside neighbours
				for _, o := range []bool{x == 0, x == nx-1, y == 0, y == ny-1} {
					if o {
						score++
					}
				}
			case edgeX && edgeY:
				score += 2
			case edgeX || edgeY:
				score++
			}
			area := (run(x, y, 1, 0) + run(x, y, -1, 0) - 1) * (run(x, y, 0, 1) + run(x, y, 0, -1) - 1)
			out = append(out, bfCorner{x, y, score, area})
		}
	}
	return out
}

// bruteBest is the best corner: the most 1s, then the smallest area, then
// the smallest y, then the smallest x.
func bruteBest(cs []bfCorner) (bfCorner, bool) {
	if len(cs) == 0 {
		return bfCorner{}, false
	}
	b := cs[0]
	for _, c := range cs[1:] {
		switch {
		case c.score != b.score:
			if c.score > b.score {
				b = c
			}
		case c.area != b.area:
			if c.area < b.area {
				b = c
			}
		case c.y != b.y:
			if c.y < b.y {
				b = c
			}
		case c.x < b.x:
			b = c
		}
	}
	return b, true
}

// bruteBestFit is Best Fit's choice by brute force; rotate compares the
// corners of both orientations, the unrotated request winning a complete
// tie.
func bruteBestFit(g *Grid, w, h int, rotate bool) (Rect, bool) {
	c, ok := bruteBest(bruteCorners(g, w, h))
	r := Rect{c.x, c.y, w, h}
	if rotate && w != h {
		cr, okr := bruteBest(bruteCorners(g, h, w))
		if okr && (!ok || cr.score > c.score || cr.score == c.score && (cr.area < c.area ||
			cr.area == c.area && (cr.y < c.y || cr.y == c.y && cr.x < c.x))) {
			return Rect{cr.x, cr.y, h, w}, true
		}
	}
	return r, ok
}

// Best Fit and bf-rot make exactly the brute-force choice of the same
// rule, find a base whenever one exists (complete recognition), and never
// overlap nor leave the mesh.
func TestBestFitBruteForce(t *testing.T) {
	for _, dim := range meshSizes {
		for _, rot := range []bool{false, true} {
			shape := exactShape
			if rot {
				shape = rotShape
			}
			exercise(t, strategyRun{
				name: "bf", W: dim[0], H: dim[1], strat: BestFit{Rotate: rot}, rotate: rot,
				ref:   func(a *Allocator, w, h int) (Rect, bool) { return bruteBestFit(a.st.Grid, w, h, rot) },
				shape: shape, complete: true,
			}, 2, 2000)
		}
	}
}

// gridFromRows builds a grid from rows of '1' (busy) and '0' (free), the
// top row (y = H−1) first, as Chu prints the busy array.
func gridFromRows(rows ...string) *Grid {
	g := NewGrid(len(rows[0]), len(rows))
	for i, row := range rows {
		y := len(rows) - 1 - i
		for x, c := range row {
			if c == '1' {
				g.Set(Rect{x, y, 1, 1})
			}
		}
	}
	return g
}

// fig81 is a busy pattern for Chu 1995 Fig. 8.1 (10×10 mesh), whose
// drawing the OCR lost: five allocated submeshes, <4,0,8,3>, <0,4,3,4>,
// <0,8,0,9>, <8,7,9,9> and <9,4,9,6> (the same reconstruction as the BDI
// tests'). It agrees with everything that survives of the example and of
// Fig. 8.2, which Chu draws on the same mesh:
//
//   - the top row of the busy array is 1000000011, and the top three rows
//     of the coverage array of J(3,3) (with the reject set) are
//     1111111111, 1111111111, 1000001111;
//   - Best Fit has exactly two "3-corners", C[0,5] of area 6 and C[6,4]
//     of area 3, and chooses C[6,4];
//   - Busy List's highest boundary value is 7, reached by <0,5,2,7> and
//     <6,4,8,6> (the mesh boundary counting as busy);
//   - BDI(<0,0,2,2>) = 6 and BDI(<0,5,2,7>) = 5.64.
//
// It needs the four-neighbour reading of "around" (see BestFit). Under
// eight neighbours no busy pattern agrees: BDI(<0,0,2,2>) = 1+1+1+1+½+½+½+½
// makes (0,4) and (2,4) busy, so C[0,5] would count C[0,4] and C[1,4]
// plus its edge, and C[1,5], C[0,6] and C[1,6] would have to be 0 for a
// 3-corner; with area 6 and C[0,7] = 1 its runs would be 3 by 2, freeing
// columns 0..4 of rows 5..7 and columns 0..3 of row 8; then
// BDI(<0,5,2,7>) ≤ 1+1+1+1 + ½ (north of (0,7): (0,9)) + ⅓ + ⅓ + ⅓ = 5.5,
// not 5.64.
var fig81 = []string{
	"1000000011",
	"1000000011",
	"0000000011",
	"0000000001",
	"0000000001",
	"1111000001",
	"0000111110",
	"0000111110",
	"0000111110",
	"0000111110",
}

// Chu 1995 Fig. 8.1: Best Fit chooses C[6,4] for J(3,3) over C[0,5], both
// 3-corners, by the smaller area.
func TestBestFitFig81(t *testing.T) {
	g := gridFromRows(fig81...)
	st := &State{W: 10, H: 10, Grid: g}
	// The surviving rows of the coverage array (with the reject set).
	b := st.Bases(3, 3)
	for i, want := range []string{"1111111111", "1111111111", "1000001111"} {
		y := 9 - i
		var got strings.Builder
		for x := 0; x < 10; x++ {
			if b[y*st.Words()]>>uint(x)&1 == 1 {
				got.WriteByte('0')
			} else {
				got.WriteByte('1')
			}
		}
		if got.String() != want {
			t.Errorf("coverage row %d: %s, want %s", y, got.String(), want)
		}
	}
	var threes []bfCorner
	for _, c := range bruteCorners(g, 3, 3) {
		if c.score > 3 {
			t.Errorf("corner %+v scores above 3", c)
		}
		if c.score == 3 {
			threes = append(threes, c)
		}
	}
	if want := []bfCorner{{6, 4, 3, 3}, {0, 5, 3, 6}}; len(threes) != 2 || threes[0] != want[0] || threes[1] != want[1] {
		t.Errorf("3-corners %+v, want %+v", threes, want)
	}
	for _, rot := range []bool{false, true} {
		if r, ok := (BestFit{Rotate: rot}).Find(st, nil, 3, 3); !ok || r != (Rect{6, 4, 3, 3}) {
			t.Errorf("rotate=%v: %v %v, want <6,4,8,6>", rot, r, ok)
		}
	}
}

// Small cases of the rule: an isolated free base scores 4 and beats the
// corners of a larger free area; on the empty mesh the array corners tie
// at 2 with the same area and the lowest, leftmost wins; bf-rot takes the
// rotated request when its corner scores more, and the unrotated one on
// a complete tie.
func TestBestFitRules(t *testing.T) {
	for _, c := range []struct {
		name string
		rows []string
		w, h int
		rot  bool
		want Rect
	}{
		{"empty", []string{"0000", "0000", "0000"}, 2, 2, false, Rect{0, 0, 2, 2}},
		// The 1×1 hole at (3,1) scores 4 (1s or the array edge all
		// around); the free column x = 0 has corners of score 3 only.
		{"hole", []string{"0111", "0110", "0111"}, 1, 1, false, Rect{3, 1, 1, 1}},
		// 2×1: eight bases in rows 1 and 2, every corner scoring 2; 1×2
		// rotated: the base (4,0) scores 3 (array corner, busy (3,0)).
		{"rot-better", []string{"00000", "00000", "11110"}, 2, 1, true, Rect{4, 0, 1, 2}},
		// 2×1 and 1×2 on the empty 3×3 mesh: both best at (0,0) with
		// score 2 and area 6.
		{"rot-tie", []string{"000", "000", "000"}, 2, 1, true, Rect{0, 0, 2, 1}},
		{"rot-tie-tall", []string{"000", "000", "000"}, 1, 2, true, Rect{0, 0, 1, 2}},
	} {
		g := gridFromRows(c.rows...)
		st := &State{W: g.W, H: g.H, Grid: g}
		r, ok := (BestFit{Rotate: c.rot}).Find(st, nil, c.w, c.h)
		want, wantOK := bruteBestFit(g, c.w, c.h, c.rot)
		if !ok || r != c.want || !wantOK || want != c.want {
			t.Errorf("%s: %v %v (brute force %v), want %v", c.name, r, ok, want, c.want)
		}
	}
}
