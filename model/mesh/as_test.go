package mesh

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// The helpers of this file drive every strategy's tests (as, bf, fs,
// 2dbs).

// meshSizes are the meshes of the random tests: square and not, one word
// wide, a word and a bit, several words.
var meshSizes = [][2]int{{32, 32}, {16, 8}, {7, 13}, {70, 5}, {130, 6}, {10, 10}, {1, 9}}

// strategyRun describes one random run: the strategy on a W×H mesh.
type strategyRun struct {
	name   string
	W, H   int
	strat  Strategy
	rotate bool
	// ref, when set, is the brute-force choice of the same rule on a's
	// state; the strategy must make exactly that choice.
	ref func(a *Allocator, w, h int) (Rect, bool)
	// shape reports whether r is an allowed rectangle for a w×h request.
	shape func(r Rect, w, h int) bool
	// complete: a placement must be found whenever a free submesh of an
	// allowed orientation exists.
	complete bool
	// check, when set, is run on the allocator after every step.
	check func(t *testing.T, a *Allocator)
}

// exactShape accepts exactly w×h; rotShape also h×w.
func exactShape(r Rect, w, h int) bool { return r.W == w && r.H == h }
func rotShape(r Rect, w, h int) bool   { return exactShape(r, w, h) || exactShape(r, h, w) }

// bruteAny reports whether some w×h submesh of g is free.
func bruteAny(g *Grid, w, h int) bool {
	for y := 0; y+h <= g.H; y++ {
		for x := 0; x+w <= g.W; x++ {
			if g.IsFree(Rect{x, y, w, h}) {
				return true
			}
		}
	}
	return false
}

// exercise runs random allocations and releases (steps of them, with a
// clone of the allocator taken halfway and used from then on) and checks
// every placement: inside the mesh, disjoint from every held submesh, of
// an allowed shape, the reference's choice, found whenever complete
// recognition requires it. It returns how often the strategy failed while
// a free submesh of the request's shape existed.
func exercise(t *testing.T, run strategyRun, seed uint64, steps int) (misses int) {
	t.Helper()
	W, H := run.W, run.H
	r := rand.New(rand.NewPCG(seed, uint64(W*1000+H)))
	a := NewAllocator(run.name, W, H, run.strat, run.rotate)
	var held []policy.Allocation
	for step := 0; step < steps; step++ {
		if step == steps/2 {
			a = a.Clone().(*Allocator)
		}
		if len(held) > 0 && r.IntN(3) == 0 {
			k := r.IntN(len(held))
			a.Release(held[k])
			held = append(held[:k], held[k+1:]...)
			if run.check != nil {
				run.check(t, a)
			}
			continue
		}
		// Mostly small requests, so that the mesh fills up; some large.
		w, h := 1+r.IntN(max(1, W/3)), 1+r.IntN(max(1, H/3))
		if r.IntN(4) == 0 {
			w, h = 1+r.IntN(W), 1+r.IntN(H)
		}
		if run.rotate && r.IntN(4) == 0 {
			w, h = h, w
		}
		j := &policy.Job{ID: int64(step), Width: int32(w), Height: int32(h), Procs: w * h}
		var want Rect
		var wantOK bool
		if run.ref != nil {
			want, wantOK = run.ref(a, w, h)
		}
		exists := bruteAny(a.st.Grid, w, h) || run.rotate && bruteAny(a.st.Grid, h, w)
		got, ok := a.Allocate(j)
		switch {
		case run.ref != nil && ok != wantOK:
			t.Fatalf("%s %dx%d step %d: %dx%d: allocated %v, brute force %v", run.name, W, H, step, w, h, ok, wantOK)
		case !ok && exists && run.complete:
			t.Fatalf("%s %dx%d step %d: %dx%d: no placement, but a free one exists", run.name, W, H, step, w, h)
		case !ok && exists:
			misses++
		}
		if ok {
			rc := got.(*Alloc).Rect
			if run.ref != nil && rc != want {
				t.Fatalf("%s %dx%d step %d: %dx%d at %v, brute force %v", run.name, W, H, step, w, h, rc, want)
			}
			if !rc.Inside(W, H) || !run.shape(rc, w, h) {
				t.Fatalf("%s %dx%d step %d: %dx%d at %v: outside or misshapen", run.name, W, H, step, w, h, rc)
			}
			for _, o := range held {
				if rc.Overlaps(o.(*Alloc).Rect) {
					t.Fatalf("%s %dx%d step %d: %v overlaps %v", run.name, W, H, step, rc, o.(*Alloc).Rect)
				}
			}
			held = append(held, got)
		}
		if run.check != nil {
			run.check(t, a)
		}
	}
	for _, h := range held {
		a.Release(h)
	}
	if a.Free() != W*H || len(a.st.List) != 0 {
		t.Fatalf("%s %dx%d: after releasing everything: %d free, %d busy", run.name, W, H, a.Free(), len(a.st.List))
	}
	if run.check != nil {
		run.check(t, a)
	}
	return misses
}

// bruteLowestLeft is the adaptive scan order by brute force: the free
// base with the smallest y, then the smallest x.
func bruteLowestLeft(g *Grid, w, h int) (Rect, bool) {
	for y := 0; y+h <= g.H; y++ {
		for x := 0; x+w <= g.W; x++ {
			if r := (Rect{x, y, w, h}); g.IsFree(r) {
				return r, true
			}
		}
	}
	return Rect{}, false
}

// Adaptive scan takes exactly the brute-force lowest-leftmost base, the
// rotated one only when the request itself fails, and finds one whenever
// one exists.
func TestAdaptiveScanBruteForce(t *testing.T) {
	for _, dim := range meshSizes {
		exercise(t, strategyRun{
			name: "as", W: dim[0], H: dim[1], strat: AdaptiveScan{}, rotate: true,
			ref: func(a *Allocator, w, h int) (Rect, bool) {
				if r, ok := bruteLowestLeft(a.st.Grid, w, h); ok {
					return r, true
				}
				return bruteLowestLeft(a.st.Grid, h, w)
			},
			shape: rotShape, complete: true,
		}, 1, 3000)
	}
}

// A 3×1 request on a 4×2 mesh whose bottom row is taken at x = 1 goes
// to the upper row; a 1×3 request there only fits rotated.
func TestAdaptiveScanExample(t *testing.T) {
	st := &State{W: 4, H: 2, Grid: NewGrid(4, 2)}
	st.Grid.Set(Rect{1, 0, 1, 1})
	if r, ok := (AdaptiveScan{}).Find(st, nil, 3, 1); !ok || r != (Rect{0, 1, 3, 1}) {
		t.Errorf("3×1: %v %v, want <0,1,2,1>", r, ok)
	}
	if r, ok := (AdaptiveScan{}).Find(st, nil, 1, 2); !ok || r != (Rect{0, 0, 1, 2}) {
		t.Errorf("1×2: %v %v, want <0,0,0,1>", r, ok)
	}
	if r, ok := (AdaptiveScan{}).Find(st, nil, 1, 3); !ok || r != (Rect{0, 1, 3, 1}) {
		t.Errorf("1×3: %v %v, want the rotated <0,1,2,1>", r, ok)
	}
	if _, ok := (AdaptiveScan{}).Find(st, nil, 4, 2); ok {
		t.Error("4×2 on a mesh with a busy node: found")
	}
}
