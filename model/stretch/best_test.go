package stretch_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	_ "github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/stretch"
	"github.com/schedlab/schedlab/model/torus"
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
			// Without the kept distances (rows of 16 nodes at most:
			// some kept, the others computed each time).
			old := stretch.SetRowCap(16 * 16)
			uncached := stretch.Best(m.Procs, m.Procs, hops)
			stretch.SetRowCap(old)
			for k := range want {
				if got[k] != float64(want[k]) || uncached[k] != got[k] {
					t.Errorf("k=%d: beam %g (%g without kept distances), brute force %d", k, got[k], uncached[k], want[k])
				}
			}
		})
	}
}

// BenchmarkBest is the best hop-bytes of every size up to 256 nodes and
// up to the whole machine (the shrinking beam included) on machines of
// 4,096 nodes.
func BenchmarkBest(b *testing.B) {
	for _, spec := range []string{"torus:16x16x16", "fattree:16x16x16", "dragonfly:g=32,a=16,p=8,h=2"} {
		m, err := policy.ParseMachine(spec)
		if err != nil {
			b.Fatal(err)
		}
		f, _ := policy.FamilyOf(m.Kind)
		for _, kmax := range []int{256, m.Procs} {
			b.Run(fmt.Sprintf("%s/k=%d", spec, kmax), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					stretch.Best(m.Procs, kmax, f.Hops(m))
				}
			})
		}
	}
}

// onePiece is node v as a one-node piece of a placement on m.
func onePiece(m policy.Machine, v int) policy.Piece {
	switch m.Kind {
	case "torus", "mesh3d":
		g := torus.GeomOf(m)
		x, y, z := g.XYZ(v)
		return g.Piece(torus.Cuboid{X0: x, Y0: y, Z0: z, A: 1, B: 1, C: 1})
	case "mesh":
		x, y := policy.XY(m.Width, v)
		return policy.Rect(x, y, 1, 1)
	}
	return policy.Range(v, 1)
}

// TestHopsAgreeWithLocality: the hop distance the best placement is
// grown from (Family.Hops) is the one the hop_bytes column sums
// (Family.Locality), on random placements; and no placement of the small
// machines beats Best.
func TestHopsAgreeWithLocality(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spec := range []string{
		"torus:6x5x4", "torus:5x3", "mesh3d:4x3x5", "mesh:7x5", "cube:6",
		"fattree:3x3x3", "fattree:4x4", "dragonfly:g=5,a=3,p=2,h=2", "dragonfly:g=3,a=2,p=2,h=1",
	} {
		m, err := policy.ParseMachine(spec)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := policy.FamilyOf(m.Kind)
		hops := f.Hops(m)
		best := stretch.Best(m.Procs, m.Procs, hops)
		for range 50 {
			k := 1 + rng.IntN(m.Procs)
			nodes := rng.Perm(m.Procs)[:k]
			var ps []policy.Piece
			var sum int64
			for _, a := range nodes {
				ps = append(ps, onePiece(m, a))
				for _, b := range nodes {
					sum += int64(hops(a, b))
				}
			}
			if hb := f.Locality(m, ps).HopBytes; hb != float64(sum) {
				t.Errorf("%s %v: Locality hop-bytes %g, Σ Hops %d", spec, nodes, hb, sum)
			}
			if float64(sum) < best[k] {
				t.Errorf("%s %v: hop-bytes %d below Best %g", spec, nodes, sum, best[k])
			}
		}
	}
}
