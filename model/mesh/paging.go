package mesh

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// Page indexing orders of Paging (Lo, Windisch, Liu & Nitzberg 1997, as
// named by Bani-Mohammad et al. 2006 §2).
const (
	PageRow           = "row"            // row-major
	PageShuffledRow   = "shuffled-row"   // bits of the page's column and row interleaved (Z order)
	PageSnake         = "snake"          // row-major, odd rows right to left
	PageShuffledSnake = "shuffled-snake" // interleaved, each 2×2 quadrant visited (0,0),(1,0),(1,1),(0,1)
)

// Paging is Lo et al.'s Paging(size_index) (Bani-Mohammad et al. 2006 §2):
// the mesh is cut into square pages of side 2^K, numbered in one of four
// orders, and a request for p nodes takes the first ⌈p/4^K⌉ free pages in
// that order. Paging(0) takes exactly p nodes and succeeds whenever p
// nodes are free; K ≥ 1 rounds up to whole pages (internal
// fragmentation). The paper simulates Paging(0) with row-major order.
// Pages consecutive in the order and side by side in one row of pages
// make one piece (so row-major Paging(0) gives one piece per row run).
type Paging struct {
	K     int
	Order string
	pages []Rect // every page, in index order
}

// NewPaging returns Paging(k) with the given order on a W×H mesh, whose
// sides must be multiples of 2^k.
func NewPaging(k int, order string, W, H int) (*Paging, error) {
	if k < 0 || k > 15 {
		return nil, fmt.Errorf("paging: k=%d out of range 0..15", k)
	}
	side := 1 << k
	if W%side != 0 || H%side != 0 {
		return nil, fmt.Errorf("paging: k=%d needs mesh sides that are multiples of %d; mesh:%dx%d is not", k, side, W, H)
	}
	pw, ph := W/side, H/side
	type page struct {
		key  uint64
		x, y int
	}
	ps := make([]page, 0, pw*ph)
	for y := 0; y < ph; y++ {
		for x := 0; x < pw; x++ {
			var key uint64
			switch order {
			case PageRow:
				key = uint64(y*pw + x)
			case PageSnake:
				if y%2 == 1 {
					key = uint64(y*pw + pw - 1 - x)
				} else {
					key = uint64(y*pw + x)
				}
			case PageShuffledRow, PageShuffledSnake:
				for bit := 15; bit >= 0; bit-- {
					xb, yb := uint64(x>>bit&1), uint64(y>>bit&1)
					d := 2*yb + xb
					if order == PageShuffledSnake {
						d = 2*yb + (xb ^ yb)
					}
					key = key<<2 | d
				}
			default:
				return nil, fmt.Errorf("paging: unknown order %q (row, shuffled-row, snake, shuffled-snake)", order)
			}
			ps = append(ps, page{key, x, y})
		}
	}
	slices.SortFunc(ps, func(a, b page) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	p := &Paging{K: k, Order: order, pages: make([]Rect, len(ps))}
	for i, q := range ps {
		p.pages[i] = Rect{q.x * side, q.y * side, side, side}
	}
	return p, nil
}

// FindPieces implements Multi.
func (p *Paging) FindPieces(s *State, _ *policy.Job, w, h int, dst []Rect) ([]Rect, bool) {
	size := 1 << (2 * p.K)
	need := (w*h + size - 1) / size
	if s.Grid.Free() < need*size {
		return dst, false
	}
	start := len(dst)
	for _, pg := range p.pages {
		if need == 0 {
			break
		}
		if !s.Grid.IsFree(pg) {
			continue
		}
		need--
		if k := len(dst) - 1; k >= start && dst[k].Y == pg.Y && dst[k].H == pg.H && dst[k].X2()+1 == pg.X {
			dst[k].W += pg.W // the next page to the right: the same piece
			continue
		}
		dst = append(dst, pg)
	}
	if need > 0 { // free nodes, but not in whole pages (another strategy's leftovers)
		return dst[:start], false
	}
	return dst, true
}
