package flat

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// churn allocates n jobs of LANL-like sizes (log-uniform or powers of two
// up to 1024) on al, releasing random held allocations whenever one does
// not fit.
func churn(n int, al policy.Allocator) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := make([]int, 4096)
	for i := range sizes {
		s := int(math.Exp(r.Float64() * math.Log(1024)))
		if r.IntN(2) == 0 {
			s = 1 << r.IntN(11)
		}
		sizes[i] = max(1, s)
	}
	var held []policy.Allocation
	jb := &policy.Job{}
	for i := 0; i < n; i++ {
		jb.Procs = sizes[i&4095]
		for {
			if a, ok := al.Allocate(jb); ok {
				held = append(held, a)
				break
			}
			k := r.IntN(len(held))
			al.Release(held[k])
			held[k] = held[len(held)-1]
			held = held[:len(held)-1]
		}
	}
}

// BenchmarkCount is one allocation and one release on flat:1024.
func BenchmarkCount(b *testing.B) { churn(b.N, NewCount(1024)) }

// BenchmarkContig is one allocation (or refusal) and one release on flat:1024.
func BenchmarkContig(b *testing.B) { churn(b.N, NewContig(1024)) }
