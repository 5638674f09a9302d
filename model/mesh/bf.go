package mesh

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// BestFit is Zhu's Best Fit by corners (Zhu 1992, as described by Chu
// 1995 §2.4.4): on the coverage array of the request (C = 1 where a base
// is covered, 0 where it is free, reduced to (W−w+1)×(H−h+1) as in first
// fit), a corner is a 0 that ends a run of 0s both in its row and in its
// column; the corner with the most 1s around it is the base, ties broken
// by the smallest area, the length of the corner's row run of 0s times
// the length of its column run. Complete submesh recognition.
//
// Readings of the ambiguities:
//
//   - "Around" is the four neighbours (left, right, below, above), and a
//     neighbour outside the coverage array counts as a 1. On an array of
//     at least 2×2 that is exactly Zhu's rule of two extra 1s at an array
//     corner and one on an array edge (an array corner misses two of its
//     four neighbours, an edge one); eight neighbours would miss five and
//     three. The worked example of Chu 1995 Fig. 8.1 (C[6,4] chosen over
//     C[0,5], both "3-corners", areas 3 and 6, with the BL and BDI values
//     Chu gives for the same mesh) has a consistent busy pattern under
//     four neighbours and none under eight (see bf_test.go). Every corner
//     scores at least 2: it has a non-base neighbour in its row and one in
//     its column.
//   - A corner's row run is the whole run of 0s it ends (it starts at the
//     corner, the corner being one of its ends), likewise its column run.
//   - Further ties: the smallest y, then the smallest x (row-major from
//     the bottom, adaptive scan's order).
//
// Rotate is "Best Fit (modified)" (bf-rot): Chu Ch. 7 rotates BF "as in
// EET-SC", whose corner list holds the corners of both J(w,h) and J(h,w)
// before the best is chosen; we read it so: the corners of both
// orientations are compared together by the same rule, and on a complete
// tie (same score, area and base) the unrotated request wins.
//
// Corners are found word-parallel from the Grid.Bases bitset: a base is a
// row end when its left or right neighbour bit is clear, a column end when
// the bit below or above is clear, and its score is the number of those
// four clear neighbour bits.
type BestFit struct{ Rotate bool }

// fitKey orders corners: a higher score, then a smaller area, then a
// smaller y, then a smaller x is better.
type fitKey struct{ score, area, y, x int }

func (k fitKey) better(o fitKey) bool {
	if k.score != o.score {
		return k.score > o.score
	}
	if k.area != o.area {
		return k.area < o.area
	}
	if k.y != o.y {
		return k.y < o.y
	}
	return k.x < o.x
}

// Find returns the best corner of the w×h request (and, with Rotate, of
// the h×w request).
func (f BestFit) Find(s *State, _ *policy.Job, w, h int) (Rect, bool) {
	k, ok := bestCorner(s, w, h)
	r := Rect{k.x, k.y, w, h}
	if f.Rotate && w != h {
		if kr, okr := bestCorner(s, h, w); okr && (!ok || kr.better(k)) {
			return Rect{kr.x, kr.y, h, w}, true
		}
	}
	return r, ok
}

// bestCorner returns the key of the best corner of the w×h coverage array.
func bestCorner(s *State, w, h int) (fitKey, bool) {
	b := s.Bases(w, h)
	words := s.Words()
	ny := s.H - h + 1
	if ny < 1 || w > s.W {
		return fitKey{}, false
	}
	best, found := fitKey{}, false
	level := 2 // the score of the candidates kept: 2, 3 or 4
	for y := 0; y < ny; y++ {
		for i := 0; i < words; i++ {
			cur, l, r, d, u := runEnds(b, words, s.H, y, i)
			if cur == 0 {
				continue
			}
			corner := cur & (l | r) & (d | u)
			if corner == 0 {
				continue
			}
			s4 := corner & l & r & d & u
			s3 := corner & (l&r | d&u) // a corner with both ends in one direction has three
			var cand uint64
			switch {
			case s4 != 0:
				if level < 4 {
					level, found = 4, false
				}
				cand = s4
			case level == 4:
				continue
			case s3 != 0:
				if level < 3 {
					level, found = 3, false
				}
				cand = s3 &^ s4
			case level == 3:
				continue
			default:
				cand = corner
			}
			for c := cand; c != 0; c &= c - 1 {
				bit := bits.TrailingZeros64(c)
				x := i*64 + bit
				m := uint64(1) << uint(bit)
				k := fitKey{score: level, y: y, x: x}
				k.area = rowRun(b[y*words:(y+1)*words], i, bit, l&m != 0) * colRun(b, words, s.H, y, i, m, d&m != 0)
				if !found || k.better(best) {
					best, found = k, true
				}
			}
		}
	}
	return best, found
}

// rowRun is the length of the run of set bits of row that starts at bit
// (word i) and goes right when toRight, else left.
func rowRun(row []uint64, i, bit int, toRight bool) int {
	n := 0
	if toRight {
		v := row[i] >> uint(bit)
		for {
			t := bits.TrailingZeros64(^v)
			if i == len(row)-1 || t < 64-bit {
				return n + min(t, 64-bit)
			}
			n += 64 - bit
			i, bit = i+1, 0
			v = row[i]
		}
	}
	v := row[i] << uint(63-bit)
	for {
		t := bits.LeadingZeros64(^v)
		if i == 0 || t < bit+1 {
			return n + min(t, bit+1)
		}
		n += bit + 1
		i, bit = i-1, 63
		v = row[i]
	}
}

// colRun is the length of the vertical run of the bit m of word i that
// starts at row y and goes up when up, else down.
func colRun(b []uint64, words, nrows, y, i int, m uint64, up bool) int {
	n := 1
	if up {
		for y++; y < nrows && b[y*words+i]&m != 0; y++ {
			n++
		}
		return n
	}
	for y--; y >= 0 && b[y*words+i]&m != 0; y-- {
		n++
	}
	return n
}
