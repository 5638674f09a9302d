package torus

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/model/policy"
)

// The kinds of the two families: "mesh3d:XxYxZ" and "torus:XxYxZ" (or
// "torus:XxY").
const (
	MeshKind  = "mesh3d"
	TorusKind = "torus"
)

func init() {
	policy.RegisterFamily(Family(MeshKind))
	policy.RegisterFamily(Family(TorusKind))
}

// parse reads "XxYxZ" (or, when two is set, also "XxY", Z = 1).
func parse(kind, arg string, two bool) (policy.Machine, error) {
	want := "XxYxZ"
	if two {
		want = "XxYxZ or XxY"
	}
	parts := strings.Split(arg, "x")
	if len(parts) != 3 && !(two && len(parts) == 2) {
		return policy.Machine{}, fmt.Errorf("%s size must be %s with positive integers", kind, want)
	}
	d := [3]int{1, 1, 1}
	names := [3]string{"X", "Y", "Z"}
	n := 1
	for i, s := range parts {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > policy.MaxProcs {
			return policy.Machine{}, fmt.Errorf("%s size %s: %s=%q must be a positive integer", kind, want, names[i], s)
		}
		d[i] = v
		if n > policy.MaxProcs/v {
			return policy.Machine{}, fmt.Errorf("%s %s: more than %d nodes", kind, arg, policy.MaxProcs)
		}
		n *= v
	}
	return policy.Machine{Kind: kind, Procs: n, Width: d[0], Height: d[1], Depth: d[2]}, nil
}

// Family returns the descriptor of the 3-D mesh (kind MeshKind) or torus
// (TorusKind) family: X×Y×Z nodes numbered x + X·(y + Y·z), jobs asking
// for a processor count, placements recorded as cuboids (Geom.Piece).
func Family(kind string) policy.Family {
	torus := kind == TorusKind
	f := policy.Family{
		Kind: kind, Syntax: "mesh3d:XxYxZ", Doc: "an X×Y×Z three-dimensional mesh", Order: 40,
		Request: policy.RequestCount,
		Parse:   func(arg string) (policy.Machine, error) { return parse(kind, arg, torus) },
		Format: func(m policy.Machine) string {
			if torus && m.Depth <= 1 {
				return fmt.Sprintf("%dx%d", m.Width, m.Height)
			}
			return fmt.Sprintf("%dx%dx%d", m.Width, m.Height, max(m.Depth, 1))
		},
		Words: func(m policy.Machine) string {
			w := "mesh"
			if torus {
				w = "torus"
			}
			if torus && m.Depth <= 1 {
				return fmt.Sprintf("a %d×%d %s", m.Width, m.Height, w)
			}
			return fmt.Sprintf("a %d×%d×%d %s", m.Width, m.Height, max(m.Depth, 1), w)
		},
		Allocators: func() []policy.AllocatorSpec { return Allocators(kind) },
		Placements: true,
		Dispersion: func(m policy.Machine, ps []policy.Piece) float64 { return GeomOf(m).MeanHops(ps) },
		Locality:   func(m policy.Machine, ps []policy.Piece) policy.Locality { return GeomOf(m).Locality(ps) },
		Hops:       func(m policy.Machine) func(a, b int) int { return GeomOf(m).Dist },
		Nodes: func(m policy.Machine, p policy.Piece, dst []int) []int {
			g := GeomOf(m)
			c, ok := g.CuboidOf(p)
			if !ok {
				return dst
			}
			return g.AppendNodes(c, dst)
		},
		Valid: func(m policy.Machine, p policy.Piece) bool {
			_, ok := GeomOf(m).CuboidOf(p)
			return ok
		},
	}
	if torus {
		f.Syntax, f.Doc, f.Order = "torus:XxYxZ", "an X×Y×Z torus (wrap-around links; torus:XxY is two-dimensional)", 41
	}
	f.View.Layout, f.View.Rects = layout, rects
	f.View.Note = "its planes z = 0, 1, … side by side, each an X×Y grid with node (0, 0) at its lower left; a rectangle per plane of each cuboid of a placement"
	f.View.Axis = "node number (x + X·(y + Y·z))"
	f.View.How = "a strip per node number, the planes z = 0, 1, … as consecutive blocks of X·Y numbers: rectangles are the node ranges each job held (jobs.parquet placement)"
	return f
}
