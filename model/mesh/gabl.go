package mesh

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// Non-contiguous allocation (gabl.go, paging.go, mbs.go, anca.go,
// random.go) after Bani-Mohammad, Ould-Khaoua, Ababneh & Mackenzie (2006),
// "Non-contiguous Processor Allocation Strategy for 2D Mesh Connected
// Multicomputers based on Sub-meshes Available for Allocation" (ICPADS'06):
// a job's w×h request may be met by several free submeshes (pieces)
// holding w·h nodes together. Each strategy is a Multi.

// RBS returns the free w×h submesh that Chiu & Chen's Right of Busy
// Submeshes search (1999, as described by Bani-Mohammad et al. 2006 §2)
// chooses: the candidate bases are the nodes just right of an allocated
// submesh's right border, and (our reading, after the same authors' 3-D
// TBL) the nodes of the mesh's left edge. Every free submesh slid left
// until it touches a busy node or the edge has its base on a candidate,
// so the search is complete. The paper leaves the choice among candidates
// open; we take the lowest, then leftmost, candidate base. extra lists
// pieces already chosen for the job being placed (busy in s.Grid but not
// yet in the busy list): their right borders are candidates too.
func RBS(s *State, w, h int, extra []Rect) (Rect, bool) {
	if w < 1 || h < 1 || w > s.W || h > s.H {
		return Rect{}, false
	}
	b := s.Bases(w, h)
	words := s.Words()
	var stack [4]uint64
	cand := stack[:0]
	if words > len(stack) {
		cand = make([]uint64, words)
	} else {
		cand = stack[:words]
	}
	mark := func(x int) {
		if x < s.W {
			cand[x/64] |= 1 << (uint(x) % 64)
		}
	}
	mark(0)
	for _, e := range s.List {
		mark(e.X2() + 1)
	}
	for _, r := range extra {
		mark(r.X2() + 1)
	}
	for y := 0; y+h <= s.H; y++ {
		for i := 0; i < words; i++ {
			if m := b[y*words+i] & cand[i]; m != 0 {
				return Rect{i*64 + bits.TrailingZeros64(m), y, w, h}, true
			}
		}
	}
	return Rect{}, false
}

// GABL is Greedy-Available-Busy-List (Bani-Mohammad et al. 2006 §3,
// Fig. 2): a w×h request gets one w×h submesh when one is free (found by
// RBS); otherwise pieces of decreasing shape α×β, from (w, h), each
// shrink taking 1 from the larger side, a shape being allocated as long
// as a free one exists and it does not take more than w·h nodes in all.
//
// Readings (the paper's pseudo-code is ambiguous, see
// docs' modelling choices):
//   - Steps 5–7 as printed loop forever when no α×β is free; as the prose
//     intends, a failed search shrinks the shape (Step 4) and a
//     successful one tries the same shape again.
//   - When α = β the width α shrinks first.
//   - No rotation: the paper never rotates a request.
//   - A request wider or taller than the mesh (possible only from a
//     trace) starts from its clamp to the mesh.
//
// Allocation succeeds whenever w·h nodes are free (Step 1; (1, 1) is
// always found then), so it has no external fragmentation, and it takes
// exactly w·h nodes, so no internal fragmentation either.
type GABL struct{}

// FindPieces implements Multi.
func (GABL) FindPieces(s *State, _ *policy.Job, w, h int, dst []Rect) ([]Rect, bool) {
	n := w * h
	if s.Grid.Free() < n {
		return dst, false // Step 1
	}
	if r, ok := RBS(s, w, h, nil); ok {
		return append(dst, r), true // Step 2
	}
	a, b := min(w, s.W), min(h, s.H) // Step 3
	shrink := func() {               // Step 4
		switch {
		case a >= b && a > 1:
			a--
		case b > a:
			b--
		}
	}
	start := len(dst)
	total := 0
	shrink()
	for total < n {
		for total+a*b > n { // Step 5
			shrink()
		}
		r, ok := RBS(s, a, b, dst[start:]) // Step 6
		if !ok {
			if a == 1 && b == 1 {
				panic("mesh gabl: no free node although enough were counted free")
			}
			shrink()
			continue
		}
		s.Grid.Set(r)
		dst = append(dst, r)
		total += r.Size() // Step 7: the same shape again
	}
	for _, r := range dst[start:] {
		s.Grid.Clear(r)
	}
	return dst, true
}
