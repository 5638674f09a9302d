package torus

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// MBS is Lo, Windisch, Liu & Nitzberg's Multiple Buddy System ("A
// comparison of non-contiguous processor allocation strategies", 1997),
// carried to three dimensions as SST's scheduler element did
// (MBSAllocator: cubes of side 2^i instead of squares, a request written in
// base 8). The machine is cut into non-overlapping power-of-two cubes (top
// blocks: the largest cubes that tile it, then the slabs left over,
// likewise), each a buddy system of aligned cubes. A request for k nodes
// is written in base 8, k = Σ d_i·8^i, and needs d_i cubes of side 2^i,
// from the largest down: the lowest-numbered free cube of that side (the
// free lists); else the smallest larger free cube split into its eight
// buddies down to it (the lowest-corner child kept at each level, the
// others listed free); else each missing cube becomes eight requests of
// the next side down. Released cubes merge with their seven buddies when
// all are free. Allocation succeeds whenever k nodes are free, with
// exactly k nodes. The mesh's 2-D MBS is model/mesh/mbs.go.
//
// Reading: a torus's wrap-around links are not used (the cubes are those
// of the mesh); among free cubes of one side the one with the lowest base
// node number is taken (SST takes the front of its free list).
type MBS struct {
	g      Geom
	levels int        // the largest top block's level + 1
	free   [][]uint64 // free[l]: bit n set when the aligned cube of side 2^l based at node n is a free block
	top    []int32    // node → index of its top block
	tops   []Cuboid
}

// NewMBS returns MBS on g.
func NewMBS(g Geom) *MBS {
	m := &MBS{g: g, top: make([]int32, g.N())}
	m.tile(Cuboid{0, 0, 0, g.X, g.Y, g.Z})
	for _, t := range m.tops {
		m.levels = max(m.levels, bits.Len(uint(t.A)))
	}
	m.free = make([][]uint64, m.levels)
	for l := range m.free {
		m.free[l] = make([]uint64, (g.N()+63)/64)
	}
	for i, t := range m.tops {
		var ns []int
		for _, n := range g.AppendNodes(t, ns) {
			m.top[n] = int32(i)
		}
		m.set(bits.Len(uint(t.A))-1, g.Node(t.X0, t.Y0, t.Z0), true)
	}
	return m
}

// tile cuts box r into the largest power-of-two cubes that fit, then
// tiles the three slabs left over.
func (m *MBS) tile(r Cuboid) {
	if r.A < 1 || r.B < 1 || r.C < 1 {
		return
	}
	s := 1 << (bits.Len(uint(min(r.A, r.B, r.C))) - 1)
	nx, ny, nz := r.A/s, r.B/s, r.C/s
	for k := 0; k < nz; k++ {
		for j := 0; j < ny; j++ {
			for i := 0; i < nx; i++ {
				m.tops = append(m.tops, Cuboid{r.X0 + i*s, r.Y0 + j*s, r.Z0 + k*s, s, s, s})
			}
		}
	}
	m.tile(Cuboid{r.X0 + nx*s, r.Y0, r.Z0, r.A - nx*s, ny * s, nz * s})
	m.tile(Cuboid{r.X0, r.Y0 + ny*s, r.Z0, r.A, r.B - ny*s, nz * s})
	m.tile(Cuboid{r.X0, r.Y0, r.Z0 + nz*s, r.A, r.B, r.C - nz*s})
}

func (m *MBS) set(l, n int, on bool) {
	if on {
		m.free[l][n>>6] |= 1 << (uint(n) & 63)
	} else {
		m.free[l][n>>6] &^= 1 << (uint(n) & 63)
	}
}

func (m *MBS) isFree(l, n int) bool { return m.free[l][n>>6]>>(uint(n)&63)&1 == 1 }

// lowest returns the lowest-numbered free block of level l, or −1.
func (m *MBS) lowest(l int) int {
	for i, w := range m.free[l] {
		if w != 0 {
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// children returns the bases of the eight buddies of side 2^l making the
// cube of side 2^(l+1) based at n, the lowest corner first.
func (m *MBS) children(n, l int) [8]int {
	x, y, z := m.g.XYZ(n)
	s := 1 << l
	var out [8]int
	for i := 0; i < 8; i++ {
		out[i] = m.g.Node(x+(i&1)*s, y+(i>>1&1)*s, z+(i>>2)*s)
	}
	return out
}

// take removes a free block of level l from the lists (splitting a larger
// one when none is listed) and returns its base, or −1 when no block of
// level ≥ l is free.
func (m *MBS) take(l int) int {
	for k := l; k < m.levels; k++ {
		n := m.lowest(k)
		if n < 0 {
			continue
		}
		m.set(k, n, false)
		for ; k > l; k-- {
			ch := m.children(n, k-1)
			for _, c := range ch[1:] {
				m.set(k-1, c, true)
			}
		}
		return n
	}
	return -1
}

func (m *MBS) place(s *State, _ *policy.Job, k int, dst []policy.Piece) ([]policy.Piece, bool) {
	if k > s.free {
		return dst, false
	}
	var d [32]int
	p := k
	for l := m.levels - 1; l >= 0; l-- {
		d[l] = p >> (3 * l)
		p -= d[l] << (3 * l)
	}
	for l := m.levels - 1; l >= 0; l-- {
		for ; d[l] > 0; d[l]-- {
			n := m.take(l)
			if n < 0 {
				if l == 0 {
					panic("torus mbs: no free node although enough were counted free")
				}
				d[l-1] += 8 * d[l]
				break
			}
			x, y, z := m.g.XYZ(n)
			dst = append(dst, m.g.Piece(Cuboid{x, y, z, 1 << l, 1 << l, 1 << l}))
		}
	}
	return dst, true
}

func (m *MBS) allocated(*State, []policy.Piece) {}

// released returns each cube to its free list, merging buddies upwards.
func (m *MBS) released(_ *State, ps []policy.Piece) {
	for _, p := range ps {
		n, l := int(p.X), bits.Len(uint(p.W))-1
		t := m.tops[m.top[n]]
		tl := bits.Len(uint(t.A)) - 1
		for {
			if l == tl {
				m.set(l, n, true)
				break
			}
			x, y, z := m.g.XYZ(n)
			ps := 2 << l
			par := m.g.Node(t.X0+(x-t.X0)/ps*ps, t.Y0+(y-t.Y0)/ps*ps, t.Z0+(z-t.Z0)/ps*ps)
			ch := m.children(par, l)
			all := true
			for _, c := range ch {
				if c != n && !m.isFree(l, c) {
					all = false
					break
				}
			}
			if !all {
				m.set(l, n, true)
				break
			}
			for _, c := range ch {
				m.set(l, c, false)
			}
			n, l = par, l+1
		}
	}
}

func (m *MBS) clone() strategy {
	c := *m
	c.free = make([][]uint64, len(m.free))
	for l := range m.free {
		c.free[l] = append([]uint64(nil), m.free[l]...)
	}
	return &c
}
