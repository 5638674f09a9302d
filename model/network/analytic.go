package network

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// AnalyticModel is the contention-free communication model: every packet
// takes its zero-load latency (ZeroLoad) over the Manhattan distance
// between its source and destination, whatever else the network carries.
// A processor sends its packets one after another, so a round lasts as
// long as the processor whose packets' latencies sum highest, and a job's
// communication time is R such rounds (UnitRound), or the time of the
// processor whose R messages take longest (UnitMsg). It is known when the job starts,
// and the job's rate is constant: service/(communication + service).
//
// It ignores every kind of contention, the job's own packets' included,
// so it is a lower bound on the wormhole model's communication time; the
// gap on the gabl06 workload is in docs/modelling.md (Non-contiguous
// meshes and the network).
type AnalyticModel struct {
	W, H  int
	p     Params
	stats map[int]Stats
	seen  map[int]bool // jobs whose rate is set
	fresh []started    // jobs started since the last Rates call, with their rate
	nodes []int32
}

// started is a job just started and the rate it runs at (NaN: the
// engine's).
type started struct {
	j    *policy.Job
	rate float64
}

// NewAnalytic returns the analytic model on a W×H mesh.
func NewAnalytic(W, H int, p Params) *AnalyticModel {
	return &AnalyticModel{W: W, H: H, p: p, stats: map[int]Stats{}, seen: map[int]bool{}}
}

// Started implements policy.ProgressModel: at its first start a job's
// communication is known, and its rate is Run/(C + Run), C its
// communication time, from the next Rates call on.
func (m *AnalyticModel) Started(j *policy.Job, _ policy.Progress) {
	if m.seen[int(j.Record)] {
		return
	}
	m.seen[int(j.Record)] = true
	m.nodes = Nodes(j.Alloc, m.W, m.nodes[:0])
	st := m.cost(int(j.Record), m.nodes)
	m.stats[int(j.Record)] = st
	r := math.NaN() // its rate stays the engine's
	if st.Comm > 0 && j.Run > 0 {
		r = j.Run / (st.Comm + j.Run)
	}
	m.fresh = append(m.fresh, started{j, r})
}

// Left implements policy.ProgressModel: a job that leaves before its
// rate was set is seen anew at its next start.
func (m *AnalyticModel) Left(j *policy.Job, _ policy.Progress) {
	if k := slices.IndexFunc(m.fresh, func(s started) bool { return s.j == j }); k >= 0 {
		m.fresh = slices.Delete(m.fresh, k, k+1)
		delete(m.seen, int(j.Record))
		delete(m.stats, int(j.Record))
	}
}

// Rates implements policy.ProgressModel: the jobs just started get their
// rate; the others keep theirs.
func (m *AnalyticModel) Rates(_ policy.Progress, running []*policy.Job, rate []float64) {
	// The jobs just started are, in start order, among the last running.
	f := len(m.fresh) - 1
	for k := len(running) - 1; k >= 0 && f >= 0; k-- {
		if s := m.fresh[f]; running[k] == s.j {
			if !math.IsNaN(s.rate) {
				rate[k] = s.rate
			}
			f--
		}
	}
	clear(m.fresh)
	m.fresh = m.fresh[:0]
}

// cost is the communication of job i on nodes.
func (m *AnalyticModel) cost(i int, nodes []int32) Stats {
	n := len(nodes)
	if n < 2 {
		return Stats{}
	}
	st := Stats{Rounds: Rounds(m.p.Seed, i, m.p.Msgs)}
	// Per source: the packets of one round (UnitRound), or its R
	// messages (UnitMsg) in one go.
	rounds, quota := int64(st.Rounds), n-1
	if m.p.Unit == UnitMsg {
		rounds, quota = 1, st.Rounds
	}
	var worst float64
	var hops int64
	for a, s := range nodes {
		sx, sy := s%int32(m.W), s/int32(m.W)
		var d int64
		for q := 0; q < quota; q++ {
			t := nodes[(a+q%(n-1)+1)%n]
			d += int64(abs(t%int32(m.W)-sx) + abs(t/int32(m.W)-sy))
		}
		hops += d
		// Σ over its packets of d·(t_s+1) + P_len − 1.
		lat := float64(d)*(m.p.Ts+1) + float64(quota)*float64(m.p.Plen-1)
		worst = max(worst, lat)
		st.Latency += lat
	}
	st.Comm = float64(rounds) * worst
	st.Packets = rounds * int64(n) * int64(quota)
	st.Hops = rounds * hops
	st.Latency *= float64(rounds)
	return st
}

// Stats implements Model.
func (m *AnalyticModel) Stats(i int) Stats { return m.stats[i] }
