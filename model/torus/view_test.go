package torus

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// The slices view by hand: on torus:4x3x2 (planes 4 wide, one column
// apart: layout 9×3), the cuboid at (3, 2, 1) of 2×2×2 wraps in every
// dimension: plane 1 then plane 0, each split in four.
func TestSlicesByHand(t *testing.T) {
	m, err := policy.ParseMachine("torus:4x3x2")
	if err != nil {
		t.Fatal(err)
	}
	if w, h := layout(m); w != 9 || h != 3 {
		t.Fatalf("layout %d×%d, want 9×3", w, h)
	}
	g := GeomOf(m)
	got := rects(m, g.Piece(Cuboid{3, 2, 1, 2, 2, 2}), nil)
	want := [][4]int32{
		{8, 2, 1, 1}, {8, 0, 1, 1}, {5, 2, 1, 1}, {5, 0, 1, 1}, // plane 1 at x offset 5
		{3, 2, 1, 1}, {3, 0, 1, 1}, {0, 2, 1, 1}, {0, 0, 1, 1}, // plane 0
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rects %v, want %v", got, want)
	}
}

// Every cuboid's rectangles cover exactly its nodes, each once, in the
// layout: cell (z·(X+1) + x, y) for node (x, y, z).
func TestSlicesCoverNodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spec := range []string{"torus:5x4x3", "mesh3d:6x2x4", "torus:7x5"} {
		m, err := policy.ParseMachine(spec)
		if err != nil {
			t.Fatal(err)
		}
		g := GeomOf(m)
		w, h := layout(m)
		for range 200 {
			c := Cuboid{rng.IntN(g.X), rng.IntN(g.Y), rng.IntN(g.Z), 1 + rng.IntN(g.X), 1 + rng.IntN(g.Y), 1 + rng.IntN(g.Z)}
			if !g.Wrap {
				c.X0, c.Y0, c.Z0 = rng.IntN(g.X-c.A+1), rng.IntN(g.Y-c.B+1), rng.IntN(g.Z-c.C+1)
			}
			p := g.Piece(c)
			cells := map[[2]int]int{}
			for _, r := range rects(m, p, nil) {
				if r[0] < 0 || r[1] < 0 || int(r[0]+r[2]) > w || int(r[1]+r[3]) > h || r[2] < 1 || r[3] < 1 {
					t.Fatalf("%s %v: rectangle %v outside the %d×%d layout", spec, c, r, w, h)
				}
				for x := r[0]; x < r[0]+r[2]; x++ {
					for y := r[1]; y < r[1]+r[3]; y++ {
						cells[[2]int{int(x), int(y)}]++
					}
				}
			}
			nodes := g.AppendNodes(c, nil)
			if len(cells) != len(nodes) {
				t.Fatalf("%s %v: %d cells for %d nodes", spec, c, len(cells), len(nodes))
			}
			for _, n := range nodes {
				x, y, z := g.XYZ(n)
				if cells[[2]int{z*(g.X+1) + x, y}] != 1 {
					t.Fatalf("%s %v: node (%d, %d, %d) drawn %d times", spec, c, x, y, z, cells[[2]int{z*(g.X+1) + x, y}])
				}
			}
		}
	}
}
