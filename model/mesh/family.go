package mesh

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
)

// Kind is the mesh family's machine kind: "mesh:WxH".
const Kind = policy.Mesh

func init() { policy.RegisterFamily(Family()) }

// Family returns the mesh family's descriptor: a W×H mesh whose jobs ask
// for w×h submeshes (a job with only a processor count is shaped by the
// --shape rule, Shape), numbered y·W + x, with the communication models of
// model/network.
func Family() policy.Family {
	f := policy.Family{
		Kind: Kind, Syntax: "mesh:WxH", Doc: "a W×H two-dimensional mesh", Order: 20,
		Request: policy.RequestRect,
		Parse: func(arg string) (policy.Machine, error) {
			ws, hs, ok := strings.Cut(arg, "x")
			w, err1 := strconv.Atoi(ws)
			h, err2 := strconv.Atoi(hs)
			if !ok || err1 != nil || err2 != nil || w < 1 || h < 1 {
				return policy.Machine{}, fmt.Errorf("mesh size must be WxH with positive integers")
			}
			if w > policy.MaxProcs || h > policy.MaxProcs || w*h > policy.MaxProcs {
				return policy.Machine{}, fmt.Errorf("mesh %dx%d: more than %d nodes", w, h, policy.MaxProcs)
			}
			return policy.Machine{Kind: Kind, Procs: w * h, Width: w, Height: h}, nil
		},
		Format:     func(m policy.Machine) string { return fmt.Sprintf("%dx%d", m.Width, m.Height) },
		Words:      func(m policy.Machine) string { return fmt.Sprintf("a %d×%d mesh", m.Width, m.Height) },
		Allocators: Allocators,
		Jobs:       shapeJobs,
		Placements: true,
		Dispersion: func(_ policy.Machine, ps []policy.Piece) float64 { return metrics.MeshDispersion(ps) },
		Locality:   func(_ policy.Machine, ps []policy.Piece) policy.Locality { return metrics.MeshLocality(ps) },
		Nodes:      appendNodes,
		Hops: func(m policy.Machine) func(a, b int) int {
			return func(a, b int) int { return abs(a%m.Width-b%m.Width) + abs(a/m.Width-b/m.Width) }
		},
		Valid: func(m policy.Machine, p policy.Piece) bool {
			return p.W >= 1 && p.H >= 1 && p.X >= 0 && p.Y >= 0 && p.Mask == 0 &&
				int(p.X)+int(p.W) <= m.Width && int(p.Y)+int(p.H) <= m.Height
		},
		Network: func(m policy.Machine) (int, int) { return m.Width, m.Height },
	}
	f.View.Axis = "node number (y·W + x)"
	f.View.Grid = true
	return f
}

// shapeJobs gives every job that has no w×h request (a real log's
// processor count) the shape of o.Shape's rule (square when empty); a job
// with no shape that fits the mesh is rejected.
func shapeJobs(m policy.Machine, jobs []policy.Job, o policy.JobOptions) ([]policy.Job, int) {
	rule := o.Shape
	if rule == "" {
		rule = ShapeSquare
	}
	w, rejected := 0, 0
	for _, j := range jobs {
		if j.Width <= 0 || j.Height <= 0 {
			sw, sh, ok := Shape(j.Procs, m.Width, m.Height, rule)
			if !ok {
				rejected++
				continue
			}
			j.Width, j.Height = int32(sw), int32(sh)
		}
		jobs[w] = j
		w++
	}
	return jobs[:w], rejected
}

// appendNodes appends the nodes of submesh p on m row by row (node (x, y)
// is y·W + x: policy.NodeOf).
func appendNodes(m policy.Machine, p policy.Piece, dst []int) []int {
	for y := int(p.Y); y < int(p.Y+p.H); y++ {
		for x := int(p.X); x < int(p.X+p.W); x++ {
			dst = append(dst, policy.NodeOf(m.Width, x, y))
		}
	}
	return dst
}
