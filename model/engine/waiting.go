package engine

import (
	"sort"

	"github.com/schedlab/schedlab/model/policy"
)

// waitingSet holds the positions of the waiting jobs, ordered by
// processors requested (decreasing), then arrival: kept from the first
// policy.RunContext.Largest call on (sim.Largest).
type waitingSet struct {
	jobs []policy.Job
	pos  []int32 // sorted: more processors first, then lower position
}

func (w *waitingSet) less(a, b int32) bool {
	pa, pb := w.jobs[a].Procs, w.jobs[b].Procs
	if pa != pb {
		return pa > pb
	}
	return a < b
}

func (w *waitingSet) add(i int32) {
	k := sort.Search(len(w.pos), func(k int) bool { return w.less(i, w.pos[k]) })
	w.pos = append(w.pos, 0)
	copy(w.pos[k+1:], w.pos[k:])
	w.pos[k] = i
}

func (w *waitingSet) remove(i int32) {
	k := sort.Search(len(w.pos), func(k int) bool { return !w.less(w.pos[k], i) })
	if k < len(w.pos) && w.pos[k] == i {
		w.pos = append(w.pos[:k], w.pos[k+1:]...)
	}
}

// Largest appends the k largest waiting jobs other than skip.
func (w *waitingSet) Largest(k int, skip *policy.Job, dst []*policy.Job) []*policy.Job {
	for _, i := range w.pos {
		if k <= 0 {
			break
		}
		j := &w.jobs[i]
		if j == skip {
			continue
		}
		dst = append(dst, j)
		k--
	}
	return dst
}
