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
	"slices"
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
	pre   []uint64 // Bases's scratch
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
	c.pre = nil
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
// It is the complement of Zhu's coverage array C (Chu 1995 §2.4.3),
// computed a word at a time: along each row from its maximal free runs (a
// run of length l ≥ w holds l−w+1 bases), O(runs) per row, copied from
// the row below when the busy row is the same (the rows a job spans);
// then across h rows by a sliding-window AND (van Herk; Gil & Werman:
// prefix and suffix ANDs within blocks of h rows), three passes whatever
// h. It allocates nothing once dst and the grid's scratch have grown.
func (g *Grid) Bases(w, h int, dst []uint64) []uint64 {
	words := g.words
	n := g.H * words
	if cap(dst) < n {
		dst = make([]uint64, n)
	}
	if cap(g.pre) < n {
		g.pre = make([]uint64, n)
	}
	b, pre := dst[:n], g.pre[:n]
	clear(b)
	if w < 1 || h < 1 || w > g.W || h > g.H {
		return b
	}
	last := g.W - w
	for y := 0; y < g.H; y++ {
		row, out := g.rows[y*words:(y+1)*words], b[y*words:(y+1)*words]
		if y > 0 && slices.Equal(row, g.rows[(y-1)*words:y*words]) {
			copy(out, b[(y-1)*words:y*words])
			continue
		}
		for x := 0; x <= last; {
			s := nextBit(row, x, g.W, false)
			if s > last {
				break
			}
			t := nextBit(row, s, g.W, true)
			if t-s >= w {
				setRange(out, s, t-w)
			}
			x = t + 1
		}
	}
	if h > 1 {
		for k := 0; k < g.H; k += h {
			end := min(k+h, g.H) // block k..end−1
			// pre: the AND of rows from the block's start to each row.
			copy(pre[k*words:(k+1)*words], b[k*words:(k+1)*words])
			for y := k + 1; y < end; y++ {
				for i := y * words; i < (y+1)*words; i++ {
					pre[i] = pre[i-words] & b[i]
				}
			}
			// b: the AND of rows from each row to the block's end, in
			// place.
			for y := end - 2; y >= k; y-- {
				for i := y * words; i < (y+1)*words; i++ {
					b[i] &= b[i+words]
				}
			}
		}
		// The window y..y+h−1: the suffix of y's block and the prefix of
		// the next one up to y+h−1 (the whole block when y starts one).
		for k := 0; k+h <= g.H; k += h {
			for y := k + 1; y < k+h && y+h <= g.H; y++ {
				for i := y * words; i < (y+1)*words; i++ {
					b[i] &= pre[i+(h-1)*words]
				}
			}
		}
		clear(b[(g.H-h+1)*words:])
	}
	return b
}

// nextBit returns the first column ≥ x of a row of the grid that is busy
// (busy true) or free, or W when there is none.
func nextBit(row []uint64, x, W int, busy bool) int {
	for i := x / 64; i < len(row); i++ {
		v := row[i]
		if !busy {
			v = ^v
		}
		if i == x/64 {
			v &= ^uint64(0) << (uint(x) % 64)
		}
		if v != 0 {
			return min(W, i*64+bits.TrailingZeros64(v))
		}
	}
	return W
}

// setRange sets bits a..b (inclusive) of a row.
func setRange(row []uint64, a, b int) {
	for i := a / 64; i <= b/64; i++ {
		m := ^uint64(0)
		if i == a/64 {
			m <<= uint(a) % 64
		}
		if i == b/64 && b%64 != 63 {
			m &= uint64(1)<<(uint(b)%64+1) - 1
		}
		row[i] |= m
	}
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

// runEnds returns word i of row y of a bases bitset b (rows of words, as
// Bases lays them out) and, for each of its bits, whether the base to the
// left, right, below and above is not free: a free base with l or r set
// ends a run of its row, with d or u set a run of its column (Zhu's
// corners). Bases leaves the bits past W−w and the rows past H−h clear, so
// the coverage array's edges end runs.
func runEnds(b []uint64, words, rows, y, i int) (cur, l, r, d, u uint64) {
	row := b[y*words : (y+1)*words]
	cur = row[i]
	if cur == 0 {
		return 0, 0, 0, 0, 0
	}
	left := cur << 1
	if i > 0 {
		left |= row[i-1] >> 63
	}
	right := cur >> 1
	if i+1 < words {
		right |= row[i+1] << 63
	}
	var down, up uint64
	if y > 0 {
		down = b[(y-1)*words+i]
	}
	if y+1 < rows {
		up = b[(y+1)*words+i]
	}
	return cur, ^left, ^right, ^down, ^up
}
