package mesh

import "github.com/schedlab/schedlab/model/policy"

// ANCA is Chang & Mohapatra's Adaptive Non-Contiguous Allocation (1998,
// as described by Bani-Mohammad et al. 2006 §2): a w×h request is first
// placed whole; when that fails it is split into two sub-frames, and
// every sub-frame into two again at each further iteration, all the
// sub-frames of one iteration being placed together or none. The
// splitting stops when a side length reaches 1: an iteration whose
// sub-frames have a side of 1 is the last, and when it fails the job
// waits (the external fragmentation the paper notes).
//
// Readings: a frame is split across its longer side (the width when
// square); an odd side splits into ⌈s/2⌉ and ⌊s/2⌋, as two equal halves do
// not exist; each sub-frame is placed by RBS (any complete search gives
// the same success), in the order the splits produce them.
type ANCA struct{}

// FindPieces implements Multi.
func (ANCA) FindPieces(s *State, _ *policy.Job, w, h int, dst []Rect) ([]Rect, bool) {
	if s.Grid.Free() < w*h {
		return dst, false
	}
	frames := []Rect{{W: min(w, s.W), H: min(h, s.H)}} // sizes only
	if frames[0].Size() < w*h {                        // wider or taller than the mesh: split first
		frames = split(frames[:0], w, h)
	}
	start := len(dst)
	for {
		ok := true
		for _, f := range frames {
			r, found := RBS(s, f.W, f.H, dst[start:])
			if !found {
				ok = false
				break
			}
			s.Grid.Set(r)
			dst = append(dst, r)
		}
		for _, r := range dst[start:] {
			s.Grid.Clear(r)
		}
		if ok {
			return dst, true
		}
		dst = dst[:start]
		for _, f := range frames {
			if f.W == 1 || f.H == 1 {
				return dst, false
			}
		}
		next := make([]Rect, 0, 2*len(frames))
		for _, f := range frames {
			next = split(next, f.W, f.H)
		}
		frames = next
	}
}

// split appends the two sub-frames of a w×h frame, cut across its longer
// side (the width when square).
func split(dst []Rect, w, h int) []Rect {
	if w >= h {
		return append(dst, Rect{W: (w + 1) / 2, H: h}, Rect{W: w / 2, H: h})
	}
	return append(dst, Rect{W: w, H: (h + 1) / 2}, Rect{W: w, H: h / 2})
}
