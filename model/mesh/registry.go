package mesh

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// strategy is one line of the registry: a strategy, whether it rotates,
// and the machines it is offered on (nil: every mesh).
type strategy struct {
	name, doc string
	rotate    bool
	params    []policy.Param // nil: none
	new       func(m policy.Machine, p policy.Params) (Strategy, error)
	multi     func(m policy.Machine, p policy.Params) (Multi, error) // a non-contiguous strategy instead of new
	machines  func(m policy.Machine) error
}

// strategies lists the mesh allocators; each has its own file.
var strategies = []strategy{
	{name: "ff", doc: "Zhu's first fit by coverage array: smallest x, then largest y (Chu 1995 §2.4.3)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return FirstFit{}, nil }},
	{name: "ff-rot", rotate: true, doc: "first fit with a 90° rotation as fallback (Sched-All's \"First Fit (modified)\", Chu 1995 §2.4.3)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return FirstFit{Rotate: true}, nil }},
	{name: "bf", doc: "Zhu's best fit: the corner of the coverage array with the most 1s around it, then the smallest area (Chu 1995 §2.4.4)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return BestFit{}, nil }},
	{name: "bf-rot", rotate: true, doc: "best fit comparing the corners of both orientations (Sched-All's \"Best Fit (modified)\", Chu 1995 §2.4.4, Ch. 7)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return BestFit{Rotate: true}, nil }},
	{name: "as", rotate: true, doc: "Ding & Bhuyan's adaptive scan: the lowest, then leftmost free base; rotated as a fallback (Chu 1995 §2.4.5)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return AdaptiveScan{}, nil }},
	{name: "fs", doc: "Chuang & Tzeng's frame sliding: w×h frames, strides w and h, serpentine from the lowest, leftmost free node; may miss free submeshes (Chu 1995 §2.4.2)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return FrameSliding{}, nil }},
	{name: "2dbs", doc: "Li & Cheng's 2-D buddy system: power-of-two square blocks from free block lists; square power-of-two meshes only (Chu 1995 §2.4.1)",
		new: func(m policy.Machine, _ policy.Params) (Strategy, error) {
			b, err := NewBuddy2D(m.Width)
			if err != nil {
				return nil, err
			}
			return b, nil
		},
		machines: Buddy2DMachines},
	{name: "bl", rotate: true, doc: "Das Sharma & Pradhan's busy list: candidates at the corners of the allocated submeshes (sliding along them while busy) and of the mesh, the highest boundary value in either orientation (Chu 1995 §2.4.6)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return NewBusyList(false), nil }},
	{name: "bl-mod", rotate: true, doc: "modified busy list: the free position of highest boundary value next to any allocated submesh or the mesh edge, in either orientation (Sched-All's \"Busy List (modified)\", Chu 1995 §2.4.6, Table 3.1)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return NewBusyList(true), nil }},
	{name: "bfl0", doc: "Bhattacharya & Tsai's best fit over free regions: the base of the smallest (Chu 1995 §2.4.7)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return NewLookahead(0, false), nil }},
	{name: "bfl1", doc: "1-lookahead best fit: the smallest free region that leaves room for the largest waiting job, else the smallest (Bhattacharya & Tsai; Chu 1995 §2.4.7)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return NewLookahead(1, false), nil }},
	{name: "wfl1", doc: "1-lookahead worst fit: as bfl1 from the largest free region, else the largest (Bhattacharya & Tsai; Chu 1995 §2.4.7)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return NewLookahead(1, true), nil }},
	{name: "eet-sb", rotate: true, doc: "Estimated Execution Time, Search Boundaries: among the mesh corners and every free position along the allocated submeshes' sides, in both orientations, the smallest total difference of estimated completion times with the neighbours (TECTD) (Chu 1995 §7.1, Fig. 7.2)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return &EET{}, nil }},
	{name: "eet-sc", rotate: true, doc: "Estimated Execution Time, Search Corners: the smallest TECTD among the coverage array's corners, in both orientations (Chu 1995 §7.1, Fig. 7.3)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return &EET{Corners: true}, nil }},
	{name: "bdi", rotate: true, doc: "Chu's Busy Distance Inverse: the free-region corner with the largest sum of inverse busy distances, rotated only when the request has no place (Chu 1995 Ch. 8)",
		params: []policy.Param{{Name: "rotate", Default: "fallback", Doc: "fallback: the rotated request only when the original has no place (Fig. 8.3); both: both orientations compared (an alternative reading)"}},
		new: func(_ policy.Machine, p policy.Params) (Strategy, error) {
			r, err := p.Choice("rotate", "fallback", "fallback", "both")
			if err != nil {
				return nil, err
			}
			return &BDI{Both: r == "both"}, nil
		}},
	{name: "gabl", doc: "Bani-Mohammad et al.'s Greedy-Available-Busy-List, non-contiguous: the whole request by RBS, else greedy pieces shrinking the larger side (width on a tie), no rotation (Bani-Mohammad, Ould-Khaoua, Ababneh & Mackenzie 2006 §3)",
		multi: func(policy.Machine, policy.Params) (Multi, error) { return GABL{}, nil }},
	{name: "paging", doc: "Lo et al.'s Paging(k), non-contiguous: the first free pages of side 2^k in index order (Bani-Mohammad et al. 2006 §2; Lo, Windisch, Liu & Nitzberg 1997)",
		params: []policy.Param{
			{Name: "k", Default: "0", Doc: "size index: pages of side 2^k (0: single nodes, no internal fragmentation)"},
			{Name: "order", Default: PageRow, Doc: "page indexing: row, shuffled-row (Z order), snake, shuffled-snake"},
		},
		multi: func(m policy.Machine, p policy.Params) (Multi, error) {
			k, err := p.Int("k", 0)
			if err != nil {
				return nil, err
			}
			o, err := p.Choice("order", PageRow, PageRow, PageShuffledRow, PageSnake, PageShuffledSnake)
			if err != nil {
				return nil, err
			}
			return NewPaging(k, o, m.Width, m.Height)
		}},
	{name: "mbs", doc: "Lo et al.'s Multiple Buddy System, non-contiguous: the request in base 4 as power-of-two square blocks, split or broken down as needed (Bani-Mohammad et al. 2006 §2; Lo et al. 1997)",
		multi: func(m policy.Machine, _ policy.Params) (Multi, error) { return NewMBS(m.Width, m.Height), nil }},
	{name: "anca", doc: "Chang & Mohapatra's Adaptive Non-Contiguous Allocation: the whole request, else 2, 4, … sub-frames halving the longer side, all placed together, until a side is 1 (Bani-Mohammad et al. 2006 §2)",
		multi: func(policy.Machine, policy.Params) (Multi, error) { return ANCA{}, nil }},
	{name: "random", doc: "random non-contiguous baseline: free nodes chosen uniformly, seeded by the job's trace index (Lo, Windisch, Liu & Nitzberg 1997)",
		params: []policy.Param{{Name: "seed", Default: "0", Doc: "random stream seed (with the job's trace index)"}},
		multi: func(_ policy.Machine, p policy.Params) (Multi, error) {
			sd, err := p.Int("seed", 0)
			if err != nil {
				return nil, err
			}
			return Random{Seed: uint64(sd)}, nil
		}},
}

// Allocators returns the registry entries of the mesh allocators.
func Allocators() []policy.AllocatorSpec {
	out := make([]policy.AllocatorSpec, 0, len(strategies))
	for _, s := range strategies {
		s := s
		out = append(out, policy.AllocatorSpec{
			Name: s.name, Doc: s.doc, Kinds: []string{policy.Mesh}, Machines: s.machines, Params: s.params,
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				var known []string
				for _, k := range s.params {
					known = append(known, k.Name)
				}
				if err := p.Check(known...); err != nil {
					return nil, err
				}
				if m.Kind != policy.Mesh {
					return nil, fmt.Errorf("%s: machine %s is not a mesh", s.name, m)
				}
				if s.machines != nil {
					if err := s.machines(m); err != nil {
						return nil, fmt.Errorf("%s: %w", s.name, err)
					}
				}
				if s.multi != nil {
					mu, err := s.multi(m, p)
					if err != nil {
						return nil, err
					}
					return NewMultiAllocator(s.name, m.Width, m.Height, mu), nil
				}
				st, err := s.new(m, p)
				if err != nil {
					return nil, err
				}
				return NewAllocator(s.name, m.Width, m.Height, st, s.rotate), nil
			},
		})
	}
	return out
}
