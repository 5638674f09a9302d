package mesh

import "github.com/schedlab/schedlab/model/policy"

// MBS is Lo et al.'s Multiple Buddy System (1997, as described by
// Bani-Mohammad et al. 2006 §2). The mesh is cut into non-overlapping
// power-of-two squares (top blocks: the largest squares that tile it,
// row by row, the leftover strips likewise), and each into buddies. A
// request for p = w·h nodes is written in base 4, p = Σ d_i·(2^i×2^i), and
// needs d_i blocks of side 2^i, taken from the largest down: a free block
// of that side; else a larger free block split into buddies down to it;
// else the block is broken into four requests of the next side down.
// Allocation succeeds whenever p nodes are free, with exactly p nodes.
//
// The buddy system's free block lists are not kept: with buddies merged
// whenever all four are free (as MBS does on release), a list of side
// 2^i holds exactly the maximal free aligned blocks of that side, which
// the busy array tells. Among several, the first top block, then the
// lowest, then leftmost, block is taken; a split keeps the lower-left
// buddy at each level.
type MBS struct {
	tops []Rect // top blocks, in order
	maxL int    // the largest top block's level
}

// NewMBS returns MBS on a W×H mesh.
func NewMBS(W, H int) *MBS {
	m := &MBS{}
	m.tile(Rect{0, 0, W, H})
	for _, t := range m.tops {
		m.maxL = max(m.maxL, level(t.W))
	}
	return m
}

// level is log2 of a power-of-two side.
func level(side int) int {
	l := 0
	for 1<<(l+1) <= side {
		l++
	}
	return l
}

// tile cuts r into the largest power-of-two squares that fit, row by row,
// then tiles the strips left over on the right and on top.
func (m *MBS) tile(r Rect) {
	if r.W < 1 || r.H < 1 {
		return
	}
	s := 1 << level(min(r.W, r.H))
	nx, ny := r.W/s, r.H/s
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			m.tops = append(m.tops, Rect{r.X + i*s, r.Y + j*s, s, s})
		}
	}
	m.tile(Rect{r.X + nx*s, r.Y, r.W - nx*s, ny * s})
	m.tile(Rect{r.X, r.Y + ny*s, r.W, r.H - ny*s})
}

// free finds a maximal free aligned block of level l (its parent, if it
// has one within its top block, is not wholly free).
func (m *MBS) free(s *State, l int) (Rect, bool) {
	side := 1 << l
	for _, t := range m.tops {
		if t.W < side {
			continue
		}
		for y := t.Y; y < t.Y+t.H; y += side {
			for x := t.X; x < t.X+t.W; x += side {
				b := Rect{x, y, side, side}
				if !s.Grid.IsFree(b) {
					continue
				}
				if t.W > side {
					ps := 2 * side
					par := Rect{t.X + (x-t.X)/ps*ps, t.Y + (y-t.Y)/ps*ps, ps, ps}
					if s.Grid.IsFree(par) {
						continue
					}
				}
				return b, true
			}
		}
	}
	return Rect{}, false
}

// FindPieces implements Multi.
func (m *MBS) FindPieces(s *State, _ *policy.Job, w, h int, dst []Rect) ([]Rect, bool) {
	p := w * h
	if s.Grid.Free() < p {
		return dst, false
	}
	var d [32]int
	for l := m.maxL; l >= 0; l-- {
		d[l] = p >> (2 * l)
		p -= d[l] << (2 * l)
	}
	start := len(dst)
	for l := m.maxL; l >= 0; l-- {
		for ; d[l] > 0; d[l]-- {
			b, ok := m.free(s, l)
			for k := l + 1; !ok && k <= m.maxL; k++ {
				b, ok = m.free(s, k) // split down to the lower-left buddy of side 2^l
				b.W, b.H = 1<<l, 1<<l
			}
			if !ok {
				if l == 0 {
					panic("mesh mbs: no free node although enough were counted free")
				}
				d[l-1] += 4 * d[l] // break the blocks still needed into four each
				break
			}
			s.Grid.Set(b)
			dst = append(dst, b)
		}
	}
	for _, r := range dst[start:] {
		s.Grid.Clear(r)
	}
	return dst, true
}
