package mesh

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// newNamed returns the registered allocator name with params on m.
func newNamed(t *testing.T, m policy.Machine, name string, p policy.Params) policy.Allocator {
	t.Helper()
	for _, s := range Allocators() {
		if s.Name == name {
			a, err := s.New(m, p)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	t.Fatalf("no allocator %q", name)
	return nil
}

// Random allocate/release sequences on several meshes: pieces lie inside
// the mesh and overlap neither each other nor other jobs; the nodes held
// equal the request (no internal fragmentation) except for Paging(k ≥ 1),
// which rounds up to whole pages; gabl, paging, mbs and random succeed
// exactly when enough nodes are free; a request that fits a free
// submesh whole is one piece under gabl and anca.
func TestNonContiguousProperties(t *testing.T) {
	cases := []struct {
		name  string
		p     policy.Params
		exact bool // holds exactly the request
		total bool // succeeds whenever enough nodes are free
	}{
		{"gabl", nil, true, true},
		{"paging", nil, true, true},
		{"paging", policy.Params{"order": "shuffled-row"}, true, true},
		{"paging", policy.Params{"order": "snake"}, true, true},
		{"paging", policy.Params{"order": "shuffled-snake"}, true, true},
		{"paging", policy.Params{"k": "1", "order": "shuffled-snake"}, false, false},
		{"mbs", nil, true, true},
		{"anca", nil, true, false},
		{"random", policy.Params{"seed": "3"}, true, true},
	}
	for _, mm := range []policy.Machine{{Kind: policy.Mesh, Width: 16, Height: 16, Procs: 256}, {Kind: policy.Mesh, Width: 12, Height: 6, Procs: 72}} {
		for _, c := range cases {
			t.Run(mm.String()+"/"+c.name+c.p.String(), func(t *testing.T) {
				a := newNamed(t, mm, c.name, c.p)
				rng := rand.New(rand.NewPCG(1, 2))
				owner := make([]int, mm.Width*mm.Height) // 0 free, else job index+1
				type held struct {
					al policy.Allocation
					ix int
				}
				var live []held
				contig, pieces := 0, 0
				for step := 0; step < 3000; step++ {
					if len(live) > 0 && rng.IntN(3) == 0 {
						k := rng.IntN(len(live))
						a.Release(live[k].al)
						for n, o := range owner {
							if o == live[k].ix+1 {
								owner[n] = 0
							}
						}
						live = append(live[:k], live[k+1:]...)
						continue
					}
					w, h := 1+rng.IntN(mm.Width), 1+rng.IntN(mm.Height)
					j := &policy.Job{Index: int32(step), ID: int64(step), Procs: w * h, Width: int32(w), Height: int32(h)}
					free := 0
					for _, o := range owner {
						if o == 0 {
							free++
						}
					}
					if a.Free() != free {
						t.Fatalf("step %d: Free %d, %d nodes free", step, a.Free(), free)
					}
					st := a.(interface{ State() *State }).State()
					_, whole := RBS(st, w, h, nil)
					al, ok := a.Allocate(j)
					if c.total && ok != (free >= w*h) {
						t.Fatalf("step %d: %dx%d with %d free: ok %v", step, w, h, free, ok)
					}
					if !ok {
						continue
					}
					ps := al.(*Alloc).Pieces()
					n := 0
					for _, r := range ps {
						if !r.Inside(mm.Width, mm.Height) {
							t.Fatalf("step %d: piece %v outside", step, r)
						}
						for y := r.Y; y <= r.Y2(); y++ {
							for x := r.X; x <= r.X2(); x++ {
								if owner[y*mm.Width+x] != 0 {
									t.Fatalf("step %d: piece %v of %v overlaps job %d at (%d,%d)", step, r, ps, owner[y*mm.Width+x]-1, x, y)
								}
								owner[y*mm.Width+x] = step + 1
								n++
							}
						}
					}
					if n != al.Procs() {
						t.Fatalf("step %d: Procs %d, pieces hold %d", step, al.Procs(), n)
					}
					if c.exact && n != w*h || n < w*h {
						t.Fatalf("step %d: %dx%d request holds %d nodes", step, w, h, n)
					}
					if whole && (c.name == "gabl" || c.name == "anca") && len(ps) != 1 {
						t.Fatalf("step %d: %dx%d fits whole, got %d pieces %v", step, w, h, len(ps), ps)
					}
					if len(ps) == 1 {
						contig++
					}
					pieces += len(ps)
					live = append(live, held{al, step})
				}
				if contig == 0 || pieces == contig {
					t.Errorf("%d allocations in one piece, %d pieces: the sequence never exercised both cases", contig, pieces)
				}
			})
		}
	}
}

// A contiguous allocator's allocation is exactly one piece.
func TestContiguousOnePiece(t *testing.T) {
	m := policy.Machine{Kind: policy.Mesh, Width: 8, Height: 8, Procs: 64}
	a := newNamed(t, m, "ff", nil)
	al, ok := a.Allocate(&policy.Job{Procs: 6, Width: 3, Height: 2})
	if !ok {
		t.Fatal("no place on the empty mesh")
	}
	if ps := al.Placement(nil); len(ps) != 1 || ps[0].Size() != 6 {
		t.Fatalf("placement %v", ps)
	}
}

// state returns a W×H state with rs busy, each as an allocated submesh.
func state(W, H int, rs ...Rect) *State {
	s := &State{W: W, H: H, Grid: NewGrid(W, H)}
	for i, r := range rs {
		s.Grid.Set(r)
		s.List = append(s.List, &Busy{Rect: r, ID: int64(i)})
	}
	return s
}

// RBS takes the lowest, then leftmost, free base on the left edge or just
// right of an allocated submesh; it misses no free submesh.
func TestRBS(t *testing.T) {
	s := state(8, 4, Rect{0, 0, 3, 2}, Rect{5, 0, 1, 1})
	// Row 0: columns 3 (right of the first) and 6 (right of the second).
	if r, ok := RBS(s, 2, 1, nil); !ok || r != (Rect{3, 0, 2, 1}) {
		t.Errorf("2x1: %v %v", r, ok)
	}
	// 3×2: no base in row 0 ((5,0) is busy, column 6 leaves width 2); in
	// row 1 the candidate column 3 is free over rows 1–2.
	if r, ok := RBS(s, 3, 2, nil); !ok || r != (Rect{3, 1, 3, 2}) {
		t.Errorf("3x2: %v %v", r, ok)
	}
	if _, ok := RBS(s, 8, 3, nil); ok {
		t.Error("8x3 found on a mesh whose rows 0 and 1 are partly busy")
	}
	if r, ok := RBS(s, 8, 2, nil); !ok || r != (Rect{0, 2, 8, 2}) {
		t.Errorf("8x2: %v %v", r, ok)
	}
}

// GABL's greedy path. On a 4×4 mesh whose free nodes are column 0 and
// row 3 (x 1..3), a 2×2 request has no free 2×2: the tie shrinks the
// width, and 1×2 is found twice in column 0.
func TestGABLPath(t *testing.T) {
	same := func(a, b []Rect) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	s := state(4, 4, Rect{1, 0, 3, 3})
	ps, ok := GABL{}.FindPieces(s, nil, 2, 2, nil)
	if want := []Rect{{0, 0, 1, 2}, {0, 2, 1, 2}}; !ok || !same(ps, want) {
		t.Fatalf("2x2: pieces %v %v, want %v", ps, ok, want)
	}
	if s.Grid.Busy() != 9 {
		t.Errorf("FindPieces left %d nodes busy, want 9", s.Grid.Busy())
	}
	// 3×2: (2,2) has no place, and the printed pseudo-code would try it
	// forever; read as the prose intends, the failure shrinks it to (1,2)
	// (tie: width), found twice in column 0, then fails for a third time,
	// shrinking to (1,1), found twice in row 3.
	ps, ok = GABL{}.FindPieces(s, nil, 3, 2, nil)
	if want := []Rect{{0, 0, 1, 2}, {0, 2, 1, 2}, {1, 3, 1, 1}, {2, 3, 1, 1}}; !ok || !same(ps, want) {
		t.Fatalf("3x2: pieces %v %v, want %v", ps, ok, want)
	}
	// Not enough free nodes: failure (Step 1).
	if _, ok := (GABL{}).FindPieces(s, nil, 4, 2, nil); ok {
		t.Error("4x2 with 7 free nodes succeeded")
	}
}

// MBS writes 72 = 64 + 2·4 in base 4: on an empty 16×16 mesh, one 8×8
// block and two 2×2 blocks, lower-left buddies first.
func TestMBSBlocks(t *testing.T) {
	m := NewMBS(16, 16)
	s := state(16, 16)
	ps, ok := m.FindPieces(s, nil, 9, 8, nil)
	want := []Rect{{0, 0, 8, 8}, {8, 0, 2, 2}, {10, 0, 2, 2}}
	if !ok || len(ps) != 3 || ps[0] != want[0] || ps[1] != want[1] || ps[2] != want[2] {
		t.Fatalf("pieces %v, want %v", ps, want)
	}
	// With every 2×2 block broken (one node of each busy), a 4-node
	// request is broken into four single nodes.
	var busy []Rect
	for y := 0; y < 16; y += 2 {
		for x := 0; x < 16; x += 2 {
			busy = append(busy, Rect{x, y, 1, 1})
		}
	}
	s = state(16, 16, busy...)
	ps, ok = m.FindPieces(s, nil, 2, 2, nil)
	if !ok || len(ps) != 4 || ps[0].Size() != 1 {
		t.Fatalf("pieces %v", ps)
	}
	// Top blocks of a 12×6 mesh: three 4×4, then the 12×2 strip on top as
	// six 2×2.
	m = NewMBS(12, 6)
	if len(m.tops) != 9 || m.tops[0] != (Rect{0, 0, 4, 4}) || m.tops[3] != (Rect{0, 4, 2, 2}) {
		t.Errorf("tops %v", m.tops)
	}
}

// Paging orders on a 4×4 mesh of single-node pages.
func TestPagingOrders(t *testing.T) {
	first := func(order string, n int) []Rect {
		p, err := NewPaging(0, order, 4, 4)
		if err != nil {
			t.Fatal(err)
		}
		return p.pages[:n]
	}
	eq := func(a, b []Rect) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	one := func(x, y int) Rect { return Rect{x, y, 1, 1} }
	if got := first(PageSnake, 6); !eq(got, []Rect{one(0, 0), one(1, 0), one(2, 0), one(3, 0), one(3, 1), one(2, 1)}) {
		t.Errorf("snake %v", got)
	}
	if got := first(PageShuffledRow, 6); !eq(got, []Rect{one(0, 0), one(1, 0), one(0, 1), one(1, 1), one(2, 0), one(3, 0)}) {
		t.Errorf("shuffled-row %v", got)
	}
	if got := first(PageShuffledSnake, 5); !eq(got, []Rect{one(0, 0), one(1, 0), one(1, 1), one(0, 1), one(2, 0)}) {
		t.Errorf("shuffled-snake %v", got)
	}
	// Row-major Paging(0) of 6 nodes on an empty 4×4: one run of 4, one of 2.
	p, _ := NewPaging(0, PageRow, 4, 4)
	ps, ok := p.FindPieces(state(4, 4), nil, 3, 2, nil)
	if !ok || len(ps) != 2 || ps[0] != (Rect{0, 0, 4, 1}) || ps[1] != (Rect{0, 1, 2, 1}) {
		t.Errorf("row pieces %v", ps)
	}
	if _, err := NewPaging(2, PageRow, 12, 6); err == nil {
		t.Error("4×4 pages accepted on mesh:12x6")
	}
}

// ANCA stops at a side of 1: with the two free nodes (0,1) and (3,3), a
// 1×2 request waits, where GABL would place it.
func TestANCAStops(t *testing.T) {
	s := state(4, 4, Rect{0, 0, 4, 1}, Rect{0, 2, 4, 1}, Rect{1, 1, 3, 1}, Rect{0, 3, 3, 1})
	if ps, ok := (ANCA{}).FindPieces(s, nil, 1, 2, nil); ok {
		t.Errorf("1x2 placed as %v", ps)
	}
	if _, ok := (GABL{}).FindPieces(s, nil, 1, 2, nil); !ok {
		t.Error("gabl failed with 2 free nodes")
	}
	// With columns 0 and 3 of rows 2–3 free, a 2×2 splits across its
	// width (a tie) into two 1×2 frames.
	s = state(4, 4, Rect{0, 0, 4, 2}, Rect{1, 2, 2, 2})
	ps, ok := (ANCA{}).FindPieces(s, nil, 2, 2, nil)
	if !ok || len(ps) != 2 || ps[0] != (Rect{0, 2, 1, 2}) || ps[1] != (Rect{3, 2, 1, 2}) {
		t.Errorf("2x2 pieces %v %v", ps, ok)
	}
}

// Random choices depend on the job's trace record and the busy array alone.
func TestRandomDeterministic(t *testing.T) {
	r := Random{Seed: 7}
	j := &policy.Job{Record: 42}
	a, _ := r.FindPieces(state(8, 8), j, 3, 3, nil)
	b, _ := r.FindPieces(state(8, 8), j, 3, 3, nil)
	c, _ := r.FindPieces(state(8, 8), &policy.Job{Record: 43}, 3, 3, nil)
	same := func(x, y []Rect) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if !same(a, b) {
		t.Errorf("same job, different pieces: %v, %v", a, b)
	}
	if same(a, c) {
		t.Errorf("jobs 42 and 43 got the same nodes %v", a)
	}
}
