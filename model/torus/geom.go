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

// runs returns the sorted, distinct nodes as pieces: maximal runs of
// consecutive nodes along x within one row (A×1×1 cuboids).
func (g Geom) runs(nodes []int, dst []policy.Piece) []policy.Piece {
	for i := 0; i < len(nodes); {
		k := i
		for k+1 < len(nodes) && nodes[k+1] == nodes[k]+1 && nodes[k+1]%g.X != 0 {
			k++
		}
		dst = append(dst, policy.Piece{X: int32(nodes[i]), W: int32(k - i + 1), H: 1, Mask: 1})
		i = k + 1
	}
	return dst
}
