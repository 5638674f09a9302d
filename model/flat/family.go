package flat

import (
	"strconv"

	"github.com/schedlab/schedlab/model/policy"
)

// Kind is the flat family's machine kind: "flat:N".
const Kind = policy.Flat

func init() { policy.RegisterFamily(Family()) }

// Family returns the flat family's descriptor: N processors with no
// topology, whose jobs ask for a processor count and whose placements are
// ranges of processor numbers.
func Family() policy.Family {
	return policy.Family{
		Kind: Kind, Syntax: "flat:N", Doc: "N interchangeable processors", Order: 10,
		Request:    policy.RequestCount,
		Parse:      func(arg string) (policy.Machine, error) { return policy.ParseProcs(Kind, arg) },
		Format:     func(m policy.Machine) string { return strconv.Itoa(m.Procs) },
		Valid:      ValidPiece,
		Allocators: Allocators,
	}
}

// ValidPiece reports whether p is a range of processors of a machine of
// m.Procs processors (Y = 0, H = 1, no mask).
func ValidPiece(m policy.Machine, p policy.Piece) bool {
	return p.W >= 1 && p.H == 1 && p.X >= 0 && p.Y == 0 && p.Mask == 0 && int(p.X)+int(p.W) <= m.Procs
}
