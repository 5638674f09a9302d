package mesh

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// bruteBoundary counts r's perimeter neighbours that are busy or outside
// the mesh, node by node.
func bruteBoundary(g *Grid, r Rect) int {
	busy := func(x, y int) int {
		if x < 0 || y < 0 || x >= g.W || y >= g.H || g.At(x, y) {
			return 1
		}
		return 0
	}
	v := 0
	for x := r.X; x <= r.X2(); x++ {
		v += busy(x, r.Y-1) + busy(x, r.Y2()+1)
	}
	for y := r.Y; y <= r.Y2(); y++ {
		v += busy(r.X-1, y) + busy(r.X2()+1, y)
	}
	return v
}

// bruteKey is a position with its boundary value, compared by BL's
// order: higher value, requested orientation, lower y, lower x.
type bruteKey struct {
	r   Rect
	v   int
	rot bool
}

func (k bruteKey) beats(o bruteKey) bool {
	if k.v != o.v {
		return k.v > o.v
	}
	if k.rot != o.rot {
		return !k.rot
	}
	if k.r.Y != o.r.Y {
		return k.r.Y < o.r.Y
	}
	return k.r.X < o.r.X
}

// orientations lists the w×h request and, when distinct, the h×w one,
// with the rotated flag.
func orientations(w, h int) [][3]int {
	if w == h {
		return [][3]int{{w, h, 0}}
	}
	return [][3]int{{w, h, 0}, {h, w, 1}}
}

// bruteBLMod is the free position of highest boundary value over every
// position of the mesh, in both orientations.
func bruteBLMod(g *Grid, w, h int) (bruteKey, bool) {
	var best bruteKey
	found := false
	for _, o := range orientations(w, h) {
		for y := 0; y+o[1] <= g.H; y++ {
			for x := 0; x+o[0] <= g.W; x++ {
				r := Rect{x, y, o[0], o[1]}
				if !g.IsFree(r) {
					continue
				}
				k := bruteKey{r, bruteBoundary(g, r), o[2] == 1}
				if !found || k.beats(best) {
					best, found = k, true
				}
			}
		}
	}
	return best, found
}

// bruteBL is the original BL by its description, naively: the four mesh
// corners when free, and for every side of every allocated submesh the
// positions touching it inside the mesh, swept from each end to the first
// free one.
func bruteBL(g *Grid, list []*Busy, w, h int) (bruteKey, bool) {
	var best bruteKey
	found := false
	for _, o := range orientations(w, h) {
		ow, oh := o[0], o[1]
		free := func(r Rect) bool { return r.Inside(g.W, g.H) && g.IsFree(r) }
		offer := func(r Rect) {
			if !free(r) {
				return
			}
			k := bruteKey{r, bruteBoundary(g, r), o[2] == 1}
			if !found || k.beats(best) {
				best, found = k, true
			}
		}
		for _, c := range []Rect{{0, 0, ow, oh}, {g.W - ow, 0, ow, oh}, {0, g.H - oh, ow, oh}, {g.W - ow, g.H - oh, ow, oh}} {
			offer(c)
		}
		sweep := func(side []Rect) {
			for _, r := range side {
				if free(r) {
					offer(r)
					break
				}
			}
			for i := len(side) - 1; i >= 0; i-- {
				if free(side[i]) {
					offer(side[i])
					break
				}
			}
		}
		for _, b := range list {
			var left, right, below, above []Rect
			for y := b.Y - oh + 1; y <= b.Y2(); y++ {
				if r := (Rect{b.X - ow, y, ow, oh}); r.Inside(g.W, g.H) {
					left = append(left, r)
				}
				if r := (Rect{b.X2() + 1, y, ow, oh}); r.Inside(g.W, g.H) {
					right = append(right, r)
				}
			}
			for x := b.X - ow + 1; x <= b.X2(); x++ {
				if r := (Rect{x, b.Y - oh, ow, oh}); r.Inside(g.W, g.H) {
					below = append(below, r)
				}
				if r := (Rect{x, b.Y2() + 1, ow, oh}); r.Inside(g.W, g.H) {
					above = append(above, r)
				}
			}
			sweep(left)
			sweep(right)
			sweep(below)
			sweep(above)
		}
	}
	return best, found
}

var blMeshes = [][2]int{{16, 16}, {10, 7}, {70, 5}, {5, 66}, {1, 9}, {12, 1}}

// Modified BL takes exactly the free position of highest boundary value
// over the whole mesh (brute force, same ties), in both orientations, so
// it recognises every free submesh.
func TestBusyListModifiedBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, dim := range blMeshes {
		a := NewAllocator("bl-mod", dim[0], dim[1], NewBusyList(true), true)
		churn(t, r, a, 1500, func(w, h int) func(Rect, bool) {
			want, ok := bruteBLMod(a.st.Grid, w, h)
			return func(got Rect, gotOK bool) {
				if gotOK != ok || ok && got != want.r {
					t.Errorf("%dx%d mesh, %dx%d request: got %v %v, brute force %v (value %d) %v", dim[0], dim[1], w, h, got, gotOK, want.r, want.v, ok)
				}
			}
		})
	}
}

// Original BL takes the best of its candidates (a naive rendering of the
// description), recognises every free submesh in either orientation, and
// never beats the modified BL's value.
func TestBusyListOriginal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, dim := range blMeshes {
		a := NewAllocator("bl", dim[0], dim[1], NewBusyList(false), true)
		churn(t, r, a, 1500, func(w, h int) func(Rect, bool) {
			want, ok := bruteBL(a.st.Grid, a.st.List, w, h)
			best, any := bruteBLMod(a.st.Grid, w, h)
			if ok != any {
				t.Errorf("%dx%d mesh, %dx%d request: BL candidates %v, a free position exists %v", dim[0], dim[1], w, h, ok, any)
			}
			if ok && want.v > best.v {
				t.Errorf("BL value %d above the best %d", want.v, best.v)
			}
			return func(got Rect, gotOK bool) {
				if gotOK != ok || ok && got != want.r {
					t.Errorf("%dx%d mesh, %dx%d request: got %v %v, brute force %v (value %d) %v", dim[0], dim[1], w, h, got, gotOK, want.r, want.v, ok)
				}
			}
		})
	}
}

// The boundary value and the column view agree with the grid through
// allocations, releases and clones.
func TestBoundaryAndColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, dim := range [][2]int{{20, 70}, {65, 65}, {3, 130}} {
		W, H := dim[0], dim[1]
		bl := NewBusyList(true)
		a := NewAllocator("bl-mod", W, H, bl, true)
		churn(t, r, a, 400, func(w, h int) func(Rect, bool) {
			bl.cols.sync(a.st) // builds the view before the first Find
			for y := 0; y < H; y++ {
				for x := 0; x < W; x++ {
					if bl.cols.line(x)[y/64]>>(uint(y)%64)&1 == 1 != a.st.Grid.At(x, y) {
						t.Fatalf("column view differs at (%d,%d)", x, y)
					}
				}
			}
			for k := 0; k < 20; k++ {
				rw, rh := 1+r.IntN(W), 1+r.IntN(H)
				rc := Rect{r.IntN(W - rw + 1), r.IntN(H - rh + 1), rw, rh}
				if got, want := bl.Boundary(a.st, rc), bruteBoundary(a.st.Grid, rc); got != want {
					t.Fatalf("boundary of %v: %d, want %d", rc, got, want)
				}
			}
			return func(Rect, bool) {}
		})
	}
	// A clone keeps its own view; a strategy joining a busy mesh rebuilds.
	a := NewAllocator("bl", 8, 8, NewBusyList(false), true)
	al, _ := a.Allocate(&policy.Job{Width: 3, Height: 2, Procs: 6})
	c := a.Clone().(*Allocator)
	a.Release(al)
	if got := c.strat.(*BusyList).Boundary(c.st, Rect{3, 0, 2, 2}); got != 4 {
		t.Errorf("clone: boundary %d, want 4", got)
	}
	late := NewBusyList(true)
	if got := late.Boundary(c.st, Rect{3, 0, 2, 2}); got != 4 {
		t.Errorf("late strategy: boundary %d, want 4", got)
	}
}

// lineCount, prevSet and nextSet agree with a bit-by-bit scan.
func TestLineHelpers(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(200)
		line := make([]uint64, (n+63)/64)
		for i := 0; i < n; i++ {
			if r.IntN(8) == 0 {
				line[i/64] |= 1 << (uint(i) % 64)
			}
		}
		bit := func(i int) bool { return line[i/64]>>(uint(i)%64)&1 == 1 }
		lo := r.IntN(n)
		k := r.IntN(n - lo + 1)
		want := 0
		for i := lo; i < lo+k; i++ {
			if bit(i) {
				want++
			}
		}
		if got := lineCount(line, lo, k); got != want {
			t.Fatalf("lineCount(%d, %d) = %d, want %d", lo, k, got, want)
		}
		x := r.IntN(n)
		wantPrev := -1
		for i := x - 1; i >= 0; i-- {
			if bit(i) {
				wantPrev = i
				break
			}
		}
		wantNext := n
		for i := x + 1; i < n; i++ {
			if bit(i) {
				wantNext = i
				break
			}
		}
		if got := prevSet(line, x); got != wantPrev {
			t.Fatalf("prevSet(%d) = %d, want %d", x, got, wantPrev)
		}
		if got := nextSet(line, x, n); got != wantNext {
			t.Fatalf("nextSet(%d) = %d, want %d", x, got, wantNext)
		}
	}
}

// Chu's Fig. 8.1: on the reconstructed busy pattern, <0,5,2,7> and
// <6,4,8,6> are the only 3×3 positions of boundary value 7, the highest;
// both BLs take <6,4,8,6> (the lower).
func TestBusyListFig81(t *testing.T) {
	s := chuFig81()
	for _, modified := range []bool{false, true} {
		b := NewBusyList(modified)
		for y := 0; y <= 7; y++ {
			for x := 0; x <= 7; x++ {
				r := Rect{x, y, 3, 3}
				if !s.Grid.IsFree(r) {
					continue
				}
				v := b.Boundary(s, r)
				top := r == Rect{0, 5, 3, 3} || r == Rect{6, 4, 3, 3}
				if top && v != 7 || !top && v >= 7 {
					t.Errorf("boundary value of %v: %d", r, v)
				}
			}
		}
		if got, ok := b.Find(s, nil, 3, 3); !ok || got != (Rect{6, 4, 3, 3}) {
			t.Errorf("modified %v: %v %v, want <6,4,8,6>", modified, got, ok)
		}
	}
}
