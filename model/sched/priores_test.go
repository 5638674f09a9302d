package sched

import (
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// prioResChecker wraps PrioRes and checks its reservation accounting after
// every Schedule call.
type prioResChecker struct {
	*PrioRes
	t     *testing.T
	calls int
}

func (c *prioResChecker) Schedule(sys policy.System) {
	c.PrioRes.Schedule(sys)
	c.calls++
	s, t := c.PrioRes, c.t
	held := 0
	claims := map[*policy.Job]int{}
	for _, r := range s.res {
		sum := r.held
		for _, cl := range r.claims {
			if cl.n <= 0 || cl.r.Alloc == nil {
				t.Fatalf("t=%g: job %d: bad claim of %d on job %d", sys.Now(), r.j.ID, cl.n, cl.r.ID)
			}
			sum += cl.n
			claims[cl.r] += cl.n
		}
		if sum != r.j.Procs {
			t.Fatalf("t=%g: job %d reserves %d processors, wants %d", sys.Now(), r.j.ID, sum, r.j.Procs)
		}
		// With the count allocator a reservation whose processors are all
		// held is started at once (or was never needed).
		if len(r.claims) == 0 {
			t.Fatalf("t=%g: job %d holds all its %d processors but waits", sys.Now(), r.j.ID, r.held)
		}
		held += r.held
	}
	live := 0
	for _, j := range s.waiting.jobs {
		if j != nil {
			live++
		}
	}
	if live != s.waiting.len() || live > 0 && s.waiting.front() == nil {
		t.Fatalf("t=%g: waiting list counts %d jobs, holds %d", sys.Now(), s.waiting.len(), live)
	}
	if held != s.held || held > sys.Capacity().Free() {
		t.Fatalf("t=%g: held %d (sum %d), free %d", sys.Now(), s.held, held, sys.Capacity().Free())
	}
	if len(claims) != len(s.claimed) {
		t.Fatalf("t=%g: %d claimed jobs, %d in the index", sys.Now(), len(claims), len(s.claimed))
	}
	// Nothing that could start waits, unless a prioritized head blocks it
	// (the head itself never fits).
	unres := sys.Capacity().Free() - s.held
	if s.waiting.len() > 0 {
		h := s.waiting.front()
		blocked := s.prioritized(h)
		for i := s.waiting.head; i < len(s.waiting.jobs); i++ {
			if j := s.waiting.jobs[i]; j != nil && j.Procs <= unres && (j == h || !blocked) {
				t.Fatalf("t=%g: waiting job %d (%d procs) fits in %d unreserved free processors (head %d, prioritized %v)",
					sys.Now(), j.ID, j.Procs, unres, h.ID, blocked)
			}
		}
	}
	for r, n := range claims {
		if s.claimed[r] != n || n > r.Alloc.Procs() {
			t.Fatalf("t=%g: job %d: claimed %d (index %d) of %d", sys.Now(), r.ID, n, s.claimed[r], r.Alloc.Procs())
		}
	}
}

// TestPrioResAccounting replays random workloads with reservations and
// checks the reservation bookkeeping and the no-idle-fit rule after every
// scheduling pass.
func TestPrioResAccounting(t *testing.T) {
	for _, maxPri := range []float64{0, 3, 1e9} {
		for _, v := range []struct{ integer, reserve bool }{{false, true}, {true, true}, {false, false}, {true, false}} {
			integer := v.integer
			jobs := randomJobs(11, 3000, 64, 0.95, integer)
			m := policy.Machine{Kind: policy.Flat, Procs: 64}
			c := &prioResChecker{PrioRes: NewPrioRes(maxPri, v.reserve), t: t}
			if _, err := engine.Run(jobs, m, flat.NewCount(64), c, engine.Options{Check: true}); err != nil {
				t.Fatal(err)
			}
			if len(c.res) != 0 || c.held != 0 || len(c.claimed) != 0 {
				t.Errorf("max_pri=%g: left %d reservations, %d held, %d claimed", maxPri, len(c.res), c.held, len(c.claimed))
			}
		}
	}
}
