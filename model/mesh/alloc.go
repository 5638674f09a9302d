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

// Multi is a non-contiguous strategy: it finds pieces, free submeshes
// holding exactly w·h nodes together, for a w×h request, or reports that
// it cannot place the request now (a strategy that rounds up to whole
// pages may hold more). It appends them to dst and must leave s as it
// found it. The allocator checks the pieces and records each in
// the busy list under the job's ID.
type Multi interface {
	FindPieces(s *State, j *policy.Job, w, h int, dst []Rect) ([]Rect, bool)
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

// frame adapts a strategy to policy.Allocator on a W×H mesh. It keeps
// the busy array and the busy list, learns the time from the run's
// context (policy.Contextual), rejects requests that fit the empty mesh
// in no allowed orientation (Feasible), and returns allocations that are
// rectangles (Alloc).
type frame struct {
	ctx    policy.RunContext // the run, once set
	name   string
	st     *State
	strat  Strategy
	rotate bool // the strategy may place a request rotated
	shape  string
	res    *reservations // nil while no submesh is reserved (reserve.go)
	multi  Multi         // a non-contiguous strategy (strat is nil then)
	pieces []Rect        // multi's scratch
}

// Allocator is the allocator of a contiguous strategy: one submesh per
// job, which it can also reserve (policy.Reserver, reserve.go).
type Allocator struct{ frame }

// MultiAllocator is the allocator of a non-contiguous strategy (Multi).
// It offers no reservations: those set one submesh aside.
type MultiAllocator struct{ frame }

// NewAllocator returns an allocator of strategy s on a W×H mesh; rotate
// says whether s may rotate requests (for feasibility).
func NewAllocator(name string, W, H int, s Strategy, rotate bool) *Allocator {
	return &Allocator{frame{name: name, st: &State{W: W, H: H, Grid: NewGrid(W, H)}, strat: s, rotate: rotate, shape: ShapeSquare}}
}

// NewMultiAllocator returns an allocator of the non-contiguous strategy m
// on a W×H mesh.
func NewMultiAllocator(name string, W, H int, m Multi) *MultiAllocator {
	return &MultiAllocator{frame{name: name, st: &State{W: W, H: H, Grid: NewGrid(W, H)}, multi: m, shape: ShapeSquare}}
}

// Alloc is a mesh allocation: one submesh (Rect) for a contiguous
// strategy; for a non-contiguous one (Multi), Rect is the first piece and
// More the others, in the order allocated. Pieces never overlap.
type Alloc struct {
	Rect
	More []Rect // further pieces of a non-contiguous allocation
}

// Pieces returns the allocation's submeshes, the first one first.
func (a *Alloc) Pieces() []Rect {
	return append([]Rect{a.Rect}, a.More...)
}

// Procs is the number of nodes held (for a contiguous strategy w·h, which
// may exceed the request).
func (a *Alloc) Procs() int {
	n := a.Size()
	for _, r := range a.More {
		n += r.Size()
	}
	return n
}

// Placement appends the submeshes, the first one first.
func (a *Alloc) Placement(dst []policy.Piece) []policy.Piece {
	dst = append(dst, policy.Rect(a.X, a.Y, a.W, a.H))
	for _, r := range a.More {
		dst = append(dst, policy.Rect(r.X, r.Y, r.W, r.H))
	}
	return dst
}

// Request returns the w×h request of j on a W×H mesh: its own shape when
// the trace gives one, else the square shaping rule.
func Request(j *policy.Job, W, H int) (w, h int, ok bool) {
	if j.Width > 0 && j.Height > 0 {
		return int(j.Width), int(j.Height), true
	}
	return Shape(j.Procs, W, H, ShapeSquare)
}

// Allocate finds a submesh for j.
func (a *frame) Allocate(j *policy.Job) (policy.Allocation, bool) {
	if a.ctx != nil {
		a.st.Now = a.ctx.Now()
	}
	if k := a.reservation(j); k >= 0 {
		return a.allocateReserved(j, k)
	}
	w, h, ok := Request(j, a.st.W, a.st.H)
	if !ok {
		return nil, false
	}
	if a.multi != nil {
		ps, ok := a.multi.FindPieces(a.st, j, w, h, a.pieces[:0])
		a.pieces = ps
		if !ok {
			return nil, false
		}
		return a.placePieces(j, ps, w, h), true
	}
	r, ok := a.strat.Find(a.st, j, w, h)
	if !ok {
		return nil, false
	}
	return a.place(j, r, w, h), true
}

// placePieces allocates the pieces ps, found by a non-contiguous strategy
// for j's w×h request: at least w·h nodes (more only for whole pages,
// Paging(k ≥ 1)), inside the mesh, overlapping nothing (Grid.Set panics
// on overlap). Each piece is an entry of the
// busy list under j's ID.
func (a *frame) placePieces(j *policy.Job, ps []Rect, w, h int) *Alloc {
	n := 0
	for _, r := range ps {
		if !r.Inside(a.st.W, a.st.H) {
			panic(fmt.Sprintf("mesh %s: piece %v outside mesh:%dx%d", a.name, r, a.st.W, a.st.H))
		}
		n += r.Size()
	}
	if len(ps) == 0 || n < w*h {
		panic(fmt.Sprintf("mesh %s: pieces %v hold %d nodes for a %dx%d request", a.name, ps, n, w, h))
	}
	for _, r := range ps {
		a.st.Grid.Set(r)
		a.st.List = append(a.st.List, &Busy{Rect: r, ECT: a.st.Now + j.Estimate, ID: j.ID})
	}
	al := &Alloc{Rect: ps[0]}
	if len(ps) > 1 {
		al.More = append([]Rect(nil), ps[1:]...)
	}
	return al
}

// place allocates r, found for j's w×h request.
func (a *frame) place(j *policy.Job, r Rect, w, h int) *Alloc {
	if !r.Inside(a.st.W, a.st.H) || r.Size() < w*h || !(r.W >= w && r.H >= h || a.rotate && r.W >= h && r.H >= w) {
		panic(fmt.Sprintf("mesh %s: %v for a %dx%d request on %dx%d", a.name, r, w, h, a.st.W, a.st.H))
	}
	a.st.Grid.Set(r) // panics on overlap
	b := &Busy{Rect: r, ECT: a.st.Now + j.Estimate, ID: j.ID}
	a.st.List = append(a.st.List, b)
	if t, ok := a.strat.(Tracker); ok {
		t.Allocated(a.st, r)
	}
	return &Alloc{Rect: r}
}

// Release frees a's submeshes.
func (a *frame) Release(al policy.Allocation) {
	x := al.(*Alloc)
	a.release(x.Rect)
	for _, r := range x.More {
		a.release(r)
	}
}

// release frees one allocated submesh.
func (a *frame) release(r Rect) {
	// By rectangle, not by pointer: allocations made before a Clone are
	// released in the clone too. Allocated submeshes never overlap, so
	// the rectangle names one entry.
	for i, b := range a.st.List {
		if b.Rect == r && !b.Reserved {
			a.st.List = append(a.st.List[:i], a.st.List[i+1:]...)
			break
		}
	}
	a.st.Grid.Clear(r)
	if t, ok := a.strat.(Tracker); ok {
		t.Released(a.st, r)
	}
	if a.res != nil {
		a.remark(r)
	}
}

// Free is the number of free nodes, reserved or not.
func (a *frame) Free() int { return a.st.Grid.Free() + a.res.heldNodes() }

// Size is W·H.
func (a *frame) Size() int { return a.st.W * a.st.H }

// SetNow sets the time, for an allocator used outside a run (a run's
// context sets it at every Allocate).
func (a *frame) SetNow(t float64) { a.st.Now = t }

// contextUser is a strategy that looks at the run (k-lookahead).
type contextUser interface{ SetContext(c policy.RunContext) }

// SetContext implements policy.Contextual: the allocator reads the time
// from c, and passes c on to a strategy that looks at the waiting jobs.
func (a *frame) SetContext(c policy.RunContext) {
	a.ctx = c
	if u, ok := a.strat.(contextUser); ok {
		u.SetContext(c)
	}
}

// Feasible rejects a request that fits the empty mesh in no allowed
// orientation.
func (a *frame) Feasible(j *policy.Job) error {
	w, h, ok := Request(j, a.st.W, a.st.H)
	if a.multi != nil {
		if ok && w*h <= a.st.W*a.st.H {
			return nil // pieces of any shape
		}
		return fmt.Errorf("a %dx%d request exceeds mesh:%dx%d", w, h, a.st.W, a.st.H)
	}
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
func (a *Allocator) Clone() policy.Allocator { return &Allocator{*a.clone()} }

// Clone returns an independent copy (for planning).
func (a *MultiAllocator) Clone() policy.Allocator { return &MultiAllocator{*a.clone()} }

// clone returns an independent copy of the frame.
func (a *frame) clone() *frame {
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
	c.pieces = nil
	c.res = a.res.clone()
	if cl, ok := a.strat.(Cloner); ok {
		c.strat = cl.Clone()
	}
	return &c
}

// State returns the allocator's state (read-only: for tests and reports).
func (a *frame) State() *State { return a.st }
