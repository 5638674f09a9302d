// Package metrics defines, in one place, every performance metric that
// schedlab reports, each with its source.
//
// Sources:
//   - Chu 1995 (Y.-K. Chu, "Processor Allocation and Job Scheduling in
//     Two-Dimensional Mesh Systems", PhD dissertation, Michigan State
//     University, 1995) §3.3: response time, its standard
//     deviation (predictability), utilization Def 3.1 (busy time / elapsed
//     time) and Def 3.2 (busy processors / processors, at an instant),
//     reported as Def 3.2 averaged over time; mean queue length; per-size
//     group statistics.
//   - Mohapatra, Yu & Das 1995 (P. Mohapatra, C. Yu and C. R. Das, "A Lazy
//     Scheduling Scheme for Hypercube Computers", J. Parallel Distrib.
//     Comput. 27(1), 1995) §4.2: mean queueing delay
//     M = R/A, throughput X = C/T, utilization U = Σ 2^|I_i| t_i / (2^n T),
//     system power P = X/M (Jain), completion time of a fixed job set.
//   - Guha 1995 (K. Guha, "Using Parallel Program Characteristics in
//     Dynamic Multiprocessor Allocation Policies", Technical Report
//     CS-95-03, York University, 1995) §B.6: mean response R̄, %Impr = (R̄_base − R̄)/R̄_base ×
//     100, normalised R̄ = R̄/R̄_Equipartition, 90% confidence intervals.
//   - Feitelson et al. 1997 (D. G. Feitelson, L. Rudolph, U.
//     Schwiegelshohn, K. C. Sevcik and P. Wong, "Theory and Practice in
//     Parallel Job Scheduling", JSSPP 1997), as computed by the pyss
//     simulator: bounded slowdown max(1, response / max(run, τ)) with
//     τ = 10 s by default;
//     the fragmentation formula 1 − Σf²/(Σf)² of evalys (credited there
//     to Gehr & Schneider, CCGrid 2009), applied here to free processor
//     blocks f (see Fragmentation).
package metrics

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// Unit is the kind of unit a metric is measured in.
type Unit int

// Units of metrics.
const (
	Dimensionless Unit = iota // ratios, slowdowns, counts
	Time                      // trace time unit (s for real logs, time units for synthetic ones)
	PerTime                   // jobs per time unit
	PerTime2                  // power: jobs per time unit per time unit
	Fraction                  // 0..1
	Jobs                      // number of jobs
)

// Label returns the axis-label suffix of the unit, given the trace time
// unit ("s" or "time units").
func (u Unit) Label(timeUnit string) string {
	switch u {
	case Time:
		return timeUnit
	case PerTime:
		return "jobs / " + singular(timeUnit)
	case PerTime2:
		return "jobs / " + singular(timeUnit) + "²"
	case Fraction:
		return "fraction"
	case Jobs:
		return "jobs"
	}
	return ""
}

func singular(u string) string {
	if u == "time units" {
		return "time unit"
	}
	return u
}

// Metric describes one per-pair metric of summary.parquet.
type Metric struct {
	Column string // column of summary.parquet
	Name   string // human name, for axis labels and table headers
	Short  string // short header for tables
	Unit   Unit
	Lower  bool   // lower is better
	Source string // where the definition comes from
}

// AxisLabel returns "Name (unit)".
func (m Metric) AxisLabel(timeUnit string) string {
	if u := m.Unit.Label(timeUnit); u != "" {
		return m.Name + " (" + u + ")"
	}
	return m.Name
}

// Summary lists the per-pair metrics of summary.parquet that the report
// plots against load, in display order.
var Summary = []Metric{
	{"mean_response", "mean response time", "resp", Time, true, "Chu 1995 §3.3; Guha 1995 B.6 (R̄)"},
	{"sd_response", "SD of response time", "sd resp", Time, true, "Chu 1995 §3.3 (predictability)"},
	{"mean_wait", "mean wait time", "wait", Time, true, "Mohapatra, Yu & Das 1995 §4.2: M = R/A (queueing delay)"},
	{"mean_slowdown", "mean slowdown", "sld", Dimensionless, true, "response / run (unbounded; Batsim, AccaSim)"},
	{"mean_bsld", "mean bounded slowdown", "bsld", Dimensionless, true, "max(1, response / max(run, τ)) (pyss; Feitelson)"},
	{"utilization", "utilization", "util", Fraction, false, "Chu 1995 Def 3.2 averaged over time (= Def 3.1 summed over processors)"},
	{"throughput", "throughput", "X", PerTime, false, "Mohapatra, Yu & Das 1995 §4.2: X = C/T"},
	{"power", "system power", "P", PerTime2, false, "Mohapatra, Yu & Das 1995 §4.2: P = X/M (Jain)"},
	{"makespan", "makespan", "makespan", Time, true, "last completion − first arrival (Mohapatra, Yu & Das 1995 Fig. 9: completion time)"},
	{"mean_queue", "mean queue length", "queue", Jobs, true, "Chu 1995 §3.3: time-averaged waiting jobs"},
	{"max_wait", "maximum wait time", "max wait", Time, true, "Batsim/AccaSim outputs"},
	{"internal_frag", "internal fragmentation", "int frag", Fraction, true, "allocated but unrequested processor-time (Chu 1995 §1; InternalFragmentation)"},
	{"external_frag", "external fragmentation", "ext frag", Fraction, true, "share of the makespan the earliest waiting job had enough free processors (Chu 1995 §1; ExternalFragmentation)"},
	{"deadline_miss_rate", "deadline miss rate", "missed", Fraction, true, "the share of jobs with a deadline that ended after it (MissRate; pcw, Ghoneim & Fahmy 2003)"},
	{"window_delay", "mean queueing delay in the window", "M", Time, true, "Mohapatra, Yu & Das 1995 §4.2: M = R/A over [0, T] (Window)"},
	{"window_power", "system power in the window", "P", PerTime2, false, "Mohapatra, Yu & Das 1995 §4.2: P = X/M over [0, T] (Window)"},
	{"window_throughput", "throughput in the window", "X", PerTime, false, "Mohapatra, Yu & Das 1995 §4.2: X = C/T (Window)"},
	{"window_util", "utilization in the window", "U", Fraction, false, "Mohapatra, Yu & Das 1995 §4.2: U = Σ 2^|I_i| t_i / (2^n T) (Window)"},
}

// PercentileMetrics are the summary's percentile columns (JobStats.Wait,
// Response and BSLD at each of Percentiles): p50_wait ... p99_bsld.
var PercentileMetrics = percentileMetrics()

func percentileMetrics() []Metric {
	var ms []Metric
	for _, d := range []struct {
		col, name, short string
		unit             Unit
	}{{"wait", "wait time", "wait", Time}, {"response", "response time", "resp", Time}, {"bsld", "bounded slowdown", "bsld", Dimensionless}} {
		for _, p := range Percentiles {
			ps := strconv.FormatFloat(p, 'g', -1, 64)
			ms = append(ms, Metric{"p" + ps + "_" + d.col, ps + "th percentile of " + d.name, "p" + ps + " " + d.short, d.unit, true,
				"Percentile: linear interpolation between closest ranks (Hyndman & Fan 1996 type 7)"})
		}
	}
	return ms
}

// Lookup returns the metric of a summary column.
func Lookup(column string) (Metric, bool) {
	for _, m := range Summary {
		if m.Column == column {
			return m, true
		}
	}
	for _, m := range PercentileMetrics {
		if m.Column == column {
			return m, true
		}
	}
	return Metric{}, false
}

// DefaultTau is the default bounded-slowdown threshold τ (pyss: 10 s).
const DefaultTau = 10

// Slowdown is response / run, the unbounded slowdown (Batsim's and
// AccaSim's "slowdown"). A job of zero run time (KTH-SP2 has 8, the NASA
// iPSC/860 log 173) is taken to run one time unit (the SWF resolution,
// 1 s) and its slowdown is floored at 1: max(1, response). Every tool of
// schedlab (the replay, the fixtures, the report) uses this one definition.
func Slowdown(response, run float64) float64 {
	if run <= 0 {
		return math.Max(1, response)
	}
	return response / run
}

// BoundedSlowdown is max(1, response / max(run, τ)) (Feitelson et al.
// 1997; pyss). τ conventions differ between tools: 10 s (pyss), 1 s (Alea),
// 60 s (Batsim "bounded stretch").
func BoundedSlowdown(response, run, tau float64) float64 {
	return math.Max(1, response/math.Max(run, tau))
}

// Power is system power P = X/M (Mohapatra, Yu & Das 1995 §4.2, after
// Jain): throughput over mean
// queueing delay. It is +Inf when no job waited (M = 0), as the results
// contract writes it.
func Power(throughput, meanWait float64) float64 {
	if meanWait == 0 {
		return math.Inf(1)
	}
	return throughput / meanWait
}

// MissRate is the share of the counted jobs with a deadline that ended
// after it (Ghoneim & Fahmy 2003's jobs carry an execution window; the
// rate is our measure of a policy over many arrivals): missed / jobs, NaN
// when no job has a deadline.
func MissRate(missed, jobs int64) float64 {
	if jobs == 0 {
		return math.NaN()
	}
	return float64(missed) / float64(jobs)
}

// PctImprovement is Guha's %Impr = (R̄_base − R̄) / R̄_base × 100 (B.6):
// positive when the policy is better (lower) than the baseline.
func PctImprovement(r, base float64) float64 { return (base - r) / base * 100 }

// MeanActive is the time-averaged number of jobs running, Σ residence
// (end − start) / makespan: in malleable mode the mean length of Guha's
// active list (jobs holding a share of 0 included). NaN when the makespan
// is 0.
func MeanActive(residence, makespan float64) float64 {
	if makespan <= 0 {
		return math.NaN()
	}
	return residence / makespan
}

// CappedShare is Guha's fraction of allocations bounded by N_i (1995
// §7.5: 72%, 55%, 40% at N̄ = 25, 45, 73): capped of allocs, counted over
// every repartition and every active job that has a cap N_i (model/
// malleable's Scheduler.CappedShare). NaN when allocs is 0.
func CappedShare(capped, allocs int64) float64 {
	if allocs == 0 {
		return math.NaN()
	}
	return float64(capped) / float64(allocs)
}

// Malleable lists the summary columns of the malleable mode, for report
// pages that show them (not in Summary: they mean nothing for most rigid
// runs).
var Malleable = []Metric{
	{"mean_active", "mean active jobs", "active", Jobs, false, "time-averaged active list length (Guha 1995 §4.3); Σ residence / makespan"},
	{"capped_share", "allocations bounded by N_i", "capped", Fraction, false, "Guha 1995 §7.5: share of allocations with p_i = N_i"},
}

// Normalised is Guha's normalised R̄ = R̄(policy) / R̄(baseline) (B.6).
func Normalised(r, base float64) float64 { return r / base }

// Fragmentation is 1 − Σf² / (Σf)² over the sizes f of the maximal blocks
// of contiguous free processors at one instant: 0 when
// all free processors form one block, approaching 1 when they are
// scattered in many small blocks. It is 0 when nothing is free. The
// formula is evalys's (metrics.fragmentation), but evalys applies it per
// processor to the lengths of its free time gaps; here it is spatial, over
// the machine's free blocks, which is what a contiguous allocator
// suffers from. (Chu §3.3 discusses fragmentation only qualitatively.)
func Fragmentation(free []int64) float64 {
	var s, s2 float64
	for _, f := range free {
		s += float64(f)
		s2 += float64(f) * float64(f)
	}
	if s == 0 {
		return 0
	}
	return 1 - s2/(s*s)
}

// Range is a closed range of node numbers [Lo, Hi] (policy's node
// numbering).
type Range struct{ Lo, Hi int64 }

// Size is the number of processors in r.
func (r Range) Size() int64 { return r.Hi - r.Lo + 1 }

// NodeRanges returns the nodes of a placement (the `placement` column of
// jobs.parquet) on machine m as maximal ranges of consecutive node
// numbers, in increasing order: a flat piece is a range; mesh and cube
// pieces are expanded to their node numbers (policy.Piece.AppendNodes) and
// grouped. No pieces give no ranges (the allocator did not record
// placements). A piece outside the machine is an error.
func NodeRanges(m policy.Machine, ps []schema.Piece) ([]Range, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	f, ok := policy.FamilyOf(m.Kind)
	if !ok || f.Valid == nil {
		return nil, fmt.Errorf("machine %s: no placements known on this kind", m)
	}
	out := make([]Range, 0, len(ps))
	var nodes []int
	for _, sp := range ps {
		p := policy.Piece(sp)
		if !f.Valid(m, p) {
			return nil, fmt.Errorf("piece {x=%d y=%d w=%d h=%d mask=%d} is not a placement on %s", p.X, p.Y, p.W, p.H, p.Mask, m)
		}
		if f.Nodes == nil {
			out = append(out, Range{int64(p.X), int64(p.X) + int64(p.W) - 1})
			continue
		}
		nodes = f.Nodes(m, p, nodes)
	}
	if len(nodes) > 0 {
		slices.Sort(nodes)
		for i := 0; i < len(nodes); {
			k := i
			for k+1 < len(nodes) && nodes[k+1] <= nodes[k]+1 {
				k++
			}
			out = append(out, Range{int64(nodes[i]), int64(nodes[k])})
			i = k + 1
		}
		return out, nil
	}
	// Flat: sort and merge touching ranges, so that a placement recorded
	// in pieces of any order or size gives the same maximal ranges.
	slices.SortFunc(out, func(a, b Range) int { return cmp.Compare(a.Lo, b.Lo) })
	n := 0
	for _, r := range out[1:] {
		if r.Lo <= out[n].Hi+1 {
			out[n].Hi = max(out[n].Hi, r.Hi)
			continue
		}
		n++
		out[n] = r
	}
	return out[:n+1], nil
}

// Dispersion is the number of maximal contiguous blocks an allocation is
// made of (1 for a contiguous allocation), a simple measure of how
// scattered a non-contiguous allocation is on a linear machine.
func Dispersion(rs []Range) int {
	if len(rs) == 0 {
		return 0
	}
	n := 1
	for i := 1; i < len(rs); i++ {
		if rs[i].Lo != rs[i-1].Hi+1 {
			n++
		}
	}
	return n
}

// FreeBlocks returns the sizes of the maximal free blocks (runs of
// consecutive node numbers) of a machine of procs processors whose busy
// processors are the union of busy (ranges in any order, possibly
// overlapping).
func FreeBlocks(procs int64, busy []Range) []int64 {
	mark := make([]bool, procs)
	for _, r := range busy {
		for p := max(r.Lo, 0); p <= r.Hi && p < procs; p++ {
			mark[p] = true
		}
	}
	var out []int64
	var run int64
	for _, b := range mark {
		if b {
			if run > 0 {
				out = append(out, run)
			}
			run = 0
		} else {
			run++
		}
	}
	if run > 0 {
		out = append(out, run)
	}
	return out
}

// TimeAverage returns the time average of a right-continuous step function
// over [t0, t1]: value v[i] holds from t[i] until t[i+1] (the last value
// until t1). Values before t[0] count as 0. Times must be non-decreasing.
func TimeAverage(t, v []float64, t0, t1 float64) float64 {
	if t1 <= t0 {
		return math.NaN()
	}
	area := 0.0
	for i := range t {
		a := math.Max(t[i], t0)
		b := t1
		if i+1 < len(t) {
			b = math.Min(t[i+1], t1)
		}
		if b > a {
			area += v[i] * (b - a)
		}
	}
	return area / (t1 - t0)
}

// Interval is a job's processor holding: node ranges (NodeRanges) held
// from Start to End.
type Interval struct {
	Start, End float64
	Nodes      []Range
}

// TimeAveragedFragmentation returns the time average, over [first start,
// last end], of Fragmentation of the free blocks (runs of consecutive node
// numbers: a line of processors on a flat machine) of a machine of procs
// processors, given the node ranges each job held. Instants with no free
// processor count as 0.
func TimeAveragedFragmentation(procs int64, jobs []Interval) float64 {
	type ev struct {
		t    float64
		busy bool
		rs   []Range
	}
	evs := make([]ev, 0, 2*len(jobs))
	t0, t1 := math.Inf(1), math.Inf(-1)
	for _, j := range jobs {
		if j.End <= j.Start {
			continue
		}
		evs = append(evs, ev{j.Start, true, j.Nodes}, ev{j.End, false, j.Nodes})
		t0, t1 = math.Min(t0, j.Start), math.Max(t1, j.End)
	}
	if len(evs) == 0 {
		return 0
	}
	slices.SortStableFunc(evs, func(a, b ev) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		case a.busy == b.busy:
			return 0
		case !a.busy:
			return -1 // releases first
		}
		return 1
	})
	count := make([]int32, procs) // holders per processor (≥ 1 busy)
	area := 0.0
	for i := 0; i < len(evs); {
		t := evs[i].t
		for ; i < len(evs) && evs[i].t == t; i++ {
			d := int32(-1)
			if evs[i].busy {
				d = 1
			}
			for _, r := range evs[i].rs {
				for p := max(r.Lo, 0); p <= r.Hi && p < procs; p++ {
					count[p] += d
				}
			}
		}
		if i == len(evs) {
			break
		}
		var s, s2, run float64
		for _, c := range count {
			if c > 0 {
				s2 += run * run
				s += run
				run = 0
			} else {
				run++
			}
		}
		s2 += run * run
		s += run
		f := 0.0
		if s > 0 {
			f = 1 - s2/(s*s)
		}
		area += f * (evs[i].t - t)
	}
	return area / (t1 - t0)
}

// Comm lists the summary columns of mesh placements and communication
// (Bani-Mohammad, Ould-Khaoua, Ababneh & Mackenzie 2006; model/network),
// for report pages that show them.
var Comm = []Metric{
	{"dispersion", "dispersion", "disp", Dimensionless, true, "mean over jobs of the mean hop distance between two of its processors (PlacementDispersion: Manhattan on a mesh, Hamming on a hypercube; NaN on a flat machine)"},
	{"pieces", "pieces per job", "pieces", Dimensionless, true, "mean number of submeshes (subcubes) a job was given (1: contiguous); NaN on a flat machine"},
	{"comm_time", "communication time", "comm", Time, true, "mean per job: start to its last packet's delivery (model/network)"},
	{"pkt_latency", "packet latency", "latency", Time, true, "mean per packet: sent to tail delivered"},
	{"pkt_blocking", "packet blocking", "block", Time, true, "mean per packet: time its header waited for a busy link or ejection channel"},
	{"hop_flits", "hop-flits per job", "hop-flits", Dimensionless, true, "mean per job: Σ over its packets of hops × P_len (hop-bytes in flits)"},
}

// Locality lists the summary columns of placement locality on machines
// with a topology (policy.Family.Locality: meshes, hypercubes, 3-D meshes
// and tori, ...), beside the mean pairwise hop distance (the dispersion
// column): NaN on a flat machine.
var Locality = []Metric{
	{"max_hops", "largest hop distance", "max-hops", Dimensionless, true, "mean over jobs of two or more processors of the largest hop distance between two of its processors (policy.Locality.MaxHops)"},
	{"span", "span", "span", Dimensionless, true, "mean over jobs of the switches (fat tree), groups (dragonfly) or planes (3-D: z slices; 2-D mesh and torus: rows; hypercube: the dimension of the smallest subcube) its processors touch (policy.Locality.Span)"},
	{"hop_bytes", "all-to-all hop-bytes", "hop-bytes", Dimensionless, true, "mean over jobs of the hop-bytes of an all-to-all exchange of one byte between every ordered pair of its processors: Σ of their hop distances (policy.Locality.HopBytes)"},
}

// CubeDispersion is the mean Hamming distance between two distinct nodes
// of a hypercube placement (subcubes policy.Subcube: base X, free bits
// Mask), in O(pieces × dimensions): per bit, the pairs that differ in it
// are (nodes with the bit set) × (nodes without). NaN for fewer than two
// nodes.
func CubeDispersion(ps []policy.Piece) float64 {
	n, sum := cubePairs(ps)
	if n < 2 {
		return math.NaN()
	}
	return float64(sum) / float64(n*(n-1)/2)
}

// cubePairs returns the nodes of a hypercube placement and the sum of the
// Hamming distances over its unordered pairs of nodes.
func cubePairs(ps []policy.Piece) (n, sum int64) {
	var ones [31]int64
	for _, p := range ps {
		size := int64(p.Size())
		n += size
		for b := range ones {
			switch bit := int32(1) << b; {
			case p.Mask&bit != 0:
				ones[b] += size / 2
			case p.X&bit != 0:
				ones[b] += size
			}
		}
	}
	for _, k := range ones {
		sum += k * (n - k)
	}
	return n, sum
}

// CubeLocality is the locality of a hypercube placement
// (policy.Locality): the mean Hamming distance (CubeDispersion), the
// largest (over pairs of subcubes, the bits either mask frees plus those
// their bases differ in elsewhere), the span (the dimension of the
// smallest subcube holding every node: the address bits that vary), and
// the all-to-all hop-bytes (twice the sum over unordered pairs).
func CubeLocality(ps []policy.Piece) policy.Locality {
	n, sum := cubePairs(ps)
	l := policy.Locality{MeanHops: math.NaN(), HopBytes: float64(2 * sum)}
	if len(ps) == 0 {
		return l
	}
	var vary int32
	for i, p := range ps {
		vary |= p.Mask | (p.X^ps[0].X)&^p.Mask
		for _, q := range ps[i:] {
			both := p.Mask | q.Mask
			l.MaxHops = max(l.MaxHops, bits.OnesCount32(uint32(both))+bits.OnesCount32(uint32((p.X^q.X)&^both)))
		}
	}
	l.Span = bits.OnesCount32(uint32(vary))
	if n >= 2 {
		l.MeanHops = float64(sum) / float64(n*(n-1)/2)
	}
	return l
}

// MeshDispersion is the mean Manhattan distance between two distinct nodes of
// a mesh placement (the hops a message between two of a job's processors
// crosses under XY routing), from its pieces in O(pieces² + W + H): per
// axis, the sum over pairs of |a − b| from the counts of nodes per column
// and per row. NaN for fewer than two nodes.
func MeshDispersion(ps []policy.Piece) float64 {
	n, sum, _ := meshPairs(ps)
	if n < 2 {
		return math.NaN()
	}
	return float64(sum) / float64(n*(n-1)/2)
}

// meshPairs returns the nodes of a mesh placement, the sum of the
// Manhattan distances over its unordered pairs of nodes, and the number
// of rows it touches.
func meshPairs(ps []policy.Piece) (n, sum int64, rowsTouched int) {
	var cols, rows []int64
	for _, p := range ps {
		for x := p.X; x < p.X+p.W; x++ {
			for int(x) >= len(cols) {
				cols = append(cols, 0)
			}
			cols[x] += int64(p.H)
		}
		for y := p.Y; y < p.Y+p.H; y++ {
			for int(y) >= len(rows) {
				rows = append(rows, 0)
			}
			rows[y] += int64(p.W)
		}
		n += int64(p.Size())
	}
	for _, r := range rows {
		if r > 0 {
			rowsTouched++
		}
	}
	return n, axisPairs(cols) + axisPairs(rows), rowsTouched
}

// MeshLocality is the locality of a mesh placement (policy.Locality): the
// mean Manhattan distance (MeshDispersion), the largest (from the pieces'
// corners: the largest spread of x + y or x − y), the span (the rows it
// touches: a 2-D mesh's planes are its rows), and the all-to-all
// hop-bytes (twice the sum over unordered pairs).
func MeshLocality(ps []policy.Piece) policy.Locality {
	n, sum, rows := meshPairs(ps)
	l := policy.Locality{MeanHops: math.NaN(), HopBytes: float64(2 * sum), Span: rows}
	if n < 2 {
		return l
	}
	l.MeanHops = float64(sum) / float64(n*(n-1)/2)
	lo, hi := [2]int32{math.MaxInt32, math.MaxInt32}, [2]int32{math.MinInt32, math.MinInt32}
	for _, p := range ps {
		for _, x := range [2]int32{p.X, p.X + p.W - 1} {
			for _, y := range [2]int32{p.Y, p.Y + p.H - 1} {
				for k, v := range [2]int32{x + y, x - y} {
					lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
				}
			}
		}
	}
	l.MaxHops = int(max(hi[0]-lo[0], hi[1]-lo[1]))
	return l
}

// axisPairs is Σ over unordered pairs of nodes of |c_a − c_b|, given the
// number of nodes at each coordinate.
func axisPairs(count []int64) int64 {
	var sum, before, weighted int64 // nodes and Σ coordinates at smaller coordinates
	for c, k := range count {
		sum += k * (int64(c)*before - weighted)
		before += k
		weighted += k * int64(c)
	}
	return sum
}

// CommTotals accumulates the communication of the counted jobs of a run
// (model/network.Stats) and their placements, for the summary's
// communication columns.
type CommTotals struct {
	disp                 float64
	dispN, pieces, jobs  int64
	comm, lat, block     float64
	packets, hops, cjobs int64
	plen                 int
	dispersion           func([]policy.Piece) float64

	locality              func([]policy.Piece) policy.Locality
	maxHops, span, hbytes float64
	maxN, locN            int64
}

// SetLocality makes c measure each placement's locality with f (the
// family's Locality; nil: none), for LocalityStats; its mean hop distance
// is then the dispersion counted.
func (c *CommTotals) SetLocality(f func([]policy.Piece) policy.Locality) { c.locality = f }

// LocalityStats returns the means over the counted jobs of the largest hop
// distance (jobs of two or more processors), the span and the all-to-all
// hop-bytes; NaN when no locality was measured.
func (c *CommTotals) LocalityStats() (maxHops, span, hopBytes float64) {
	maxHops, span, hopBytes = math.NaN(), math.NaN(), math.NaN()
	if c.maxN > 0 {
		maxHops = c.maxHops / float64(c.maxN)
	}
	if c.locN > 0 {
		span, hopBytes = c.span/float64(c.locN), c.hbytes/float64(c.locN)
	}
	return
}

// NewCommTotals returns an empty accumulator for packets of plen flits on
// a machine whose placements' dispersion is dispersion (the family's:
// MeshDispersion, CubeDispersion; nil on a machine with no topology).
func NewCommTotals(plen int, dispersion func([]policy.Piece) float64) *CommTotals {
	return &CommTotals{plen: plen, dispersion: dispersion}
}

// AddPlacement counts one job's placement on a machine with a topology
// (a mesh, a hypercube): its dispersion (jobs of one processor left out)
// and pieces. Placements on a machine with no topology (flat) are not
// counted: both are NaN there.
func (c *CommTotals) AddPlacement(ps []policy.Piece) {
	if len(ps) == 0 || c.dispersion == nil && c.locality == nil {
		return
	}
	c.jobs++
	c.pieces += int64(len(ps))
	var d float64
	if c.locality != nil {
		l := c.locality(ps)
		d = l.MeanHops
		c.locN++
		c.span += float64(l.Span)
		c.hbytes += l.HopBytes
		if !math.IsNaN(d) {
			c.maxN++
			c.maxHops += float64(l.MaxHops)
		}
	} else {
		d = c.dispersion(ps)
	}
	if !math.IsNaN(d) {
		c.disp += d
		c.dispN++
	}
}

// AddComm counts one job's communication: its time, packets, hops, and
// its packets' summed latency and blocking time.
func (c *CommTotals) AddComm(comm float64, packets, hops int64, latency, blocked float64) {
	c.cjobs++
	c.comm += comm
	c.packets += packets
	c.hops += hops
	c.lat += latency
	c.block += blocked
}

// Stats returns the mean dispersion and pieces per job, and the means of
// communication time, packet latency, packet blocking and hop-flits; NaN
// for what was not counted.
func (c *CommTotals) Stats() (disp, pieces, comm, lat, block, hopFlits float64) {
	nan := math.NaN()
	disp, pieces, comm, lat, block, hopFlits = nan, nan, nan, nan, nan, nan
	if c.dispN > 0 {
		disp = c.disp / float64(c.dispN)
	}
	if c.jobs > 0 {
		pieces = float64(c.pieces) / float64(c.jobs)
	}
	if c.cjobs > 0 {
		comm = c.comm / float64(c.cjobs)
		hopFlits = float64(c.hops) * float64(c.plen) / float64(c.cjobs)
	}
	if c.packets > 0 {
		lat = c.lat / float64(c.packets)
		block = c.block / float64(c.packets)
	}
	return
}
