package sched

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// TestWaitList checks the indexed waiting list against a plain slice under
// random pushes, removals and queries.
func TestWaitList(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var w waitList
	var ref []*policy.Job // live jobs in order
	pos := map[*policy.Job]int{}
	for step := 0; step < 20000; step++ {
		switch {
		case r.IntN(3) > 0 || len(ref) == 0:
			j := &policy.Job{ID: int64(step), Procs: 1 + r.IntN(64)}
			w.push(j)
			ref = append(ref, j)
		default:
			k := r.IntN(len(ref))
			w.remove(pos[ref[k]])
			ref = append(ref[:k], ref[k+1:]...)
		}
		// Positions move on compaction: re-index.
		clear(pos)
		for i, j := range w.jobs {
			if j != nil {
				pos[j] = i
			}
		}
		if w.len() != len(ref) || len(pos) != len(ref) {
			t.Fatalf("step %d: %d live, want %d", step, w.len(), len(ref))
		}
		if len(ref) > 0 && w.front() != ref[0] {
			t.Fatalf("step %d: front %d, want %d", step, w.front().ID, ref[0].ID)
		}
		// first(from, x) from a random live job, for a random x.
		x := 1 + r.IntN(64)
		k := 0
		if len(ref) > 0 {
			k = r.IntN(len(ref))
		}
		from := 0
		if len(ref) > 0 {
			from = pos[ref[k]]
		}
		want := -1
		for _, j := range ref[min(k, len(ref)):] {
			if j.Procs <= x {
				want = pos[j]
				break
			}
		}
		if got := w.first(from, x); got != want {
			t.Fatalf("step %d: first(%d, %d) = %d, want %d", step, from, x, got, want)
		}
	}
}
