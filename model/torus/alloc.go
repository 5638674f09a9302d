package torus

import (
	"fmt"
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// State is the machine as every strategy sees it: its geometry and the
// busy array (bit n%64 of word n/64 set: node n busy).
type State struct {
	G    Geom
	busy []uint64
	free int
	// Version counts the changes to the busy array (strategies' caches
	// are valid while it is unchanged).
	Version uint64
	rb      runBuf // runsOf's working lists
}

// newState returns an all-free state on g.
func newState(g Geom) *State {
	return &State{G: g, busy: make([]uint64, (g.N()+63)/64), free: g.N()}
}

// Busy reports whether node n is busy.
func (s *State) Busy(n int) bool { return s.busy[n>>6]>>(uint(n)&63)&1 == 1 }

// Free is the number of free nodes.
func (s *State) Free() int { return s.free }

// AppendFree appends the free nodes, in increasing order, to dst.
func (s *State) AppendFree(dst []int) []int {
	n := s.G.N()
	for i, w := range s.busy {
		f := ^w
		if i == len(s.busy)-1 && n%64 != 0 {
			f &= 1<<(uint(n)%64) - 1
		}
		for f != 0 {
			dst = append(dst, i*64+bits.TrailingZeros64(f))
			f &= f - 1
		}
	}
	return dst
}

// strategy is one allocation strategy: it finds pieces holding at least
// k free nodes for j (exactly k, or the strategy's documented rounding),
// appending them to dst, or reports that it cannot place j now. It may
// update its own bookkeeping (it is told of releases through tracker), but
// not s.
type strategy interface {
	place(s *State, j *policy.Job, k int, dst []policy.Piece) ([]policy.Piece, bool)
}

// tracker is implemented by strategies that follow the busy array: told
// of the pieces of every allocation (after place) and release.
type tracker interface {
	allocated(s *State, ps []policy.Piece)
	released(s *State, ps []policy.Piece)
}

// cloner is implemented by strategies with state of their own.
type cloner interface{ clone() strategy }

// feasibler is implemented by strategies that refuse some requests even
// on the empty machine.
type feasibler interface{ feasible(g Geom, k int) error }

// Allocator adapts a strategy to policy.Allocator on a 3-D mesh or torus.
type Allocator struct {
	name  string
	s     *State
	strat strategy
}

// Alloc is an allocation: its pieces (Geom.Piece) and node count.
type Alloc struct {
	pieces []policy.Piece
	n      int
}

// Procs is the number of nodes held.
func (a *Alloc) Procs() int { return a.n }

// Placement appends the pieces.
func (a *Alloc) Placement(dst []policy.Piece) []policy.Piece { return append(dst, a.pieces...) }

// newAllocator returns the allocator of strategy st named name on g.
func newAllocator(name string, g Geom, st strategy) *Allocator {
	return &Allocator{name: name, s: newState(g), strat: st}
}

// Free implements policy.Capacity.
func (a *Allocator) Free() int { return a.s.free }

// Size implements policy.Capacity.
func (a *Allocator) Size() int { return a.s.G.N() }

// Clone implements policy.Capacity.
func (a *Allocator) Clone() policy.Allocator {
	s := *a.s
	s.busy = append([]uint64(nil), a.s.busy...)
	s.rb = runBuf{}
	st := a.strat
	if c, ok := st.(cloner); ok {
		st = c.clone()
	}
	return &Allocator{name: a.name, s: &s, strat: st}
}

// request is the number of nodes j asks for.
func request(j *policy.Job) int { return max(j.Procs, 1) }

// Feasible implements policy.Allocator: a job larger than the machine
// never fits.
func (a *Allocator) Feasible(j *policy.Job) error {
	k := request(j)
	if k > a.s.G.N() {
		return fmt.Errorf("%d nodes requested, the machine has %d", k, a.s.G.N())
	}
	if f, ok := a.strat.(feasibler); ok {
		return f.feasible(a.s.G, k)
	}
	return nil
}

// mark sets (busy) or clears the nodes of cuboid c in the busy array, a
// row segment at a time; it reports false, changing nothing further, at
// the first node already in that state.
func (s *State) mark(c Cuboid, busy bool) bool {
	g := s.G
	for k := 0; k < c.C; k++ {
		z := (c.Z0 + k) % g.Z
		for j := 0; j < c.B; j++ {
			row := g.X * ((c.Y0+j)%g.Y + g.Y*z)
			xs, nx := segs(c.X0, c.A, g.X)
			for i := 0; i < nx; i++ {
				for lo, hi := row+xs[i][0], row+xs[i][1]; lo < hi; {
					w := lo >> 6
					n := min(hi-lo, 64-lo&63)
					m := ^uint64(0)
					if n < 64 {
						m = (uint64(1)<<uint(n) - 1) << (uint(lo) & 63)
					}
					if busy {
						if s.busy[w]&m != 0 {
							return false
						}
						s.busy[w] |= m
					} else {
						if s.busy[w]&m != m {
							return false
						}
						s.busy[w] &^= m
					}
					lo += n
				}
			}
		}
	}
	return true
}

// Allocate implements policy.Allocator.
func (a *Allocator) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k := request(j)
	if k > a.s.free {
		return nil, false
	}
	ps, ok := a.strat.place(a.s, j, k, nil)
	if !ok {
		return nil, false
	}
	n := 0
	for _, p := range ps {
		c, ok := a.s.G.CuboidOf(p)
		if !ok {
			panic(fmt.Sprintf("torus %s: piece %+v is not a cuboid of the machine", a.name, p))
		}
		if !a.s.mark(c, true) {
			panic(fmt.Sprintf("torus %s: cuboid %v holds a busy node", a.name, c))
		}
		n += c.Size()
	}
	if n < k {
		panic(fmt.Sprintf("torus %s: %d nodes placed for a request of %d", a.name, n, k))
	}
	a.s.free -= n
	a.s.Version++
	if t, ok := a.strat.(tracker); ok {
		t.allocated(a.s, ps)
	}
	return &Alloc{pieces: ps, n: n}, true
}

// Release implements policy.Allocator.
func (a *Allocator) Release(al policy.Allocation) {
	x := al.(*Alloc)
	for _, p := range x.pieces {
		c, _ := a.s.G.CuboidOf(p)
		if !a.s.mark(c, false) {
			panic(fmt.Sprintf("torus %s: releasing %v, which holds a free node", a.name, c))
		}
	}
	a.s.free += x.n
	a.s.Version++
	if t, ok := a.strat.(tracker); ok {
		t.released(a.s, x.pieces)
	}
}
