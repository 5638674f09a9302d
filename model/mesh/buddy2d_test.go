package mesh

import (
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// refBuddy is a straightforward 2-D buddy system on slices, for
// comparison: fbl[k] lists the free blocks of side 2^k (bases), oldest
// first.
type refBuddy struct {
	r   int
	fbl [][][2]int
}

func newRefBuddy(side int) *refBuddy {
	b := &refBuddy{}
	for 1<<b.r < side {
		b.r++
	}
	b.fbl = make([][][2]int, b.r+1)
	b.fbl[b.r] = [][2]int{{0, 0}}
	return b
}

// alloc takes the first block of the first non-empty list at or above
// the request's level and splits it down, appending the lower-right,
// upper-left and upper-right buddies at each level.
func (b *refBuddy) alloc(w, h int) (Rect, bool) {
	i := 0
	for 1<<i < max(w, h) {
		i++
	}
	for j := i; j <= b.r; j++ {
		if len(b.fbl[j]) == 0 {
			continue
		}
		x, y := b.fbl[j][0][0], b.fbl[j][0][1]
		b.fbl[j] = b.fbl[j][1:]
		for k := j; k > i; k-- {
			s := 1 << (k - 1)
			b.fbl[k-1] = append(b.fbl[k-1], [2]int{x + s, y}, [2]int{x, y + s}, [2]int{x + s, y + s})
		}
		return Rect{x, y, 1 << i, 1 << i}, true
	}
	return Rect{}, false
}

// release appends the block to its list and merges four free buddies
// into their parent, level after level.
func (b *refBuddy) release(r Rect) {
	k := 0
	for 1<<k < r.W {
		k++
	}
	x, y := r.X, r.Y
	b.fbl[k] = append(b.fbl[k], [2]int{x, y})
	for k < b.r {
		s := 2 << k
		px, py := x/s*s, y/s*s
		var idx []int
		for n, q := range b.fbl[k] {
			if q[0]/s*s == px && q[1]/s*s == py {
				idx = append(idx, n)
			}
		}
		if len(idx) < 4 {
			return
		}
		var keep [][2]int
		for n, q := range b.fbl[k] {
			if n != idx[0] && n != idx[1] && n != idx[2] && n != idx[3] {
				keep = append(keep, q)
			}
		}
		b.fbl[k] = keep
		k++
		x, y = px, py
		b.fbl[k] = append(b.fbl[k], [2]int{x, y})
	}
}

// checkBuddy checks the free block lists of a 2DBS allocator against its
// busy array: the free blocks are disjoint, free in the grid and cover
// every free node, and no four buddies are free at once (merged).
func checkBuddy(t *testing.T, a *Allocator) {
	t.Helper()
	b := a.strat.(*Buddy2D)
	g := a.st.Grid
	area := 0
	seen := NewGrid(g.W, g.H)
	for k := 0; k <= b.r; k++ {
		parents := map[[2]int]int{}
		for _, r := range b.FreeBlocks(k) {
			if !g.IsFree(r) || !seen.IsFree(r) || r.X%r.W != 0 || r.Y%r.W != 0 {
				t.Fatalf("free block %v at level %d: busy, listed twice or misaligned", r, k)
			}
			seen.Set(r)
			area += r.Size()
			parents[[2]int{r.X >> (k + 1), r.Y >> (k + 1)}]++
		}
		for p, n := range parents {
			if n == 4 {
				t.Fatalf("four free buddies at level %d under %v: not merged", k, p)
			}
		}
	}
	if area != g.Free() {
		t.Fatalf("free blocks hold %d nodes, the mesh has %d free", area, g.Free())
	}
}

// The 2-D buddy system makes exactly the choices of the slice-based
// reference, allocates aligned power-of-two squares that hold the request,
// and keeps its lists consistent with the busy array (including in a clone
// taken halfway); it fails now and then while a free submesh of the
// request's shape exists.
func TestBuddy2DReference(t *testing.T) {
	misses := 0
	for _, side := range []int{1, 2, 8, 32, 128} {
		ref := newRefBuddy(side)
		held := map[Rect]bool{}
		b, err := NewBuddy2D(side)
		if err != nil {
			t.Fatal(err)
		}
		misses += exercise(t, strategyRun{
			name: "2dbs", W: side, H: side, strat: b,
			ref: func(a *Allocator, w, h int) (Rect, bool) {
				r, ok := ref.alloc(w, h)
				if ok {
					held[r] = true
				}
				return r, ok
			},
			shape: func(r Rect, w, h int) bool {
				return r.W == r.H && r.W >= max(w, h) && r.W < 2*max(w, h) && r.X%r.W == 0 && r.Y%r.W == 0
			},
			check: func(t *testing.T, a *Allocator) {
				// Keep the reference in step: release the block the
				// allocator released (one per step).
				for r := range held {
					if a.st.Grid.IsFree(r) {
						ref.release(r)
						delete(held, r)
					}
				}
				checkBuddy(t, a)
			},
		}, 4, 3000)
	}
	if misses == 0 {
		t.Error("the buddy system never missed a free submesh")
	}
	t.Logf("%d misses", misses)
}

// Buddy alignment: sixteen 1×1 jobs fill a 4×4 mesh; when all but the four
// corners finish, the free blocks are twelve 1×1 blocks that cannot merge,
// and a 2×2 request fails although <1,1,2,2> is free.
func TestBuddy2DAlignment(t *testing.T) {
	b, _ := NewBuddy2D(4)
	a := NewAllocator("2dbs", 4, 4, b, false)
	var held []policy.Allocation
	for i := 0; i < 16; i++ {
		al, ok := a.Allocate(&policy.Job{ID: int64(i), Width: 1, Height: 1, Procs: 1})
		if !ok {
			t.Fatalf("1×1 number %d failed", i)
		}
		held = append(held, al)
	}
	for _, al := range held {
		switch al.(*Alloc).Rect {
		case Rect{0, 0, 1, 1}, Rect{3, 0, 1, 1}, Rect{0, 3, 1, 1}, Rect{3, 3, 1, 1}:
		default:
			a.Release(al)
		}
	}
	checkBuddy(t, a)
	if n := len(b.FreeBlocks(0)); n != 12 {
		t.Errorf("%d free 1×1 blocks, want 12", n)
	}
	if !a.st.Grid.IsFree(Rect{1, 1, 2, 2}) {
		t.Fatal("<1,1,2,2> is not free: the example is wrong")
	}
	if al, ok := a.Allocate(&policy.Job{ID: 16, Width: 2, Height: 2, Procs: 4}); ok {
		t.Errorf("2×2 allocated at %v", al.(*Alloc).Rect)
	}
}

// The first allocations on an 8×8 mesh, step by step: a 3×2 request gets
// the 4×4 block <0,0,3,3> (internal fragmentation: 16 nodes); the lists
// then hold the other 4×4 buddies in order; a 1×1 request splits the
// first of them, <4,0,7,3>, down to <4,0,4,0>.
func TestBuddy2DSplit(t *testing.T) {
	b, _ := NewBuddy2D(8)
	a := NewAllocator("2dbs", 8, 8, b, false)
	al, ok := a.Allocate(&policy.Job{ID: 1, Width: 3, Height: 2, Procs: 6})
	if !ok || al.(*Alloc).Rect != (Rect{0, 0, 4, 4}) || al.Procs() != 16 {
		t.Fatalf("3×2: %v %v", al, ok)
	}
	if got := b.FreeBlocks(2); len(got) != 3 || got[0] != (Rect{4, 0, 4, 4}) || got[1] != (Rect{0, 4, 4, 4}) || got[2] != (Rect{4, 4, 4, 4}) {
		t.Errorf("FBL_2 %v", got)
	}
	al2, ok := a.Allocate(&policy.Job{ID: 2, Width: 1, Height: 1, Procs: 1})
	if !ok || al2.(*Alloc).Rect != (Rect{4, 0, 1, 1}) {
		t.Fatalf("1×1: %v %v", al2, ok)
	}
	want := map[int][]Rect{
		2: {{0, 4, 4, 4}, {4, 4, 4, 4}},
		1: {{6, 0, 2, 2}, {4, 2, 2, 2}, {6, 2, 2, 2}},
		0: {{5, 0, 1, 1}, {4, 1, 1, 1}, {5, 1, 1, 1}},
	}
	for k, w := range want {
		got := b.FreeBlocks(k)
		if len(got) != len(w) {
			t.Errorf("FBL_%d %v, want %v", k, got, w)
			continue
		}
		for i := range w {
			if got[i] != w[i] {
				t.Errorf("FBL_%d %v, want %v", k, got, w)
				break
			}
		}
	}
	// Releasing both merges everything back into the whole mesh.
	a.Release(al2)
	a.Release(al)
	if got := b.FreeBlocks(3); len(got) != 1 || got[0] != (Rect{0, 0, 8, 8}) {
		t.Errorf("after release: FBL_3 %v", got)
	}
	for k := 0; k < 3; k++ {
		if got := b.FreeBlocks(k); len(got) != 0 {
			t.Errorf("after release: FBL_%d %v", k, got)
		}
	}
}

// The buddy system is offered on square power-of-two meshes only.
func TestBuddy2DMachines(t *testing.T) {
	for _, c := range []struct {
		m  string
		ok bool
	}{{"mesh:32x32", true}, {"mesh:1x1", true}, {"mesh:128x128", true}, {"mesh:32x16", false}, {"mesh:24x24", false}, {"mesh:3x3", false}} {
		m, err := policy.ParseMachine(c.m)
		if err != nil {
			t.Fatal(err)
		}
		if err := Buddy2DMachines(m); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.m, err)
		}
		if _, err := NewBuddy2D(m.Width); (err == nil) != (m.Width&(m.Width-1) == 0) {
			t.Errorf("NewBuddy2D(%d): %v", m.Width, err)
		}
	}
}

// A clone's lists are its own: allocating in the clone leaves the
// original's lists as they were.
func TestBuddy2DClone(t *testing.T) {
	b, _ := NewBuddy2D(8)
	a := NewAllocator("2dbs", 8, 8, b, false)
	if _, ok := a.Allocate(&policy.Job{ID: 1, Width: 2, Height: 2, Procs: 4}); !ok {
		t.Fatal("2×2 failed")
	}
	before := [4][]Rect{b.FreeBlocks(0), b.FreeBlocks(1), b.FreeBlocks(2), b.FreeBlocks(3)}
	c := a.Clone().(*Allocator)
	if _, ok := c.Allocate(&policy.Job{ID: 2, Width: 1, Height: 1, Procs: 1}); !ok {
		t.Fatal("1×1 in the clone failed")
	}
	for k := range before {
		got := b.FreeBlocks(k)
		if len(got) != len(before[k]) {
			t.Fatalf("FBL_%d of the original: %v, was %v", k, got, before[k])
		}
		for i := range got {
			if got[i] != before[k][i] {
				t.Fatalf("FBL_%d of the original: %v, was %v", k, got, before[k])
			}
		}
	}
	if c.strat.(*Buddy2D) == b || len(c.strat.(*Buddy2D).FreeBlocks(0)) != 3 {
		t.Errorf("the clone's FBL_0: %v", c.strat.(*Buddy2D).FreeBlocks(0))
	}
}
