// Package stretch is the optional run-time stretch model of machines with
// a topology: a job's run time grows with how far its placement's
// all-to-all hop-bytes (policy.Locality.HopBytes) is from that of the best
// placement of the same node count on the same machine, in the manner of
// the allocation-based timing of SST's scheduler element (SST-Elements
// v10.1, src/sst/elements/scheduler: schedComponent's "timeperdistance"
// parameter, whose README section "Allocation Based Timing" documents
// it). It is off by default, so that the replay of a log is exact.
//
// A trace's run time r is taken as the job's run time on a best placement
// (as SST takes its log's time as that on its baseline allocation), and
// the job placed with hop-bytes hb runs r·F, where, with hb* the best
// hop-bytes of its k nodes:
//
//   - hops:alpha=A: F = 1 + A·(d − d*), d = hb/(k(k−1)) the mean hop
//     distance between two of its nodes and d* = hb*/(k(k−1)) the best:
//     A is the fraction of run time one extra hop of mean distance costs.
//   - sst:a=A,b=B: F = (1 + A·hb^B)/(1 + A·hb*^B), SST's function
//     without its random exponent (b + c·r, r uniform in [−1, 1]; here
//     c = 0, for determinism), SST's hop-bytes being those of its task
//     mapping of a communication graph, these those of one byte between
//     every ordered pair.
//
// F ≥ 1, and F = 1 for a job of one node or placed as well as possible.
// The best hop-bytes hb*(k) come from the family's hop distance
// (Family.Hops) by a beam search (Best): placements grown from node 0 one
// node at a time, the Beam of least hop-bytes kept at each size, and for
// k above half the machine also the whole machine shrunk one node at a
// time. On the families' small machines this is the minimum over all
// k-node placements (brute force in the tests); on larger ones it is the
// best found, and a placement better than it is not sped up (F is
// clamped at 1).
//
// The model is a policy.ProgressModel: at a job's first start its rate
// becomes 1/F (its end r·F after its start, whatever the scheduler
// believed); the estimate stays the request, so a stretched job may
// outrun it, like a log job whose run time exceeds its request (the
// schedulers' reservations then move, as for such a job).
package stretch

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/schedlab/schedlab/model/policy"
)

// Models of the stretch option.
const (
	Off  = "off"
	Hops = "hops"
	SST  = "sst"
)

// Spec is a parsed stretch setting.
type Spec struct {
	Model string  // Off, Hops or SST
	Alpha float64 // hops: the run-time fraction per extra hop of mean distance
	A, B  float64 // sst: the coefficient and exponent
}

// String is the canonical form of s ("off", "hops:alpha=0.1", "sst:a=0.001,b=0.5").
func (s Spec) String() string {
	switch s.Model {
	case Hops:
		return fmt.Sprintf("hops:alpha=%g", s.Alpha)
	case SST:
		return fmt.Sprintf("sst:a=%g,b=%g", s.A, s.B)
	}
	return Off
}

// On reports whether s stretches run times.
func (s Spec) On() bool { return s.Model == Hops || s.Model == SST }

// Parse parses a stretch setting: off, hops:alpha=A (A ≥ 0) or
// sst:a=A,b=B (A ≥ 0, B ≥ 0); "" is off.
func Parse(v string) (Spec, error) {
	if v == "" {
		return Spec{Model: Off}, nil
	}
	name, p, err := policy.ParseSpec(v)
	if err != nil {
		return Spec{}, fmt.Errorf("stretch %q: %w", v, err)
	}
	bad := func(err error) (Spec, error) { return Spec{}, fmt.Errorf("stretch %q: %w", v, err) }
	s := Spec{Model: name}
	nonneg := func(key string, x float64) error {
		if !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("%s must be a finite number ≥ 0", key)
		}
		return nil
	}
	switch name {
	case Off:
		if len(p) > 0 {
			return bad(fmt.Errorf("off takes no parameters"))
		}
		return s, nil
	case Hops:
		if err := p.Check("alpha"); err != nil {
			return bad(err)
		}
		if _, ok := p["alpha"]; !ok {
			return bad(fmt.Errorf("hops needs alpha=A"))
		}
		if s.Alpha, err = p.Float("alpha", 0); err != nil {
			return bad(err)
		}
		if err := nonneg("alpha", s.Alpha); err != nil {
			return bad(err)
		}
	case SST:
		if err := p.Check("a", "b"); err != nil {
			return bad(err)
		}
		for _, k := range []string{"a", "b"} {
			if _, ok := p[k]; !ok {
				return bad(fmt.Errorf("sst needs a=A,b=B"))
			}
		}
		if s.A, err = p.Float("a", 0); err != nil {
			return bad(err)
		}
		if s.B, err = p.Float("b", 0); err != nil {
			return bad(err)
		}
		if err := nonneg("a", s.A); err != nil {
			return bad(err)
		}
		if err := nonneg("b", s.B); err != nil {
			return bad(err)
		}
	default:
		return bad(fmt.Errorf("unknown model %q (off, hops, sst)", name))
	}
	return s, nil
}

// Factor is the stretch F of a placement of k nodes with hop-bytes hb,
// the best placement of k nodes having best (≥ 1; 1 when off).
func (s Spec) Factor(k int, hb, best float64) float64 {
	if k < 2 || hb <= best {
		return 1
	}
	var f float64
	switch s.Model {
	case Hops:
		pairs := float64(k) * float64(k-1)
		f = 1 + s.Alpha*(hb-best)/pairs
	case SST:
		f = (1 + s.A*math.Pow(hb, s.B)) / (1 + s.A*math.Pow(best, s.B))
	default:
		return 1
	}
	return max(f, 1)
}

// Beam is the number of placements Best keeps of each size.
const Beam = 16

// Best returns hb*(k) for k = 0..kmax (kmax ≤ n): the least hop-bytes
// among the placements of k of n nodes that a beam search finds under
// hops, growing placements from node 0 one node at a time and, for k
// above n/2, also shrinking the whole machine one node at a time (the
// package doc). O(Beam·kmax·n) calls of hops, and O(Beam·n²) more when
// kmax > n/2.
func Best(n, kmax int, hops func(a, b int) int) []float64 {
	kmax = min(kmax, n)
	best := make([]float64, kmax+1)
	if kmax < 1 {
		return best
	}
	one := &state{sum: make([]int64, n), in: make([]bool, n)}
	b := beamer{n: n, hops: hops, z: keys(n)}
	for k, hb := range b.run(b.add(one, 0), 1, kmax, true) {
		best[k+1] = float64(hb)
	}
	if kmax > n/2 {
		all := &state{sum: make([]int64, n), in: make([]bool, n)}
		for v := range all.in {
			all.in[v] = true
			all.key ^= b.z[v]
			b.shift(all.sum, v, 1)
		}
		for _, d := range all.sum {
			all.hb += d
		}
		lo := n/2 + 1
		for i, hb := range b.run(all, n, lo, false) {
			if k := n - i; k <= kmax {
				best[k] = min(best[k], float64(hb))
			}
		}
	}
	return best
}

// keys returns random 64-bit keys of n nodes: a placement's key is their
// xor, to keep each placement once in a beam.
func keys(n int) []uint64 {
	z := make([]uint64, n)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range z {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		z[i] = x
	}
	return z
}

// state is a placement in a beam.
type state struct {
	sum []int64 // Σ of the distances from each node to the placement's nodes
	in  []bool
	hb  int64
	key uint64
}

// cand is a placement's child: node v added (or removed), hop-bytes hb.
type cand struct {
	hb        int64
	parent, v int
}

func (a cand) less(b cand) bool {
	if a.hb != b.hb {
		return a.hb < b.hb
	}
	if a.parent != b.parent {
		return a.parent < b.parent
	}
	return a.v < b.v
}

type beamer struct {
	n     int
	hops  func(a, b int) int
	z     []uint64
	rows  [][]uint16 // node v's distances to every node, once computed (rowCap)
	cells int        // entries held in rows
}

// rowCap bounds the distances Best keeps (2 bytes each): 32 Mi entries,
// all of a 4,096-node machine's, a part of larger ones'.
var rowCap = 32 << 20

// row returns v's distances to every node, computed once while rowCap
// allows (nil otherwise, or when a distance exceeds 65535).
func (b *beamer) row(v int) []uint16 {
	if b.rows == nil {
		b.rows = make([][]uint16, b.n)
	}
	if r := b.rows[v]; r != nil || b.cells+b.n > rowCap {
		return r
	}
	r := make([]uint16, b.n)
	for u := range r {
		d := b.hops(v, u)
		if d > math.MaxUint16 {
			return nil
		}
		r[u] = uint16(d)
	}
	b.rows[v] = r
	b.cells += b.n
	return r
}

// shift adds sign times v's distances to sum.
func (b *beamer) shift(sum []int64, v int, sign int64) {
	if r := b.row(v); r != nil {
		for u, d := range r {
			sum[u] += sign * int64(d)
		}
		return
	}
	for u := range sum {
		sum[u] += sign * int64(b.hops(v, u))
	}
}

// add returns p with node v added.
func (b *beamer) add(p *state, v int) *state {
	c := &state{sum: slices.Clone(p.sum), in: slices.Clone(p.in), hb: p.hb + 2*p.sum[v], key: p.key ^ b.z[v]}
	c.in[v] = true
	b.shift(c.sum, v, 1)
	return c
}

// remove returns p without node v.
func (b *beamer) remove(p *state, v int) *state {
	c := &state{sum: slices.Clone(p.sum), in: slices.Clone(p.in), hb: p.hb - 2*p.sum[v], key: p.key ^ b.z[v]}
	c.in[v] = false
	b.shift(c.sum, v, -1)
	return c
}

// run searches from start, of k nodes, adding nodes (grow) up to k = to
// or removing them down to k = to, and returns the least hop-bytes of
// each size, from k on.
func (b *beamer) run(start *state, k, to int, grow bool) []int64 {
	beam := []*state{start}
	out := []int64{start.hb}
	var cs, top []cand
	for k != to {
		// Each placement's Beam best children, then the Beam best of
		// those, each placement once.
		cs = cs[:0]
		for pi, p := range beam {
			top = top[:0]
			for v := 0; v < b.n; v++ {
				if p.in[v] != !grow {
					continue
				}
				c := cand{p.hb + 2*p.sum[v], pi, v}
				if !grow {
					c.hb = p.hb - 2*p.sum[v]
				}
				if len(top) == Beam && !c.less(top[Beam-1]) {
					continue
				}
				i := len(top)
				if i < Beam {
					top = append(top, c)
				} else {
					i--
				}
				for ; i > 0 && c.less(top[i-1]); i-- {
					top[i] = top[i-1]
				}
				top[i] = c
			}
			cs = append(cs, top...)
		}
		slices.SortFunc(cs, func(a, c cand) int {
			switch {
			case a.less(c):
				return -1
			case c.less(a):
				return 1
			}
			return 0
		})
		next := make([]*state, 0, Beam)
		seen := map[uint64]bool{}
		for _, c := range cs {
			key := beam[c.parent].key ^ b.z[c.v]
			if seen[key] {
				continue
			}
			seen[key] = true
			if grow {
				next = append(next, b.add(beam[c.parent], c.v))
			} else {
				next = append(next, b.remove(beam[c.parent], c.v))
			}
			if len(next) == Beam {
				break
			}
		}
		beam = next
		if grow {
			k++
		} else {
			k--
		}
		out = append(out, beam[0].hb)
	}
	return out
}

// Model is the stretch model of one run, a policy.ProgressModel.
type Model struct {
	s        Spec
	m        policy.Machine
	hops     func(a, b int) int
	locality func([]policy.Piece) policy.Locality
	best     []float64
	seen     map[int32]bool
	fresh    []started
	buf      []policy.Piece
}

type started struct {
	j    *policy.Job
	rate float64
}

// New returns the model of s on machine m, whose family must have Hops
// and Locality, for jobs of at most kmax nodes (the largest a run's jobs
// need; a larger placement extends the best hop-bytes when it starts).
func New(s Spec, m policy.Machine, kmax int) (*Model, error) {
	f, ok := policy.FamilyOf(m.Kind)
	if !ok || f.Hops == nil || f.Locality == nil {
		return nil, fmt.Errorf("stretch %s: machine %s has no hop distance (mesh, mesh3d, torus, cube, fattree and dragonfly machines have)", s, m)
	}
	hops := f.Hops(m)
	if hops == nil {
		return nil, fmt.Errorf("stretch %s: machine %s: its topology cannot be read", s, m)
	}
	md := &Model{s: s, m: m, hops: hops, seen: map[int32]bool{},
		locality: func(ps []policy.Piece) policy.Locality { return f.Locality(m, ps) }}
	md.best = bestOf(m, kmax, hops)
	return md, nil
}

// cache holds the best hop-bytes computed of each machine, the longest
// list so far: every run of a process on the same machine shares it.
var cache struct {
	sync.Mutex
	best map[string][]float64
}

// bestOf is Best on machine m up to kmax nodes, cached.
func bestOf(m policy.Machine, kmax int, hops func(a, b int) int) []float64 {
	kmax = min(max(kmax, 1), m.Procs)
	key := m.String()
	cache.Lock()
	defer cache.Unlock()
	if b := cache.best[key]; len(b) > kmax {
		return b
	}
	b := Best(m.Procs, kmax, hops)
	if cache.best == nil {
		cache.best = map[string][]float64{}
	}
	cache.best[key] = b
	return b
}

// Factor returns the stretch of placement ps.
func (md *Model) Factor(ps []policy.Piece) float64 {
	k := 0
	for _, p := range ps {
		k += p.Size()
	}
	if k < 2 {
		return 1
	}
	if k >= len(md.best) {
		md.best = bestOf(md.m, k, md.hops)
	}
	return md.s.Factor(k, md.locality(ps).HopBytes, md.best[k])
}

// Started implements policy.ProgressModel: at its first start a job's
// stretch F is known, and it runs at rate 1/F from the next Rates call
// on; a resumed job keeps its rate.
func (md *Model) Started(j *policy.Job, _ policy.Progress) {
	if md.seen[j.Record] {
		return
	}
	md.seen[j.Record] = true
	md.buf = j.Alloc.Placement(md.buf[:0])
	if f := md.Factor(md.buf); f != 1 {
		md.fresh = append(md.fresh, started{j, 1 / f})
	}
}

// Left implements policy.ProgressModel: a job that leaves before its
// rate was set is seen anew at its next start.
func (m *Model) Left(j *policy.Job, _ policy.Progress) {
	for k, s := range m.fresh {
		if s.j == j {
			m.fresh = append(m.fresh[:k], m.fresh[k+1:]...)
			delete(m.seen, j.Record)
			return
		}
	}
}

// Rates implements policy.ProgressModel: the jobs just started get their
// rate; the others keep theirs.
func (m *Model) Rates(_ policy.Progress, running []*policy.Job, rate []float64) {
	f := len(m.fresh) - 1
	for k := len(running) - 1; k >= 0 && f >= 0; k-- {
		if s := m.fresh[f]; running[k] == s.j {
			rate[k] = s.rate
			f--
		}
	}
	clear(m.fresh)
	m.fresh = m.fresh[:0]
}
