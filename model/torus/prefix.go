package torus

// prefix is a 3-D prefix sum of the busy array, rebuilt when the state
// changed, answering how many nodes of a box are busy in O(1) (a box that
// wraps around a torus's axis in O(8)).
type prefix struct {
	version uint64
	valid   bool
	sum     []int32 // (X+1)(Y+1)(Z+1): busy nodes in [0,x)×[0,y)×[0,z)
}

// update rebuilds p from s when s changed.
func (p *prefix) update(s *State) {
	if p.valid && p.version == s.Version {
		return
	}
	g := s.G
	X, Y, Z := g.X+1, g.Y+1, g.Z+1
	if len(p.sum) != X*Y*Z {
		p.sum = make([]int32, X*Y*Z)
	}
	for z := 1; z < Z; z++ {
		for y := 1; y < Y; y++ {
			row := (z*Y + y) * X
			up := (z*Y + y - 1) * X
			back := ((z-1)*Y + y) * X
			diag := ((z-1)*Y + y - 1) * X
			n := g.Node(0, y-1, z-1)
			for x := 1; x < X; x++ {
				var b int32
				if s.busy[n>>6]>>(uint(n)&63)&1 == 1 {
					b = 1
				}
				n++
				p.sum[row+x] = b + p.sum[row+x-1] + p.sum[up+x] + p.sum[back+x] -
					p.sum[up+x-1] - p.sum[back+x-1] - p.sum[diag+x] + p.sum[diag+x-1]
			}
		}
	}
	p.version, p.valid = s.Version, true
}

// at is the prefix sum over [0,x)×[0,y)×[0,z).
func (p *prefix) at(g Geom, x, y, z int) int32 {
	return p.sum[(z*(g.Y+1)+y)*(g.X+1)+x]
}

// plain counts the busy nodes of [x0,x1)×[y0,y1)×[z0,z1), inside g.
func (p *prefix) plain(g Geom, x0, x1, y0, y1, z0, z1 int) int {
	return int(p.at(g, x1, y1, z1) - p.at(g, x0, y1, z1) - p.at(g, x1, y0, z1) - p.at(g, x1, y1, z0) +
		p.at(g, x0, y0, z1) + p.at(g, x0, y1, z0) + p.at(g, x1, y0, z0) - p.at(g, x0, y0, z0))
}

// segs splits the axis interval [lo, lo+n) (lo in [0, l), n ≤ l) into at
// most two intervals inside [0, l).
func segs(lo, n, l int) (a [2][2]int, k int) {
	if lo+n <= l {
		a[0] = [2]int{lo, lo + n}
		return a, 1
	}
	a[0] = [2]int{lo, l}
	a[1] = [2]int{0, lo + n - l}
	return a, 2
}

// busy counts the busy nodes of cuboid c (which may wrap on a torus).
func (p *prefix) busy(g Geom, c Cuboid) int {
	xs, nx := segs(c.X0, c.A, g.X)
	ys, ny := segs(c.Y0, c.B, g.Y)
	zs, nz := segs(c.Z0, c.C, g.Z)
	t := 0
	for i := 0; i < nx; i++ {
		for j := 0; j < ny; j++ {
			for k := 0; k < nz; k++ {
				t += p.plain(g, xs[i][0], xs[i][1], ys[j][0], ys[j][1], zs[k][0], zs[k][1])
			}
		}
	}
	return t
}
