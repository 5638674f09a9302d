package flat_test

import (
	"testing"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/internal/benchload"
	"github.com/schedlab/schedlab/model/policy"
)

// stack is the count allocator as it was first written: a stack of free
// processor numbers, O(k) per allocation, the most recently freed first.
type stack struct {
	free []int
	size int
}

type list []int

func (l list) Procs() int { return len(l) }
func (l list) Placement(dst []policy.Piece) []policy.Piece {
	for _, q := range l {
		dst = append(dst, policy.Range(q, 1))
	}
	return dst
}

func (s *stack) Allocate(j *policy.Job) (policy.Allocation, bool) {
	if j.Procs <= 0 || j.Procs > len(s.free) {
		return nil, false
	}
	n := len(s.free) - j.Procs
	a := append(list(nil), s.free[n:]...)
	s.free = s.free[:n]
	return a, true
}
func (s *stack) Release(a policy.Allocation) { s.free = append(s.free, a.(list)...) }
func (s *stack) Free() int                   { return len(s.free) }
func (s *stack) Size() int                   { return s.size }
func (s *stack) Feasible(*policy.Job) error  { return nil }
func (s *stack) Clone() policy.Allocator {
	return &stack{free: append([]int(nil), s.free...), size: s.size}
}

// The count allocator is a counter: which processors it hands out never
// changes a schedule. Every scheduler gives the same starts with it as
// with the original free-processor stack.
func TestCountSchedulesAsStack(t *testing.T) {
	src := benchload.LANLLike(3000, 0.9, 5)
	m := policy.Machine{Kind: policy.Flat, Procs: 1024}
	for _, spec := range catalog.Schedulers() {
		if !policy.Supports(spec.Kinds, policy.Flat) || spec.Named {
			continue
		}
		t.Run(spec.Name, func(t *testing.T) {
			var starts [2][]float64
			for k, a := range []policy.Allocator{flat.NewCount(m.Procs), &stack{free: reversed(m.Procs), size: m.Procs}} {
				s, err := spec.New(m, policy.Params{})
				if err != nil {
					t.Fatal(err)
				}
				jobs := append([]policy.Job(nil), src...)
				res, err := engine.Run(jobs, m, a, s, engine.Options{Check: k == 0})
				if err != nil {
					t.Fatal(err)
				}
				for _, j := range res.Jobs {
					starts[k] = append(starts[k], j.Start)
				}
			}
			for i := range starts[0] {
				if starts[0][i] != starts[1][i] {
					t.Fatalf("job %d starts at %g with count, %g with the stack", src[i].ID, starts[0][i], starts[1][i])
				}
			}
		})
	}
}

func reversed(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = n - 1 - i
	}
	return s
}
