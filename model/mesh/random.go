package mesh

import (
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// Random is the random allocation baseline of Lo, Windisch, Liu &
// Nitzberg (1997): a request for p nodes takes p free nodes chosen
// uniformly at random, and succeeds whenever p nodes are free. The
// choice depends only on the seed, the job's trace record (Job.Record) and the busy
// array (a PCG stream seeded by both), so runs are identical whatever
// the order or parallelism of the runs around it. Nodes side by side in
// a row make one piece.
type Random struct{ Seed uint64 }

// FindPieces implements Multi.
func (r Random) FindPieces(s *State, j *policy.Job, w, h int, dst []Rect) ([]Rect, bool) {
	p := w * h
	if s.Grid.Free() < p {
		return dst, false
	}
	free := make([]int, 0, s.Grid.Free())
	for y := 0; y < s.H; y++ {
		for x := 0; x < s.W; x++ {
			if !s.Grid.At(x, y) {
				free = append(free, y*s.W+x)
			}
		}
	}
	rng := rand.New(rand.NewPCG(r.Seed, uint64(j.Record)))
	for i := 0; i < p; i++ { // partial Fisher–Yates
		k := i + rng.IntN(len(free)-i)
		free[i], free[k] = free[k], free[i]
	}
	chosen := free[:p]
	slices.Sort(chosen)
	start := len(dst)
	for _, n := range chosen {
		x, y := n%s.W, n/s.W
		if k := len(dst) - 1; k >= start && dst[k].Y == y && dst[k].X2()+1 == x {
			dst[k].W++
			continue
		}
		dst = append(dst, Rect{x, y, 1, 1})
	}
	return dst, true
}
