package mesh

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// bruteUpperLeft is Zhu's first-fit order by brute force: smallest x,
// then largest y.
func bruteUpperLeft(g *Grid, w, h int) (Rect, bool) {
	for x := 0; x+w <= g.W; x++ {
		for y := g.H - h; y >= 0; y-- {
			if r := (Rect{x, y, w, h}); g.IsFree(r) {
				return r, true
			}
		}
	}
	return Rect{}, false
}

// First fit takes exactly the brute-force first base, finds one whenever
// one exists (complete recognition), never overlaps nor leaves the mesh;
// ff-rot falls back to the rotated request only when the request fails.
func TestFirstFitBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dim := range [][2]int{{32, 32}, {16, 8}, {70, 5}, {10, 10}} {
		W, H := dim[0], dim[1]
		for _, rot := range []bool{false, true} {
			a := NewAllocator("ff", W, H, FirstFit{Rotate: rot}, rot)
			var held []policy.Allocation
			for step := 0; step < 3000; step++ {
				if len(held) > 0 && r.IntN(3) == 0 {
					k := r.IntN(len(held))
					a.Release(held[k])
					held = append(held[:k], held[k+1:]...)
					continue
				}
				w, h := 1+r.IntN(W), 1+r.IntN(H)
				j := &policy.Job{ID: int64(step), Width: int32(w), Height: int32(h), Procs: w * h}
				want, ok := bruteUpperLeft(a.st.Grid, w, h)
				if !ok && rot {
					want, ok = bruteUpperLeft(a.st.Grid, h, w)
				}
				got, gotOK := a.Allocate(j)
				if gotOK != ok {
					t.Fatalf("%dx%d rot=%v: %dx%d: allocated %v, brute force %v", W, H, rot, w, h, gotOK, ok)
				}
				if !ok {
					continue
				}
				if got.(*Alloc).Rect != want {
					t.Fatalf("%dx%d rot=%v: %dx%d at %v, want %v", W, H, rot, w, h, got.(*Alloc).Rect, want)
				}
				held = append(held, got)
			}
			for _, h := range held {
				a.Release(h)
			}
			if a.Free() != W*H || len(a.st.List) != 0 {
				t.Fatalf("after releasing everything: %d free, %d busy", a.Free(), len(a.st.List))
			}
		}
	}
}

// A request wider than the mesh is infeasible without rotation and
// feasible with it when it fits turned.
func TestFeasible(t *testing.T) {
	j := &policy.Job{Width: 40, Height: 2, Procs: 80}
	if err := NewAllocator("ff", 32, 64, FirstFit{}, false).Feasible(j); err == nil {
		t.Error("ff: a 40×2 request on 32×64: feasible")
	}
	if err := NewAllocator("ff-rot", 32, 64, FirstFit{Rotate: true}, true).Feasible(j); err != nil {
		t.Errorf("ff-rot: %v", err)
	}
	if err := NewAllocator("ff-rot", 32, 32, FirstFit{Rotate: true}, true).Feasible(j); err == nil {
		t.Error("ff-rot: a 40×2 request on 32×32: feasible")
	}
	// A count with no shape: the square rule shapes 5 as 3×2.
	a := NewAllocator("ff", 4, 4, FirstFit{}, false)
	al, ok := a.Allocate(&policy.Job{Procs: 5})
	if !ok || al.Procs() != 6 || al.(*Alloc).Rect != (Rect{0, 2, 3, 2}) {
		t.Errorf("5 processors on 4×4: %v %v", al, ok)
	}
	if p := al.(*Alloc).Placement(nil); len(p) != 1 || p[0] != policy.Rect(0, 2, 3, 2) {
		t.Errorf("placement %v", p)
	}
	if n := policy.Nodes(al, policy.Machine{Kind: policy.Mesh, Width: 4, Height: 4}, nil); len(n) != 6 || n[0] != 8 || n[5] != 14 {
		t.Errorf("nodes %v", n)
	}
}
