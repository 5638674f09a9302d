package torus

import (
	"fmt"
	"sort"

	"github.com/schedlab/schedlab/model/policy"
)

// Contiguous is contiguous allocation over cuboids, as Blue Gene's
// partition allocation did (Krevat, Castaños & Moreira, "Job scheduling
// for the BlueGene/L system", 2002: each job a free cuboid of the torus;
// first fit and best fit among the free ones): a job of k nodes gets one
// free cuboid.
//
// Readings. Jobs give a count; the cuboid's shape is the rounding: the
// smallest volume V ≥ k of a cuboid a×b×c that fits the machine (a ≤ X,
// b ≤ Y, c ≤ Z), exactly k when such a cuboid exists (k = 13 on a 16-wide
// machine is a 13×1×1 line), and among the shapes of volume V, the most
// cubic first (the least surface ab + bc + ca, then the largest a, then
// b). The job holds V nodes (internal fragmentation V − k). Only shapes of
// volume V are tried: a job whose shapes have no free base waits, even
// when a larger cuboid is free. On a torus a cuboid may wrap around an
// axis.
//
//   - first fit: the shapes in that order, each with its bases in
//     increasing node number (z, then y, then x lowest); the first free
//     one.
//   - best fit: among the free bases of every shape of volume V, the one
//     whose faces touch the most busy nodes and mesh boundaries (Zhu's
//     best-fit contact rule for 2-D meshes, carried to cuboids; a face
//     along an axis a torus's cuboid spans wholly touches nothing); ties
//     go to first fit's order.
//
// Complete recognition: a job is refused only when no free cuboid of its
// shapes exists. Bases are checked in O(1) each from a 3-D prefix sum of
// the busy array (O(N) per allocation).
type Contiguous struct {
	Best   bool
	pre    prefix
	shapes map[int][][3]int
	// failed[k] is 1 + the state's Version when a job of k nodes last
	// found no place: until the busy array changes, it finds none again
	// (a backfilling pass tries the same sizes over and over).
	failed map[int]uint64
}

// Shapes returns the cuboid shapes a job of k nodes may take on g, most
// cubic first (all of the smallest volume ≥ k that fits g).
func Shapes(g Geom, k int) [][3]int {
	best := -1
	var out [][3]int
	for a := 1; a <= g.X; a++ {
		for b := 1; b <= g.Y; b++ {
			c := (k + a*b - 1) / (a * b)
			if c > g.Z || c < 1 {
				continue
			}
			v := a * b * c
			switch {
			case best < 0 || v < best:
				best, out = v, [][3]int{{a, b, c}}
			case v == best:
				out = append(out, [3]int{a, b, c})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		si, sj := surface(out[i]), surface(out[j])
		if si != sj {
			return si < sj
		}
		if out[i][0] != out[j][0] {
			return out[i][0] > out[j][0]
		}
		return out[i][1] > out[j][1]
	})
	return out
}

func surface(s [3]int) int { return s[0]*s[1] + s[1]*s[2] + s[0]*s[2] }

func (c *Contiguous) clone() strategy {
	return &Contiguous{Best: c.Best, shapes: c.shapes}
}

func (c *Contiguous) feasible(g Geom, k int) error {
	if len(Shapes(g, k)) == 0 {
		return fmt.Errorf("no cuboid of %d nodes fits %dx%dx%d", k, g.X, g.Y, g.Z)
	}
	return nil
}

// bases is the number of distinct bases along an axis of length l for an
// extent e: l − e + 1 on a mesh; on a torus l, or 1 when e = l.
func bases(g Geom, e, l int) int {
	if !g.Wrap {
		return l - e + 1
	}
	if e == l {
		return 1
	}
	return l
}

// contact is the number of node faces of cuboid q touching busy nodes or
// the machine's boundary.
func (c *Contiguous) contact(g Geom, q Cuboid) int {
	t := 0
	dims := g.Dims()
	lo := [3]int{q.X0, q.Y0, q.Z0}
	ext := [3]int{q.A, q.B, q.C}
	for a := 0; a < 3; a++ {
		face := q.Size() / ext[a]
		if g.Wrap && ext[a] == dims[a] {
			continue
		}
		for _, side := range [2]int{lo[a] - 1, lo[a] + ext[a]} {
			if !g.Wrap && (side < 0 || side >= dims[a]) {
				t += face
				continue
			}
			f := q
			switch a {
			case 0:
				f.X0, f.A = (side+dims[0])%dims[0], 1
			case 1:
				f.Y0, f.B = (side+dims[1])%dims[1], 1
			case 2:
				f.Z0, f.C = (side+dims[2])%dims[2], 1
			}
			t += c.pre.busy(g, f)
		}
	}
	return t
}

func (c *Contiguous) place(s *State, _ *policy.Job, k int, dst []policy.Piece) ([]policy.Piece, bool) {
	g := s.G
	if c.shapes == nil {
		c.shapes = map[int][][3]int{}
	}
	shapes, ok := c.shapes[k]
	if !ok {
		shapes = Shapes(g, k)
		c.shapes[k] = shapes
	}
	if len(shapes) == 0 || shapes[0][0]*shapes[0][1]*shapes[0][2] > s.free {
		return dst, false
	}
	if c.failed == nil {
		c.failed = map[int]uint64{}
	}
	if c.failed[k] == s.Version+1 {
		return dst, false
	}
	c.pre.update(s)
	var found Cuboid
	bestContact := -1
	for _, sh := range shapes {
		for z := 0; z < bases(g, sh[2], g.Z); z++ {
			for y := 0; y < bases(g, sh[1], g.Y); y++ {
				for x := 0; x < bases(g, sh[0], g.X); x++ {
					q := Cuboid{x, y, z, sh[0], sh[1], sh[2]}
					if c.pre.busy(g, q) != 0 {
						continue
					}
					if !c.Best {
						return append(dst, g.Piece(q)), true
					}
					if t := c.contact(g, q); t > bestContact {
						found, bestContact = q, t
					}
				}
			}
		}
	}
	if bestContact < 0 {
		c.failed[k] = s.Version + 1
		return dst, false
	}
	return append(dst, g.Piece(found)), true
}
