package mesh

import (
	"math"
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// EET is Chu's Estimated Execution Time allocation (Chu 1995 Ch. 7): place
// a job next to jobs expected to finish at about the same time, so that
// large free areas open up together. For a job Z with estimate z′
// (policy.Job.Estimate) allocated at time t, z = t + z′, a candidate
// submesh S scores its TECTD (total estimated completion-time difference,
// Chu 1995 §7.1), the sum over the nodes just outside S's four sides
// (diagonal nodes excluded: a 3×4 submesh in a mesh corner has 7
// neighbours, Fig. 7.1) of
//
//   - z′ for a free node,
//   - |z − e| for a busy node whose job's ECT (Busy.ECT) is e > t, and z′
//     when e ≤ t (the estimate ran out: e is replaced by t),
//   - 0 for a node beyond the mesh boundary,
//
// and the candidate with the smallest TECTD is taken. Both orientations
// are candidates (w×h and h×w). Ties: the requested orientation first,
// then the smallest y, then the smallest x (the scan order of the
// coverage array from the bottom row).
//
// Corners false is EET-SB (Search Boundaries, Chu 1995 Fig. 7.2): the
// candidates are the four mesh corners and every free base whose submesh
// shares a side with an allocated submesh (busy list entry B, running or
// past its estimate), sliding along the full length of each of B's four
// sides: on B's top side, the bases (x, B.Y2+1) with B.X−w+1 ≤ x ≤ B.X2,
// and likewise below, left and right, inside the mesh and free
// (overlapping candidates dropped). With an empty busy list the job goes
// to <0,0,w−1,h−1> (rotated when only h×w fits), as in Fig. 7.2 step 1.
// Along one side TECTD is piecewise linear in the position, with
// breakpoints where the candidate's ring starts or stops touching a
// running job, so only those positions and the ends of the free runs are
// scored (see side): O(N_A) positions per side, each in O(N_A), the
// thesis's O(N_A³), plus the free-base bitset and a walk along each side.
//
// Corners true is EET-SC (Search Corners, Chu 1995 Fig. 7.3): the
// candidates are the corners of the coverage array of each orientation (a
// free base that ends a run of free bases both along its row and along its
// column, as in Zhu's best fit, Chu 1995 Ch. 2), found word-parallel;
// O(N) plus O(N_A) per corner.
//
// A candidate's neighbours are found from the busy list, as Fig. 7.2 step
// 5 does (for each B, the length of its common boundary with S), not from
// a node-to-job map: jobs past their estimate score as free nodes do, so
// only the running jobs with e > t are looked at. An estimate that is
// negative or not finite counts as 0.
//
// Both strategies take the free bases from Grid.Bases, and remember the
// last request that found no submesh, so that a blocked queue head retried
// on an unchanged mesh costs O(N_A).
type EET struct {
	Corners bool // EET-SC: search the coverage array's corners; else EET-SB, the busy submeshes' boundaries

	live []eetJob // running jobs with e > t, |z − e| precomputed
	near []eetJob // the live jobs near one side (EET-SB)
	pts  []int    // positions to score along one side (EET-SB)

	// The last request that found no free submesh, and the busy list it
	// saw: a scheduler retries a blocked head at every arrival, on an
	// unchanged mesh.
	failW, failH int
	failGrid     *Grid
	failList     []Rect
}

// eetJob is a busy submesh whose job has not outrun its estimate, with the
// ECTD |z − e| of its nodes for the job being placed.
type eetJob struct {
	x1, y1, x2, y2 int
	d              float64
}

// eetBest is the best candidate so far.
type eetBest struct {
	r   Rect
	v   float64
	rot bool
	ok  bool
}

// offer keeps r if it beats the best so far: a smaller TECTD, then the
// requested orientation, then the smallest y, then the smallest x.
func (b *eetBest) offer(r Rect, v float64, rot bool) {
	switch {
	case !b.ok, v < b.v:
	case v > b.v:
		return
	case rot != b.rot:
		if rot {
			return
		}
	case r.Y != b.r.Y:
		if r.Y > b.r.Y {
			return
		}
	case r.X >= b.r.X:
		return
	}
	*b = eetBest{r: r, v: v, rot: rot, ok: true}
}

// Clone returns a strategy with the same search and buffers of its own.
func (e *EET) Clone() Strategy { return &EET{Corners: e.Corners} }

// eetEstimate is z′: j's estimate, 0 when negative or not finite.
func eetEstimate(j *policy.Job) float64 {
	if j == nil || !(j.Estimate > 0) || math.IsInf(j.Estimate, 1) {
		return 0
	}
	return j.Estimate
}

// Find returns the candidate with the smallest TECTD for a w×h request in
// either orientation.
func (e *EET) Find(s *State, j *policy.Job, w, h int) (Rect, bool) {
	if !e.Corners && len(s.List) == 0 {
		switch {
		case w <= s.W && h <= s.H:
			return Rect{0, 0, w, h}, true
		case h <= s.W && w <= s.H:
			return Rect{0, 0, h, w}, true
		}
		return Rect{}, false
	}
	if s.Grid.Free() < w*h || e.failedBefore(s, w, h) {
		return Rect{}, false
	}
	zp := eetEstimate(j)
	z := s.Now + zp
	e.live = e.live[:0]
	for _, b := range s.List {
		if b.ECT > s.Now {
			e.live = append(e.live, eetJob{b.X, b.Y, b.X2(), b.Y2(), math.Abs(z - b.ECT)})
		}
	}
	var best eetBest
	for k, d := range [2][2]int{{w, h}, {h, w}} {
		ow, oh := d[0], d[1]
		if k == 1 && w == h || ow > s.W || oh > s.H {
			continue
		}
		b := s.Bases(ow, oh)
		if !eetAny(b) {
			continue
		}
		if e.Corners {
			e.corners(s, b, ow, oh, zp, k == 1, &best)
		} else {
			e.boundaries(s, b, ow, oh, zp, k == 1, &best)
		}
	}
	if !best.ok {
		e.failW, e.failH, e.failGrid = w, h, s.Grid
		e.failList = e.failList[:0]
		for _, b := range s.List {
			e.failList = append(e.failList, b.Rect)
		}
	}
	return best.r, best.ok
}

// failedBefore reports whether the last request that failed was a w×h
// one on the same grid with the same busy list (so the same busy array).
func (e *EET) failedBefore(s *State, w, h int) bool {
	if e.failGrid != s.Grid || e.failW != w || e.failH != h || len(e.failList) != len(s.List) {
		return false
	}
	for i, b := range s.List {
		if b.Rect != e.failList[i] {
			return false
		}
	}
	return true
}

// eetAny reports whether a bitset has a set bit.
func eetAny(b []uint64) bool {
	for _, v := range b {
		if v != 0 {
			return true
		}
	}
	return false
}

// TECTD returns the total estimated completion-time difference (Chu 1995
// §7.1) of placing a job with estimate zp (z′) on r, a free submesh inside
// s's mesh, at time s.Now: the sum of the ECTDs of r's neighbouring nodes.
func TECTD(s *State, r Rect, zp float64) float64 {
	z := s.Now + zp
	var live []eetJob
	for _, b := range s.List {
		if b.ECT > s.Now {
			live = append(live, eetJob{b.X, b.Y, b.X2(), b.Y2(), math.Abs(z - b.ECT)})
		}
	}
	return eetTECTD(r, live, zp, s.W, s.H)
}

// eetTECTD is the TECTD of r, a free submesh of a W×H mesh, among the live
// jobs given (every live job adjacent to r must be among them): z′ per
// neighbour inside the mesh, plus (|z − e| − z′) per neighbour held by a
// live job, each live job's share being its common boundary with r.
func eetTECTD(r Rect, live []eetJob, zp float64, W, H int) float64 {
	x1, y1, x2, y2 := r.X, r.Y, r.X+r.W-1, r.Y+r.H-1
	in := 0
	if y1 > 0 {
		in += r.W
	}
	if y2 < H-1 {
		in += r.W
	}
	if x1 > 0 {
		in += r.H
	}
	if x2 < W-1 {
		in += r.H
	}
	held, acc := 0, 0.0
	for i := range live {
		b := &live[i]
		l := 0
		if b.y1 <= y2 && y1 <= b.y2 { // beside r: sharing r's left or right side
			if b.x2 == x1-1 || b.x1 == x2+1 {
				l = min(y2, b.y2) - max(y1, b.y1) + 1
			}
		} else if b.x1 <= x2 && x1 <= b.x2 { // above or below
			if b.y2 == y1-1 || b.y1 == y2+1 {
				l = min(x2, b.x2) - max(x1, b.x1) + 1
			}
		}
		if l > 0 {
			held += l
			acc += float64(l) * b.d
		}
	}
	return acc + zp*float64(in-held)
}

// corners scores the corners of the coverage array of a w×h request (b,
// its free bases): a free base that ends a run of free bases in its row
// (left or right neighbour not free or outside the array) and in its
// column (below or above).
func (e *EET) corners(s *State, b []uint64, w, h int, zp float64, rot bool, best *eetBest) {
	words := s.Words()
	for y := 0; y <= s.H-h; y++ {
		for i := 0; i < words; i++ {
			cur, l, r, d, u := runEnds(b, words, s.H, y, i)
			if cur == 0 {
				continue
			}
			c := cur & (l | r) & (d | u)
			for c != 0 {
				x := i*64 + bits.TrailingZeros64(c)
				c &= c - 1
				r := Rect{x, y, w, h}
				best.offer(r, eetTECTD(r, e.live, zp, s.W, s.H), rot)
			}
		}
	}
}

// boundaries scores the EET-SB candidates of a w×h request (b, its free
// bases): the mesh corners and the free bases along the four sides of
// every busy submesh.
func (e *EET) boundaries(s *State, b []uint64, w, h int, zp float64, rot bool, best *eetBest) {
	words := s.Words()
	free := func(x, y int) bool { return b[y*words+x/64]>>(uint(x)%64)&1 == 1 }
	for _, c := range [4][2]int{{0, 0}, {s.W - w, 0}, {0, s.H - h}, {s.W - w, s.H - h}} {
		if free(c[0], c[1]) {
			r := Rect{c[0], c[1], w, h}
			best.offer(r, eetTECTD(r, e.live, zp, s.W, s.H), rot)
		}
	}
	for _, bz := range s.List {
		x1, y1, x2, y2 := bz.X, bz.Y, bz.X2(), bz.Y2()
		// Above and below B: the candidate's bottom (top) side shares
		// columns with B's top (bottom) side.
		lo, hi := max(0, x1-w+1), min(s.W-w, x2)
		if y := y2 + 1; y <= s.H-h {
			e.side(s, b, true, y, lo, hi, w, h, zp, rot, best)
		}
		if y := y1 - h; y >= 0 {
			e.side(s, b, true, y, lo, hi, w, h, zp, rot, best)
		}
		// Left and right of B.
		lo, hi = max(0, y1-h+1), min(s.H-h, y2)
		if x := x1 - w; x >= 0 {
			e.side(s, b, false, x, lo, hi, w, h, zp, rot, best)
		}
		if x := x2 + 1; x <= s.W-w {
			e.side(s, b, false, x, lo, hi, w, h, zp, rot, best)
		}
	}
}

// side scores the free bases of a w×h request along one side of a busy
// submesh: bases (a, c), a in [lo, hi], when horiz (c is the row), else
// (c, a); al is the candidate's extent along the side (w when horiz), cl
// across it. Over a run of free bases TECTD is piecewise linear in a: a
// live job across one of the ring's lines c−1 and c+cl adds its ECTD
// difference times a trapezoid (the common length), with breakpoints
// a1−al, a1, a2−al+1 and a2+1 for its extent [a1, a2] along the side; a
// live job beside the band meets the ring's end line a−1 only at a2+1 (it
// blocks the positions before) and a+al only at a1−al, so TECTD jumps
// between a2+1 and a2+2 and between a1−al−1 and a1−al. The mesh edge needs no
// breakpoint: leaving it adds z′ ≥ 0 per node, and the edge positions 0
// and A−al are ends of [lo, hi] or of runs. The minimum over a run, and
// the smallest a among its minimizers (the tie rule), is therefore at an
// end of the run or a breakpoint, and only those are scored: O(N_A)
// positions per side.
func (e *EET) side(s *State, b []uint64, horiz bool, c, lo, hi, w, h int, zp float64, rot bool, best *eetBest) {
	if lo > hi {
		return
	}
	words := s.Words()
	al, cl := w, h
	if !horiz {
		al, cl = h, w
	}
	free := func(a int) bool {
		x, y := a, c
		if !horiz {
			x, y = c, a
		}
		return b[y*words+x/64]>>(uint(x)%64)&1 == 1
	}
	// The ends of the runs of free bases in [lo, hi].
	pts := e.pts[:0]
	prev := false
	for a := lo; a <= hi; a++ {
		f := free(a)
		if f != prev {
			if f {
				pts = append(pts, a)
			} else {
				pts = append(pts, a-1)
			}
			prev = f
		}
	}
	if len(pts) == 0 {
		e.pts = pts
		return
	}
	if prev {
		pts = append(pts, hi)
	}
	// The live jobs that can touch a candidate's ring: within one node of
	// the band of candidates.
	near := e.near[:0]
	for _, j := range e.live {
		a1, a2, c1, c2 := j.x1, j.x2, j.y1, j.y2
		if !horiz {
			a1, a2, c1, c2 = j.y1, j.y2, j.x1, j.x2
		}
		if a2 < lo-1 || a1 > hi+al || c2 < c-1 || c1 > c+cl {
			continue
		}
		near = append(near, j)
		if c2 < c || c1 > c+cl-1 {
			// Across a ring line c−1 or c+cl: the common length is a
			// trapezoid in a.
			pts = append(pts, a1-al, a1, a2-al+1, a2+1)
		} else {
			// Beside the band: it meets the ring's end line a−1 at
			// a = a2+1 (a run's start) and no more from a2+2 on; the
			// end line a+al at a = a1−al (a run's end), not before.
			pts = append(pts, a2+2, a1-al-1)
		}
	}
	for _, a := range pts {
		if a < lo || a > hi || !free(a) {
			continue
		}
		r := Rect{a, c, w, h}
		if !horiz {
			r = Rect{c, a, w, h}
		}
		best.offer(r, eetTECTD(r, near, zp, s.W, s.H), rot)
	}
	e.pts, e.near = pts, near
}
