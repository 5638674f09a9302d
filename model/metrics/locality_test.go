package metrics

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// bruteLocality measures the node set by pairs: dist, and the plane of a
// node for the span.
func bruteLocality(nodes [][2]int, dist func(a, b [2]int) int) (mean float64, mx int, hb float64) {
	var sum int
	for i, a := range nodes {
		for _, b := range nodes[i+1:] {
			d := dist(a, b)
			sum += d
			mx = max(mx, d)
		}
	}
	n := len(nodes)
	mean = math.NaN()
	if n >= 2 {
		mean = float64(sum) / float64(n*(n-1)/2)
	}
	return mean, mx, float64(2 * sum)
}

func TestMeshLocalityBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	for it := 0; it < 300; it++ {
		W, H := 1+r.IntN(9), 1+r.IntN(9)
		busy := make([]bool, W*H)
		var ps []policy.Piece
		var nodes [][2]int
		for k := 1 + r.IntN(4); k > 0; k-- {
			w, h := 1+r.IntN(W), 1+r.IntN(H)
			x, y := r.IntN(W-w+1), r.IntN(H-h+1)
			ok := true
			for yy := y; yy < y+h; yy++ {
				for xx := x; xx < x+w; xx++ {
					ok = ok && !busy[yy*W+xx]
				}
			}
			if !ok {
				continue
			}
			for yy := y; yy < y+h; yy++ {
				for xx := x; xx < x+w; xx++ {
					busy[yy*W+xx] = true
					nodes = append(nodes, [2]int{xx, yy})
				}
			}
			ps = append(ps, policy.Rect(x, y, w, h))
		}
		rows := map[int]bool{}
		for _, n := range nodes {
			rows[n[1]] = true
		}
		mean, mx, hb := bruteLocality(nodes, func(a, b [2]int) int {
			return int(math.Abs(float64(a[0]-b[0])) + math.Abs(float64(a[1]-b[1])))
		})
		l := MeshLocality(ps)
		if l.HopBytes != hb || l.Span != len(rows) || (len(nodes) >= 2 && (l.MaxHops != mx || math.Abs(l.MeanHops-mean) > 1e-12)) {
			t.Fatalf("%v: %+v, want mean %g max %d hop-bytes %g span %d", ps, l, mean, mx, hb, len(rows))
		}
		if d := MeshDispersion(ps); !(math.IsNaN(d) && math.IsNaN(l.MeanHops)) && d != l.MeanHops {
			t.Fatalf("dispersion %g, locality mean %g", d, l.MeanHops)
		}
	}
}

func TestCubeLocalityBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	for it := 0; it < 300; it++ {
		n := 1 + r.IntN(6)
		busy := make([]bool, 1<<n)
		var ps []policy.Piece
		var nodes [][2]int
		for k := 1 + r.IntN(3); k > 0; k-- {
			mask := r.IntN(1 << n)
			p := policy.Subcube(r.IntN(1<<n), mask)
			var ns []int
			ns = p.AppendNodes(policy.Machine{Kind: policy.Cube, Dim: n, Procs: 1 << n}, ns)
			ok := true
			for _, x := range ns {
				ok = ok && !busy[x]
			}
			if !ok {
				continue
			}
			for _, x := range ns {
				busy[x] = true
				nodes = append(nodes, [2]int{x, 0})
			}
			ps = append(ps, p)
		}
		var vary int
		for _, a := range nodes {
			vary |= a[0] ^ nodes[0][0]
		}
		mean, mx, hb := bruteLocality(nodes, func(a, b [2]int) int { return bits.OnesCount(uint(a[0] ^ b[0])) })
		l := CubeLocality(ps)
		if l.HopBytes != hb || l.Span != bits.OnesCount(uint(vary)) || (len(nodes) >= 2 && (l.MaxHops != mx || math.Abs(l.MeanHops-mean) > 1e-12)) {
			t.Fatalf("%v: %+v, want mean %g max %d hop-bytes %g span %d", ps, l, mean, mx, hb, bits.OnesCount(uint(vary)))
		}
	}
}
