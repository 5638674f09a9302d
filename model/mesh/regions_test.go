package mesh

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// churn drives a through steps random requests and releases (a third of
// the steps release a random holding). Request sides are uniform up to
// the mesh's sides divided by 1, 2 or 4 (at random), so that both crowded
// and sparse meshes occur. Before each request it calls before with the
// request; the function it returns is called with the allocation (ok
// false when none). The Allocator itself panics on an overlap, a
// submesh outside the mesh or of the wrong shape. At the end everything
// is released and the mesh must be empty.
func churn(t *testing.T, r *rand.Rand, a *Allocator, steps int, before func(w, h int) func(got Rect, ok bool)) {
	t.Helper()
	W, H := a.st.W, a.st.H
	var held []policy.Allocation
	for step := 0; step < steps; step++ {
		if len(held) > 0 && r.IntN(3) == 0 {
			k := r.IntN(len(held))
			a.Release(held[k])
			held = append(held[:k], held[k+1:]...)
			continue
		}
		d := []int{1, 2, 4}[r.IntN(3)]
		w, h := 1+r.IntN(max(1, W/d)), 1+r.IntN(max(1, H/d))
		if !a.rotate && (w > W || h > H) {
			continue
		}
		after := before(w, h)
		al, ok := a.Allocate(&policy.Job{ID: int64(step), Width: int32(w), Height: int32(h), Procs: w * h})
		var got Rect
		if ok {
			got = al.(*Alloc).Rect
			held = append(held, al)
		}
		after(got, ok)
		if t.Failed() {
			t.FailNow()
		}
	}
	for _, al := range held {
		a.Release(al)
	}
	if a.Free() != W*H || len(a.st.List) != 0 {
		t.Fatalf("after releasing everything: %d free, %d busy", a.Free(), len(a.st.List))
	}
}

// chuFig81 is a 10×10 busy pattern consistent with every surviving
// detail of Chu 1995 Figs. 8.1 and 8.2 (the drawings are lost; the two
// figures show the same mesh), with a 3×3 request in mind:
//
//	9 #.......##   allocated submeshes (Chu's <x1,y1,x2,y2>):
//	8 #.......##     <4,0,8,3>, <0,4,3,4>, <0,8,0,9>,
//	7 ........##     <8,7,9,9>, <9,4,9,6>
//	6 .........#
//	5 .........#
//	4 ####.....#
//	3 ....#####.
//	2 ....#####.
//	1 ....#####.
//	0 ....#####.
//	  0123456789
//
// It gives the busy array's top row 1000000011 and the coverage array's
// rows 9, 8 and 7 (1111111111, 1111111111, 1000001111); Best Fit's only
// two 3-corners C[0,5] and C[6,4], of areas 6 and 3 (checked by hand);
// BL's highest boundary value 7, reached by <0,5,2,7> and <6,4,8,6> only
// (with the mesh edge counted as busy: without it <0,5,2,7> could not
// reach 7); BDI(<0,0,2,2>) = 1+1+1+1+½+½+½+½ = 6 and BDI(<0,5,2,7>) =
// 1+1+1+1+1+⅐+⅓+⅙ = 5.64. The last three terms, lost in the OCR, are
// forced: three unit fractions below 1 summing to 0.64 with denominators
// up to 10 are {4,4,7}, {3,6,7} or {3,5,9}; the north term from <0,7> is
// 1 or ½ by the top row, so it is one of the five 1s; the north term from
// <2,7> is then 3 (the mesh edge), the east terms 6 and 7, and <6,4,8,6>
// being free puts the 7 in row 5. The pattern is one of several: the
// nodes the figures say nothing about, such as (9,0), are free here.
func chuFig81() *State {
	s := &State{W: 10, H: 10, Grid: NewGrid(10, 10)}
	for _, r := range []Rect{{4, 0, 5, 4}, {0, 4, 4, 1}, {0, 8, 1, 2}, {8, 7, 2, 3}, {9, 4, 1, 3}} {
		s.Grid.Set(r)
		s.List = append(s.List, &Busy{Rect: r})
	}
	return s
}

// The free regions are disjoint rectangles of bases inside the
// base-eligible region whose union is exactly the set of free bases
// (Grid.Bases), on meshes of one word, a word and a bit, and several.
func TestFreeRegionsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, dim := range [][2]int{{32, 32}, {10, 10}, {65, 9}, {130, 7}, {6, 70}, {1, 1}, {1, 8}} {
		W, H := dim[0], dim[1]
		a := NewAllocator("ff", W, H, FirstFit{}, false)
		var buf []Rect
		churn(t, r, a, 600, func(w, h int) func(Rect, bool) {
			s := a.st
			for q := 0; q < 4; q++ {
				rw, rh := w, h
				if q > 0 {
					rw, rh = 1+r.IntN(W), 1+r.IntN(H)
				}
				buf = FreeRegions(s, rw, rh, buf)
				bases := s.Grid.Bases(rw, rh, nil)
				seen := make([]bool, W*H)
				for i, g := range buf {
					if g.W < 1 || g.H < 1 || !g.Inside(W-rw+1, H-rh+1) {
						t.Fatalf("%dx%d request: region %v outside <0,0,%d,%d>", rw, rh, g, W-rw, H-rh)
					}
					for _, o := range buf[:i] {
						if g.Overlaps(o) {
							t.Fatalf("%dx%d request: regions %v and %v overlap", rw, rh, g, o)
						}
					}
					for y := g.Y; y <= g.Y2(); y++ {
						for x := g.X; x <= g.X2(); x++ {
							seen[y*W+x] = true
						}
					}
				}
				for y := 0; y < H; y++ {
					for x := 0; x < W; x++ {
						want := bases[y*s.Words()+x/64]>>(uint(x)%64)&1 == 1
						if seen[y*W+x] != want {
							t.Fatalf("%dx%d request, base (%d,%d): in a region %v, free %v (regions %v)", rw, rh, x, y, seen[y*W+x], want, buf)
						}
					}
				}
			}
			return func(Rect, bool) {}
		})
	}
}

// On an empty mesh the one region is <0,0,W−w,H−h> (not Chu's printed
// <0,0,W−w+1,H−h+1>); a request larger than the mesh has none.
func TestFreeRegionsEmpty(t *testing.T) {
	s := &State{W: 10, H: 6, Grid: NewGrid(10, 6)}
	if got := FreeRegions(s, 3, 2, nil); len(got) != 1 || got[0] != (Rect{0, 0, 8, 5}) || got[0].X2() != 7 || got[0].Y2() != 4 {
		t.Errorf("empty 10×6, 3×2 request: %v", got)
	}
	if got := FreeRegions(s, 11, 1, nil); len(got) != 0 {
		t.Errorf("11×1 on 10×6: %v", got)
	}
}

// The cut rule: a coverage submesh in the middle of the region leaves the
// full-width parts below and above it, then the parts left and right of
// it within its rows, in that order.
func TestFreeRegionsCuts(t *testing.T) {
	s := &State{W: 10, H: 10, Grid: NewGrid(10, 10)}
	b := Rect{4, 4, 2, 2}
	s.Grid.Set(b)
	s.List = append(s.List, &Busy{Rect: b})
	// 1×1 request: the coverage submesh is b itself.
	want := []Rect{{0, 0, 10, 4}, {0, 6, 10, 4}, {0, 4, 4, 2}, {6, 4, 4, 2}}
	got := FreeRegions(s, 1, 1, nil)
	if len(got) != len(want) {
		t.Fatalf("regions %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("regions %v, want %v", got, want)
		}
	}
	// Chu's Fig. 8.1 pattern, 3×3 request.
	s = chuFig81()
	want = []Rect{{0, 5, 6, 1}, {1, 6, 5, 2}, {4, 4, 3, 1}, {0, 0, 2, 2}}
	got = FreeRegions(s, 3, 3, nil)
	if len(got) != len(want) {
		t.Fatalf("Fig. 8.1 regions %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Fig. 8.1 regions %v, want %v", got, want)
		}
	}
}
