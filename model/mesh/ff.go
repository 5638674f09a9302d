package mesh

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// FirstFit is Zhu's First Fit (Zhu 1992, as described by Chu 1995 §2.4.3
// and §2.4.7): build the coverage array of the request and take as base
// the first free entry from the upper-left corner: the smallest x, and
// among those the largest y, so that jobs pile up toward the upper-left
// corner. Complete submesh recognition, O(N) (here O(H · words · log wh),
// word-parallel).
//
// Rotate is Sched-All's "First Fit (modified)" (ff-rot): when no w×h base
// is free, the h×w request is tried the same way. Chu says only that the
// modified FF "adds a 90° rotation"; we read it as a fallback, as in
// adaptive scan (the first strategy with rotation), not as comparing both
// orientations.
type FirstFit struct{ Rotate bool }

// Find returns the first-fit base of a w×h request.
func (f FirstFit) Find(s *State, _ *policy.Job, w, h int) (Rect, bool) {
	if r, ok := upperLeft(s, w, h); ok {
		return r, true
	}
	if f.Rotate && w != h {
		return upperLeft(s, h, w)
	}
	return Rect{}, false
}

// upperLeft returns the free w×h base with the smallest x, then the
// largest y.
func upperLeft(s *State, w, h int) (Rect, bool) {
	b := s.Bases(w, h)
	words := s.Words()
	// The columns with a free base in any row: their lowest is x.
	x := -1
	for i := 0; i < words && x < 0; i++ {
		var any uint64
		for y := 0; y < s.H; y++ {
			any |= b[y*words+i]
		}
		if any != 0 {
			x = i*64 + bits.TrailingZeros64(any)
		}
	}
	if x < 0 {
		return Rect{}, false
	}
	i, bit := x/64, uint(x%64)
	for y := s.H - h; y >= 0; y-- {
		if b[y*words+i]>>bit&1 == 1 {
			return Rect{x, y, w, h}, true
		}
	}
	return Rect{}, false // unreachable: column x has a base
}
