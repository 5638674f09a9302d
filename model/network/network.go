// Package network models the interconnect of a 2-D mesh (mesh:WxH) and
// the communication of the jobs running on it, after the simulation
// model of Bani-Mohammad, Ould-Khaoua, Ababneh & Mackenzie (2006),
// "Non-contiguous Processor Allocation Strategy for 2D Mesh Connected
// Multicomputers based on Sub-meshes Available for Allocation"
// (ICPADS'06), §4.1: wormhole routing, a flit taking 1 time unit per hop
// and t_s time units to be routed through a node, packets of P_len flits,
// an all-to-all pattern, the number of messages exponential with mean
// num_mes.
//
// # Job model
//
// A job's residence is its communication time followed by its service
// time (policy.Job.Run): residence = communication + service. R is drawn
// per job (see Rounds). With Unit = UnitRound its communication is R
// all-to-all rounds: in a round every processor of the job sends one
// packet to every other, processor k of the job (its nodes in allocation
// order: the pieces in order, each row by row) to k+1, k+2, …, k+n−1
// (mod n), one packet at a time (the next leaves when the previous is
// delivered); the next round begins when every packet of the round has
// been delivered. With UnitMsg every processor sends R packets in the
// same order, cycling, with no rounds. A job on one processor does not
// communicate.
//
// # Two modes
//
//   - Wormhole (wormhole.go): a packet-level simulation of link
//     occupancy with dimension-ordered XY routing, shared by all running
//     jobs, so that a job's packets are blocked by other jobs' (and its
//     own) packets.
//   - Analytic (analytic.go): no contention; a packet over Manhattan
//     distance D takes its zero-load latency D·(t_s+1) + P_len − 1.
//
// Both are policy.ProgressModels (engine.Options.Progress): the engine
// drains a job's service time at the rate the model sets, and the model
// sets it so that the job completes at its communication's end plus its
// service time (see Wormhole.Rates).
package network

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedlab/schedlab/model/policy"
)

// Modes of the communication model (the --comm flag).
const (
	Off      = "off"      // no communication: a job's residence is its service time (Chu 1995)
	Analytic = "analytic" // contention-free latency per packet
	Wormhole = "wormhole" // packet-level wormhole simulation
)

// Params are the communication model's parameters.
type Params struct {
	Ts   float64 // t_s: time to route the header through a node
	Plen int     // P_len: flits per packet
	Msgs float64 // num_mes: mean number of messages (see Unit)
	Unit string  // what num_mes counts: UnitRound or UnitMsg
	Seed uint64  // seeds each job's number of messages, with its trace record (Job.Record)
}

// What num_mes counts: the paper says only "the number of messages that
// are actually sent is exponentially distributed with a mean num_mes"
// (§4.1).
const (
	// UnitRound: R all-to-all rounds per job, each of n(n−1) packets, the
	// next round beginning when the last packet of the previous one is
	// delivered.
	UnitRound = "round"
	// UnitMsg: R messages per processor, processor k sending to k+1,
	// k+2, … (mod n, skipping k) one after another: n·R packets per job,
	// no rounds.
	UnitMsg = "msg"
)

// Defaults are the paper's: t_s = 3, P_len = 8, num_mes = 5 (§4.1), num_mes
// counting all-to-all rounds.
var Defaults = Params{Ts: 3, Plen: 8, Msgs: 5, Unit: UnitRound}

// Spec is a parsed --comm value.
type Spec struct {
	Mode string
	Params
}

// String is the canonical form, e.g. "wormhole:ts=3,plen=8,msgs=5".
func (s Spec) String() string {
	if s.Mode == Off || s.Mode == "" {
		return Off
	}
	out := fmt.Sprintf("%s:ts=%g,plen=%d,msgs=%g", s.Mode, s.Ts, s.Plen, s.Msgs)
	if s.Unit != UnitRound {
		out += ",unit=" + s.Unit
	}
	if s.Seed != 0 {
		out += fmt.Sprintf(",seed=%d", s.Seed)
	}
	return out
}

// MaxCount bounds plen (flits per packet) and msgs (the mean number of
// messages): the packet-level simulation's work and memory grow with both,
// and the papers use at most some hundreds.
const MaxCount = 1_000_000

// Parse reads "off", "analytic" or "wormhole", each optionally followed
// by ":key=value,…" with keys ts, plen, msgs, unit (round or msg) and
// seed (defaults: the paper's).
func Parse(v string) (Spec, error) {
	name, p, err := policy.ParseSpec(v)
	if err != nil {
		return Spec{}, fmt.Errorf("comm %q: %w", v, err)
	}
	s := Spec{Mode: name, Params: Defaults}
	switch name {
	case Off:
		if len(p) > 0 {
			return Spec{}, fmt.Errorf("comm %q: off takes no parameters", v)
		}
		return s, nil
	case Analytic, Wormhole:
	default:
		return Spec{}, fmt.Errorf("comm %q: unknown mode %q (off, analytic, wormhole)", v, name)
	}
	if err := p.Check("ts", "plen", "msgs", "unit", "seed"); err != nil {
		return Spec{}, fmt.Errorf("comm %q: %w", v, err)
	}
	bad := func(err error) (Spec, error) { return Spec{}, fmt.Errorf("comm %q: %w", v, err) }
	if s.Ts, err = p.Float("ts", Defaults.Ts); err != nil {
		return bad(err)
	}
	if s.Plen, err = p.Int("plen", Defaults.Plen); err != nil {
		return bad(err)
	}
	if s.Msgs, err = p.Float("msgs", Defaults.Msgs); err != nil {
		return bad(err)
	}
	if s.Unit, err = p.Choice("unit", UnitRound, UnitRound, UnitMsg); err != nil {
		return bad(err)
	}
	seed, err := p.Int("seed", 0)
	if err != nil {
		return bad(err)
	}
	s.Seed = uint64(seed)
	switch {
	case !(s.Ts >= 0) || math.IsInf(s.Ts, 0):
		return Spec{}, fmt.Errorf("comm %q: ts must be ≥ 0", v)
	case s.Plen < 1 || s.Plen > MaxCount:
		return Spec{}, fmt.Errorf("comm %q: plen must be 1..%d flits", v, MaxCount)
	case !(s.Msgs >= 1 && s.Msgs <= MaxCount):
		return Spec{}, fmt.Errorf("comm %q: msgs must be 1..%d (at least one round per job)", v, MaxCount)
	}
	return s, nil
}

// New returns the progress model of s on a W×H mesh, nil for Off.
func New(s Spec, W, H int) (Model, error) {
	if W < 1 || H < 1 {
		return nil, fmt.Errorf("comm %s: needs a mesh", s.Mode)
	}
	switch s.Mode {
	case Off, "":
		return nil, nil
	case Analytic:
		return NewAnalytic(W, H, s.Params), nil
	case Wormhole:
		return NewWormhole(W, H, s.Params), nil
	}
	return nil, fmt.Errorf("comm: unknown mode %q", s.Mode)
}

// Model is a communication model: a progress model that also reports,
// per job, what its communication cost.
type Model interface {
	policy.ProgressModel
	// Stats returns the communication of the job whose trace record is i (Job.Record), as
	// far as it went (zero for a job that never ran).
	Stats(i int) Stats
}

// Stats is one job's communication.
type Stats struct {
	Rounds  int     // all-to-all rounds drawn
	Comm    float64 // communication time: start to the last packet's delivery
	Packets int64   // packets delivered
	Hops    int64   // links crossed by those packets (hop-bytes = Hops·P_len flits)
	Latency float64 // sum over packets of send to tail delivery
	Blocked float64 // sum over packets of time the header waited for a busy link or ejection channel
}

// Rounds draws job i's number of messages R (rounds or messages per
// processor, see Unit): geometric on
// {1, 2, …} with mean msgs (the discrete, memoryless counterpart of the
// paper's exponential number of messages with mean num_mes, kept ≥ 1 so
// that every job of two or more processors communicates), from a PCG
// stream seeded by (seed, i): independent of the order in which jobs run.
func Rounds(seed uint64, i int, msgs float64) int {
	if msgs <= 1 {
		return 1
	}
	rng := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(i)))
	p := 1 / msgs
	u := 1 - rng.Float64() // (0, 1]
	return 1 + int(math.Floor(math.Log(u)/math.Log1p(-p)))
}

// Nodes returns the nodes of a running job in rank order: its placement's
// pieces in order, each row by row.
func Nodes(a policy.Allocation, W int, dst []int32) []int32 {
	var buf [8]policy.Piece
	for _, p := range a.Placement(buf[:0]) {
		for y := int(p.Y); y < int(p.Y+p.H); y++ {
			for x := int(p.X); x < int(p.X+p.W); x++ {
				dst = append(dst, int32(policy.NodeOf(W, x, y)))
			}
		}
	}
	return dst
}

// ZeroLoad is the latency of a packet over Manhattan distance d on an
// empty network: the header is routed (t_s) and crosses a link (1) at each
// of the d routers before the destination, which takes it at once; the
// tail follows P_len − 1 time units behind.
func ZeroLoad(d int, p Params) float64 {
	return float64(d)*(p.Ts+1) + float64(p.Plen-1)
}

// rateFor returns the rate at which rem must drain from now to end at
// end (a job whose end is now, or passed by rounding, gets the rate that
// ends it at the next representable instant).
func rateFor(rem, now, end float64) float64 {
	d := end - now
	if !(d > 0) {
		d = math.Nextafter(now, math.Inf(1)) - now
	}
	return rem / d
}

// abs is |x|.
func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
