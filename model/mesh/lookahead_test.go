package mesh

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// fakeWaiting is a policy.RunContext at time 0 over a fixed list of
// waiting jobs.
type fakeWaiting []*policy.Job

func (f fakeWaiting) Now() float64 { return 0 }

// Largest appends the k jobs with the most processors (ties: earlier in
// the list) other than skip.
func (f fakeWaiting) Largest(k int, skip *policy.Job, dst []*policy.Job) []*policy.Job {
	jobs := slices.Clone([]*policy.Job(f))
	slices.SortStableFunc(jobs, func(a, b *policy.Job) int { return b.Procs - a.Procs })
	for _, j := range jobs {
		if k > 0 && j != skip {
			dst = append(dst, j)
			k--
		}
	}
	return dst
}

// fitsAnywhere reports whether some w×h submesh of g is free.
func fitsAnywhere(g *Grid, w, h int) bool {
	for y := 0; y+h <= g.H; y++ {
		for x := 0; x+w <= g.W; x++ {
			if g.IsFree(Rect{x, y, w, h}) {
				return true
			}
		}
	}
	return false
}

// bruteLookahead is the lookahead choice with the waiting job's room
// checked by placing the job on a copy of the grid and scanning it.
func bruteLookahead(s *State, k int, worst bool, wait *policy.Job, w, h int) (Rect, bool) {
	regs := FreeRegions(s, w, h, nil)
	if len(regs) == 0 {
		return Rect{}, false
	}
	slices.SortFunc(regs, func(a, b Rect) int {
		if a.Size() != b.Size() {
			if worst {
				return b.Size() - a.Size()
			}
			return a.Size() - b.Size()
		}
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
	first := Rect{regs[0].X, regs[0].Y, w, h}
	if k == 0 || wait == nil {
		return first, true
	}
	for _, g := range regs {
		r := Rect{g.X, g.Y, w, h}
		c := s.Grid.Clone()
		c.Set(r)
		if fitsAnywhere(c, int(wait.Width), int(wait.Height)) {
			return r, true
		}
	}
	return first, true
}

// BFL(0), BFL(1) and WFL(1) take the brute-force choice (the waiting
// job's room checked on a copy of the grid), find a submesh whenever one
// is free, and never rotate.
func TestLookaheadBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, c := range []struct {
		k     int
		worst bool
	}{{0, false}, {1, false}, {1, true}, {0, true}} {
		for _, dim := range [][2]int{{32, 32}, {12, 9}, {70, 5}, {4, 66}} {
			W, H := dim[0], dim[1]
			l := &Lookahead{K: c.k, Worst: c.worst}
			a := NewAllocator("lookahead", W, H, l, false)
			var wait fakeWaiting
			l.SetContext(&wait)
			churn(t, r, a, 800, func(w, h int) func(Rect, bool) {
				// Up to two waiting jobs, or none.
				wait = wait[:0]
				for n := r.IntN(3); n > 0; n-- {
					d := []int{1, 2, 4}[r.IntN(3)]
					ww, wh := 1+r.IntN(max(1, W/d)), 1+r.IntN(max(1, H/d))
					wait = append(wait, &policy.Job{Width: int32(ww), Height: int32(wh), Procs: ww * wh})
				}
				var largest *policy.Job
				if js := wait.Largest(1, nil, nil); len(js) > 0 {
					largest = js[0]
				}
				want, ok := bruteLookahead(a.st, c.k, c.worst, largest, w, h)
				if ok != fitsAnywhere(a.st.Grid, w, h) {
					t.Fatalf("regions and grid disagree on a %dx%d request", w, h)
				}
				return func(got Rect, gotOK bool) {
					if gotOK != ok || ok && got != want {
						t.Errorf("K %d worst %v, %dx%d mesh, %dx%d request, waiting %v: got %v %v, brute force %v %v", c.k, c.worst, W, H, w, h, largest, got, gotOK, want, ok)
					}
				}
			})
		}
	}
}

// A hand-built case: on a 6×3 mesh with nodes (0,0) and (5,0) busy, a 1×1
// request has the free regions <1,0,4,0> (area 4) and <0,1,5,2> (area 12).
// BFL(0) takes (1,0), which blocks the only place of a waiting 4×3 job;
// BFL(1) and WFL(1) take (0,1). A waiting job that fits nowhere leaves
// BFL(1) with the smallest region; the job being allocated is not its own
// waiting job.
func TestLookaheadExample(t *testing.T) {
	build := func(l *Lookahead) *Allocator {
		a := NewAllocator("lookahead", 6, 3, l, false)
		for _, r := range []Rect{{0, 0, 1, 1}, {5, 0, 1, 1}} {
			a.st.Grid.Set(r)
			a.st.List = append(a.st.List, &Busy{Rect: r})
		}
		return a
	}
	job := &policy.Job{Width: 1, Height: 1, Procs: 1}
	big := &policy.Job{Width: 4, Height: 3, Procs: 12}
	huge := &policy.Job{Width: 6, Height: 3, Procs: 18}
	for _, c := range []struct {
		name string
		l    *Lookahead
		wait fakeWaiting
		want Rect
	}{
		{"bfl0", &Lookahead{}, fakeWaiting{big}, Rect{1, 0, 1, 1}},
		{"bfl1", &Lookahead{K: 1}, fakeWaiting{big}, Rect{0, 1, 1, 1}},
		{"wfl1", &Lookahead{K: 1, Worst: true}, fakeWaiting{big}, Rect{0, 1, 1, 1}},
		{"wfl0", &Lookahead{Worst: true}, fakeWaiting{big}, Rect{0, 1, 1, 1}},
		{"bfl1, no view", &Lookahead{K: 1}, nil, Rect{1, 0, 1, 1}},
		{"bfl1, waiting job fits nowhere", &Lookahead{K: 1}, fakeWaiting{huge}, Rect{1, 0, 1, 1}},
		{"bfl1, itself waiting", &Lookahead{K: 1}, fakeWaiting{job}, Rect{1, 0, 1, 1}},
		{"bfl1, itself and big waiting", &Lookahead{K: 1}, fakeWaiting{job, big}, Rect{0, 1, 1, 1}},
	} {
		a := build(c.l)
		if c.wait != nil {
			c.l.SetContext(&c.wait)
		}
		al, ok := a.Allocate(job)
		if !ok || al.(*Alloc).Rect != c.want {
			t.Errorf("%s: %v %v, want %v", c.name, al, ok, c.want)
		}
		if cl := a.Clone().(*Allocator).strat.(*Lookahead); cl.K != c.l.K || cl.Worst != c.l.Worst || cl.waiting != c.l.waiting {
			t.Errorf("%s: clone %+v", c.name, cl)
		}
	}
}
