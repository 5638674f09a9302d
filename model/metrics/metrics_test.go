package metrics

import (
	"math"
	"math/bits"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

func TestBoundedSlowdown(t *testing.T) {
	cases := []struct{ resp, run, tau, want float64 }{
		{100, 50, 10, 2},  // ordinary: resp/run
		{5, 1, 10, 1},     // short job: bounded by tau, then by 1
		{30, 1, 10, 3},    // short job that waited: resp/tau
		{0, 0, 10, 1},     // zero-length job
		{100, 100, 10, 1}, // no wait
		{120, 0.5, 60, 2}, // Batsim's τ = 60
	}
	for _, c := range cases {
		if got := BoundedSlowdown(c.resp, c.run, c.tau); got != c.want {
			t.Errorf("BoundedSlowdown(%v,%v,%v) = %v, want %v", c.resp, c.run, c.tau, got, c.want)
		}
	}
	for _, c := range []struct{ resp, run, want float64 }{
		{10, 0, 10}, {0.5, 0, 1}, {0, 0, 1}, {30, 10, 3}, {1, 0.5, 2},
	} {
		if got := Slowdown(c.resp, c.run); got != c.want {
			t.Errorf("Slowdown(%v, %v) = %v, want %v", c.resp, c.run, got, c.want)
		}
	}
}

func TestPowerAndGuha(t *testing.T) {
	if Power(2, 4) != 0.5 || !math.IsInf(Power(1, 0), 1) {
		t.Error("power")
	}
	if PctImprovement(80, 100) != 20 || Normalised(80, 100) != 0.8 {
		t.Error("Guha")
	}
}

func TestFragmentation(t *testing.T) {
	cases := []struct {
		free []int64
		want float64
	}{
		{nil, 0},
		{[]int64{10}, 0},
		{[]int64{5, 5}, 0.5},
		{[]int64{1, 1, 1, 1}, 0.75},
		{[]int64{3, 1}, 1 - 10.0/16},
	}
	for _, c := range cases {
		if got := Fragmentation(c.free); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Fragmentation(%v) = %v, want %v", c.free, got, c.want)
		}
	}
}

func TestTimeAverage(t *testing.T) {
	// 0 on [0,2), 4 on [2,3), 1 from 3 on: over [0,5] → (0*2 + 4*1 + 1*2)/5.
	got := TimeAverage([]float64{0, 2, 3}, []float64{0, 4, 1}, 0, 5)
	if math.Abs(got-6.0/5) > 1e-12 {
		t.Errorf("TimeAverage = %v", got)
	}
	// Window inside: [2.5, 3.5] → (4*0.5 + 1*0.5)/1.
	if got := TimeAverage([]float64{0, 2, 3}, []float64{0, 4, 1}, 2.5, 3.5); math.Abs(got-2.5) > 1e-12 {
		t.Errorf("window = %v", got)
	}
}

func TestTimeAveragedFragmentation(t *testing.T) {
	// 8 processors. [0,2): job A on 2-3 → free 0-1, 4-7: 1 − (4+16)/36.
	// [2,4): A and B (6-7) → free 0-1, 4-5: 1 − 8/16 = 0.5.
	// B ends at 4 and nothing else runs: the horizon is [0, 4].
	a := Interval{Start: 0, End: 4, Nodes: []Range{{2, 3}}}
	b := Interval{Start: 2, End: 4, Nodes: []Range{{6, 7}}}
	got := TimeAveragedFragmentation(8, []Interval{a, b})
	want := (2*(1-20.0/36) + 2*0.5) / 4
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("got %v, want %v", got, want)
	}
	// A contiguous packing from processor 0 never fragments.
	c := Interval{Start: 0, End: 5, Nodes: []Range{{0, 3}}}
	if f := TimeAveragedFragmentation(8, []Interval{c}); f != 0 {
		t.Errorf("contiguous: %v", f)
	}
}

// MeshDispersion from pieces equals the pairwise mean by brute force.
func TestMeshDispersion(t *testing.T) {
	ps := []policy.Piece{policy.Rect(0, 0, 3, 2), policy.Rect(5, 4, 1, 3), policy.Rect(9, 0, 2, 1)}
	var nodes [][2]int
	for _, p := range ps {
		for y := p.Y; y < p.Y+p.H; y++ {
			for x := p.X; x < p.X+p.W; x++ {
				nodes = append(nodes, [2]int{int(x), int(y)})
			}
		}
	}
	var sum, pairs float64
	for a := range nodes {
		for b := a + 1; b < len(nodes); b++ {
			dx, dy := nodes[a][0]-nodes[b][0], nodes[a][1]-nodes[b][1]
			sum += math.Abs(float64(dx)) + math.Abs(float64(dy))
			pairs++
		}
	}
	if got := MeshDispersion(ps); math.Abs(got-sum/pairs) > 1e-12 {
		t.Errorf("MeshDispersion %g, brute force %g", got, sum/pairs)
	}
	if got := MeshDispersion(ps[2:]); got != 1 {
		t.Errorf("two neighbours: %g", got)
	}
	if !math.IsNaN(MeshDispersion([]policy.Piece{policy.Rect(3, 3, 1, 1)})) {
		t.Error("one node: want NaN")
	}
}

// CubeDispersion from subcubes equals the pairwise mean Hamming distance
// by brute force.
func TestCubeDispersion(t *testing.T) {
	ps := []policy.Piece{policy.Subcube(0, 0b0011), policy.Subcube(0b1000, 0), policy.Subcube(0b10100, 0b1000000)}
	var nodes []int
	for _, p := range ps {
		for s := 0; s < 1<<7; s++ {
			if s&^int(p.Mask) == 0 {
				nodes = append(nodes, int(p.X)|s)
			}
		}
	}
	if len(nodes) != 7 {
		t.Fatalf("%d nodes, want 7", len(nodes))
	}
	var sum, pairs float64
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			sum += float64(bits.OnesCount(uint(nodes[i] ^ nodes[j])))
			pairs++
		}
	}
	if got := CubeDispersion(ps); math.Abs(got-sum/pairs) > 1e-12 {
		t.Errorf("CubeDispersion %g, brute force %g", got, sum/pairs)
	}
	if got := CubeDispersion(ps[:1]); got != 4.0/3 {
		t.Errorf("a 2-cube: %g, want 4/3 (4 pairs at 1 hop, 2 at 2)", got)
	}
	if !math.IsNaN(CubeDispersion([]policy.Piece{policy.Subcube(5, 0)})) {
		t.Error("one node: want NaN")
	}
}
