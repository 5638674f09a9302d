package mesh

import (
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// bruteFrameSliding is Frame Sliding as Chu 1995 §2.4.2 describes it,
// literally: from the lowest, leftmost free processor, the frame's base is
// tested against the coverage submeshes of the busy list and the reject
// set; it slides w to the right, and when its base passes the right
// boundary it moves up h and slides left, passing the left boundary it
// moves up h and slides right, until a base passes the test or the frame
// leaves the mesh at the top.
func bruteFrameSliding(s *State, w, h int) (Rect, bool) {
	x, y := -1, -1
	for yy := 0; yy < s.H && x < 0; yy++ {
		for xx := 0; xx < s.W; xx++ {
			if !s.Grid.At(xx, yy) {
				x, y = xx, yy
				break
			}
		}
	}
	if x < 0 {
		return Rect{}, false
	}
	covered := func(bx, by int) bool {
		if bx >= s.W-w+1 || by >= s.H-h+1 { // the reject set
			return true
		}
		for _, b := range s.List {
			if max(0, b.X-w+1) <= bx && bx <= b.X2() && max(0, b.Y-h+1) <= by && by <= b.Y2() {
				return true
			}
		}
		return false
	}
	dir := 1
	for y < s.H {
		if !covered(x, y) {
			return Rect{x, y, w, h}, true
		}
		x += dir * w
		if x > s.W-1 || x < 0 {
			y += h
			dir = -dir
			x += dir * w
		}
	}
	return Rect{}, false
}

// Frame sliding makes exactly the choice of the literal serpentine scan,
// never overlaps nor leaves the mesh, and misses free submeshes now and
// then (it has no complete recognition).
func TestFrameSlidingBruteForce(t *testing.T) {
	misses := 0
	for _, dim := range meshSizes {
		misses += exercise(t, strategyRun{
			name: "fs", W: dim[0], H: dim[1], strat: FrameSliding{},
			ref:   func(a *Allocator, w, h int) (Rect, bool) { return bruteFrameSliding(a.st, w, h) },
			shape: exactShape,
		}, 3, 3000)
	}
	if misses == 0 {
		t.Error("frame sliding never missed a free submesh")
	}
	t.Logf("%d misses", misses)
}

// Frame sliding misses a free submesh that brute force finds: on a 6×3
// mesh with (0,0) and (2,0) busy, a 3×3 request fits at (3,0), but the
// frames start at the lowest, leftmost free node (1,0): the frame there
// holds (2,0), the next, at (4,0), leaves the mesh, and so does the next
// row of frames, at y = 3.
func TestFrameSlidingMisses(t *testing.T) {
	a := NewAllocator("fs", 6, 3, FrameSliding{}, false)
	var held []policy.Allocation
	for i := 0; i < 3; i++ {
		al, ok := a.Allocate(&policy.Job{ID: int64(i), Width: 1, Height: 1, Procs: 1})
		if !ok || al.(*Alloc).Rect != (Rect{i, 0, 1, 1}) {
			t.Fatalf("1×1 number %d: %v %v", i, al, ok)
		}
		held = append(held, al)
	}
	a.Release(held[1])
	if !bruteAny(a.st.Grid, 3, 3) {
		t.Fatal("no free 3×3 submesh: the example is wrong")
	}
	if r, ok := a.Allocate(&policy.Job{ID: 3, Width: 3, Height: 3, Procs: 9}); ok {
		t.Errorf("found %v", r)
	}
}

// The scan's order and its frame lattice.
func TestFrameSlidingOrder(t *testing.T) {
	for _, c := range []struct {
		name string
		rows []string // top row first
		w, h int
		want Rect
		ok   bool
	}{
		// Start (1,0); the frames at (1,0) and (3,0) hold busy nodes;
		// the scan moves up to y = 2 and slides leftward from x = 3.
		{"serpentine", []string{"00000", "00000", "00110", "10010"}, 2, 2, Rect{3, 2, 2, 2}, true},
		// Start (3,0): no frame of the lattice x ≡ 1 (mod 2) fits in row
		// 0 from there; in row 2 the leftward slide reaches x = 1 < x0.
		{"left-of-start", []string{"0000", "0000", "0000", "1110"}, 2, 2, Rect{1, 2, 2, 2}, true},
		// Start (0,1), above a busy bottom row: the frames are based on
		// rows 1 and 3 only, so the free 4×2 at y = 2 is missed.
		{"rows", []string{"0000", "0000", "0001", "1111"}, 4, 2, Rect{}, false},
		// Start (1,1): no lattice column x ≡ 1 (mod 4) fits a 4-wide frame.
		{"columns", []string{"0000", "0000", "1000", "1111"}, 4, 2, Rect{}, false},
		{"full", []string{"11", "11"}, 1, 1, Rect{}, false},
	} {
		g := gridFromRows(c.rows...)
		st := &State{W: g.W, H: g.H, Grid: g}
		for y := 0; y < g.H; y++ {
			for x := 0; x < g.W; x++ {
				if g.At(x, y) {
					st.List = append(st.List, &Busy{Rect: Rect{x, y, 1, 1}})
				}
			}
		}
		r, ok := (FrameSliding{}).Find(st, nil, c.w, c.h)
		br, bok := bruteFrameSliding(st, c.w, c.h)
		if ok != c.ok || ok && r != c.want || bok != ok || bok && br != r {
			t.Errorf("%s: %v %v (literal scan %v %v), want %v %v", c.name, r, ok, br, bok, c.want, c.ok)
		}
	}
}
