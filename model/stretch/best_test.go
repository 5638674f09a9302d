package stretch_test

import (
	"math/bits"
	"testing"

	_ "github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/stretch"
)

// bruteBest is the least hop-bytes of a k-node subset of n nodes, for
// every k, over all 2^n subsets: hb(S) = hb(S∖{v}) + 2·Σ_{u∈S∖{v}} d(v, u),
// v the lowest node of S.
func bruteBest(n int, hops func(a, b int) int) []int64 {
	hb := make([]int64, 1<<n)
	best := make([]int64, n+1)
	for k := range best {
		best[k] = -1
	}
	best[0] = 0
	for s := 1; s < 1<<n; s++ {
		v := bits.TrailingZeros(uint(s))
		rest := s &^ (1 << v)
		var d int64
		for r := rest; r != 0; r &= r - 1 {
			d += int64(hops(v, bits.TrailingZeros(uint(r))))
		}
		hb[s] = hb[rest] + 2*d
		k := bits.OnesCount(uint(s))
		if best[k] < 0 || hb[s] < best[k] {
			best[k] = hb[s]
		}
	}
	return best
}

// TestBestBruteForce checks the greedy best placement's hop-bytes against
// the minimum over every placement of k nodes, on small machines of
// every family with a stretch.
func TestBestBruteForce(t *testing.T) {
	for _, spec := range []string{
		"torus:4x4", "torus:3x3x2", "torus:2x2x4", "torus:5x3", "mesh3d:3x3x2", "mesh3d:4x4x1", "mesh3d:2x2x4",
		"mesh:4x4", "mesh:5x3", "cube:4",
		"fattree:2x2x2", "fattree:3x2x3", "fattree:4x4",
		"dragonfly:g=3,a=2,p=2,h=1", "dragonfly:g=5,a=2,p=2,h=2", "dragonfly:g=3,a=3,p=2,h=1", "dragonfly:g=4,a=2,p=1,h=2",
	} {
		t.Run(spec, func(t *testing.T) {
			m, err := policy.ParseMachine(spec)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := policy.FamilyOf(m.Kind)
			hops := f.Hops(m)
			want := bruteBest(m.Procs, hops)
			got := stretch.Best(m.Procs, m.Procs, hops)
			for k := range want {
				if got[k] != float64(want[k]) {
					t.Errorf("k=%d: greedy %g, brute force %d", k, got[k], want[k])
				}
			}
		})
	}
}

// BenchmarkBest16Cubed is the best hop-bytes of every size on a
// 16×16×16 torus (the shrinking beam included).
func BenchmarkBest16Cubed(b *testing.B) {
	m, _ := policy.ParseMachine("torus:16x16x16")
	f, _ := policy.FamilyOf(m.Kind)
	for i := 0; i < b.N; i++ {
		stretch.Best(m.Procs, m.Procs, f.Hops(m))
	}
}

// BenchmarkBest16CubedSmall is the same up to jobs of 256 nodes.
func BenchmarkBest16CubedSmall(b *testing.B) {
	m, _ := policy.ParseMachine("torus:16x16x16")
	f, _ := policy.FamilyOf(m.Kind)
	for i := 0; i < b.N; i++ {
		stretch.Best(m.Procs, 256, f.Hops(m))
	}
}
