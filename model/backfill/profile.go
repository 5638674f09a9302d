package backfill

import "math"

// profile is a step function of free processors over time, indexed for
// conservative backfilling: the free count of the segment starting at a
// breakpoint is the sum of the changes (deltas) at that breakpoint and
// every earlier one, and the last segment lasts forever. The breakpoints
// are the nodes of a treap keyed by time (in-order = time order), each
// subtree holding the sum of its deltas and the least and greatest prefix
// sum within it, so that a reservation or release changes one or two
// deltas (O(log n), n breakpoints), and the queries of earliest descend the
// tree (O(log n) each). A breakpoint, once made, stays until the profile is
// reset or advanced past it, even when its delta returns to 0: the
// breakpoints are the candidate start times, exactly as in the sorted
// array of steps this replaces (the reference in oldprofile_test.go).
type profile struct {
	nodes []pnode // nodes[0] is the nil sentinel
	root  int32
	spare []int32 // nodes dropped, for reuse
	rng   uint32  // treap priorities (affect only the shape)
	// compact: a breakpoint (but the first) where the free count no
	// longer changes is dropped. Only searches from the first breakpoint
	// are then the same: a dropped breakpoint never starts the earliest
	// slot from there, since the breakpoint before it would do.
	compact bool
}

// pnode is a breakpoint: free processors change by d at t.
type pnode struct {
	t      float64
	lo, hi float64 // the first and last breakpoints of the subtree
	d      int32   // change of the free count at t
	sum    int32   // sum of d over the subtree
	mn, mx int32   // least and greatest prefix sum within the subtree
	l, r   int32   // children (0: none)
	pri    uint32
}

func (p *profile) node(d int32, t float64) int32 {
	p.rng ^= p.rng << 13
	p.rng ^= p.rng >> 17
	p.rng ^= p.rng << 5
	n := pnode{t: t, lo: t, hi: t, d: d, sum: d, mn: d, mx: d, pri: p.rng}
	if k := len(p.spare); k > 0 {
		x := p.spare[k-1]
		p.spare = p.spare[:k-1]
		p.nodes[x] = n
		return x
	}
	p.nodes = append(p.nodes, n)
	return int32(len(p.nodes) - 1)
}

// pull recomputes x's aggregates from its children.
func (p *profile) pull(x int32) {
	n := &p.nodes[x]
	own := n.d
	lo, hi := n.t, n.t
	var mn, mx int32 = math.MaxInt32, math.MinInt32
	if n.l != 0 {
		l := &p.nodes[n.l]
		own += l.sum
		mn, mx, lo = l.mn, l.mx, l.lo
	}
	mn, mx = min(mn, own), max(mx, own)
	s := own
	if n.r != 0 {
		r := &p.nodes[n.r]
		mn, mx = min(mn, own+r.mn), max(mx, own+r.mx)
		s += r.sum
		hi = r.hi
	}
	n.sum, n.mn, n.mx, n.lo, n.hi = s, mn, mx, lo, hi
}

// reset makes the profile free processors from now on, one breakpoint.
func (p *profile) reset(now float64, free int) {
	if p.nodes == nil {
		p.rng = 2463534242
	}
	p.nodes = append(p.nodes[:0], pnode{})
	p.spare = p.spare[:0]
	p.root = p.node(int32(free), now)
}

// add changes the free count by d from t on, making t a breakpoint (t ≥
// the first breakpoint).
func (p *profile) add(t float64, d int32) {
	if len(p.nodes) == cap(p.nodes) && len(p.spare) == 0 {
		p.nodes = append(p.nodes, pnode{})[:len(p.nodes)] // no growth while add holds pointers
	}
	p.root = p.insert(p.root, t, d, p.compact && t > p.nodes[p.root].lo)
}

func (p *profile) insert(x int32, t float64, d int32, drop bool) int32 {
	if x == 0 {
		return p.node(d, t)
	}
	n := &p.nodes[x]
	switch {
	case t < n.t:
		c := p.insert(n.l, t, d, drop)
		n = &p.nodes[x] // the insert may have grown p.nodes
		n.l = c
		if p.nodes[c].pri > n.pri { // rotate right
			n.l = p.nodes[c].r
			p.nodes[c].r = x
			p.pull(x)
			p.pull(c)
			return c
		}
	case t > n.t:
		c := p.insert(n.r, t, d, drop)
		n = &p.nodes[x] // the insert may have grown p.nodes
		n.r = c
		if p.nodes[c].pri > n.pri { // rotate left
			n.r = p.nodes[c].l
			p.nodes[c].l = x
			p.pull(x)
			p.pull(c)
			return c
		}
	default:
		n.d += d
		if n.d == 0 && drop {
			p.spare = append(p.spare, x)
			return p.join(n.l, n.r)
		}
	}
	p.pull(x)
	return x
}

// release adds k free processors from t on.
func (p *profile) release(t float64, k int) { p.add(t, int32(k)) }

// reserve takes k processors during [t, t+d). A zero-length reservation
// (d = 0, or d too small to move t) holds them at the instant t only: it
// takes the shortest segment that floating point allows, [t, next float
// after t), so that no later job may overlap the instant, yet a job ending
// at t or starting after it is unaffected.
func (p *profile) reserve(t, d float64, k int) {
	p.add(t, int32(-k))
	p.add(resEnd(t, d), int32(k))
}

// resEnd is the end of a reservation of length d at t.
func resEnd(t, d float64) float64 { return max(t+d, math.Nextafter(t, math.Inf(1))) }

// advance drops the past: the profile starts at now (≥ its start).
func (p *profile) advance(now float64) {
	past, rest := p.split(p.root, now)
	free := p.nodes[past].sum
	p.drop(past)
	p.root = p.join(p.node(free, now), rest)
}

// split splits the subtree x into the breakpoints ≤ t and those after.
func (p *profile) split(x int32, t float64) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	n := &p.nodes[x]
	if n.t <= t {
		a, b := p.split(n.r, t)
		n.r = a
		p.pull(x)
		return x, b
	}
	a, b := p.split(n.l, t)
	n.l = b
	p.pull(x)
	return a, x
}

// join joins two subtrees, every breakpoint of a before those of b.
func (p *profile) join(a, b int32) int32 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	if p.nodes[a].pri > p.nodes[b].pri {
		p.nodes[a].r = p.join(p.nodes[a].r, b)
		p.pull(a)
		return a
	}
	p.nodes[b].l = p.join(a, p.nodes[b].l)
	p.pull(b)
	return b
}

// drop frees the nodes of subtree x.
func (p *profile) drop(x int32) {
	for x != 0 {
		p.drop(p.nodes[x].l)
		p.spare = append(p.spare, x)
		x = p.nodes[x].r
	}
}

// nonNegative reports whether no segment has fewer than 0 free (a held
// reservation can leave fewer only when a running job outran its
// estimate).
func (p *profile) nonNegative() bool { return p.nodes[p.root].mn >= 0 }

// holds reports whether k processors are free throughout [t, end) (t <
// end, t at or after the first breakpoint).
func (p *profile) holds(t, end float64, k int) bool {
	k32 := int32(k)
	// The segment holding t.
	x, off, at := p.root, int32(0), int32(0)
	for x != 0 {
		n := &p.nodes[x]
		if n.t > t {
			x = n.l
			continue
		}
		off += n.d
		if n.l != 0 {
			off += p.nodes[n.l].sum
		}
		at, x = off, n.r
	}
	if at < k32 {
		return false
	}
	// The breakpoints in (t, end), subtrees entirely within checked by
	// their least prefix sum.
	var walk func(x int32, off int32) bool
	walk = func(x int32, off int32) bool {
		for x != 0 {
			n := &p.nodes[x]
			if n.hi <= t || n.lo >= end {
				return true
			}
			if n.lo > t && n.hi < end {
				return off+n.mn >= k32
			}
			own := off + n.d
			if n.l != 0 {
				own += p.nodes[n.l].sum
				if !walk(n.l, off) {
					return false
				}
			}
			if n.t > t && n.t < end && own < k32 {
				return false
			}
			off, x = own, n.r
		}
		return true
	}
	return walk(p.root, 0)
}

// earliest returns the earliest breakpoint t ≥ from such that k
// processors are free throughout [t, t+d) (at t when d = 0), +Inf if none.
func (p *profile) earliest(k int, d float64, from float64) float64 {
	t, _ := p.earliestBefore(k, d, from, math.Inf(1))
	return t
}

// earliestBefore is earliest among the breakpoints before limit, where the
// segments from limit on count as having k free: ok false when there is no
// such breakpoint (t is then limit).
//
// The breakpoints in [from, limit) are scanned in time order as runs of
// breakpoints with k free (a candidate start and how long k stay free from
// it), in one walk of the tree: a subtree entirely in range whose
// breakpoints all have k free, or none has, is taken whole from its
// aggregates, so the walk costs O(log n) per run too short for d before
// the answer.
func (p *profile) earliestBefore(k int, d float64, from, limit float64) (float64, bool) {
	sc := scan{p: p, k: int32(k), d: d, from: from, limit: limit, start: math.NaN()}
	if sc.walk(p.root, 0) {
		return sc.start, true
	}
	if !math.IsNaN(sc.start) {
		// A run reaching limit, or the last segment, which lasts forever.
		return sc.start, true
	}
	return limit, false
}

// scan is the state of earliestBefore's walk.
type scan struct {
	p           *profile
	k           int32
	d           float64
	from, limit float64
	start       float64 // the start of the current run of k free (NaN: none)
}

// walk scans subtree x (off: the sum of the deltas before it) and
// reports whether a run long enough was found (sc.start).
func (sc *scan) walk(x int32, off int32) bool {
	nodes := sc.p.nodes
	for x != 0 {
		n := &nodes[x]
		if n.hi < sc.from || n.lo >= sc.limit {
			return false
		}
		if n.lo >= sc.from && n.hi < sc.limit {
			// Entirely in range: whole when uniform.
			if off+n.mn >= sc.k {
				if sc.start != sc.start { // NaN
					sc.start = n.lo
				}
				return n.hi >= sc.start+sc.d
			}
			if off+n.mx < sc.k {
				if sc.start == sc.start && n.lo >= sc.start+sc.d {
					return true
				}
				sc.start = math.NaN()
				return false
			}
		}
		own := off + n.d
		if n.l != 0 {
			own += nodes[n.l].sum
			if sc.walk(n.l, off) {
				return true
			}
		}
		if n.t >= sc.from && n.t < sc.limit {
			if own >= sc.k {
				if sc.start != sc.start {
					sc.start = n.t
				}
				if n.t >= sc.start+sc.d {
					return true
				}
			} else {
				if sc.start == sc.start && n.t >= sc.start+sc.d {
					return true
				}
				sc.start = math.NaN()
			}
		}
		off, x = own, n.r
	}
	return false
}

// sameSteps reports whether p and q are the same step function (their
// breakpoints may differ where the free count does not change).
func sameSteps(p, q *profile) bool {
	a, b := p.collapsed(), q.collapsed()
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

// collapsed lists p's breakpoints where the free count changes (and the
// first), with the free count from each on.
func (p *profile) collapsed() [][2]float64 {
	var out [][2]float64
	var walk func(x int32, off int32) int32
	walk = func(x int32, off int32) int32 {
		if x == 0 {
			return off
		}
		n := &p.nodes[x]
		off = walk(n.l, off) + n.d
		if len(out) == 0 || out[len(out)-1][1] != float64(off) {
			out = append(out, [2]float64{n.t, float64(off)})
		}
		return walk(n.r, off)
	}
	walk(p.root, 0)
	return out
}
