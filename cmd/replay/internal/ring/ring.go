// Package ring is a machine family for tests: N nodes on a ring, ring:N,
// whose one allocator (arc) gives a job k consecutive nodes, wrapping
// around. It shows that a machine family is one package: importing it
// registers the family and its allocator (policy.RegisterFamily), and
// the runner, the catalog, the report and the checker take it as they
// take the built-in families. No program imports it: it is never in
// `replay list`.
package ring

import (
	"fmt"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/model/policy"
)

// Kind is the family's machine kind: "ring:N".
const Kind = "ring"

func init() { policy.RegisterFamily(Family()) }

// Family returns the ring family's descriptor.
func Family() policy.Family {
	return policy.Family{
		Kind: Kind, Syntax: "ring:N", Doc: "N nodes on a ring (a test family)", Order: 1000,
		Request: policy.RequestCount,
		Parse: func(arg string) (policy.Machine, error) {
			n, err := strconv.Atoi(arg)
			if err != nil || n < 1 {
				return policy.Machine{}, fmt.Errorf("node count must be a positive integer")
			}
			return policy.Machine{Kind: Kind, Procs: n}, nil
		},
		Format: func(m policy.Machine) string { return strconv.Itoa(m.Procs) },
		Words:  func(m policy.Machine) string { return fmt.Sprintf("a ring of %d nodes", m.Procs) },
		Allocators: func() []policy.AllocatorSpec {
			return []policy.AllocatorSpec{{
				Name: "arc", Doc: "first-fit arc of k consecutive nodes, wrapping around", Kinds: []string{Kind},
				New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
					if err := p.Check(); err != nil {
						return nil, err
					}
					return NewArc(m.Procs), nil
				},
			}}
		},
		Placements: true,
		Dispersion: func(m policy.Machine, ps []policy.Piece) float64 { return Dispersion(m.Procs, ps) },
		Valid: func(m policy.Machine, p policy.Piece) bool {
			return p.W >= 1 && p.H == 1 && p.X >= 0 && p.Y == 0 && p.Mask == 0 && int(p.X)+int(p.W) <= m.Procs
		},
	}
}

// Arc is the first-fit arc allocator: a job of k nodes gets the arc
// i, i+1, ..., i+k−1 (mod N) of free nodes with the smallest i.
type Arc struct {
	busy []bool
	free int
}

// NewArc returns an arc allocator on a ring of n nodes.
func NewArc(n int) *Arc { return &Arc{busy: make([]bool, n), free: n} }

// arc is an allocation: k nodes from first, wrapping around a ring of n.
type arc struct{ first, k, n int }

func (a arc) Procs() int { return a.k }

// Placement gives the arc as one range, or two when it wraps around.
func (a arc) Placement(dst []policy.Piece) []policy.Piece {
	if a.first+a.k <= a.n {
		return append(dst, policy.Range(a.first, a.k))
	}
	return append(dst, policy.Range(a.first, a.n-a.first), policy.Range(0, a.first+a.k-a.n))
}

// Nodes lists the arc's nodes, for the engine's checker.
func (a arc) Nodes(dst []int) []int {
	for i := 0; i < a.k; i++ {
		dst = append(dst, (a.first+i)%a.n)
	}
	return dst
}

// Feasible refuses a job larger than the ring.
func (r *Arc) Feasible(j *policy.Job) error {
	if j.Need() > len(r.busy) {
		return fmt.Errorf("needs %d nodes, the ring has %d", j.Need(), len(r.busy))
	}
	return nil
}

// Allocate gives j the first free arc of j.Need() nodes.
func (r *Arc) Allocate(j *policy.Job) (policy.Allocation, bool) {
	n, k := len(r.busy), j.Need()
	if k > r.free || k < 1 {
		return nil, false
	}
	for first := 0; first < n; first++ {
		ok := true
		for i := 0; i < k && ok; i++ {
			ok = !r.busy[(first+i)%n]
		}
		if ok {
			for i := 0; i < k; i++ {
				r.busy[(first+i)%n] = true
			}
			r.free -= k
			return arc{first, k, n}, true
		}
	}
	return nil, false
}

// Release frees a's nodes.
func (r *Arc) Release(a policy.Allocation) {
	x := a.(arc)
	for i := 0; i < x.k; i++ {
		r.busy[(x.first+i)%x.n] = false
	}
	r.free += x.k
}

// Free is the number of free nodes.
func (r *Arc) Free() int { return r.free }

// Size is the number of nodes.
func (r *Arc) Size() int { return len(r.busy) }

// Clone returns an independent copy.
func (r *Arc) Clone() policy.Allocator {
	return &Arc{busy: append([]bool(nil), r.busy...), free: r.free}
}

// Dispersion is the mean distance around the ring between two distinct
// nodes of a placement on a ring of n nodes (NaN for fewer than two).
func Dispersion(n int, ps []policy.Piece) float64 {
	var nodes []int
	for _, p := range ps {
		nodes = p.AppendNodes(policy.Machine{Kind: Kind, Procs: n}, nodes)
	}
	if len(nodes) < 2 {
		return math.NaN()
	}
	var sum, pairs float64
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			d := nodes[i] - nodes[j]
			if d < 0 {
				d = -d
			}
			sum += float64(min(d, n-d))
			pairs++
		}
	}
	return sum / pairs
}
