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
	new       func(m policy.Machine, p policy.Params) (Strategy, error)
	machines  func(m policy.Machine) error
}

// strategies lists the mesh allocators; each has its own file.
var strategies = []strategy{
	{name: "ff", doc: "Zhu's first fit by coverage array: smallest x, then largest y (Chu 1995 §2.4.3)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return FirstFit{}, nil }},
	{name: "ff-rot", rotate: true, doc: "first fit with a 90° rotation as fallback (Sched-All's \"First Fit (modified)\", Chu 1995 §2.4.3)",
		new: func(policy.Machine, policy.Params) (Strategy, error) { return FirstFit{Rotate: true}, nil }},
}

// Allocators returns the registry entries of the mesh allocators.
func Allocators() []policy.AllocatorSpec {
	out := make([]policy.AllocatorSpec, 0, len(strategies))
	for _, s := range strategies {
		s := s
		out = append(out, policy.AllocatorSpec{
			Name: s.name, Doc: s.doc, Kinds: []string{policy.Mesh}, Machines: s.machines,
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check(); err != nil {
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
