// Package mesh holds the 2-D mesh machine (mesh:WxH) and its contiguous
// processor allocators, after Chu (1995), "Processor Allocation and Job
// Scheduling in Two-Dimensional Mesh Systems" (PhD thesis, Michigan State
// University), which describes and compares them.
//
// A job requests a w×h submesh; an allocation is a rectangle, node (x, y)
// numbered y·W + x (model/policy's convention). The busy array is a
// bitset, one row of 64-bit words per mesh row, so that the search for
// free submeshes is word-parallel: Grid.Bases computes the coverage
// array of a request (Zhu's C[i,j] = 0 where a base is free) with shifts
// and ANDs, O(H · words · log(w·h)).
package mesh

import (
	"fmt"
	"math/bits"
)

// Rect is a submesh: lower-left corner (X, Y), W columns and H rows
// (Chu's <x1,y1,x2,y2> = <X, Y, X+W−1, Y+H−1>).
type Rect struct{ X, Y, W, H int }

// X2 and Y2 are the upper-right corner's coordinates.
func (r Rect) X2() int { return r.X + r.W - 1 }

// Y2 is the upper-right corner's row.
func (r Rect) Y2() int { return r.Y + r.H - 1 }

// Size is the number of nodes of r.
func (r Rect) Size() int { return r.W * r.H }

// Overlaps reports whether r and s share a node.
func (r Rect) Overlaps(s Rect) bool {
	return r.X < s.X+s.W && s.X < r.X+r.W && r.Y < s.Y+s.H && s.Y < r.Y+r.H
}

// Inside reports whether r lies inside the W×H mesh.
func (r Rect) Inside(w, h int) bool {
	return r.X >= 0 && r.Y >= 0 && r.W >= 1 && r.H >= 1 && r.X+r.W <= w && r.Y+r.H <= h
}

func (r Rect) String() string { return fmt.Sprintf("<%d,%d,%d,%d>", r.X, r.Y, r.X2(), r.Y2()) }

// Grid is the busy array of a W×H mesh: bit x of row y is 1 when node
// (x, y) is busy.
type Grid struct {
	W, H  int
	words int      // words per row
	rows  []uint64 // H rows of words
	busy  int
}

// NewGrid returns an all-free W×H grid.
func NewGrid(w, h int) *Grid {
	words := (w + 63) / 64
	return &Grid{W: w, H: h, words: words, rows: make([]uint64, h*words)}
}

// Clone returns an independent copy.
func (g *Grid) Clone() *Grid {
	c := *g
	c.rows = append([]uint64(nil), g.rows...)
	return &c
}

// Busy is the number of busy nodes.
func (g *Grid) Busy() int { return g.busy }

// Free is the number of free nodes.
func (g *Grid) Free() int { return g.W*g.H - g.busy }

// At reports whether node (x, y) is busy.
func (g *Grid) At(x, y int) bool {
	return g.rows[y*g.words+x/64]>>(uint(x)%64)&1 == 1
}

// rowMask applies f to the words of row y covering columns x..x+w−1, with
// the mask of those columns in each word.
func (g *Grid) rowMask(y, x, w int, f func(word *uint64, mask uint64)) {
	row := g.rows[y*g.words : (y+1)*g.words]
	for w > 0 {
		i, off := x/64, uint(x)%64
		n := min(w, 64-int(off))
		var m uint64
		if n == 64 {
			m = ^uint64(0)
		} else {
			m = (uint64(1)<<uint(n) - 1) << off
		}
		f(&row[i], m)
		x += n
		w -= n
	}
}

// Set marks r busy; every node of r must be free.
func (g *Grid) Set(r Rect) {
	for y := r.Y; y <= r.Y2(); y++ {
		g.rowMask(y, r.X, r.W, func(w *uint64, m uint64) {
			if *w&m != 0 {
				panic(fmt.Sprintf("mesh: %v overlaps a busy node in row %d", r, y))
			}
			*w |= m
		})
	}
	g.busy += r.Size()
}

// Clear marks r free; every node of r must be busy.
func (g *Grid) Clear(r Rect) {
	for y := r.Y; y <= r.Y2(); y++ {
		g.rowMask(y, r.X, r.W, func(w *uint64, m uint64) {
			if *w&m != m {
				panic(fmt.Sprintf("mesh: releasing %v, which holds a free node in row %d", r, y))
			}
			*w &^= m
		})
	}
	g.busy -= r.Size()
}

// IsFree reports whether every node of r (inside the mesh) is free.
func (g *Grid) IsFree(r Rect) bool {
	free := true
	for y := r.Y; y <= r.Y2() && free; y++ {
		g.rowMask(y, r.X, r.W, func(w *uint64, m uint64) { free = free && *w&m == 0 })
	}
	return free
}

// Bases returns the bases of the free w×h submeshes as a bitset in dst
// (resized), laid out as the grid's rows: bit x of row y is set when the
// submesh with lower-left corner (x, y) lies inside the mesh and is free.
// It is the complement of Zhu's coverage array C (Chu §2.4.3), computed
// word-parallel: free runs of w columns by log-doubling shifts along each
// row, then of h rows by log-doubling ANDs across rows.
func (g *Grid) Bases(w, h int, dst []uint64) []uint64 {
	n := g.H * g.words
	if cap(dst) < n {
		dst = make([]uint64, n)
	}
	dst = dst[:n]
	if w < 1 || h < 1 || w > g.W || h > g.H {
		clear(dst)
		return dst
	}
	// Horizontal: bit x set when x..x+w−1 are free.
	tmp := make([]uint64, g.words)
	acc := make([]uint64, g.words)
	for y := 0; y < g.H; y++ {
		row := dst[y*g.words : (y+1)*g.words]
		busy := g.rows[y*g.words : (y+1)*g.words]
		for i := range row {
			row[i] = ^busy[i]
		}
		g.maskRow(row)
		runs(row, w, tmp, acc)
		copy(row, acc)
		g.limitRow(row, g.W-w)
	}
	// Vertical: row y keeps the bits set in rows y..y+h−1.
	if h > 1 {
		verticalRuns(dst, g.H, g.words, h)
	}
	for y := g.H - h + 1; y < g.H; y++ {
		clear(dst[y*g.words : (y+1)*g.words])
	}
	return dst
}

// maskRow clears the bits beyond the mesh's width.
func (g *Grid) maskRow(row []uint64) {
	if r := g.W % 64; r != 0 {
		row[len(row)-1] &= uint64(1)<<uint(r) - 1
	}
}

// limitRow clears the bits of columns > last.
func (g *Grid) limitRow(row []uint64, last int) {
	for i := range row {
		lo := i * 64
		switch {
		case last < lo:
			row[i] = 0
		case last < lo+63:
			row[i] &= uint64(1)<<uint(last-lo+1) - 1
		}
	}
}

// shiftDown sets dst to src shifted toward lower columns by k: bit x of
// dst = bit x+k of src.
func shiftDown(dst, src []uint64, k int) {
	ws, bs := k/64, uint(k%64)
	for i := range dst {
		var v uint64
		if j := i + ws; j < len(src) {
			v = src[j] >> bs
			if bs != 0 && j+1 < len(src) {
				v |= src[j+1] << (64 - bs)
			}
		}
		dst[i] = v
	}
}

// runs sets acc to the bits x of row such that x..x+w−1 are all set, by
// binary decomposition of w: cur holds runs of length l (doubling), acc
// the runs of the lengths of w's bits taken so far, starting at x+shift.
func runs(row []uint64, w int, tmp, acc []uint64) {
	for i := range acc {
		acc[i] = ^uint64(0)
	}
	cur := append([]uint64(nil), row...)
	shift, l := 0, 1
	for w > 0 {
		if w&1 == 1 {
			shiftDown(tmp, cur, shift)
			for i := range acc {
				acc[i] &= tmp[i]
			}
			shift += l
		}
		w >>= 1
		if w > 0 {
			shiftDown(tmp, cur, l)
			for i := range cur {
				cur[i] &= tmp[i]
			}
			l *= 2
		}
	}
}

// verticalRuns keeps, in each row y, the bits set in rows y..y+h−1
// (rows past the last count as clear).
func verticalRuns(rows []uint64, nrows, words, h int) {
	cur := append([]uint64(nil), rows...)
	acc := make([]uint64, len(rows))
	for i := range acc {
		acc[i] = ^uint64(0)
	}
	get := func(s []uint64, y, i int) uint64 {
		if y >= nrows {
			return 0
		}
		return s[y*words+i]
	}
	shift, l := 0, 1
	for h > 0 {
		if h&1 == 1 {
			for y := 0; y < nrows; y++ {
				for i := 0; i < words; i++ {
					acc[y*words+i] &= get(cur, y+shift, i)
				}
			}
			shift += l
		}
		h >>= 1
		if h > 0 {
			for y := 0; y < nrows; y++ {
				for i := 0; i < words; i++ {
					cur[y*words+i] &= get(cur, y+l, i)
				}
			}
			l *= 2
		}
	}
	copy(rows, acc)
}

// FirstBase returns the first set bit of a Bases bitset in row-major order
// from the bottom (smallest y, then smallest x: Ding & Bhuyan's adaptive
// scan order), or ok false.
func FirstBase(b []uint64, words int) (x, y int, ok bool) {
	for i, v := range b {
		if v != 0 {
			return (i%words)*64 + bits.TrailingZeros64(v), i / words, true
		}
	}
	return 0, 0, false
}
