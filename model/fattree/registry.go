package fattree

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// Allocators returns the fat tree's allocators for the catalog; each has
// its own file.
func Allocators() []policy.AllocatorSpec {
	kinds := []string{Kind}
	tree := func(name string, m policy.Machine) (*Tree, error) {
		t, err := TreeOf(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return t, nil
	}
	return []policy.AllocatorSpec{
		{Name: "ft-tree", Kinds: kinds,
			Doc: "Slurm's topology/tree selection: the lowest-level switch with enough free nodes (fewest free on a tie), then best fit among its leaf switches: the tightest that covers the rest, else the one with the most free (Slurm Topology Guide; select/cons_res _eval_nodes_topo)",
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check(); err != nil {
					return nil, err
				}
				t, err := tree("ft-tree", m)
				if err != nil {
					return nil, err
				}
				return NewSlurmTree(t), nil
			}},
		{Name: "ft-spread", Kinds: kinds,
			Doc: "a job's nodes dealt one per leaf switch in turn, round after round (as many leaf switches as possible; a contrast to tree, after SST's round-robin dragonfly allocators)",
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check(); err != nil {
					return nil, err
				}
				t, err := tree("ft-spread", m)
				if err != nil {
					return nil, err
				}
				return NewSpread(t), nil
			}},
		{Name: "ft-random", Kinds: kinds,
			Params: []policy.Param{{Name: "seed", Default: "0", Doc: "random stream seed (with the job's trace index)"}},
			Doc:    "random baseline: free nodes chosen uniformly, seeded by the job's trace index (after Lo, Windisch, Liu & Nitzberg 1997)",
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check("seed"); err != nil {
					return nil, err
				}
				sd, err := p.Int("seed", 0)
				if err != nil {
					return nil, err
				}
				t, err := tree("ft-random", m)
				if err != nil {
					return nil, err
				}
				return NewRandom(t, uint64(sd)), nil
			}},
	}
}
