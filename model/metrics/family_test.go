package metrics_test

import (
	"math"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/cube"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/mesh"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// The node numbering and the dispersion of placements come from the
// machine families (policy.Family): they are tested here, with the
// families registered.

func TestNodeRangesAndFreeBlocks(t *testing.T) {
	flat16, _ := policy.ParseMachine("flat:16")
	// Pieces in any order; touching ones merge: 0-7 is one block.
	ps := []schema.Piece{schema.Piece(policy.Range(12, 2)), schema.Piece(policy.Range(4, 4)), schema.Piece(policy.Range(0, 4)), schema.Piece(policy.Range(10, 1))}
	rs, err := metrics.NodeRanges(flat16, ps)
	if err != nil {
		t.Fatal(err)
	}
	if want := []metrics.Range{{0, 7}, {10, 10}, {12, 13}}; !slices.Equal(rs, want) || rs[2].Size() != 2 {
		t.Fatalf("got %v, want %v", rs, want)
	}
	if d := metrics.Dispersion(rs); d != 3 {
		t.Errorf("dispersion %d", d)
	}
	if got := metrics.FreeBlocks(16, rs); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 2 {
		t.Errorf("free blocks %v", got) // 8-9, 11, 14-15
	}
	if rs, err := metrics.NodeRanges(flat16, nil); err != nil || rs != nil {
		t.Error("empty placement")
	}
	// A 2×2 submesh at (1, 1) of a 4×4 mesh: nodes 5-6 and 9-10.
	mesh, _ := policy.ParseMachine("mesh:4x4")
	if rs, err := metrics.NodeRanges(mesh, []schema.Piece{schema.Piece(policy.Rect(1, 1, 2, 2))}); err != nil || !slices.Equal(rs, []metrics.Range{{5, 6}, {9, 10}}) {
		t.Errorf("mesh: %v %v", rs, err)
	}
	// Subcubes {0b1000 | s} and {0b0100 | s}, s ⊆ 0b0011, of a 4-cube: 4-11.
	cube, _ := policy.ParseMachine("cube:4")
	if rs, err := metrics.NodeRanges(cube, []schema.Piece{schema.Piece(policy.Subcube(0b1000, 0b0011)), schema.Piece(policy.Subcube(0b0100, 0b0011))}); err != nil || !slices.Equal(rs, []metrics.Range{{4, 11}}) {
		t.Errorf("cube: %v %v", rs, err)
	}
	// Subcube {0, 2, 8, 10} (mask 0b1010): four blocks.
	if rs, err := metrics.NodeRanges(cube, []schema.Piece{schema.Piece(policy.Subcube(0, 0b1010))}); err != nil || metrics.Dispersion(rs) != 4 {
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
		if _, err := metrics.NodeRanges(m, []schema.Piece{bad.p}); err == nil {
			t.Errorf("%s: piece %+v accepted", bad.m, bad.p)
		}
	}
}

// The families give the dispersion of their topology, and a flat machine
// none: its placements are not counted in the summary.
func TestFamilyDispersion(t *testing.T) {
	for _, c := range []struct {
		f    policy.Family
		ps   []policy.Piece
		want float64
	}{
		{cube.Family(), []policy.Piece{policy.Subcube(0, 0b0011)}, 4.0 / 3}, // 4 pairs at 1 hop, 2 at 2
		{mesh.Family(), []policy.Piece{policy.Rect(0, 0, 2, 1)}, 1},
	} {
		if got := c.f.Dispersion(policy.Machine{}, c.ps); got != c.want {
			t.Errorf("%s: %g, want %g", c.f.Kind, got, c.want)
		}
	}
	if flat.Family().Dispersion != nil {
		t.Error("flat machines have a dispersion")
	}
	ct := metrics.NewCommTotals(8, nil)
	ct.AddPlacement([]policy.Piece{{X: 0, W: 4, H: 1}, {X: 9, W: 2, H: 1}})
	if disp, pieces, _, _, _, _ := ct.Stats(); !math.IsNaN(disp) || !math.IsNaN(pieces) {
		t.Errorf("flat: dispersion %g, pieces %g, want NaN", disp, pieces)
	}
	ct = metrics.NewCommTotals(8, metrics.MeshDispersion)
	ct.AddPlacement([]policy.Piece{policy.Rect(0, 0, 2, 1), policy.Rect(5, 5, 1, 1)})
	if disp, pieces, _, _, _, _ := ct.Stats(); disp <= 1 || pieces != 2 {
		t.Errorf("mesh: dispersion %g, pieces %g", disp, pieces)
	}
}
