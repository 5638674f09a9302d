package torus

import (
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// pairSums returns the number of nodes of a placement of cuboids on g and
// the sum, over unordered pairs of its nodes, of their hop distances: per
// axis, from the number of nodes at each coordinate, O(pieces · (X+Y+Z)).
func (g Geom) pairSums(cs []Cuboid) (n, sum int64) {
	var cnt [3][]int64
	dims := g.Dims()
	for a := range cnt {
		cnt[a] = make([]int64, dims[a])
	}
	for _, c := range cs {
		n += int64(c.Size())
		lo := [3]int{c.X0, c.Y0, c.Z0}
		ext := [3]int{c.A, c.B, c.C}
		for a := 0; a < 3; a++ {
			other := int64(c.Size() / ext[a])
			for i := 0; i < ext[a]; i++ {
				cnt[a][(lo[a]+i)%dims[a]] += other
			}
		}
	}
	for a := 0; a < 3; a++ {
		if g.Wrap {
			sum += ringPairs(cnt[a])
		} else {
			sum += linePairs(cnt[a])
		}
	}
	return n, sum
}

// linePairs is Σ over unordered pairs of |c_a − c_b| given the number of
// nodes at each coordinate of a line.
func linePairs(count []int64) int64 {
	var sum, before, weighted int64
	for c, k := range count {
		sum += k * (int64(c)*before - weighted)
		before += k
		weighted += k * int64(c)
	}
	return sum
}

// ringPairs is Σ over unordered pairs of the ring distance min(d, L − d)
// given the number of nodes at each coordinate of a ring of length L, in
// O(L): for each coordinate i, the nodes at forward offsets 1..⌊L/2⌋ are
// at distance d, those at L−⌈L/2⌉+1..L−1... at L − d (prefix sums over the
// ring unrolled twice).
func ringPairs(count []int64) int64 {
	l := len(count)
	// p[i] = Σ_{j<i} c_j and q[i] = Σ_{j<i} c_j·j over the doubled ring.
	p := make([]int64, 2*l+1)
	q := make([]int64, 2*l+1)
	for j := 0; j < 2*l; j++ {
		c := count[j%l]
		p[j+1] = p[j] + c
		q[j+1] = q[j] + c*int64(j)
	}
	half := l / 2
	var ordered int64
	for i, ci := range count {
		if ci == 0 {
			continue
		}
		// forward offsets 1..half: distance j − i.
		a, b := i+1, i+half+1
		near := (q[b] - q[a]) - int64(i)*(p[b]-p[a])
		// offsets half+1..l−1: distance l − (j − i) = (i + l) − j.
		a, b = i+half+1, i+l
		far := int64(i+l)*(p[b]-p[a]) - (q[b] - q[a])
		ordered += ci * (near + far)
	}
	return ordered / 2
}

// maxHops is the largest distance between two nodes of the cuboids: on a
// mesh, from their corners (the largest spread of ±x ± y ± z); on a
// torus, over pairs of cuboids, per axis the largest ring distance
// between their intervals, stopping at the diameter.
func (g Geom) maxHops(cs []Cuboid) int {
	if !g.Wrap {
		var lo, hi [4]int
		for s := range lo {
			lo[s], hi[s] = math.MaxInt, math.MinInt
		}
		for _, c := range cs {
			for _, x := range [2]int{c.X0, c.X0 + c.A - 1} {
				for _, y := range [2]int{c.Y0, c.Y0 + c.B - 1} {
					for _, z := range [2]int{c.Z0, c.Z0 + c.C - 1} {
						for s, v := range [4]int{x + y + z, x + y - z, x - y + z, x - y - z} {
							lo[s], hi[s] = min(lo[s], v), max(hi[s], v)
						}
					}
				}
			}
		}
		best := 0
		for s := range lo {
			best = max(best, hi[s]-lo[s])
		}
		return best
	}
	diam := g.Diameter()
	dims := g.Dims()
	best := 0
	for i := range cs {
		for j := i; j < len(cs); j++ {
			a, b := cs[i], cs[j]
			d := g.ringSpread(a.X0, a.A, b.X0, b.A, dims[0]) +
				g.ringSpread(a.Y0, a.B, b.Y0, b.B, dims[1]) +
				g.ringSpread(a.Z0, a.C, b.Z0, b.C, dims[2])
			if d > best {
				best = d
				if best == diam {
					return best
				}
			}
		}
	}
	return best
}

// ringSpread is the largest ring distance between a coordinate of
// [a0, a0+la) and one of [b0, b0+lb) on a ring of length l.
func (g Geom) ringSpread(a0, la, b0, lb, l int) int {
	best := 0
	for i := 0; i < la; i++ {
		x := (a0 + i) % l
		for j := 0; j < lb; j++ {
			if d := g.axisDist(x, (b0+j)%l, l); d > best {
				best = d
				if best == l/2 {
					return best
				}
			}
		}
	}
	return best
}

// span is the number of planes the cuboids touch: distinct z on a 3-D
// machine, distinct y on a 2-D torus (Z = 1).
func (g Geom) span(cs []Cuboid) int {
	axis, l := 2, g.Z
	if g.Z == 1 {
		axis, l = 1, g.Y
	}
	seen := make([]bool, l)
	n := 0
	for _, c := range cs {
		lo, ext := c.Z0, c.C
		if axis == 1 {
			lo, ext = c.Y0, c.B
		}
		for i := 0; i < ext; i++ {
			if k := (lo + i) % l; !seen[k] {
				seen[k] = true
				n++
			}
		}
	}
	return n
}

// cuboids decodes a placement's pieces; pieces that are not cuboids of g
// are skipped (the engine's --check and the placement column's readers
// reject them).
func (g Geom) cuboids(ps []policy.Piece) []Cuboid {
	cs := make([]Cuboid, 0, len(ps))
	for _, p := range ps {
		if c, ok := g.CuboidOf(p); ok {
			cs = append(cs, c)
		}
	}
	return cs
}

// MeanHops is the mean hop distance between two distinct nodes of the
// placement ps on g (NaN below two nodes): the family's Dispersion.
func (g Geom) MeanHops(ps []policy.Piece) float64 {
	n, sum := g.pairSums(g.cuboids(ps))
	if n < 2 {
		return math.NaN()
	}
	return float64(sum) / float64(n*(n-1)/2)
}

// Locality measures placement ps on g (policy.Locality): mean and largest
// pairwise hop distance, planes touched (span) and all-to-all hop-bytes
// (twice the sum over unordered pairs).
func (g Geom) Locality(ps []policy.Piece) policy.Locality {
	cs := g.cuboids(ps)
	n, sum := g.pairSums(cs)
	l := policy.Locality{MeanHops: math.NaN(), HopBytes: float64(2 * sum), Span: g.span(cs)}
	if n >= 2 {
		l.MeanHops = float64(sum) / float64(n*(n-1)/2)
		l.MaxHops = g.maxHops(cs)
	}
	return l
}
