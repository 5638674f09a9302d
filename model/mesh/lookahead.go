package mesh

import (
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// Lookahead is Bhattacharya & Tsai's lookahead allocation ("Lookahead
// Processor Allocation in Mesh-Connected Massively Parallel
// Multicomputer", 1994, as described by Chu 1995 §2.4.7): the job goes
// to the base (lower-left corner) of one of its free regions
// (FreeRegions). No rotation.
//
//   - BFL(0) (K 0): the region of smallest area.
//   - BFL(1) (K 1): the regions from the smallest area to the largest;
//     the first where the job leaves room for the largest waiting job
//     (the most processors; ties, the earlier arrival) is taken, else
//     the smallest.
//   - WFL(1) (K 1, Worst): the same from the largest area to the
//     smallest, else the largest.
//
// A region's area is its number of bases (the rectangle FreeRegions
// returns), not the nodes the submeshes based in it cover. Regions of
// equal area are taken lowest base first (smallest y, then smallest x).
// "Leaves room" means that, with the job placed, a free submesh of the
// waiting job's request (Request: its own shape, else the square rule)
// exists in its requested orientation, since no lookahead strategy
// rotates. Without a waiting job, or when the waiting job fits nowhere
// even before the placement, BFL(1) takes the smallest region and WFL(1)
// the largest.
//
// The waiting jobs come from the run's context (policy.RunContext.Largest,
// through the allocator's SetContext); with no context set, K 1 behaves as
// K 0.
type Lookahead struct {
	K     int  // jobs looked ahead: 0 or 1
	Worst bool // from the largest region (WFL)

	waiting policy.RunContext
	regs    []Rect // the job's free regions
	wregs   []Rect // the waiting job's
	jobs    []*policy.Job
}

// NewLookahead returns BFL(k), or WFL(k) when worst, for k 0 or 1. For
// k 0 the strategy never asks for the waiting jobs, so the engine does
// not keep them.
func NewLookahead(k int, worst bool) Strategy {
	return &Lookahead{K: k, Worst: worst}
}

// SetContext gives the strategy the run's view of the waiting jobs.
func (l *Lookahead) SetContext(c policy.RunContext) { l.waiting = c }

// Clone returns a copy with its own buffers and the same view (Cloner).
func (l *Lookahead) Clone() Strategy { return &Lookahead{K: l.K, Worst: l.Worst, waiting: l.waiting} }

// Find returns the base of the chosen free region.
func (l *Lookahead) Find(s *State, j *policy.Job, w, h int) (Rect, bool) {
	l.regs = FreeRegions(s, w, h, l.regs)
	regs := l.regs
	if len(regs) == 0 {
		return Rect{}, false
	}
	at := func(r Rect) Rect { return Rect{r.X, r.Y, w, h} }
	if l.K == 0 || l.waiting == nil {
		best := regs[0]
		for _, r := range regs[1:] {
			if l.before(r, best) {
				best = r
			}
		}
		return at(best), true
	}
	slices.SortFunc(regs, func(a, b Rect) int {
		switch {
		case l.before(a, b):
			return -1
		case l.before(b, a):
			return 1
		}
		return 0
	})
	l.jobs = l.waiting.Largest(1, j, l.jobs[:0])
	if len(l.jobs) == 0 {
		return at(regs[0]), true
	}
	ww, wh, ok := Request(l.jobs[0], s.W, s.H)
	if !ok || ww > s.W || wh > s.H {
		return at(regs[0]), true
	}
	// The waiting job's free bases now (its free regions); the job
	// placed at r leaves one unless all of them lie in r's coverage
	// submesh for the waiting job.
	l.wregs = FreeRegions(s, ww, wh, l.wregs)
	total := 0
	for _, g := range l.wregs {
		total += g.Size()
	}
	if total == 0 {
		return at(regs[0]), true
	}
	for _, reg := range regs {
		c := coverage(at(reg), ww, wh)
		in := 0
		for _, g := range l.wregs {
			in += overlap(g, c)
		}
		if in < total {
			return at(reg), true
		}
	}
	return at(regs[0]), true
}

// before reports whether region a is tried before b: smaller (or, Worst,
// larger) area, then lower base.
func (l *Lookahead) before(a, b Rect) bool {
	if sa, sb := a.Size(), b.Size(); sa != sb {
		return sa < sb != l.Worst
	}
	if a.Y != b.Y {
		return a.Y < b.Y
	}
	return a.X < b.X
}
