package dragonfly

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// Allocators returns the dragonfly's allocators for the catalog; each has
// its own file.
func Allocators() []policy.AllocatorSpec {
	kinds := []string{Kind}
	plain := func(name, doc string, mk func(Dragonfly) policy.Allocator) policy.AllocatorSpec {
		return policy.AllocatorSpec{Name: name, Doc: doc, Kinds: kinds,
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check(); err != nil {
					return nil, err
				}
				if m.Kind != Kind {
					return nil, fmt.Errorf("%s: machine %s is not a dragonfly", name, m)
				}
				return mk(Of(m)), nil
			}}
	}
	return []policy.AllocatorSpec{
		plain("df-simple", "the lowest-numbered free nodes, router after router, group after group (SST's SimpleAllocator on a dragonfly, sst-elements v10.1)",
			func(d Dragonfly) policy.Allocator { return NewSimple(d) }),
		plain("df-spread", "group spread: the nodes dealt one per group in turn from group 0, round after round (SST's DflyRRNAllocator, a baseline of Zhang et al., IPDPS 2018)",
			func(d Dragonfly) policy.Allocator { return NewSpread(d) }),
		plain("df-hybrid", "one router (the most free) for a job of ≤ P nodes, one group (the most free, dealt over its routers) for ≤ A·P, else group spread: Level-Spread (Zhang, Tuncer, Kaplan, Olcoz, Leung & Coskun, IPDPS 2018, as SST's DflyHybridAllocator)",
			func(d Dragonfly) policy.Allocator { return NewHybrid(d) }),
		plain("df-slurm", "best fit: a job of ≤ P nodes on the router with the fewest free nodes that suffice, else the routers with the fewest free nodes first (SST's DflySlurmAllocator, a baseline of Zhang et al., IPDPS 2018)",
			func(d Dragonfly) policy.Allocator { return NewBestFit(d) }),
		{Name: "df-random", Kinds: kinds,
			Params: []policy.Param{{Name: "seed", Default: "0", Doc: "random stream seed (with the job's trace index)"}},
			Doc:    "random nodes: free nodes chosen uniformly, seeded by the job's trace index (random-node placement, Yang et al., SC 2016)",
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check("seed"); err != nil {
					return nil, err
				}
				sd, err := p.Int("seed", 0)
				if err != nil {
					return nil, err
				}
				if m.Kind != Kind {
					return nil, fmt.Errorf("df-random: machine %s is not a dragonfly", m)
				}
				return NewRandom(Of(m), uint64(sd)), nil
			}},
	}
}
