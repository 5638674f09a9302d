// Package torus holds the three-dimensional machine families, mesh3d:XxYxZ
// (a 3-D mesh) and torus:XxYxZ (a 3-D torus: wrap-around links on every
// axis; torus:XxY is a 2-D torus), and their processor allocators: the
// machines of Blue Gene, Cray XT and Cplant.
//
// Node (x, y, z) is number x + X·(y + Y·z) (row-major, z slowest), the
// planes z = 0, 1, ... being consecutive blocks of X·Y node numbers. The
// distance between two nodes is the number of links on a shortest path
// (dimension-order routing): Manhattan on the mesh, the sum of the
// per-axis ring distances min(|d|, L − |d|) on the torus.
//
// Jobs ask for a processor count (policy.RequestCount). Placements are
// cuboids, possibly wrapping around a torus's axes (Cuboid, piece): a
// contiguous allocator gives one, the others several (a curve's or a
// random allocation's runs of consecutive nodes along x, MBS's cubes).
package torus

import (
	"fmt"
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// Geom is the shape of a 3-D machine: X×Y×Z nodes, with wrap-around links
// (Wrap: a torus) or without (a mesh). A 2-D torus has Z = 1.
type Geom struct {
	X, Y, Z int
	Wrap    bool
}

// GeomOf returns the geometry of machine m of either family.
func GeomOf(m policy.Machine) Geom {
	return Geom{X: m.Width, Y: m.Height, Z: max(m.Depth, 1), Wrap: m.Kind == TorusKind}
}

// N is the number of nodes.
func (g Geom) N() int { return g.X * g.Y * g.Z }

// Node returns the number of node (x, y, z).
func (g Geom) Node(x, y, z int) int { return x + g.X*(y+g.Y*z) }

// XYZ returns the coordinates of node n.
func (g Geom) XYZ(n int) (x, y, z int) {
	return n % g.X, n / g.X % g.Y, n / (g.X * g.Y)
}

// Dims returns the axis lengths.
func (g Geom) Dims() [3]int { return [3]int{g.X, g.Y, g.Z} }

// axisDist is the distance between coordinates a and b on an axis of
// length l: |a − b| on a mesh, the ring distance on a torus.
func (g Geom) axisDist(a, b, l int) int {
	d := a - b
	if d < 0 {
		d = -d
	}
	if g.Wrap && l-d < d {
		d = l - d
	}
	return d
}

// Dist is the hop distance between nodes a and b.
func (g Geom) Dist(a, b int) int {
	ax, ay, az := g.XYZ(a)
	bx, by, bz := g.XYZ(b)
	return g.axisDist(ax, bx, g.X) + g.axisDist(ay, by, g.Y) + g.axisDist(az, bz, g.Z)
}

// Diameter is the largest distance between two nodes.
func (g Geom) Diameter() int {
	d := 0
	for _, l := range g.Dims() {
		if g.Wrap {
			d += l / 2
		} else {
			d += l - 1
		}
	}
	return d
}

// Cuboid is a block of A×B×C nodes whose lowest corner is (X0, Y0, Z0);
// on a torus it may wrap around an axis (coordinates are taken modulo the
// axis length).
type Cuboid struct{ X0, Y0, Z0, A, B, C int }

// Size is the number of nodes of c.
func (c Cuboid) Size() int { return c.A * c.B * c.C }

func (c Cuboid) String() string {
	return fmt.Sprintf("%dx%dx%d@(%d,%d,%d)", c.A, c.B, c.C, c.X0, c.Y0, c.Z0)
}

// Piece returns c as a placement piece on g: X is the number of its lowest
// corner, W its extent along x, Mask its extent along y, H its extent
// along y times its extent along z (so that, as for every family, the
// piece holds W·H nodes), Y is 0.
func (g Geom) Piece(c Cuboid) policy.Piece {
	return policy.Piece{X: int32(g.Node(c.X0, c.Y0, c.Z0)), W: int32(c.A), H: int32(c.B * c.C), Mask: int32(c.B)}
}

// CuboidOf decodes piece p (Geom.Piece); ok is false when p is not a
// well-formed piece of a placement on g.
func (g Geom) CuboidOf(p policy.Piece) (Cuboid, bool) {
	if p.Y != 0 || p.W < 1 || p.H < 1 || p.Mask < 1 || p.X < 0 || int(p.X) >= g.N() || p.H%p.Mask != 0 {
		return Cuboid{}, false
	}
	x, y, z := g.XYZ(int(p.X))
	c := Cuboid{x, y, z, int(p.W), int(p.Mask), int(p.H / p.Mask)}
	if c.A > g.X || c.B > g.Y || c.C > g.Z {
		return Cuboid{}, false
	}
	if !g.Wrap && (x+c.A > g.X || y+c.B > g.Y || z+c.C > g.Z) {
		return Cuboid{}, false
	}
	return c, true
}

// AppendNodes appends the nodes of c to dst, x fastest, then y, then z.
func (g Geom) AppendNodes(c Cuboid, dst []int) []int {
	for k := 0; k < c.C; k++ {
		z := (c.Z0 + k) % g.Z
		for j := 0; j < c.B; j++ {
			y := (c.Y0 + j) % g.Y
			base := g.X * (y + g.Y*z)
			if c.X0+c.A <= g.X {
				for x := c.X0; x < c.X0+c.A; x++ {
					dst = append(dst, base+x)
				}
				continue
			}
			for i := 0; i < c.A; i++ {
				dst = append(dst, base+(c.X0+i)%g.X)
			}
		}
	}
	return dst
}

// runs returns the sorted, distinct nodes as pieces (runsOf).
func (g Geom) runs(nodes []int, dst []policy.Piece) []policy.Piece {
	set := make([]uint64, (g.N()+63)/64)
	for _, n := range nodes {
		set[n>>6] |= 1 << (uint(n) & 63)
	}
	return g.runsOf(set, dst)
}

// block is a cuboid under construction (runsOf).
type block struct{ x, y, z, a, b, c int }

// runsOf returns the nodes of the bitset set (bit n%64 of word n/64: node
// n), which it clears, as pieces: maximal runs of consecutive nodes along
// x within one row, merged with the identical runs of the row above into
// rectangles, and those with the identical rectangles of the plane above
// into cuboids (greedily, in node order): few pieces for a compact
// placement, whatever allocated it. O(N/64 + runs).
func (g Geom) runsOf(set []uint64, dst []policy.Piece) []policy.Piece {
	return g.runsOfBuf(set, dst, &runBuf{})
}

// runBuf holds runsOf's working lists, reused from call to call.
type runBuf struct {
	rects, cubes        []block
	prevRow, curRow     []int
	prevPlane, curPlane []int
}

// runsOfBuf is runsOf with its working lists in b.
func (g Geom) runsOfBuf(set []uint64, dst []policy.Piece, b *runBuf) []policy.Piece {
	rects, cubes := b.rects[:0], b.cubes[:0]
	prevRow, curRow := b.prevRow[:0], b.curRow[:0]         // rects whose last row is the previous (current) row, by x
	prevPlane, curPlane := b.prevPlane[:0], b.curPlane[:0] // cubes whose last plane is the previous (current) one, by (y, x)
	defer func() {
		b.rects, b.cubes, b.prevRow, b.curRow, b.prevPlane, b.curPlane = rects, cubes, prevRow, curRow, prevPlane, curPlane
	}()
	rowY, rowZ := -1, -1 // the current row
	planeZ := -1
	pr, pp := 0, 0 // cursors in prevRow, prevPlane
	closeRow := func(y, z int) {
		if z == rowZ && y == rowY {
			return
		}
		if z == rowZ && y == rowY+1 {
			prevRow, curRow = curRow, prevRow[:0]
		} else {
			prevRow, curRow = prevRow[:0], curRow[:0]
		}
		rowY, rowZ, pr = y, z, 0
	}
	addRun := func(x, y, z, a int) {
		closeRow(y, z)
		for pr < len(prevRow) && rects[prevRow[pr]].x < x {
			pr++
		}
		if pr < len(prevRow) && rects[prevRow[pr]].x == x && rects[prevRow[pr]].a == a {
			curRow = append(curRow, prevRow[pr])
			rects[prevRow[pr]].b++
			pr++
			return
		}
		curRow = append(curRow, len(rects))
		rects = append(rects, block{x, y, z, a, 1, 1})
	}
	n := g.N()
	for w := 0; w < len(set); w++ {
		for set[w] != 0 {
			lo := w*64 + bits.TrailingZeros64(set[w])
			// the run: up to the next clear bit or the row's end
			rowEnd := min((lo/g.X+1)*g.X, n)
			hi := lo
			for hi < rowEnd {
				off := uint(hi) & 63
				ones := min(bits.TrailingZeros64(^(set[hi>>6] >> off)), 64-int(off), rowEnd-hi)
				if ones == 0 {
					break
				}
				m := ^uint64(0)
				if ones < 64 {
					m = (uint64(1)<<uint(ones) - 1) << off
				}
				set[hi>>6] &^= m
				hi += ones
				if int(off)+ones < 64 && hi < rowEnd {
					break // the run ended inside this word
				}
			}
			x, y, z := g.XYZ(lo)
			addRun(x, y, z, hi-lo)
			w = lo >> 6
		}
	}
	// Rectangles (in order of (z, y, x) of their first row) into cuboids.
	for _, r := range rects {
		if r.z != planeZ {
			if r.z == planeZ+1 {
				prevPlane, curPlane = curPlane, prevPlane[:0]
			} else {
				prevPlane, curPlane = prevPlane[:0], curPlane[:0]
			}
			planeZ, pp = r.z, 0
		}
		for pp < len(prevPlane) && (cubes[prevPlane[pp]].y < r.y || cubes[prevPlane[pp]].y == r.y && cubes[prevPlane[pp]].x < r.x) {
			pp++
		}
		if pp < len(prevPlane) {
			c := &cubes[prevPlane[pp]]
			if c.y == r.y && c.x == r.x && c.a == r.a && c.b == r.b {
				c.c++
				curPlane = append(curPlane, prevPlane[pp])
				pp++
				continue
			}
		}
		curPlane = append(curPlane, len(cubes))
		cubes = append(cubes, r)
	}
	for _, c := range cubes {
		dst = append(dst, g.Piece(Cuboid{c.x, c.y, c.z, c.a, c.b, c.c}))
	}
	return dst
}
