package torus

import "github.com/schedlab/schedlab/model/policy"

// The slices view of a 3-D machine (policy.Family.View.Layout, Rects):
// the planes z = 0, 1, … drawn as X×Y grids side by side, one column of
// cells apart.

// layout is the plane the slices take: Z grids of X×Y with gaps.
func layout(m policy.Machine) (w, h int) {
	g := GeomOf(m)
	return g.Z*(g.X+1) - 1, g.Y
}

// rects appends the rectangles of piece p in the slices layout: one per
// plane of its cuboid, split where it wraps around the torus.
func rects(m policy.Machine, p policy.Piece, dst [][4]int32) [][4]int32 {
	g := GeomOf(m)
	c, ok := g.CuboidOf(p)
	if !ok {
		return dst
	}
	xs, nx := segs(c.X0, c.A, g.X)
	ys, ny := segs(c.Y0, c.B, g.Y)
	for k := 0; k < c.C; k++ {
		off := ((c.Z0 + k) % g.Z) * (g.X + 1)
		for i := 0; i < nx; i++ {
			for j := 0; j < ny; j++ {
				dst = append(dst, [4]int32{int32(off + xs[i][0]), int32(ys[j][0]), int32(xs[i][1] - xs[i][0]), int32(ys[j][1] - ys[j][0])})
			}
		}
	}
	return dst
}
