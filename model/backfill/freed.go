package backfill

import (
	"cmp"
	"math"
	"slices"
)

// Which waiting jobs a compression pass must search again.
//
// A job j (k processors, estimate d) whose search last returned old has no
// slot before old in the profile of that moment: every window [t,
// min(t+d, old)) with t in [now, old) contains a point with fewer than k
// free. Processors taken since (arrivals, moves into earlier slots) only
// make that truer, so j can move earlier only if some point x in [now,
// old) has become k-free since, which takes room freed since (a job ended
// before the end of its place, or a job gave up its reservation to move).
// When a freeing raises the free count at x from f−c to f (c processors
// freed over x), the sizes k that become free at x are those in (f−c, f].
// For every such freeing the pass paints, for each size, the earliest x
// where it becomes free (kBands, over the sizes of the waiting jobs); a job whose size was not painted before its reservation
// cannot move, and its search (which would return old) is skipped. The
// skip is itself a point where j is known to have no earlier slot.
//
// The freeings relevant to j are those since its last look: in the
// previous pass, those after j's place in the queue; between the passes,
// the completions; in this pass, those before j. The pass keeps the
// previous pass's (prev, replayed from prevLog) and its own (cur: the
// completions first, then the moves), and asks both; a superset of the
// relevant freeings only costs searches. A job placed otherwise than by a
// search of the whole profile (behind jobs whose slots an outrunning job
// took, or deferred when the allocator failed) has no such guarantee and
// is searched at the next pass (mustSearch), as is everyone after the
// profile was rebuilt. Tested by running every skipped search anyway and
// requiring it to return old (Conservative.verify).

// kBands is, for each size of a waiting job, the least x painted over it
// by the previous pass's moves (prev), the completions since (done) and
// this pass's moves (cur); and the sorted list of the sizes waiting.
type kBands struct {
	prev, done, cur kArr
	fid             []uint32 // by size: the freeing that last painted it
	f               uint32   // the current freeing
	nf              int      // sizes painted by the current freeing
	into            *kArr    // where the current freeing paints
	count           []int32  // by size: waiting jobs of that size
	sizes           []int    // the sizes with a waiting job, ascending
}

// kArr is the least x painted over each size since the last reset (a
// generation count resets it in O(1)).
type kArr struct {
	v   []float64 // by size: the least x painted
	gen []uint32  // by size: v is valid when gen is g
	g   uint32
}

func (a *kArr) grow(n int) {
	a.v = append(a.v, make([]float64, n-len(a.v))...)
	a.gen = append(a.gen, make([]uint32, n-len(a.gen))...)
}

func (a *kArr) reset() {
	a.g++
	if a.g == 0 { // wrapped: clear the stamps
		clear(a.gen)
		a.g = 1
	}
}

func (a *kArr) first(k int) float64 {
	if a.gen[k] != a.g {
		return math.Inf(1)
	}
	return a.v[k]
}

func (a *kArr) paint(k int, x float64) {
	if a.gen[k] != a.g || x < a.v[k] {
		a.gen[k], a.v[k] = a.g, x
	}
}

// add counts a waiting job of size k.
func (b *kBands) add(k int) {
	if k >= len(b.count) {
		n := max(2*len(b.count), k+1)
		b.count = append(b.count, make([]int32, n-len(b.count))...)
		b.fid = append(b.fid, make([]uint32, n-len(b.fid))...)
		b.prev.grow(n)
		b.done.grow(n)
		b.cur.grow(n)
	}
	b.count[k]++
	if b.count[k] == 1 {
		i, _ := slices.BinarySearch(b.sizes, k)
		b.sizes = slices.Insert(b.sizes, i, k)
	}
}

// remove uncounts a waiting job of size k.
func (b *kBands) remove(k int) {
	b.count[k]--
	if b.count[k] == 0 {
		i, _ := slices.BinarySearch(b.sizes, k)
		b.sizes = slices.Delete(b.sizes, i, i+1)
	}
}

// newPass makes this pass's moves the previous pass's and forgets the
// rest.
func (b *kBands) newPass() {
	b.prev, b.cur = b.cur, b.prev
	b.cur.reset()
	b.done.reset()
}

// first is the least x painted over size k (+Inf if none).
func (b *kBands) first(k int) float64 {
	return min(b.prev.first(k), b.done.first(k), b.cur.first(k))
}

// freeing starts the paintings of one freeing of room, into a.
func (b *kBands) freeing(a *kArr) {
	b.f++
	if b.f == 0 {
		clear(b.fid)
		b.f = 1
	}
	b.nf, b.into = 0, a
}

// paintFirst paints x over the waiting sizes lo..hi that the current
// freeing has not painted yet (its earlier segments, at an earlier x,
// win); it reports false when the freeing has painted every size.
func (b *kBands) paintFirst(lo, hi int, x float64) bool {
	i, _ := slices.BinarySearch(b.sizes, max(lo, 1))
	for ; i < len(b.sizes) && b.sizes[i] <= hi; i++ {
		k := b.sizes[i]
		if b.fid[k] == b.f {
			continue
		}
		b.fid[k] = b.f
		b.nf++
		b.into.paint(k, x)
	}
	return b.nf < len(b.sizes)
}

// paintFreed paints the sizes that the freeing of c processors over [a, b)
// (just applied to full) may have made free, for x in [a, min(b, s.until)).
func (s *Conservative) paintFreed(a, b float64, c int32) {
	b = min(b, s.until)
	if a >= b {
		return
	}
	s.bands.freeing(&s.bands.cur)
	lo, hi := s.full.minMax(a, b)
	s.bands.paintFirst(int(lo-c)+1, int(hi), a)
}

// paintDone paints the sizes that the jobs done since the last pass (ends:
// each freed its processors from now to the end of its place, just
// applied to full) may have made free.
func (s *Conservative) paintDone(now float64) {
	if len(s.ends) == 0 {
		return
	}
	slices.SortFunc(s.ends, func(a, b done) int { return cmp.Compare(a.end, b.end) })
	var c int32 // processors freed over the segment
	for _, d := range s.ends {
		c += int32(d.procs)
	}
	s.bands.freeing(&s.bands.done)
	i := 0
	s.full.segments(now, min(s.ends[len(s.ends)-1].end, s.until), func(x float64, f int32) bool {
		for i < len(s.ends) && s.ends[i].end <= x {
			c -= int32(s.ends[i].procs)
			i++
		}
		return s.bands.paintFirst(int(f-c)+1, int(f), x)
	})
}

// segments calls fn(x, f) for each segment of the profile meeting [a, b)
// in time order: x the segment's start (a for the segment holding a), f
// its free count; it stops when fn returns false. a must be at or after
// the first breakpoint.
func (p *profile) segments(a, b float64, fn func(x float64, f int32) bool) {
	if !fn(a, p.freeAt(a)) {
		return
	}
	var walk func(x int32, off int32) bool
	walk = func(x int32, off int32) bool {
		nodes := p.nodes
		for x != 0 {
			n := &nodes[x]
			if n.hi <= a || n.lo >= b {
				return true
			}
			own := off + n.d
			if n.l != 0 {
				own += nodes[n.l].sum
				if !walk(n.l, off) {
					return false
				}
			}
			if n.t > a && n.t < b && !fn(n.t, own) {
				return false
			}
			off, x = own, n.r
		}
		return true
	}
	walk(p.root, 0)
}

// freeAt is the free count at t (at or after the first breakpoint).
func (p *profile) freeAt(t float64) int32 {
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
	return at
}

// minMax returns the least and greatest free counts over [a, b) (a < b,
// a at or after the first breakpoint).
func (p *profile) minMax(a, b float64) (int32, int32) {
	at := p.freeAt(a)
	mn, mx := at, at
	var walk func(x int32, off int32)
	walk = func(x int32, off int32) {
		nodes := p.nodes
		for x != 0 {
			n := &nodes[x]
			if n.hi <= a || n.lo >= b {
				return
			}
			if n.lo > a && n.hi < b {
				mn, mx = min(mn, off+n.mn), max(mx, off+n.mx)
				return
			}
			own := off + n.d
			if n.l != 0 {
				own += nodes[n.l].sum
				walk(n.l, off)
			}
			if n.t > a && n.t < b {
				mn, mx = min(mn, own), max(mx, own)
			}
			off, x = own, n.r
		}
	}
	walk(p.root, 0)
	return mn, mx
}
