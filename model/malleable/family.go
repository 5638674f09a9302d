package malleable

import (
	"math"
	"strconv"

	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// Kind is the malleable family's machine kind: "malleable:P", Guha 1995's
// P interchangeable processors shared fractionally among malleable jobs.
const Kind = "malleable"

// Mode is the replay mode of malleable runs: results record a machine
// malleable:P as flat:P in this mode, and `replay --mode malleable` on
// flat:P means malleable:P.
const Mode = "malleable"

// CappedShare is the summary column of the share of repartitions in which
// a cap N_i bound a job (Scheduler.CappedShare).
const CappedShare = "capped_share"

func init() { policy.RegisterFamily(Family()) }

// Family returns the malleable family's descriptor. Its policies are this
// package's (allocator share, the Guha schedulers) and no other; a job's
// processor count is no constraint (its share is the policy's), and every
// job needs a work and an efficiency (Prepare).
func Family() policy.Family {
	return policy.Family{
		Kind: Kind, Syntax: "malleable:P", Order: 40,
		Doc:        "P interchangeable processors shared fractionally among malleable jobs (Guha 1995; --mode malleable on flat:P)",
		Request:    policy.RequestCount,
		Parse:      func(arg string) (policy.Machine, error) { return policy.ParseProcs(Kind, arg) },
		Format:     func(m policy.Machine) string { return strconv.Itoa(m.Procs) },
		Allocators: Allocators, Schedulers: Schedulers,
		Exclusive: true,
		MaxJob:    func(policy.Machine) int { return math.MaxInt32 },
		Check:     func(m policy.Machine, jobs []policy.Job) error { return Prepare(jobs, m.Procs) },
		Valid:     flat.ValidPiece,
		Summary: func(s policy.Scheduler) map[string]float64 {
			if c, ok := s.(interface{ CappedShare() float64 }); ok {
				return map[string]float64{CappedShare: c.CappedShare()}
			}
			return nil
		},
		Mode: Mode, Base: flat.Kind,
	}
}
