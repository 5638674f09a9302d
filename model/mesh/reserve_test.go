package mesh

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// unwrapped returns a registry allocator of a contiguous strategy.
func unwrapped(a policy.Allocator) *Allocator { return a.(*Allocator) }

// fixed is a strategy that returns the rectangles it is given, in turn.
type fixed struct{ next []Rect }

func (f *fixed) Find(_ *State, _ *policy.Job, _, _ int) (Rect, bool) {
	if len(f.next) == 0 {
		return Rect{}, false
	}
	r := f.next[0]
	f.next = f.next[1:]
	return r, true
}

func resJob(i, w, h int) *policy.Job {
	return &policy.Job{Index: int32(i), ID: int64(i), Width: int32(w), Height: int32(h), Procs: w * h, Estimate: 5}
}

// bruteReservation is the reservation's choice by brute force: every
// position of every allowed shape overlapping no reservation, by fewest
// free nodes, fewest running submeshes overlapped, requested orientation,
// smallest y, smallest x.
func bruteReservation(W, H int, shapes [][3]int, running, reserved []Rect) (Rect, bool) {
	type key struct{ free, over, rot, y, x int }
	var best key
	var bestR Rect
	ok := false
	for _, sh := range shapes {
		w, h, step := sh[0], sh[1], sh[2]
		for y := 0; y+h <= H; y += step {
			for x := 0; x+w <= W; x += step {
				r := Rect{x, y, w, h}
				if slices.ContainsFunc(reserved, r.Overlaps) {
					continue
				}
				k := key{free: r.Size(), x: x, y: y}
				if sh != shapes[0] {
					k.rot = 1
				}
				for _, b := range running {
					if b.Overlaps(r) {
						k.over++
						k.free -= overlap(b, r)
					}
				}
				if !ok || slices.Compare([]int{k.free, k.over, k.rot, k.y, k.x}, []int{best.free, best.over, best.rot, best.y, best.x}) < 0 {
					best, bestR, ok = k, r, true
				}
			}
		}
	}
	return bestR, ok
}

// The reservation takes the candidate with the fewest free nodes, then
// the fewest allocated submeshes overlapped (worked by hand); no other
// job is placed on it, even while it is free; the reserved job is placed
// exactly on it once it is free.
func TestReserveByHand(t *testing.T) {
	// 8×8: A = 2×4 at (0,0), B = 2×4 at (2,0), C = 4×4 at (4,0). For a
	// 4×4 request the candidates with no free node are (0,0) to (4,0):
	// (0,0) to (3,0) overlap two or three allocated submeshes, (4,0) only
	// C, and wins despite its larger x.
	A, B, C := Rect{0, 0, 2, 4}, Rect{2, 0, 2, 4}, Rect{4, 0, 4, 4}
	f := &fixed{next: []Rect{A, B, C}}
	a := NewAllocator("fixed", 8, 8, f, false)
	held := map[Rect]policy.Allocation{}
	for i, r := range []Rect{A, B, C} {
		al, ok := a.Allocate(resJob(i, r.W, r.H))
		if !ok {
			t.Fatal("setup")
		}
		held[r] = al
	}
	d := resJob(3, 4, 4)
	if !a.Reserve(d) {
		t.Fatal("no reservation")
	}
	if r, _ := a.Reservation(d); r != C {
		t.Fatalf("reserved %v, want %v", r, C)
	}
	if a.Ready(d) || a.Held() != 0 || a.Free() != 32 || a.Reserve(d) {
		t.Fatalf("ready %v held %d free %d", a.Ready(d), a.Held(), a.Free())
	}
	// C ends: its nodes are free but reserved.
	a.Release(held[C])
	if !a.Ready(d) || a.Held() != 16 || a.Free() != 48 || a.st.Grid.Free() != 32 {
		t.Fatalf("after C: ready %v held %d free %d grid free %d", a.Ready(d), a.Held(), a.Free(), a.st.Grid.Free())
	}
	// Strategies see the reserved nodes busy; one that chose them
	// anyway would be a bug, and the frame panics. The reserved job goes
	// exactly there.
	if a.st.Grid.IsFree(C) {
		t.Fatal("the reserved place looks free")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("a reserved node was allocated to another job")
			}
		}()
		f.next = []Rect{C}
		a.Clone().Allocate(resJob(4, 4, 4))
	}()
	al, ok := a.Allocate(d)
	if !ok || al.(*Alloc).Rect != C {
		t.Fatalf("reserved job at %v (%v), want %v", al, ok, C)
	}
	if a.res != nil || a.Held() != 0 || a.Free() != 32 || len(a.st.List) != 3 {
		t.Fatalf("after the start: %v held %d free %d list %d", a.res, a.Held(), a.Free(), len(a.st.List))
	}
	// A 2×8 request on a rotating allocator: a 2×8 column over A or B
	// holds 4 free nodes, an 8×2 row over A, B, C holds none, rotated.
	a.rotate = true
	e := resJob(5, 2, 8)
	if !a.Reserve(e) {
		t.Fatal("no reservation")
	}
	if r, _ := a.Reservation(e); r != (Rect{0, 0, 8, 2}) {
		t.Fatalf("reserved %v, want <0,0,7,1>", r)
	}
	// Cancel restores the state.
	a.Cancel(e)
	if a.res != nil || a.st.Grid.Busy() != 32 || len(a.st.List) != 3 {
		t.Fatalf("after cancel: %v busy %d list %d", a.res, a.st.Grid.Busy(), len(a.st.List))
	}
}

// The 2-D buddy system reserves a block of its lattice, which it can later
// allocate.
func TestReserveBuddy(t *testing.T) {
	b, _ := NewBuddy2D(8)
	a := NewAllocator("2dbs", 8, 8, b, false)
	a.Allocate(resJob(0, 2, 2))         // <0,0,1,1>
	x, _ := a.Allocate(resJob(1, 4, 4)) // <4,0,7,3>
	if r := x.(*Alloc).Rect; r != (Rect{4, 0, 4, 4}) {
		t.Fatalf("setup: %v", r)
	}
	// A 3×3 request holds a 4×4 block: <0,0,3,3> has 12 free nodes,
	// <4,0,7,3> none, the upper ones 16.
	j := resJob(2, 3, 3)
	if !a.Reserve(j) {
		t.Fatal("no reservation")
	}
	if r, _ := a.Reservation(j); r != (Rect{4, 0, 4, 4}) {
		t.Fatalf("reserved %v, want <4,0,7,3>", r)
	}
	a.Release(x)
	if !a.Ready(j) {
		t.Fatal("not ready")
	}
	al, ok := a.Allocate(j)
	if !ok || al.(*Alloc).Rect != (Rect{4, 0, 4, 4}) {
		t.Fatalf("at %v, want <4,0,7,3>", al)
	}
	checkBuddy(t, a)
}

// Random allocations, releases, reservations, cancellations and starts of
// reserved jobs on every registered allocator: no job is ever given a node
// reserved for another; a ready reserved job is placed exactly on its
// reservation; the reservation is the brute-force choice; the busy array,
// the busy list and the counts match the allocations and reservations;
// strategies see reserved nodes as busy: BL's and BDI's copies of the
// array stay in step (a fresh strategy chooses the same), the buddy
// system's free lists hold exactly the free grid; a clone is independent.
func TestReserveRandom(t *testing.T) {
	for _, dim := range [][2]int{{16, 16}, {12, 7}} {
		W, H := dim[0], dim[1]
		m := policy.Machine{Kind: policy.Mesh, Width: W, Height: H, Procs: W * H}
		for _, spec := range Allocators() {
			if spec.Machines != nil && spec.Machines(m) != nil {
				continue
			}
			t.Run(spec.Name+"/"+m.String(), func(t *testing.T) {
				pa, err := spec.New(m, nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, multi := pa.(*MultiAllocator); multi {
					if _, ok := pa.(policy.Reserver); ok {
						t.Fatal("a non-contiguous allocator offers reservations")
					}
					t.Skip("non-contiguous: no reservations")
				}
				a := unwrapped(pa)
				var _ policy.Reserver = pa.(policy.Reserver)
				reserveRandom(t, spec, m, a, uint64(W*100+H))
			})
		}
	}
}

func reserveRandom(t *testing.T, spec policy.AllocatorSpec, m policy.Machine, a *Allocator, seed uint64) {
	W, H := m.Width, m.Height
	_, buddy := a.strat.(*Buddy2D)
	rnd := rand.New(rand.NewPCG(seed, 7))
	type held struct {
		j  *policy.Job
		al policy.Allocation
	}
	var running []held
	var waiting []*policy.Job // jobs holding a reservation
	res := map[int32]Rect{}
	now := 0.0
	next := 0
	newJob := func() *policy.Job {
		w, h := 1+rnd.IntN(min(W, 9)), 1+rnd.IntN(min(H, 9))
		j := resJob(next, w, h)
		j.Estimate = 20 * rnd.Float64()
		next++
		return j
	}
	rects := func() (run, rsv []Rect) {
		for _, r := range running {
			run = append(run, r.al.(*Alloc).Rect)
		}
		for _, j := range waiting {
			rsv = append(rsv, res[j.Index])
		}
		return run, rsv
	}
	// placed checks an allocation of j against the reservations of the
	// others, before it was made.
	placed := func(j *policy.Job, al policy.Allocation, rsv []Rect) {
		r := al.(*Alloc).Rect
		for _, o := range waiting {
			if o != j && res[o.Index].Overlaps(r) {
				t.Fatalf("job %d placed at %v over job %d's reservation %v", j.Index, r, o.Index, res[o.Index])
			}
		}
		running = append(running, held{j, al})
	}
	for step := 0; step < 1500; step++ {
		now += rnd.Float64()
		a.SetNow(now)
		run, rsv := rects()
		switch op := rnd.IntN(10); {
		case op < 4: // an arrival: allocate, else reserve
			j := newJob()
			if al, ok := a.Allocate(j); ok {
				placed(j, al, rsv)
				break
			}
			w, h, _ := Request(j, W, H)
			shapes := [][3]int{{w, h, 1}}
			if buddy {
				s := 1 << buddyOrder(w, h)
				shapes = [][3]int{{s, s, s}}
			} else if a.rotate && w != h {
				shapes = append(shapes, [3]int{h, w, 1})
			}
			want, wantOK := bruteReservation(W, H, shapes, run, rsv)
			if got := a.Reserve(j); got != wantOK {
				t.Fatalf("step %d: reserve %dx%d: %v, brute force %v", step, w, h, got, wantOK)
			}
			if wantOK {
				if got, _ := a.Reservation(j); got != want {
					t.Fatalf("step %d: reserved %v, want %v", step, got, want)
				}
				res[j.Index] = want
				waiting = append(waiting, j)
			}
		case op < 7: // a release
			if len(running) == 0 {
				break
			}
			k := rnd.IntN(len(running))
			a.Release(running[k].al)
			running = slices.Delete(running, k, k+1)
		case op < 9: // a reserved job started, exactly there when ready
			if len(waiting) == 0 {
				break
			}
			k := rnd.IntN(len(waiting))
			j := waiting[k]
			ready := a.Ready(j)
			al, ok := a.Allocate(j)
			switch {
			case ready && !ok:
				t.Fatalf("step %d: ready job %d not allocated", step, j.Index)
			case ready && al.(*Alloc).Rect != res[j.Index]:
				t.Fatalf("step %d: ready job %d at %v, reserved %v", step, j.Index, al.(*Alloc).Rect, res[j.Index])
			case ok:
				waiting = slices.Delete(waiting, k, k+1)
				placed(j, al, rsv)
				delete(res, j.Index)
			}
		default: // a cancellation
			if len(waiting) == 0 {
				break
			}
			k := rnd.IntN(len(waiting))
			a.Cancel(waiting[k])
			delete(res, waiting[k].Index)
			waiting = slices.Delete(waiting, k, k+1)
		}
		// The state matches the model.
		run, rsv = rects()
		busy, free, heldN := 0, W*H, 0
		for _, r := range run {
			free -= r.Size()
		}
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				n := Rect{x, y, 1, 1}
				inRun, inRsv := slices.ContainsFunc(run, n.Overlaps), slices.ContainsFunc(rsv, n.Overlaps)
				if inRsv && !inRun {
					heldN++
				}
				if a.st.Grid.At(x, y) != (inRun || inRsv) {
					t.Fatalf("step %d: node (%d,%d) busy %v, running %v, reserved %v", step, x, y, a.st.Grid.At(x, y), inRun, inRsv)
				}
				if inRun || inRsv {
					busy++
				}
			}
		}
		if a.st.Grid.Busy() != busy || a.Free() != free || a.Held() != heldN {
			t.Fatalf("step %d: grid busy %d (want %d), free %d (%d), held %d (%d)", step, a.st.Grid.Busy(), busy, a.Free(), free, a.Held(), heldN)
		}
		var lrun, lrsv []Rect
		for _, b := range a.st.List {
			if b.Reserved {
				lrsv = append(lrsv, b.Rect)
			} else {
				lrun = append(lrun, b.Rect)
			}
		}
		cmp := func(a, b Rect) int { return slices.Compare([]int{a.X, a.Y, a.W, a.H}, []int{b.X, b.Y, b.W, b.H}) }
		for _, s := range [][]Rect{run, rsv, lrun, lrsv} {
			slices.SortFunc(s, cmp)
		}
		if !slices.Equal(run, lrun) || !slices.Equal(rsv, lrsv) {
			t.Fatalf("step %d: busy list %v / %v, want %v / %v", step, lrun, lrsv, run, rsv)
		}
		for _, j := range waiting {
			ready := !slices.ContainsFunc(run, res[j.Index].Overlaps)
			if a.Ready(j) != ready {
				t.Fatalf("step %d: job %d ready %v, want %v", step, j.Index, a.Ready(j), ready)
			}
		}
		if (a.res == nil) != (len(waiting) == 0) {
			t.Fatalf("step %d: reservation set %v with %d reserved jobs", step, a.res, len(waiting))
		}
		// Strategies see reserved nodes busy: the buddy system's lists
		// hold exactly the free nodes of the grid; the others choose as
		// a fresh strategy does.
		if buddy {
			checkBuddy(t, a)
		} else {
			j := newJob()
			w, h, _ := Request(j, W, H)
			r, ok := a.strat.Find(a.st, j, w, h)
			if ok && !a.st.Grid.IsFree(r) {
				t.Fatalf("step %d: %s found %v, not free", step, spec.Name, r)
			}
			fresh, _ := spec.New(m, nil)
			fr, fok := unwrapped(fresh).strat.Find(a.st, j, w, h)
			if fok != ok || fr != r {
				t.Fatalf("step %d: %s found %v %v, a fresh one %v %v", step, spec.Name, r, ok, fr, fok)
			}
		}
		// A clone is independent: emptied, it leaves the original as it
		// was.
		if step%300 == 150 {
			c := a.Clone().(*Allocator)
			rows, heldN, free := slices.Clone(a.st.Grid.rows), a.Held(), a.Free()
			for _, j := range waiting {
				c.Cancel(j)
			}
			for _, r := range running {
				c.Release(r.al)
			}
			if c.res != nil || c.st.Grid.Busy() != 0 || c.Free() != W*H || len(c.st.List) != 0 {
				t.Fatalf("step %d: the emptied clone holds %d busy nodes, %d entries", step, c.st.Grid.Busy(), len(c.st.List))
			}
			if !slices.Equal(rows, a.st.Grid.rows) || a.Held() != heldN || a.Free() != free || a.res == nil && len(waiting) > 0 {
				t.Fatalf("step %d: emptying a clone changed the original", step)
			}
		}
	}
}
