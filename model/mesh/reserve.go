package mesh

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// Submesh reservations (policy.Reserver), after Das Sharma & Pradhan
// ("Job scheduling in mesh multicomputers", ICPP 1994, as described by Chu
// 1995 §2.5.4): a job that cannot be allocated reserves a submesh, which
// no other job is given, even while its nodes are free, and is later
// allocated exactly there once all of them are free.
//
// The choice. Every position of the job's rectangle is a candidate that
// overlaps no other reservation (a node is never reserved twice): the w×h
// request, and the h×w one too for a rotating strategy (the allocator
// could place the job either way); for the 2-D buddy system, every block
// of its lattice that the job would hold (side 2^⌈log2 max(w,h)⌉, aligned),
// since it allocates only those. The candidate with the fewest free nodes
// wins; ties go to the fewest allocated submeshes overlapped, then the
// requested orientation, then the smallest y, then the smallest x.
//
// What strategies see. A reservation's nodes are busy in State.Grid, and
// the reservation is an entry of State.List (Busy.Reserved, ECT −Inf, in
// the order made, among the allocations), so that every strategy's own
// rule keeps other jobs off it: those searching the busy array (ff, bf,
// as, fs, eet's bases, the boundary values of bl and the busy distances
// of bdi) see its nodes busy, those working from the busy list (free
// regions: bl, bdi, bfl/wfl; eet's candidates along the submeshes' sides)
// see one more submesh. Trackers are told of the nodes a reservation
// turns busy or free, as the maximal aligned power-of-two squares that
// tile them (Allocated, Released): BL's and BDI's transposed copies of
// the array stay in step, and the 2-D buddy system takes the squares out
// of its free block lists (or puts them back), so that it too sees them
// busy. EET counts the free nodes of a reservation as free neighbours
// (z′), as it does jobs past their estimate: the reserved job's completion
// is unknown. Free still counts reserved free nodes (they are not busy):
// Free() = Grid.Free() + Held().

// reservations are the submeshes set aside, in the order made.
type reservations struct {
	list []reservation
	held int // reserved nodes that are free

	// Scratch: prefix sums of the busy array and of the reserved nodes
	// (choose), squares (freeSquares).
	busy, rsv []int32
	squares   []Rect
}

// reservation is one job's reserved submesh.
type reservation struct {
	job  int   // policy.Job.Index
	id   int64 // policy.Job.ID
	rect Rect
	free int // nodes of rect not busy
}

// heldNodes is the number of reserved free nodes (0 without reservations).
func (rs *reservations) heldNodes() int {
	if rs == nil {
		return 0
	}
	return rs.held
}

func (rs *reservations) clone() *reservations {
	if rs == nil {
		return nil
	}
	return &reservations{list: slices.Clone(rs.list), held: rs.held}
}

// Reserve sets a submesh aside for j (policy.Reserver): the candidate with
// the fewest free nodes (see above); false when every candidate overlaps
// another reservation, or j holds one already.
func (a *Allocator) Reserve(j *policy.Job) bool {
	if a.reservation(j) >= 0 {
		return false
	}
	w, h, ok := Request(j, a.st.W, a.st.H)
	if !ok {
		return false
	}
	if a.res == nil {
		a.res = &reservations{}
	}
	r, ok := a.choose(w, h)
	if !ok {
		a.tidy()
		return false
	}
	a.mark(int(j.Index), j.ID, r, len(a.st.List), len(a.res.list))
	return true
}

// Ready reports whether j holds a reservation whose nodes are all free
// (policy.Reserver).
func (a *Allocator) Ready(j *policy.Job) bool {
	k := a.reservation(j)
	return k >= 0 && a.res.list[k].free == a.res.list[k].rect.Size()
}

// Cancel ends j's reservation, if any (policy.Reserver).
func (a *Allocator) Cancel(j *policy.Job) {
	if k := a.reservation(j); k >= 0 {
		a.unmark(k)
		a.tidy()
	}
}

// Held is the number of reserved free nodes (policy.Reserver).
func (a *Allocator) Held() int { return a.res.heldNodes() }

// Reservation returns the submesh reserved for j (for tests and reports).
func (a *Allocator) Reservation(j *policy.Job) (Rect, bool) {
	if k := a.reservation(j); k >= 0 {
		return a.res.list[k].rect, true
	}
	return Rect{}, false
}

// reservation is the position of j's reservation in a.res.list, or −1.
func (a *frame) reservation(j *policy.Job) int {
	if a.res == nil {
		return -1
	}
	for k, rv := range a.res.list {
		if rv.job == int(j.Index) {
			return k
		}
	}
	return -1
}

// tidy drops the reservation set once empty: a mesh without reservations
// costs Allocate, Release and Free one nil test.
func (a *frame) tidy() {
	if a.res != nil && len(a.res.list) == 0 {
		a.res = nil
	}
}

// allocateReserved is Allocate of a job holding reservation k: exactly
// there when its nodes are all free; otherwise the reservation is lifted
// while the strategy looks for a place (its nodes count as free for the
// job), and restored, unchanged and at the same position in the busy
// list, when there is none.
func (a *frame) allocateReserved(j *policy.Job, k int) (policy.Allocation, bool) {
	w, h, _ := Request(j, a.st.W, a.st.H) // ok: j was reserved
	rv := a.res.list[k]
	ready := rv.free == rv.rect.Size()
	if !ready && a.st.Grid.Free()+rv.free < w*h {
		return nil, false // too few nodes free for it
	}
	at := a.unmark(k)
	if ready {
		al := a.place(j, rv.rect, w, h)
		a.tidy()
		return al, true
	}
	if r, ok := a.strat.Find(a.st, j, w, h); ok {
		al := a.place(j, r, w, h)
		a.tidy()
		return al, true
	}
	a.mark(rv.job, rv.id, rv.rect, at, k)
	return nil, false
}

// mark reserves r for a job (index, id): its free nodes become busy in the
// grid, and its entry goes to position at of the busy list and k of the
// reservations.
func (a *frame) mark(index int, id int64, r Rect, at, k int) {
	a.st.List = slices.Insert(a.st.List, at, &Busy{Rect: r, ECT: math.Inf(-1), ID: id, Reserved: true})
	rv := reservation{job: index, id: id, rect: r}
	for _, p := range a.freeSquares(r) {
		a.turn(p, true)
		rv.free += p.Size()
	}
	a.res.list = slices.Insert(a.res.list, k, rv)
	a.res.held += rv.free
}

// unmark lifts reservation k: its free nodes become free in the grid. It
// returns the position its entry had in the busy list.
func (a *frame) unmark(k int) int {
	rv := a.res.list[k]
	at := slices.IndexFunc(a.st.List, func(b *Busy) bool { return b.Reserved && b.Rect == rv.rect })
	a.st.List = slices.Delete(a.st.List, at, at+1)
	for _, p := range a.freeSquares(rv.rect) {
		a.turn(p, false)
	}
	a.res.list = slices.Delete(a.res.list, k, k+1)
	a.res.held -= rv.free
	return at
}

// remark marks the reserved nodes of r, just released, busy again.
func (a *frame) remark(r Rect) {
	for k := range a.res.list {
		rv := &a.res.list[k]
		if !rv.rect.Overlaps(r) {
			continue
		}
		for _, p := range a.freeSquares(intersection(rv.rect, r)) {
			a.turn(p, true)
			rv.free += p.Size()
			a.res.held += p.Size()
		}
	}
}

// turn marks the free square p busy (or the busy square free) in the grid
// and tells the strategy.
func (a *frame) turn(p Rect, busy bool) {
	t, tracks := a.strat.(Tracker)
	if busy {
		a.st.Grid.Set(p)
		if tracks {
			t.Allocated(a.st, p)
		}
		return
	}
	a.st.Grid.Clear(p)
	if tracks {
		t.Released(a.st, p)
	}
}

// freeSquares returns the nodes of r held by no allocation, as the maximal
// squares of the power-of-two lattice from (0, 0) (the 2-D buddy system's
// blocks) that tile them, in a buffer reused by the next call.
func (a *frame) freeSquares(r Rect) []Rect {
	side := 1
	for side < max(a.st.W, a.st.H) {
		side *= 2
	}
	a.res.squares = a.squares(a.res.squares[:0], r, Rect{0, 0, side, side})
	return a.res.squares
}

func (a *frame) squares(dst []Rect, r, b Rect) []Rect {
	if !b.Overlaps(r) {
		return dst
	}
	if b.X >= r.X && b.Y >= r.Y && b.X2() <= r.X2() && b.Y2() <= r.Y2() {
		free := true
		for _, e := range a.st.List {
			if !e.Reserved && e.Overlaps(b) {
				if e.X <= b.X && e.Y <= b.Y && e.X2() >= b.X2() && e.Y2() >= b.Y2() {
					return dst // all busy
				}
				free = false
			}
		}
		if free {
			return append(dst, b)
		}
	}
	h := b.W / 2
	for _, q := range [4][2]int{{0, 0}, {h, 0}, {0, h}, {h, h}} {
		dst = a.squares(dst, r, Rect{b.X + q[0], b.Y + q[1], h, h})
	}
	return dst
}

// intersection is the common part of two overlapping rectangles.
func intersection(r, s Rect) Rect {
	x, y := max(r.X, s.X), max(r.Y, s.Y)
	return Rect{x, y, min(r.X2(), s.X2()) - x + 1, min(r.Y2(), s.Y2()) - y + 1}
}

// resCandidate is a candidate reservation; over < 0 until counted.
type resCandidate struct {
	r          Rect
	free, over int
	rot, ok    bool
}

// choose returns the reservation for a w×h request: the candidate
// overlapping no reservation with the fewest free nodes, then the fewest
// allocated submeshes overlapped, then the requested orientation, then the
// smallest y, then x.
func (a *frame) choose(w, h int) (Rect, bool) {
	W, H := a.st.W, a.st.H
	rs := a.res
	rs.busy = prefixSums(rs.busy, W, H, func(mark func(Rect)) {
		for _, b := range a.st.List {
			if !b.Reserved {
				mark(b.Rect)
			}
		}
	})
	rs.rsv = prefixSums(rs.rsv, W, H, func(mark func(Rect)) {
		for _, rv := range rs.list {
			mark(rv.rect)
		}
	})
	type orient struct {
		w, h, step int
		rot        bool
	}
	var shapes []orient
	if _, buddy := a.strat.(*Buddy2D); buddy {
		s := 1 << buddyOrder(w, h)
		shapes = append(shapes, orient{s, s, s, false})
	} else {
		shapes = append(shapes, orient{w, h, 1, false})
		if a.rotate && w != h {
			shapes = append(shapes, orient{h, w, 1, true})
		}
	}
	var best resCandidate
	for _, o := range shapes {
		for y := 0; y+o.h <= H; y += o.step {
			for x := 0; x+o.w <= W; x += o.step {
				r := Rect{x, y, o.w, o.h}
				if rectSum(rs.rsv, W, r) > 0 {
					continue
				}
				c := resCandidate{r: r, free: r.Size() - rectSum(rs.busy, W, r), over: -1, rot: o.rot, ok: true}
				switch {
				case !best.ok || c.free < best.free:
					best = c
				case c.free == best.free:
					if best.over < 0 {
						best.over = a.overlapped(best.r)
					}
					// The same rotation, y and x rank later: only fewer
					// overlapped submeshes win.
					if c.over = a.overlapped(r); c.over < best.over {
						best = c
					}
				}
			}
		}
	}
	return best.r, best.ok
}

// overlapped is the number of allocated submeshes r overlaps.
func (a *frame) overlapped(r Rect) int {
	n := 0
	for _, b := range a.st.List {
		if !b.Reserved && b.Overlaps(r) {
			n++
		}
	}
	return n
}

// prefixSums sets p (resized) to the 2-D prefix sums of the nodes covered
// by the disjoint rectangles that each calls mark with: p[y·(W+1)+x] is
// the number of them in columns < x and rows < y.
func prefixSums(p []int32, W, H int, each func(mark func(Rect))) []int32 {
	n := (W + 1) * (H + 1)
	if cap(p) < n {
		p = make([]int32, n)
	}
	p = p[:n]
	clear(p)
	// Mark each node of each rectangle at (x+1, y+1), then sum.
	each(func(r Rect) {
		for y := r.Y; y <= r.Y2(); y++ {
			row := p[(y+1)*(W+1):]
			for x := r.X; x <= r.X2(); x++ {
				row[x+1] = 1
			}
		}
	})
	for y := 1; y <= H; y++ {
		for x := 1; x <= W; x++ {
			i := y*(W+1) + x
			p[i] += p[i-1] + p[i-W-1] - p[i-W-2]
		}
	}
	return p
}

// rectSum is the number of marked nodes in r, from prefixSums.
func rectSum(p []int32, W int, r Rect) int {
	x1, y1, x2, y2 := r.X, r.Y, r.X+r.W, r.Y+r.H
	return int(p[y2*(W+1)+x2] - p[y1*(W+1)+x2] - p[y2*(W+1)+x1] + p[y1*(W+1)+x1])
}
