package mesh

import "github.com/schedlab/schedlab/model/policy"

// AdaptiveScan is Ding & Bhuyan's Adaptive Scan (Ding & Bhuyan 1993, as
// described by Chu 1995 §2.4.5): candidate bases are scanned from <0,0>
// left to right, bottom to top, and the first free one is taken (the
// smallest y, then the smallest x); when the whole scan fails, the
// request is rotated to h×w and scanned once more. Complete submesh
// recognition.
//
// The adaptive horizontal stride (jump past the coverage submesh holding
// the current node) only skips bases that are covered, so the first free
// base in row-major order from the bottom is the same; here it is the
// first set bit of Grid.Bases (word-parallel). The scan runs over the
// valid bases x ≤ W−w, y ≤ H−h (Chu prints the bound as <W−w+1, H−h+1>,
// one past the last valid base).
type AdaptiveScan struct{}

// Find returns the lowest, then leftmost, free base of the w×h request,
// or of the h×w request when there is none.
func (AdaptiveScan) Find(s *State, _ *policy.Job, w, h int) (Rect, bool) {
	if r, ok := lowestLeft(s, w, h); ok {
		return r, true
	}
	if w != h {
		return lowestLeft(s, h, w)
	}
	return Rect{}, false
}

// lowestLeft returns the free w×h base with the smallest y, then the
// smallest x.
func lowestLeft(s *State, w, h int) (Rect, bool) {
	x, y, ok := FirstBase(s.Bases(w, h), s.Words())
	return Rect{x, y, w, h}, ok
}
