package metrics

import (
	"math"
	"math/bits"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
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

func TestNodeRangesAndFreeBlocks(t *testing.T) {
	flat16, _ := policy.ParseMachine("flat:16")
	// Pieces in any order; touching ones merge: 0-7 is one block.
	ps := []schema.Piece{schema.Piece(policy.Range(12, 2)), schema.Piece(policy.Range(4, 4)), schema.Piece(policy.Range(0, 4)), schema.Piece(policy.Range(10, 1))}
	rs, err := NodeRanges(flat16, ps)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Range{{0, 7}, {10, 10}, {12, 13}}; !slices.Equal(rs, want) || rs[2].Size() != 2 {
		t.Fatalf("got %v, want %v", rs, want)
	}
	if d := Dispersion(rs); d != 3 {
		t.Errorf("dispersion %d", d)
	}
	if got := FreeBlocks(16, rs); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 2 {
		t.Errorf("free blocks %v", got) // 8-9, 11, 14-15
	}
	if rs, err := NodeRanges(flat16, nil); err != nil || rs != nil {
		t.Error("empty placement")
	}
	// A 2×2 submesh at (1, 1) of a 4×4 mesh: nodes 5-6 and 9-10.
	mesh, _ := policy.ParseMachine("mesh:4x4")
	if rs, err := NodeRanges(mesh, []schema.Piece{schema.Piece(policy.Rect(1, 1, 2, 2))}); err != nil || !slices.Equal(rs, []Range{{5, 6}, {9, 10}}) {
		t.Errorf("mesh: %v %v", rs, err)
	}
	// Subcubes {0b1000 | s} and {0b0100 | s}, s ⊆ 0b0011, of a 4-cube: 4-11.
	cube, _ := policy.ParseMachine("cube:4")
	if rs, err := NodeRanges(cube, []schema.Piece{schema.Piece(policy.Subcube(0b1000, 0b0011)), schema.Piece(policy.Subcube(0b0100, 0b0011))}); err != nil || !slices.Equal(rs, []Range{{4, 11}}) {
		t.Errorf("cube: %v %v", rs, err)
	}
	// Subcube {0, 2, 8, 10} (mask 0b1010): four blocks.
	if rs, err := NodeRanges(cube, []schema.Piece{schema.Piece(policy.Subcube(0, 0b1010))}); err != nil || Dispersion(rs) != 4 {
		t.Errorf("scattered subcube: %v %v", rs, err)
	}
	for _, bad := range []struct {
		m string
		p schema.Piece
	}{
		{"flat:16", schema.Piece(policy.Range(10, 7))},
		{"flat:16", schema.Piece(policy.Range(-1, 2))},
		{"flat:16", schema.Piece{X: 1, W: 0, H: 1}},
		{"mesh:4x4", schema.Piece(policy.Rect(3, 0, 2, 1))},
		{"cube:4", schema.Piece{X: 1, W: 2, H: 1, Mask: 1}},
		{"cube:4", schema.Piece(policy.Subcube(0, 0b10000))},
	} {
		m, _ := policy.ParseMachine(bad.m)
		if _, err := NodeRanges(m, []schema.Piece{bad.p}); err == nil {
			t.Errorf("%s: piece %+v accepted", bad.m, bad.p)
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
// by brute force; PlacementDispersion picks the machine's distance, and a
// flat machine has none.
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
	if got := PlacementDispersion(policy.Cube, ps[:1]); got != 4.0/3 {
		t.Errorf("a 2-cube: %g, want 4/3 (4 pairs at 1 hop, 2 at 2)", got)
	}
	if got := PlacementDispersion(policy.Mesh, []policy.Piece{policy.Rect(0, 0, 2, 1)}); got != 1 {
		t.Errorf("mesh: %g", got)
	}
	if got := PlacementDispersion(policy.Flat, []policy.Piece{{X: 0, W: 4, H: 1}, {X: 9, W: 2, H: 1}}); !math.IsNaN(got) {
		t.Errorf("flat: %g, want NaN", got)
	}
	if !math.IsNaN(CubeDispersion([]policy.Piece{policy.Subcube(5, 0)})) {
		t.Error("one node: want NaN")
	}
}
