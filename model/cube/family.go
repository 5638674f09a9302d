package cube

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
)

// Kind is the hypercube family's machine kind: "cube:n".
const Kind = policy.Cube

func init() { policy.RegisterFamily(Family()) }

// Family returns the hypercube family's descriptor: 2^n nodes numbered by
// their addresses, whose jobs ask for a subcube of 2^k ≥ Procs nodes and
// whose placements are subcubes (policy.Subcube).
func Family() policy.Family {
	f := policy.Family{
		Kind: Kind, Syntax: "cube:n", Doc: "a hypercube of 2^n nodes", Order: 30,
		Request: policy.RequestSubcube,
		Parse: func(arg string) (policy.Machine, error) {
			n, err := strconv.Atoi(arg)
			if err != nil || n < 0 || n > 30 {
				return policy.Machine{}, fmt.Errorf("hypercube dimension must be an integer in 0..30")
			}
			return policy.Machine{Kind: Kind, Procs: 1 << n, Dim: n}, nil
		},
		Format:     func(m policy.Machine) string { return strconv.Itoa(m.Dim) },
		Words:      func(m policy.Machine) string { return fmt.Sprintf("a %d-cube (%d nodes)", m.Dim, m.Procs) },
		Allocators: Allocators,
		Jobs:       subcubes,
		Placements: true,
		Dispersion: func(_ policy.Machine, ps []policy.Piece) float64 { return metrics.CubeDispersion(ps) },
		Locality:   func(_ policy.Machine, ps []policy.Piece) policy.Locality { return metrics.CubeLocality(ps) },
		Nodes:      appendNodes,
		Hops: func(policy.Machine) func(a, b int) int {
			return func(a, b int) int { return bits.OnesCount(uint(a ^ b)) }
		},
		Valid: func(m policy.Machine, p policy.Piece) bool {
			return p.W >= 1 && p.H == 1 && p.X >= 0 && p.Y == 0 && p.Mask >= 0 && int(p.Mask) < m.Procs &&
				int(p.X) < m.Procs && p.X&p.Mask == 0 && int(p.W) == 1<<bits.OnesCount32(uint32(p.Mask))
		},
	}
	f.View.Axis = "node address"
	f.View.How = "a strip per node address: rectangles are the address ranges of each job's subcube (jobs.parquet placement)"
	return f
}

// subcubes gives every job the need of its subcube, Job.NeedProcs = 2^k
// nodes, 2^k ≥ Procs (the external-fragmentation test asks for the whole
// subcube; the rounding up is internal fragmentation). Jobs larger than
// the machine are already rejected.
func subcubes(_ policy.Machine, jobs []policy.Job, _ policy.JobOptions) ([]policy.Job, int) {
	for i := range jobs {
		j := &jobs[i]
		j.NeedProcs = 1 << bits.Len(uint(max(j.Procs, 1)-1))
	}
	return jobs, 0
}

// appendNodes appends the nodes of subcube p, {X | s : s ⊆ Mask}, in
// increasing order (the submasks of Mask enumerated upwards).
func appendNodes(_ policy.Machine, p policy.Piece, dst []int) []int {
	mask := int(p.Mask)
	for s := 0; ; s = (s - mask) & mask {
		dst = append(dst, int(p.X)|s)
		if s == mask {
			break
		}
	}
	return dst
}
