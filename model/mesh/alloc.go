package mesh

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// Busy is one entry of the busy list: an allocated submesh and what the
// strategies know of its job.
type Busy struct {
	Rect
	ECT float64 // estimated completion time: allocation time + the job's estimate (Chu §7.1)
	ID  int64   // the job's number

	// Reserved marks a reservation (reserve.go), not an allocation: the
	// submesh is set aside for job ID, which is not running; ECT is −Inf.
	Reserved bool
}

// State is the mesh as every strategy sees it: the busy array, the busy
// list (allocated submeshes in allocation order) and the time. While
// submeshes are reserved (reserve.go), their nodes are busy in the array
// and each reservation is an entry of the list (Busy.Reserved), so that
// strategies place no other job there.
type State struct {
	W, H int
	Grid *Grid
	List []*Busy
	Now  float64

	scratch []uint64
}

// Bases returns the bases of the free w×h submeshes (Grid.Bases) in a
// buffer the state reuses: valid until the next call.
func (s *State) Bases(w, h int) []uint64 {
	s.scratch = s.Grid.Bases(w, h, s.scratch)
	return s.scratch
}

// Words is the number of words per row of the state's bitsets.
func (s *State) Words() int { return s.Grid.words }

// Strategy is one allocation strategy: it finds a free submesh for a w×h
// request (or, for a rotating strategy, h×w), or reports that none suits.
// It must not change s.
type Strategy interface {
	Find(s *State, j *policy.Job, w, h int) (Rect, bool)
}

// Cloner is implemented by strategies with state of their own (2DBS's
// free block lists), copied with the allocator.
type Cloner interface {
	Clone() Strategy
}

// Tracker is implemented by strategies told of every allocation and
// release (after the state is updated), and of every change reservations
// make to the busy array, as squares of nodes that all turned busy
// (Allocated) or free (Released) (reserve.go).
type Tracker interface {
	Allocated(s *State, r Rect)
	Released(s *State, r Rect)
}

// Allocator adapts a Strategy to policy.Allocator on a W×H mesh. It keeps
// the busy array and the busy list, learns the time (policy.Clocked),
// rejects requests that fit the empty mesh in no allowed orientation
// (policy.Feasibility), and returns allocations that are one rectangle
// (policy.Placer).
type Allocator struct {
	name   string
	st     *State
	strat  Strategy
	rotate bool // the strategy may place a request rotated
	shape  string
	res    *reservations // nil while no submesh is reserved (reserve.go)
}

// NewAllocator returns an allocator of strategy s on a W×H mesh; rotate
// says whether s may rotate requests (for feasibility).
func NewAllocator(name string, W, H int, s Strategy, rotate bool) *Allocator {
	return &Allocator{name: name, st: &State{W: W, H: H, Grid: NewGrid(W, H)}, strat: s, rotate: rotate, shape: ShapeSquare}
}

// Alloc is a mesh allocation: one submesh.
type Alloc struct {
	Rect
	w int // the mesh's width, for node numbers
}

// Procs is the number of nodes held (w·h, which may exceed the request).
func (a *Alloc) Procs() int { return a.Size() }

// Nodes appends the node numbers (y·W + x), row by row.
func (a *Alloc) Nodes(dst []int) []int {
	for y := a.Y; y <= a.Y2(); y++ {
		for x := a.X; x <= a.X2(); x++ {
			dst = append(dst, policy.NodeOf(a.w, x, y))
		}
	}
	return dst
}

// Placement appends the submesh.
func (a *Alloc) Placement(dst []policy.Piece) []policy.Piece {
	return append(dst, policy.Rect(a.X, a.Y, a.W, a.H))
}

// Request returns the w×h request of j on a W×H mesh: its own shape when
// the trace gives one, else the square shaping rule.
func Request(j *policy.Job, W, H int) (w, h int, ok bool) {
	if j.Width > 0 && j.Height > 0 {
		return j.Width, j.Height, true
	}
	return Shape(j.Procs, W, H, ShapeSquare)
}

// Allocate finds a submesh for j.
func (a *Allocator) Allocate(j *policy.Job) (policy.Allocation, bool) {
	if k := a.reservation(j); k >= 0 {
		return a.allocateReserved(j, k)
	}
	w, h, ok := Request(j, a.st.W, a.st.H)
	if !ok {
		return nil, false
	}
	r, ok := a.strat.Find(a.st, j, w, h)
	if !ok {
		return nil, false
	}
	return a.place(j, r, w, h), true
}

// place allocates r, found for j's w×h request.
func (a *Allocator) place(j *policy.Job, r Rect, w, h int) *Alloc {
	if !r.Inside(a.st.W, a.st.H) || r.Size() < w*h || !(r.W >= w && r.H >= h || a.rotate && r.W >= h && r.H >= w) {
		panic(fmt.Sprintf("mesh %s: %v for a %dx%d request on %dx%d", a.name, r, w, h, a.st.W, a.st.H))
	}
	a.st.Grid.Set(r) // panics on overlap
	b := &Busy{Rect: r, ECT: a.st.Now + j.Estimate, ID: j.ID}
	a.st.List = append(a.st.List, b)
	if t, ok := a.strat.(Tracker); ok {
		t.Allocated(a.st, r)
	}
	return &Alloc{Rect: r, w: a.st.W}
}

// Release frees a's submesh.
func (a *Allocator) Release(al policy.Allocation) {
	x := al.(*Alloc)
	// By rectangle, not by pointer: allocations made before a Clone are
	// released in the clone too. Allocated submeshes never overlap, so
	// the rectangle names one entry.
	for i, b := range a.st.List {
		if b.Rect == x.Rect && !b.Reserved {
			a.st.List = append(a.st.List[:i], a.st.List[i+1:]...)
			break
		}
	}
	a.st.Grid.Clear(x.Rect)
	if t, ok := a.strat.(Tracker); ok {
		t.Released(a.st, x.Rect)
	}
	if a.res != nil {
		a.remark(x.Rect)
	}
}

// Free is the number of free nodes, reserved or not.
func (a *Allocator) Free() int { return a.st.Grid.Free() + a.res.heldNodes() }

// Size is W·H.
func (a *Allocator) Size() int { return a.st.W * a.st.H }

// SetNow learns the time (policy.Clocked).
func (a *Allocator) SetNow(t float64) { a.st.Now = t }

// Feasible rejects a request that fits the empty mesh in no allowed
// orientation (policy.Feasibility).
func (a *Allocator) Feasible(j *policy.Job) error {
	w, h, ok := Request(j, a.st.W, a.st.H)
	switch {
	case !ok:
		return fmt.Errorf("%d processors: no %s shape fits mesh:%dx%d", j.Procs, a.shape, a.st.W, a.st.H)
	case w <= a.st.W && h <= a.st.H:
		return nil
	case a.rotate && h <= a.st.W && w <= a.st.H:
		return nil
	case a.rotate:
		return fmt.Errorf("a %dx%d request fits mesh:%dx%d in neither orientation", w, h, a.st.W, a.st.H)
	}
	return fmt.Errorf("a %dx%d request does not fit mesh:%dx%d (%s does not rotate)", w, h, a.st.W, a.st.H, a.name)
}

// Clone returns an independent copy (for planning).
func (a *Allocator) Clone() policy.Allocator {
	c := *a
	st := *a.st
	st.Grid = a.st.Grid.Clone()
	st.scratch = nil
	st.List = make([]*Busy, len(a.st.List))
	for i, b := range a.st.List {
		nb := *b
		st.List[i] = &nb
	}
	c.st = &st
	c.res = a.res.clone()
	if cl, ok := a.strat.(Cloner); ok {
		c.strat = cl.Clone()
	}
	return &c
}

// State returns the allocator's state (read-only: for tests and reports).
func (a *Allocator) State() *State { return a.st }

// waitingUser is a strategy that looks at the waiting jobs (k-lookahead).
type waitingUser interface{ SetWaiting(v policy.Waiting) }

// waitingAllocator is an Allocator whose strategy looks at the waiting
// jobs: only these are policy.WaitingAware, so that the engine keeps the
// waiting set for them alone.
type waitingAllocator struct{ *Allocator }

// SetWaiting passes the engine's view to the strategy.
func (a waitingAllocator) SetWaiting(v policy.Waiting) { a.strat.(waitingUser).SetWaiting(v) }

// Clone keeps the capability.
func (a waitingAllocator) Clone() policy.Allocator {
	return waitingAllocator{a.Allocator.Clone().(*Allocator)}
}

// wrap returns a as a policy.Allocator with the capabilities of its
// strategy.
func wrap(a *Allocator) policy.Allocator {
	if _, ok := a.strat.(waitingUser); ok {
		return waitingAllocator{a}
	}
	return a
}
