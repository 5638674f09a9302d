package backfill

import (
	"math"
	"math/bits"
	"slices"
)

// profile is a step function of free processors over time, for
// conservative backfilling: f[i] processors are free from t[i] until
// t[i+1] (the last segment lasts forever), times strictly increasing. It
// is kept from pass to pass and searched by a scan of its breakpoints from
// the first, which for the few hundred breakpoints of a real queue beats
// a balanced tree (fewer and cheaper memory accesses); a reservation adds
// to the breakpoints it spans. A breakpoint, once made, stays until the
// profile is reset or advanced past it, even when the free count no longer
// changes there: the breakpoints are the candidate start times, exactly as
// in the sorted array of steps of the old scheduler (the reference in
// oldprofile_test.go).
type profile struct {
	t []float64
	f []int32
	// neg counts the segments with fewer than 0 free (nonNegative).
	neg int
	// compact: a breakpoint (but the first) where the free count no
	// longer changes is dropped. Only searches from the first breakpoint
	// are then the same: a dropped breakpoint never starts the earliest
	// slot from there, since the breakpoint before it would do.
	compact bool
	// track: the profile keeps, for the current epoch and the one
	// before, by size class, the earliest time where a gain of free
	// processors left at least the class's smallest size free (see
	// gained and gainedSince); a reset counts as a gain everywhere.
	track bool
	epoch int32
	gain  [2][33]float64
	// gainEnd: by size class, the latest end of a range where a gain
	// left at least the class's smallest size free (+Inf: the last
	// segment).
	gainEnd [2][33]float64
}

// sizeClass is the class of k processors: bits.Len of k (0 for k ≤ 0).
// k ≤ m implies sizeClass(k) ≤ sizeClass(m); the smallest size of class
// c > 0 is 2^(c-1).
func sizeClass(k int32) int {
	if k <= 0 {
		return 0
	}
	return bits.Len32(uint32(k))
}

// newEpoch starts an epoch of gains, forgetting those of the epoch
// before the last.
func (p *profile) newEpoch() {
	p.epoch++
	g, ge := &p.gain[p.epoch&1], &p.gainEnd[p.epoch&1]
	for c := range g {
		g[c], ge[c] = math.Inf(1), math.Inf(-1)
	}
}

// gained records that the free count grew over the segments from
// breakpoint i to e (exclusive): for each size class, the first of them
// where at least the class's smallest size (2^(c-1), or 0) is then free.
func (p *profile) gained(i, e int) {
	g, ge := &p.gain[p.epoch&1], &p.gainEnd[p.epoch&1]
	done := -1
	// mx: the largest count below the smallest size of class done+1
	// (a count above it starts a new class).
	mx := int32(math.MinInt32)
	f := p.f[i:e]
	for x, v := range f {
		if v <= mx {
			continue
		}
		c := sizeClass(v)
		for done < c {
			done++
			g[done] = min(g[done], p.t[i+x])
		}
		if done == len(g)-1 {
			break
		}
		mx = int32(1)<<done - 1 // the largest count of class done
	}
	end := math.Inf(1)
	if e < len(p.t) {
		end = p.t[e]
	}
	for c := 0; c <= done; c++ {
		ge[c] = max(ge[c], end)
	}
}

// gainedSince returns a lower bound of the earliest time where the
// profile has gained free processors since the start of epoch e and was
// then left with k or more free, and an upper bound of the latest end of
// such a gain (-Inf and +Inf when e is older than the epoch before the
// current one).
func (p *profile) gainedSince(k int32, e int32) (from, until float64) {
	c := sizeClass(k)
	switch e {
	case p.epoch:
		return p.gain[p.epoch&1][c], p.gainEnd[p.epoch&1][c]
	case p.epoch - 1:
		return min(p.gain[0][c], p.gain[1][c]), max(p.gainEnd[0][c], p.gainEnd[1][c])
	}
	return math.Inf(-1), math.Inf(1)
}

// reset makes the profile free processors from now on, one breakpoint.
func (p *profile) reset(now float64, free int) {
	p.t = append(p.t[:0], now)
	p.f = append(p.f[:0], int32(free))
	if p.track {
		g, ge := &p.gain[p.epoch&1], &p.gainEnd[p.epoch&1]
		for c := range g {
			g[c], ge[c] = math.Inf(-1), math.Inf(1)
		}
	}
	p.neg = 0
	if free < 0 {
		p.neg = 1
	}
}

// index returns the index of the last breakpoint ≤ t (t ≥ the first).
func (p *profile) index(t float64) int {
	i := search(p.t, t)
	if i == len(p.t) || p.t[i] != t {
		i--
	}
	return i
}

// split makes t a breakpoint and returns its index (t ≥ the first).
func (p *profile) split(t float64) int { return p.splitFrom(t, 0) }

// splitFrom is split for a t after breakpoint lo.
func (p *profile) splitFrom(t float64, lo int) int {
	i := lo + search(p.t[lo:], t)
	if i < len(p.t) && p.t[i] == t {
		return i
	}
	f := p.f[i-1]
	p.t = slices.Insert(p.t, i, t)
	p.f = slices.Insert(p.f, i, f)
	if f < 0 {
		p.neg++
	}
	return i
}

// drop removes breakpoint i (> 0) when compact and its free count is the
// one before it.
func (p *profile) drop(i int) {
	if !p.compact || i == 0 || i >= len(p.f) || p.f[i] != p.f[i-1] {
		return
	}
	if p.f[i] < 0 {
		p.neg--
	}
	p.t = slices.Delete(p.t, i, i+1)
	p.f = slices.Delete(p.f, i, i+1)
}

// addRange changes the free count by d over [a, b) (b = +Inf: from a on).
func (p *profile) addRange(a, b float64, d int32) {
	if !(a < b) {
		return
	}
	i := p.split(a)
	// The segments from i up to b change (found by the same scan, not a
	// search), and b becomes a breakpoint (its segment keeping the count
	// it had).
	ts, fs := p.t, p.f[:len(p.t)]
	e := i
	// The segments that change sign: from [-d, 0) to ≥ 0 when d > 0, from
	// [0, -d) to < 0 when d < 0 (one unsigned comparison each).
	changed := 0
	if d > 0 {
		for ; e < len(ts) && ts[e] < b; e++ {
			v := fs[e]
			if uint32(v+d) < uint32(d) {
				changed++
			}
			fs[e] = v + d
		}
		p.neg -= changed
	} else {
		for ; e < len(ts) && ts[e] < b; e++ {
			v := fs[e]
			if uint32(v) < uint32(-d) {
				changed++
			}
			fs[e] = v + d
		}
		p.neg += changed
	}
	if e < len(ts) && ts[e] != b || e == len(ts) && !math.IsInf(b, 1) {
		f := fs[e-1] - d // b's segment, as it was
		p.t = slices.Insert(p.t, e, b)
		p.f = slices.Insert(p.f, e, f)
		if f < 0 {
			p.neg++
		}
	}
	if p.track && d > 0 {
		p.gained(i, e)
	}
	p.drop(e)
	p.drop(i)
}

// add changes the free count by d from t on, making t a breakpoint (t ≥
// the first breakpoint).
func (p *profile) add(t float64, d int32) { p.addRange(t, math.Inf(1), d) }

// release adds k free processors from t on.
func (p *profile) release(t float64, k int) { p.add(t, int32(k)) }

// reserve takes k processors during [t, t+d). A zero-length reservation
// (d = 0, or d too small to move t) holds them at the instant t only: it
// takes the shortest segment that floating point allows, [t, next float
// after t), so that no later job may overlap the instant, yet a job ending
// at t or starting after it is unaffected.
func (p *profile) reserve(t, d float64, k int) {
	p.addRange(t, resEnd(t, d), int32(-k))
}

// resEnd is the end of a reservation of length d at t.
func resEnd(t, d float64) float64 {
	if e := t + d; e > t {
		return e // > t: at least the next float after t
	}
	return math.Nextafter(t, math.Inf(1))
}

// advance drops the past: the profile starts at now (≥ its start).
func (p *profile) advance(now float64) {
	i := p.index(now)
	for _, f := range p.f[:i] {
		if f < 0 {
			p.neg--
		}
	}
	p.t = slices.Delete(p.t, 0, i)
	p.f = slices.Delete(p.f, 0, i)
	p.t[0] = now
}

// nonNegative reports whether no segment has fewer than 0 free (a held
// reservation can leave fewer only when a running job outran its
// estimate).
func (p *profile) nonNegative() bool { return p.neg == 0 }

// holds reports whether k processors are free throughout [t, end) (t <
// end, t at or after the first breakpoint).
func (p *profile) holds(t, end float64, k int) bool {
	k32 := int32(k)
	i := p.index(t)
	if p.f[i] < k32 {
		return false
	}
	for i++; i < len(p.t) && p.t[i] < end; i++ {
		if p.f[i] < k32 {
			return false
		}
	}
	return true
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
// The breakpoints in [from, limit) are scanned in time order, skipping
// those with fewer than k free, then following each run of breakpoints
// with k free from its start until it is long enough or broken.
func (p *profile) earliestBefore(k int, d float64, from, limit float64) (float64, bool) {
	return p.earliestStarting(k, d, from, limit, limit)
}

// earliestStarting is earliestBefore among the breakpoints before by
// only (by ≤ limit).
func (p *profile) earliestStarting(k int, d float64, from, by, limit float64) (float64, bool) {
	k32 := int32(k)
	ts := p.t
	fs := p.f[:len(ts)]
	i := 0
	if from > ts[0] {
		i = search(ts, from)
	}
	n := len(ts)
	for {
		for i < n && fs[i] < k32 {
			i++
		}
		if i == n || ts[i] >= by {
			return limit, false
		}
		// A run of k free starts at ts[i]: it is long enough when it
		// reaches start+d, limit, or the last segment, which lasts
		// forever.
		start := ts[i]
		end := start + d
		j := i + 1
		for j < n && fs[j] >= k32 && ts[j] < end {
			j++
		}
		if j == n || ts[j] >= end || ts[j] >= limit {
			return start, true
		}
		i = j + 1 // fewer than k free at ts[j], before start+d
	}
}

// earliestWithout is earliestStarting(k, d, from, by, +Inf) in the
// profile without a reservation of k processors over [xa, xb) that it
// holds, xa ≥ by: the breakpoints in [xa, xb) count k more free (the
// same step function as after giving it up, and the same breakpoints
// before xa, where the slots start).
func (p *profile) earliestWithout(k int, d float64, from, by, xa, xb float64) (float64, bool) {
	k32 := int32(k)
	ts, fs := p.t, p.f
	i := 0
	if from > ts[0] {
		i = search(ts, from)
	}
	n := len(ts)
	for {
		for i < n && fs[i] < k32 {
			i++
		}
		if i == n || ts[i] >= by {
			return math.Inf(1), false
		}
		start := ts[i]
		end := start + d
		j := i + 1
		for ; j < n && ts[j] < end; j++ {
			f := fs[j]
			if ts[j] >= xa && ts[j] < xb {
				f += k32
			}
			if f < k32 {
				break
			}
		}
		if j == n || ts[j] >= end {
			return start, true
		}
		i = j + 1
	}
}

// search returns the index of the first of the times ts at or after t
// (a binary search without unpredictable branches).
func search(ts []float64, t float64) int {
	n := len(ts)
	if n == 0 {
		return 0
	}
	base := 0
	for n > 1 {
		half := n >> 1
		if ts[base+half-1] < t {
			base += half
		}
		n -= half
	}
	if ts[base] < t {
		base++
	}
	return base
}

// sameSteps reports whether p and q are the same step function (their
// breakpoints may differ where the free count does not change).
func sameSteps(p, q *profile) bool {
	return slices.Equal(p.collapsed(), q.collapsed())
}

// collapsed lists p's breakpoints where the free count changes (and the
// first), with the free count from each on.
func (p *profile) collapsed() [][2]float64 {
	var out [][2]float64
	for i, t := range p.t {
		if i == 0 || p.f[i] != p.f[i-1] {
			out = append(out, [2]float64{t, float64(p.f[i])})
		}
	}
	return out
}
