package torus

import (
	"math/rand/v2"

	"github.com/schedlab/schedlab/model/policy"
)

// Random is the random allocation baseline (Lo, Windisch, Liu & Nitzberg,
// "A comparison of non-contiguous processor allocation strategies", 1997;
// SST's RandomAllocator): a job of k nodes takes k free nodes chosen
// uniformly at random, and is placed whenever k nodes are free. The
// choice depends only on the seed, the job's trace record (Job.Record) and
// the busy array (a PCG stream seeded by both), so that a run does not
// depend on the runs around it.
type Random struct {
	Seed uint64
	free []int
}

func (r *Random) clone() strategy { return &Random{Seed: r.Seed} }

func (r *Random) place(s *State, j *policy.Job, k int, dst []policy.Piece) ([]policy.Piece, bool) {
	if k > s.free {
		return dst, false
	}
	free := s.AppendFree(r.free[:0])
	r.free = free
	rng := rand.New(rand.NewPCG(r.Seed, uint64(j.Record)))
	for i := 0; i < k; i++ { // partial Fisher–Yates
		x := i + rng.IntN(len(free)-i)
		free[i], free[x] = free[x], free[i]
	}
	return s.G.runs(free[:k], dst), true
}
