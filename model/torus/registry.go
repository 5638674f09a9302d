package torus

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// entry is one line of the registry.
type entry struct {
	name, doc string
	params    []policy.Param
	machines  func(m policy.Machine) error
	new       func(g Geom, p policy.Params) (strategy, error)
}

const (
	leung  = "Leung et al., \"Processor allocation on Cplant: achieving general processor locality using one-dimensional allocation strategies\", 2002"
	bender = "Bender et al., \"Communication-aware processor allocation for supercomputers\", 2008"
)

var entries = []entry{
	{name: "cuboid-ff", doc: "contiguous first fit over cuboids (Blue Gene partition allocation; Krevat, Castaños & Moreira 2002): the smallest cuboid volume ≥ the request, most cubic shape first, the lowest free base",
		new: func(Geom, policy.Params) (strategy, error) { return &Contiguous{}, nil }},
	{name: "cuboid-bf", doc: "contiguous best fit over cuboids (Blue Gene partition allocation; Krevat, Castaños & Moreira 2002): the free cuboid of the smallest volume ≥ the request touching the most busy nodes and walls",
		new: func(Geom, policy.Params) (strategy, error) { return &Contiguous{Best: true}, nil }},
	{name: "curve", doc: "one-dimensional allocation along a curve (row-major, snake or Hilbert) with first fit, best fit or a sorted free list; the least-span free nodes when no interval holds the job (" + leung + "; SST's LinearAllocator)",
		params: []policy.Param{
			{Name: "order", Default: OrderHilbert, Doc: "the curve: row, snake or hilbert (hilbert on machines whose covering power-of-two cube holds at most 2^24 nodes; the default is snake on the others)"},
			{Name: "fit", Default: FitFirst, Doc: "first, best or sorted (the first free nodes along the curve)"},
		},
		new: func(g Geom, p policy.Params) (strategy, error) {
			def := OrderHilbert
			if hilbertMachines(g) != nil {
				def = OrderSnake // documented: the default order where Hilbert is not offered
			}
			o, err := p.Choice("order", def, OrderRow, OrderSnake, OrderHilbert)
			if err != nil {
				return nil, err
			}
			f, err := p.Choice("fit", FitFirst, FitFirst, FitBest, FitSorted)
			if err != nil {
				return nil, err
			}
			return NewCurve(g, o, f)
		}},
	{name: "mbs3d", doc: "Lo et al.'s Multiple Buddy System in three dimensions: the request in base 8 as power-of-two cubes, split or broken down as needed (Lo, Windisch, Liu & Nitzberg 1997; SST's MBSAllocator)",
		new: func(g Geom, _ policy.Params) (strategy, error) { return NewMBS(g), nil }},
	{name: "mc1x1", doc: "MC1x1: every free node tried as center, free nodes gathered in growing L∞ shells, the least sum of L∞ distances from the center (" + bender + "; SST's NearestAllocator)",
		new: func(Geom, policy.Params) (strategy, error) { return &MC1x1{}, nil }},
	{name: "random3d", doc: "random baseline: free nodes chosen uniformly, seeded by the job's trace index (Lo, Windisch, Liu & Nitzberg 1997; SST's RandomAllocator)",
		params: []policy.Param{{Name: "seed", Default: "0", Doc: "random stream seed (with the job's trace index)"}},
		new: func(_ Geom, p policy.Params) (strategy, error) {
			sd, err := p.Int("seed", 0)
			if err != nil {
				return nil, err
			}
			return &Random{Seed: uint64(sd)}, nil
		}},
}

// Allocators returns the registry entries of the 3-D allocators (kind is
// the family asking: only the mesh3d family lists them, for both kinds).
func Allocators(kind string) []policy.AllocatorSpec {
	if kind != MeshKind {
		return nil
	}
	out := make([]policy.AllocatorSpec, 0, len(entries))
	for _, e := range entries {
		e := e
		out = append(out, policy.AllocatorSpec{
			Name: e.name, Doc: e.doc, Kinds: []string{MeshKind, TorusKind}, Params: e.params, Machines: e.machines,
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				var known []string
				for _, k := range e.params {
					known = append(known, k.Name)
				}
				if err := p.Check(known...); err != nil {
					return nil, err
				}
				if m.Kind != MeshKind && m.Kind != TorusKind {
					return nil, fmt.Errorf("%s: machine %s is not a 3-D mesh or torus", e.name, m)
				}
				st, err := e.new(GeomOf(m), p)
				if err != nil {
					return nil, err
				}
				return newAllocator(e.name, GeomOf(m), st), nil
			},
		})
	}
	return out
}
