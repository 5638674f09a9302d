package torus

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

func TestParseFormat(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"mesh3d:4x3x2", "mesh3d:4x3x2"},
		{"torus:8x8x4", "torus:8x8x4"},
		{"torus:16x16", "torus:16x16"},
		{"torus:16x16x1", "torus:16x16"},
		{"mesh3d:1x1x1", "mesh3d:1x1x1"},
	} {
		m, err := policy.ParseMachine(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if m.String() != c.out {
			t.Errorf("%s prints as %s, want %s", c.in, m, c.out)
		}
		if m.Procs != m.Width*m.Height*max(m.Depth, 1) {
			t.Errorf("%s: %d procs", c.in, m.Procs)
		}
	}
	m, _ := policy.ParseMachine("torus:8x8x4")
	if f, _ := policy.FamilyOf(m.Kind); f.Words(m) != "a 8×8×4 torus" {
		t.Errorf("words %q", f.Words(m))
	}
}

// TestBadSpecs: one line naming the parameter.
func TestBadSpecs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"mesh3d:4x4", "mesh3d size must be XxYxZ"},
		{"mesh3d:4x0x2", `Y="0"`},
		{"torus:4xax2", `Y="a"`},
		{"torus:4", "torus size must be XxYxZ or XxY"},
		{"torus:-1x2x2", `X="-1"`},
		{"mesh3d:4x4x4x4", "XxYxZ"},
		{"torus:65536x65536x2", "more than"},
	} {
		_, err := policy.ParseMachine(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.in, err, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	g := Geom{X: 8, Y: 4, Z: 3}
	a, b := g.Node(0, 0, 0), g.Node(7, 3, 2)
	if d := g.Dist(a, b); d != 12 {
		t.Errorf("mesh distance %d, want 12", d)
	}
	g.Wrap = true
	if d := g.Dist(a, b); d != 1+1+1 {
		t.Errorf("torus distance %d, want 3", d)
	}
	if d := g.Dist(g.Node(0, 0, 0), g.Node(4, 2, 1)); d != 4+2+1 {
		t.Errorf("torus distance %d, want 7", d)
	}
	if g.Diameter() != 4+2+1 {
		t.Errorf("diameter %d", g.Diameter())
	}
}

func TestPieceRoundTrip(t *testing.T) {
	g := Geom{X: 5, Y: 4, Z: 3, Wrap: true}
	c := Cuboid{4, 3, 2, 2, 2, 2} // wraps on every axis
	p := g.Piece(c)
	back, ok := g.CuboidOf(p)
	if !ok || back != c {
		t.Fatalf("%v → %+v → %v %v", c, p, back, ok)
	}
	if p.Size() != c.Size() {
		t.Errorf("piece holds %d nodes, cuboid %d", p.Size(), c.Size())
	}
	nodes := g.AppendNodes(c, nil)
	want := map[int]bool{}
	for _, x := range []int{4, 0} {
		for _, y := range []int{3, 0} {
			for _, z := range []int{2, 0} {
				want[g.Node(x, y, z)] = true
			}
		}
	}
	if len(nodes) != 8 {
		t.Fatalf("nodes %v", nodes)
	}
	for _, n := range nodes {
		if !want[n] {
			t.Errorf("node %d not in the wrapped cuboid", n)
		}
	}
	g.Wrap = false
	if _, ok := g.CuboidOf(p); ok {
		t.Error("a wrapping cuboid is a piece of a mesh")
	}
	for _, bad := range []policy.Piece{{X: 0, W: 1, H: 3, Mask: 2}, {X: 60, W: 1, H: 1, Mask: 1}, {X: 0, W: 6, H: 1, Mask: 1}, {X: 0, Y: 1, W: 1, H: 1, Mask: 1}, {X: 0, W: 1, H: 1}} {
		if _, ok := g.CuboidOf(bad); ok {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestLocalityBruteForce compares Locality with sums over node pairs, on
// random placements of random machines.
func TestLocalityBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 300; it++ {
		g := Geom{X: 1 + r.IntN(7), Y: 1 + r.IntN(6), Z: 1 + r.IntN(5), Wrap: r.IntN(2) == 0}
		var ps []policy.Piece
		seen := map[int]bool{}
		var nodes []int
		for k := r.IntN(4) + 1; k > 0; k-- {
			c := Cuboid{A: 1 + r.IntN(g.X), B: 1 + r.IntN(g.Y), C: 1 + r.IntN(g.Z)}
			if g.Wrap {
				c.X0, c.Y0, c.Z0 = r.IntN(g.X), r.IntN(g.Y), r.IntN(g.Z)
			} else {
				c.X0, c.Y0, c.Z0 = r.IntN(g.X-c.A+1), r.IntN(g.Y-c.B+1), r.IntN(g.Z-c.C+1)
			}
			ns := g.AppendNodes(c, nil)
			overlap := false
			for _, n := range ns {
				overlap = overlap || seen[n]
			}
			if overlap {
				continue
			}
			for _, n := range ns {
				seen[n] = true
			}
			nodes = append(nodes, ns...)
			ps = append(ps, g.Piece(c))
		}
		var sum, mx int
		planes := map[int]bool{}
		for i, a := range nodes {
			_, y, z := g.XYZ(a)
			if g.Z == 1 {
				planes[y] = true
			} else {
				planes[z] = true
			}
			for _, b := range nodes[i+1:] {
				d := g.Dist(a, b)
				sum += d
				mx = max(mx, d)
			}
		}
		l := g.Locality(ps)
		n := len(nodes)
		if l.HopBytes != float64(2*sum) || l.Span != len(planes) {
			t.Fatalf("%+v %v: hop-bytes %g span %d, want %d %d", g, ps, l.HopBytes, l.Span, 2*sum, len(planes))
		}
		if n >= 2 {
			if want := float64(sum) / float64(n*(n-1)/2); math.Abs(l.MeanHops-want) > 1e-9 || l.MaxHops != mx {
				t.Fatalf("%+v %v: mean %g max %d, want %g %d", g, ps, l.MeanHops, l.MaxHops, want, mx)
			}
		} else if !math.IsNaN(l.MeanHops) {
			t.Fatalf("one node: mean %g", l.MeanHops)
		}
	}
}

// TestCurvesAreWalks: the snake and the Hilbert curve of a power-of-two
// cube visit every node once, each step to a neighbour.
func TestCurvesAreWalks(t *testing.T) {
	for _, c := range []struct {
		g     Geom
		order string
	}{
		{Geom{X: 5, Y: 3, Z: 4}, OrderSnake},
		{Geom{X: 4, Y: 4, Z: 4}, OrderHilbert},
		{Geom{X: 8, Y: 8, Z: 8}, OrderHilbert},
		{Geom{X: 2, Y: 2, Z: 2}, OrderHilbert},
		{Geom{X: 16, Y: 16, Z: 1}, OrderHilbert},
	} {
		o, err := curveOrder(c.g, c.order)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, c.g.N())
		for i, n := range o {
			if seen[n] {
				t.Fatalf("%+v %s: node %d twice", c.g, c.order, n)
			}
			seen[n] = true
			if i > 0 && c.g.Dist(int(o[i-1]), int(n)) != 1 {
				t.Fatalf("%+v %s: step %d from %d to %d", c.g, c.order, i, o[i-1], n)
			}
		}
		if len(o) != c.g.N() {
			t.Fatalf("%+v %s: %d nodes", c.g, c.order, len(o))
		}
	}
	// Not a power-of-two cube: every node once, in the covering cube's order.
	g := Geom{X: 8, Y: 8, Z: 4}
	o, err := curveOrder(g, OrderHilbert)
	if err != nil || len(o) != g.N() {
		t.Fatalf("8x8x4: %d nodes, %v", len(o), err)
	}
	if err := hilbertMachines(Geom{X: 512, Y: 2, Z: 2}); err == nil {
		t.Error("hilbert offered on 512x2x2")
	}
}

// TestRunsCoverExactly: runs turns any node set into cuboids holding
// exactly its nodes; a whole cuboid is one piece.
func TestRunsCoverExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 300; it++ {
		g := Geom{X: 1 + r.IntN(6), Y: 1 + r.IntN(5), Z: 1 + r.IntN(4), Wrap: r.IntN(2) == 0}
		want := map[int]bool{}
		var nodes []int
		for n := 0; n < g.N(); n++ {
			if r.IntN(3) > 0 {
				want[n] = true
				nodes = append(nodes, n)
			}
		}
		got := map[int]bool{}
		for _, p := range g.runs(nodes, nil) {
			c, ok := g.CuboidOf(p)
			if !ok {
				t.Fatalf("%+v: piece %+v", g, p)
			}
			for _, n := range g.AppendNodes(c, nil) {
				if got[n] || !want[n] {
					t.Fatalf("%+v: node %d twice or not in the set", g, n)
				}
				got[n] = true
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%+v: %d nodes covered of %d", g, len(got), len(want))
		}
	}
	g := Geom{X: 4, Y: 3, Z: 2}
	all := g.AppendNodes(Cuboid{0, 0, 0, 4, 3, 2}, nil)
	if ps := g.runs(all, nil); len(ps) != 1 || ps[0] != g.Piece(Cuboid{0, 0, 0, 4, 3, 2}) {
		t.Errorf("the whole machine: %v", ps)
	}
	if ps := g.runs(g.AppendNodes(Cuboid{1, 1, 0, 2, 2, 2}, nil), nil); len(ps) != 1 {
		t.Errorf("a 2x2x2 cube: %v", ps)
	}
}
