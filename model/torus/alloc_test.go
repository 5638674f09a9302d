package torus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// specs are every allocator with the parameters the tests cover.
var specs = []string{
	"cuboid-ff", "cuboid-bf", "mbs3d", "mc1x1", "random3d", "random3d:seed=7",
	"curve:order=row,fit=first", "curve:order=row,fit=best", "curve:order=row,fit=sorted",
	"curve:order=snake,fit=first", "curve:order=snake,fit=best", "curve:order=snake,fit=sorted",
	"curve:order=hilbert,fit=first", "curve:order=hilbert,fit=best", "curve:order=hilbert,fit=sorted",
}

func newAlloc(t testing.TB, spec, machine string) (policy.Allocator, policy.Machine) {
	t.Helper()
	m, err := policy.ParseMachine(machine)
	if err != nil {
		t.Fatal(err)
	}
	name, p, err := policy.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Allocators(MeshKind) {
		if s.Name == name {
			a, err := s.New(m, p)
			if err != nil {
				t.Fatalf("%s on %s: %v", spec, machine, err)
			}
			return a, m
		}
	}
	t.Fatalf("no allocator %s", name)
	return nil, m
}

// freeCuboid reports, by brute force, whether some cuboid of one of
// shapes is wholly free.
func freeCuboid(g Geom, busy []bool, shapes [][3]int) bool {
	for _, sh := range shapes {
		for z := 0; z < bases(g, sh[2], g.Z); z++ {
			for y := 0; y < bases(g, sh[1], g.Y); y++ {
				for x := 0; x < bases(g, sh[0], g.X); x++ {
					ok := true
					for _, n := range g.AppendNodes(Cuboid{x, y, z, sh[0], sh[1], sh[2]}, nil) {
						ok = ok && !busy[n]
					}
					if ok {
						return true
					}
				}
			}
		}
	}
	return false
}

// TestProperty: random allocations and releases; every node inside the
// machine, never held twice, exactly the request (cuboids: the volume of
// Shapes), the free count right, and a refusal only when the strategy
// promises one (fewer free nodes than requested; for cuboids, no free
// cuboid of the request's shapes). A clone taken midway is independent.
func TestProperty(t *testing.T) {
	machines := []string{"mesh3d:4x3x5", "torus:4x4x4", "torus:5x3", "mesh3d:8x8x4", "torus:6x5x3", "mesh3d:1x1x7"}
	steps := 400
	if testing.Short() {
		steps = 150
	}
	for _, machine := range machines {
		for _, spec := range specs {
			t.Run(machine+"/"+spec, func(t *testing.T) {
				a, m := newAlloc(t, spec, machine)
				g := GeomOf(m)
				r := rand.New(rand.NewPCG(uint64(len(spec)), uint64(m.Procs)))
				busy := make([]bool, m.Procs)
				type held struct {
					a     policy.Allocation
					nodes []int
				}
				var hs []held
				var clone policy.Allocator
				cloneFree := 0
				for step := 0; step < steps; step++ {
					if step == steps/2 {
						clone = a.Clone()
						cloneFree = clone.Free()
					}
					if len(hs) > 0 && r.IntN(3) == 0 {
						i := r.IntN(len(hs))
						a.Release(hs[i].a)
						for _, n := range hs[i].nodes {
							busy[n] = false
						}
						hs = slices.Delete(hs, i, i+1)
						continue
					}
					k := 1 + r.IntN(m.Procs/2+1)
					if r.IntN(4) == 0 {
						k = 1 + r.IntN(4)
					}
					free := 0
					for _, b := range busy {
						if !b {
							free++
						}
					}
					j := &policy.Job{Procs: k, Record: int32(step)}
					if err := a.Feasible(j); err != nil {
						t.Fatalf("k=%d infeasible: %v", k, err)
					}
					al, ok := a.Allocate(j)
					want := k
					if spec == "cuboid-ff" || spec == "cuboid-bf" {
						sh := Shapes(g, k)[0]
						want = sh[0] * sh[1] * sh[2]
						if !ok && want <= free && freeCuboid(g, busy, Shapes(g, k)) {
							t.Fatalf("step %d: refused %d nodes with a free cuboid", step, k)
						}
					} else if !ok && k <= free {
						t.Fatalf("step %d: refused %d nodes with %d free", step, k, free)
					}
					if !ok {
						continue
					}
					if al.Procs() != want {
						t.Fatalf("step %d: %d nodes for %d (want %d)", step, al.Procs(), k, want)
					}
					var nodes []int
					for _, p := range al.Placement(nil) {
						c, ok := g.CuboidOf(p)
						if !ok {
							t.Fatalf("piece %+v not on %s", p, machine)
						}
						nodes = g.AppendNodes(c, nodes)
					}
					if len(nodes) != want {
						t.Fatalf("pieces hold %d nodes, allocation says %d", len(nodes), want)
					}
					for _, n := range nodes {
						if n < 0 || n >= m.Procs || busy[n] {
							t.Fatalf("step %d: node %d outside or held twice", step, n)
						}
						busy[n] = true
					}
					hs = append(hs, held{al, nodes})
					if a.Free() != free-want {
						t.Fatalf("free %d, want %d", a.Free(), free-want)
					}
				}
				// The clone is independent of what followed: its free count
				// is the one it was taken with, and a job of all its free
				// nodes places there on the strategies that place any count.
				if clone.Free() != cloneFree || clone.Size() != m.Procs {
					t.Fatalf("clone: free %d (taken with %d), size %d", clone.Free(), cloneFree, clone.Size())
				}
				if cloneFree > 0 && !strings.HasPrefix(spec, "cuboid") {
					if al, ok := clone.Allocate(&policy.Job{Procs: cloneFree}); !ok || al.Procs() != cloneFree || clone.Free() != 0 {
						t.Fatalf("clone: %d free nodes not placed", cloneFree)
					}
				}
				for _, h := range hs {
					a.Release(h.a)
				}
				if a.Free() != m.Procs {
					t.Fatalf("after releasing all: %d free", a.Free())
				}
				if al, ok := a.Allocate(&policy.Job{Procs: m.Procs}); !ok || al.Procs() != m.Procs {
					t.Fatalf("the whole machine does not fit the emptied allocator")
				}
			})
		}
	}
}

// place allocates jobs of the given sizes in turn and returns the node
// lists.
func place(t *testing.T, a policy.Allocator, m policy.Machine, sizes ...int) ([][]int, []policy.Allocation) {
	t.Helper()
	g := GeomOf(m)
	var out [][]int
	var as []policy.Allocation
	for i, k := range sizes {
		al, ok := a.Allocate(&policy.Job{Procs: k, Record: int32(i)})
		if !ok {
			out = append(out, nil)
			as = append(as, nil)
			continue
		}
		var nodes []int
		for _, p := range al.Placement(nil) {
			c, _ := g.CuboidOf(p)
			nodes = g.AppendNodes(c, nodes)
		}
		slices.Sort(nodes)
		out = append(out, nodes)
		as = append(as, al)
	}
	return out, as
}

func seq(lo, hi int) []int {
	var s []int
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

func eq(t *testing.T, what string, got, want []int) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// TestCurveHand: worked by hand on a 4×2×1 mesh (row order 0..7; snake
// 0 1 2 3 7 6 5 4).
func TestCurveHand(t *testing.T) {
	a, m := newAlloc(t, "curve:order=row,fit=first", "mesh3d:4x2x1")
	got, as := place(t, a, m, 2, 3, 2)
	eq(t, "row ff 1", got[0], []int{0, 1})
	eq(t, "row ff 2", got[1], []int{2, 3, 4})
	eq(t, "row ff 3", got[2], []int{5, 6})
	a.Release(as[0]) // free: 0 1, 7
	got, _ = place(t, a, m, 1)
	eq(t, "row ff after release", got[0], []int{0})

	// Best fit takes the shortest interval holding the job: free 0 1, 7 → 7.
	b, _ := newAlloc(t, "curve:order=row,fit=best", "mesh3d:4x2x1")
	_, bs := place(t, b, m, 2, 3, 2)
	b.Release(bs[0])
	got, _ = place(t, b, m, 1)
	eq(t, "row bf", got[0], []int{7})

	// No interval holds 3 (free 0 1 | 7): the least-span window of 3 free
	// positions is 0 1 7 (the only one).
	got, _ = place(t, b, m, 2)
	eq(t, "row bf 2", got[0], []int{0, 1})

	// Snake: positions 0..7 are nodes 0 1 2 3 7 6 5 4.
	s, _ := newAlloc(t, "curve:order=snake,fit=first", "mesh3d:4x2x1")
	got, _ = place(t, s, m, 3, 3)
	eq(t, "snake 1", got[0], []int{0, 1, 2})
	eq(t, "snake 2", got[1], []int{3, 6, 7})

	// Sorted free list: the first free positions whatever the gaps.
	f, _ := newAlloc(t, "curve:order=row,fit=sorted", "mesh3d:4x2x1")
	_, fs := place(t, f, m, 2, 2, 2)
	f.Release(fs[0])
	f.Release(fs[2])
	got, _ = place(t, f, m, 3) // free 0 1, 4 5, 6 7 → 0 1 4
	eq(t, "sorted", got[0], []int{0, 1, 4})

}

// TestLeastSpan: free positions 0, 3 4, 7 on an 8-node line; a job of 3
// fits no interval: the windows of three free positions {0, 3, 4} and
// {3, 4, 7} both span 4, and the first is taken.
func TestLeastSpan(t *testing.T) {
	a, m := newAlloc(t, "curve:order=row,fit=first", "mesh3d:8x1x1")
	_, as := place(t, a, m, 1, 2, 2, 2, 1) // 0 | 1 2 | 3 4 | 5 6 | 7
	a.Release(as[0])
	a.Release(as[2])
	a.Release(as[4]) // free 0, 3 4, 7
	got, _ := place(t, a, m, 3)
	// Windows of 3 free positions: {0,3,4} span 4, {3,4,7} span 4: the first.
	eq(t, "least span", got[0], []int{0, 3, 4})
}

// TestCuboidHand: on a 4×4×4 mesh, 8 nodes are a 2×2×2 cube at the
// origin; the next 8 the cube beside it along x; 12 nodes a 3×2×2
// (surface 16) rather than 2×2×3 or 2×3×2 (also 16: the largest a wins).
func TestCuboidHand(t *testing.T) {
	a, m := newAlloc(t, "cuboid-ff", "mesh3d:4x4x4")
	g := GeomOf(m)
	got, _ := place(t, a, m, 8, 8, 12, 5)
	cube := func(c Cuboid) []int { n := g.AppendNodes(c, nil); slices.Sort(n); return n }
	eq(t, "first", got[0], cube(Cuboid{0, 0, 0, 2, 2, 2}))
	eq(t, "second", got[1], cube(Cuboid{2, 0, 0, 2, 2, 2}))
	eq(t, "third", got[2], cube(Cuboid{0, 2, 0, 3, 2, 2}))
	// 5 nodes: no cuboid of volume 5 fits a 4-wide machine (5×1×1 on some
	// axis); volume 6 as 3×2×1 (surface 11, the largest x extent), the
	// lowest free base: the plane z = 2.
	eq(t, "fourth", got[3], cube(Cuboid{0, 0, 2, 3, 2, 1}))

	// Best fit on a 4×4×1 mesh: 4 nodes may be 2×2×1 or 4×1×1 (volume 4).
	// The 4×1×1 row at y = 0 touches 1 + 1 (x walls) + 4 (y wall) + 8 (z
	// walls) = 14 faces, the 2×2 corner 2 + 2 + 8 = 12: the row wins. The
	// next job: the row y = 1 touches 2 + 4 (busy row) + 8 = 14 as well.
	b, bm := newAlloc(t, "cuboid-bf", "mesh3d:4x4x1")
	got, _ = place(t, b, bm, 4, 4)
	eq(t, "bf first: the bottom row", got[0], []int{0, 1, 2, 3})
	eq(t, "bf second: the next row", got[1], []int{4, 5, 6, 7})
	f, fm := newAlloc(t, "cuboid-ff", "mesh3d:4x4x1")
	got, _ = place(t, f, fm, 4)
	eq(t, "ff: the most cubic shape first", got[0], []int{0, 1, 4, 5})

	// A torus cuboid wraps: on a 4×1×1 torus with 1 2 busy, a job of 2 takes 3 0.
	c, cm := newAlloc(t, "cuboid-ff", "torus:4x1x1")
	_, cs := place(t, c, cm, 1, 2)
	c.Release(cs[0]) // free 0, 3
	got, _ = place(t, c, cm, 2)
	eq(t, "wrap", got[0], []int{0, 3})
}

// TestMBSHand: on a 4×4×4 mesh (one top block of side 4), 9 = 1·8 + 1
// nodes are a 2×2×2 cube at the origin and the node beside it (the
// lowest free single node after splitting the next 2-cube); after
// releasing, the buddies merge back into the whole machine.
func TestMBSHand(t *testing.T) {
	a, m := newAlloc(t, "mbs3d", "mesh3d:4x4x4")
	g := GeomOf(m)
	got, as := place(t, a, m, 9)
	want := g.AppendNodes(Cuboid{0, 0, 0, 2, 2, 2}, []int{2})
	slices.Sort(want)
	eq(t, "9 nodes", got[0], want)
	if n := len(as[0].Placement(nil)); n != 2 {
		t.Errorf("%d pieces, want 2", n)
	}
	a.Release(as[0])
	mb := a.(*Allocator).strat.(*MBS)
	if mb.lowest(2) != 0 || mb.lowest(1) != -1 || mb.lowest(0) != -1 {
		t.Errorf("not merged: %d %d %d", mb.lowest(2), mb.lowest(1), mb.lowest(0))
	}
	// 8×8×4 tiles into four 4-cubes.
	b, bm := newAlloc(t, "mbs3d", "mesh3d:8x8x4")
	if n := len(b.(*Allocator).strat.(*MBS).tops); n != 4 {
		t.Errorf("8x8x4: %d top blocks", n)
	}
	got, _ = place(t, b, bm, 64, 64)
	bg := GeomOf(bm)
	w := bg.AppendNodes(Cuboid{4, 0, 0, 4, 4, 4}, nil)
	slices.Sort(w)
	eq(t, "second 4-cube", got[1], w)
}

// TestMC1x1Hand: on a 5×5×1 mesh, 9 nodes are the 3×3 square around the
// first center whose ball of radius 1 is whole: (1,1); on a 4×1×1 torus
// with node 1 busy, 2 nodes: center 0 takes 0 and its neighbour 3 (score
// 1), before 2 3 (also 1: the first center wins).
func TestMC1x1Hand(t *testing.T) {
	a, m := newAlloc(t, "mc1x1", "mesh3d:5x5x1")
	g := GeomOf(m)
	got, _ := place(t, a, m, 9)
	w := g.AppendNodes(Cuboid{0, 0, 0, 3, 3, 1}, nil)
	slices.Sort(w)
	// Center 0 = (0,0): radius 1 holds 4 nodes, radius 2 holds 9: score
	// 3·1 + 5·2 = 13; center (1,1): 8·1 = 8, the least.
	eq(t, "mc1x1 square", got[0], w)

	b, bm := newAlloc(t, "mc1x1", "torus:4x1x1")
	_, bs := place(t, b, bm, 2)
	_ = bs
	c, cm := newAlloc(t, "mc1x1", "torus:4x1x1")
	_, cs := place(t, c, cm, 1, 1)
	c.Release(cs[0]) // node 1 busy, 0 2 3 free
	got, _ = place(t, c, cm, 2)
	eq(t, "mc1x1 wrap", got[0], []int{0, 3})
}

// TestRandomHand: a seeded choice is repeatable and depends on the
// record and the seed.
func TestRandomHand(t *testing.T) {
	pick := func(spec string, rec int32) string {
		a, _ := newAlloc(t, spec, "torus:4x4x4")
		al, _ := a.Allocate(&policy.Job{Procs: 5, Record: rec})
		return fmt.Sprint(al.Placement(nil))
	}
	if pick("random3d", 3) != pick("random3d", 3) {
		t.Error("not repeatable")
	}
	if pick("random3d", 3) == pick("random3d", 4) || pick("random3d", 3) == pick("random3d:seed=1", 3) {
		t.Error("record or seed ignored")
	}
}

// TestBadParams: a bad allocator parameter is one line naming it.
func TestBadParams(t *testing.T) {
	m, _ := policy.ParseMachine("torus:4x4x4")
	for _, c := range []struct{ spec, want string }{
		{"curve:order=zigzag", "order"},
		{"curve:fit=worst", "fit"},
		{"curve:colour=red", `unknown parameter "colour"`},
		{"random3d:seed=x", "seed"},
		{"mc1x1:k=1", `unknown parameter "k"`},
	} {
		name, p, err := policy.ParseSpec(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		var err2 error = fmt.Errorf("no allocator %s", name)
		for _, s := range Allocators(MeshKind) {
			if s.Name == name {
				_, err2 = s.New(m, p)
			}
		}
		if err2 == nil || !strings.Contains(err2.Error(), c.want) || strings.Contains(err2.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming %s", c.spec, err2, c.want)
		}
	}
	if _, err := NewCurve(Geom{X: 1024, Y: 1024, Z: 2}, OrderHilbert, FitFirst); err == nil || !strings.Contains(err.Error(), "hilbert") {
		t.Errorf("hilbert on 1024x1024x2: %v", err)
	}
}
