package mesh

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// The pattern of chuFig81 reproduces the figures' surviving numbers, and
// BDI takes A = <0,0,2,2>.
func TestBDIFig82(t *testing.T) {
	s := chuFig81()
	row := func(y int, at func(x int) bool) string {
		var b strings.Builder
		for x := 0; x < s.W; x++ {
			if at(x) {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		return b.String()
	}
	if got := row(9, func(x int) bool { return s.Grid.At(x, 9) }); got != "1000000011" {
		t.Errorf("busy row 9: %s", got)
	}
	bases := s.Grid.Bases(3, 3, nil)
	cov := func(y int) string {
		return row(y, func(x int) bool { return bases[y*s.Words()+x/64]>>(uint(x)%64)&1 == 0 })
	}
	for y, want := range map[int]string{9: "1111111111", 8: "1111111111", 7: "1000001111"} {
		if got := cov(y); got != want {
			t.Errorf("coverage row %d: %s, want %s", y, got, want)
		}
	}
	b := NewBDI()
	if v := b.Value(s, Rect{0, 0, 3, 3}); v != 6 {
		t.Errorf("BDI(A) = %v, want 6", v)
	}
	if v := b.Value(s, Rect{0, 5, 3, 3}); math.Abs(v-(5+1.0/7+1.0/3+1.0/6)) > 1e-12 || math.Round(v*100)/100 != 5.64 {
		t.Errorf("BDI(B) = %v, want 5.64", v)
	}
	if got, ok := b.Find(s, nil, 3, 3); !ok || got != (Rect{0, 0, 3, 3}) {
		t.Errorf("BDI chose %v %v, want A = <0,0,2,2>", got, ok)
	}
}

// bruteBDI walks from each corner of r, node by node, to the nearest busy
// node or off the mesh.
func bruteBDI(g *Grid, r Rect) float64 {
	dist := func(x, y, dx, dy int) int {
		for d := 1; ; d++ {
			x, y = x+dx, y+dy
			if x < 0 || y < 0 || x >= g.W || y >= g.H || g.At(x, y) {
				return d
			}
		}
	}
	inv := func(d int) float64 { return 1 / float64(d) }
	x1, y1, x2, y2 := r.X, r.Y, r.X2(), r.Y2()
	return inv(dist(x1, y1, 0, -1)) + inv(dist(x1, y1, -1, 0)) +
		inv(dist(x2, y1, 0, -1)) + inv(dist(x2, y1, 1, 0)) +
		inv(dist(x1, y2, 0, 1)) + inv(dist(x1, y2, -1, 0)) +
		inv(dist(x2, y2, 0, 1)) + inv(dist(x2, y2, 1, 0))
}

// bruteBDIChoice is BDI's choice from the corners of the free regions
// with walked distances; none when no w×h submesh is free by a scan of
// the grid.
func bruteBDIChoice(s *State, w, h int) (Rect, bool) {
	if w > s.W || h > s.H {
		return Rect{}, false
	}
	any := false
	for y := 0; y+h <= s.H && !any; y++ {
		for x := 0; x+w <= s.W && !any; x++ {
			any = s.Grid.IsFree(Rect{x, y, w, h})
		}
	}
	if !any {
		return Rect{}, false
	}
	if len(s.List) == 0 {
		return Rect{0, 0, w, h}, true
	}
	var best Rect
	bestV := math.Inf(-1)
	for _, g := range FreeRegions(s, w, h, nil) {
		for _, c := range [][2]int{{g.X, g.Y}, {g.X2(), g.Y}, {g.X, g.Y2()}, {g.X2(), g.Y2()}} {
			r := Rect{c[0], c[1], w, h}
			v := bruteBDI(s.Grid, r)
			if v > bestV+1e-9 || v > bestV-1e-9 && (r.Y < best.Y || r.Y == best.Y && r.X < best.X) {
				best, bestV = r, v
			}
		}
	}
	return best, true
}

// BDI values equal the walked ones; the choice is the brute-force best
// corner candidate, found whenever a w×h submesh is free, and rotated only
// when none is.
func TestBDIBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, dim := range [][2]int{{32, 32}, {10, 10}, {70, 6}, {7, 130}, {1, 12}} {
		W, H := dim[0], dim[1]
		b := NewBDI()
		a := NewAllocator("bdi", W, H, b, true)
		churn(t, r, a, 1500, func(w, h int) func(Rect, bool) {
			for k := 0; k < 10; k++ {
				rw, rh := 1+r.IntN(W), 1+r.IntN(H)
				rc := Rect{r.IntN(W - rw + 1), r.IntN(H - rh + 1), rw, rh}
				if got, want := b.Value(a.st, rc), bruteBDI(a.st.Grid, rc); math.Abs(got-want) > 1e-12 {
					t.Fatalf("BDI(%v) = %v, walked %v", rc, got, want)
				}
			}
			want, ok := bruteBDIChoice(a.st, w, h)
			if !ok && w != h {
				want, ok = bruteBDIChoice(a.st, h, w)
			}
			return func(got Rect, gotOK bool) {
				if gotOK != ok || ok && got != want {
					t.Errorf("%dx%d mesh, %dx%d request: got %v %v, brute force %v %v", W, H, w, h, got, gotOK, want, ok)
				}
			}
		})
	}
}

// On an empty mesh BDI allocates <0,0,w−1,h−1>, or <0,0,h−1,w−1> when only
// the rotated request fits.
func TestBDIEmpty(t *testing.T) {
	a := NewAllocator("bdi", 8, 4, NewBDI(), true)
	for _, c := range []struct{ w, h int }{{3, 2}, {2, 6}} {
		s := &State{W: 8, H: 4, Grid: NewGrid(8, 4)}
		got, ok := a.strat.Find(s, nil, c.w, c.h)
		want := Rect{0, 0, c.w, c.h}
		if c.h > 4 {
			want = Rect{0, 0, c.h, c.w}
		}
		if !ok || got != want {
			t.Errorf("%dx%d on an empty 8×4: %v %v, want %v", c.w, c.h, got, ok, want)
		}
	}
}

// bdi:rotate=both takes the better of the two orientations' choices: its
// value is never below the fallback reading's, and it equals it for
// square requests.
func TestBDIBoth(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	differ := 0
	for trial := 0; trial < 300; trial++ {
		a := NewAllocator("bdi", 16, 12, NewBDI(), true)
		for k := 0; k < 1+r.IntN(8); k++ {
			w, h := 1+r.IntN(6), 1+r.IntN(6)
			a.Allocate(&policy.Job{ID: int64(k), Width: int32(w), Height: int32(h), Procs: w * h})
		}
		st := a.State()
		w, h := 1+r.IntN(8), 1+r.IntN(8)
		fb, both := NewBDI(), &BDI{Both: true}
		rf, okf := fb.Find(st, nil, w, h)
		rb, okb := both.Find(st, nil, w, h)
		if okf != okb {
			t.Fatalf("trial %d: found %v and %v", trial, okf, okb)
		}
		if !okf || len(st.List) == 0 {
			continue
		}
		vf, vb := fb.Value(st, rf), both.Value(st, rb)
		if vb < vf-bdiTie {
			t.Fatalf("trial %d: both %v (%g) below fallback %v (%g)", trial, rb, vb, rf, vf)
		}
		if w == h && rb != rf {
			t.Fatalf("trial %d: a square request placed differently", trial)
		}
		if rb != rf {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the two readings never differed: the test exercises nothing")
	}
}
