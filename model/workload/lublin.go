package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/schedlab/schedlab/trace"
	"gonum.org/v1/gonum/mathext"
)

// The Lublin–Feitelson model (U. Lublin and D. G. Feitelson, "The workload
// on parallel supercomputers: modeling the characteristics of rigid jobs",
// JPDC 63(11), 2003). Every constant below is copied from the authors' C
// implementation m_lublin99.c ("A Workload Model for Parallel Computer
// Systems", Uri Lublin and Dror Feitelson, distributed by the Parallel
// Workloads Archive, cs.huji.ac.il/labs/parallel/workload/models.html), with
// INCLUDE_JOBS_TYPE = 1 (batch and interactive jobs), and cross-checked
// against GridSim's port gridsim.parallel.util.WorkloadLublin99, whose
// defaults are identical. The names are the C macros'.
const (
	lfBuckets         = 48   // BUCKETS: half-hour buckets in a day
	lfSecondsInBucket = 1800 // SECONDS_IN_BUCKET = 24·3600/48
	lfCyclicDayStart  = 11   // CYCLIC_DAY_START
	lfTooMuchTime     = 12   // TOO_MUCH_TIME: log run time ≤ 12 (exp(12) s ≈ 2 days)
	lfTooMuchArrive   = 13   // TOO_MUCH_ARRIVE_TIME: log inter-arrival ≤ 13
	lfStartHour       = 0    // START: the simulation starts at midnight
	lfUHiRef          = 7.0  // UHI_BATCH: the constants are for 2^7 = 128 nodes
	lfMinLog2Procs    = 5    // smallest machine we accept (see LublinSpec)
	lfMaxLog2Procs    = 20
	lfBatch           = 1 // BATCH (C array index; also the SWF queue number)
	lfInteractive     = 0 // ACTIVE
)

// lublinParams are the parameters of one job type (batch or interactive).
type lublinParams struct {
	serialProb, pow2Prob   float64 // SERIAL_PROB_*, POW2_PROB_*
	uLow, uMed, uHi, uProb float64 // ULOW_*, UMED_*, UHI_*, UPROB_* (two-stage uniform on log2 size)
	a1, b1, a2, b2, pa, pb float64 // A1_*, B1_*, A2_*, B2_*, PA_*, PB_* (hyper-gamma log run time)
	aarr, barr, anum, bnum float64 // AARR_*·ARAR_*, BARR_*, ANUM_*, BNUM_* (arrivals)
}

// lublinBatch and lublinInteractive are m_lublin99.c's constants.
var (
	lublinBatch = lublinParams{
		serialProb: 0.2927, pow2Prob: 0.6686, // SERIAL_PROB_BATCH, POW2_PROB_BATCH
		uLow: 1.2, uMed: 5, uHi: 7, uProb: 0.875, // ULOW_BATCH, UMED_BATCH, UHI_BATCH, UPROB_BATCH
		a1: 6.57, b1: 0.823, a2: 639.1, b2: 0.0156, pa: -0.003, pb: 0.6986, // A1..PB_BATCH
		aarr: 6.0415 * 1.0519, barr: 0.8531, anum: 6.1271, bnum: 5.2740, // AARR_BATCH·ARAR_BATCH, BARR_BATCH, ANUM_BATCH, BNUM_BATCH
	}
	lublinInteractive = lublinParams{
		serialProb: 0.1541, pow2Prob: 0.625, // SERIAL_PROB_ACTIVE, POW2_PROB_ACTIVE
		uLow: 1, uMed: 3, uHi: 5.5, uProb: 0.705, // ULOW_ACTIVE, UMED_ACTIVE, UHI_ACTIVE, UPROB_ACTIVE
		a1: 3.8351, b1: 0.6605, a2: 7.073, b2: 0.6856, pa: -0.0118, pb: 0.9156, // A1..PB_ACTIVE
		aarr: 6.5510 * 0.9797, barr: 0.6621, anum: 8.9186, bnum: 3.6680, // AARR_ACTIVE·ARAR_ACTIVE, BARR_ACTIVE, ANUM_ACTIVE, BNUM_ACTIVE
	}
)

// LublinSpec is the Lublin–Feitelson model for `synth lublin`: rigid jobs
// on flat:Procs, batch and interactive, with arrival times in seconds.
//
//   - Size: serial with probability serial_prob; otherwise log2(size) is
//     two-stage uniform (ULow, UMed) w.p. Uprob, else (UMed, UHi), rounded
//     to an integer (a power of two) w.p. pow2_prob/(1 − serial_prob) of
//     the parallel jobs; size = round(2^x).
//   - Run time: exp of a hyper-gamma whose first-branch probability is
//     p = pa·size + pb clipped to [0, 1] (larger jobs run longer), redrawn
//     when log run time > 12; truncated to whole seconds as in the C code.
//   - Arrivals: per type, gamma(aarr, barr) log inter-arrival times at rush
//     hour, stretched through a daily cycle of 48 half-hour buckets weighted
//     by the gamma(anum, bnum) density (day shifted by CYCLIC_DAY_START);
//     the two types' streams are merged, as in the C code's arrive().
//
// Scaling to the machine (our modelling choice, following the C comments
// "UHi is the log2 of the system size" and "UMed = UHi − 2.5 (1.5..3.5)"):
// UHi and UMed of both types are shifted by log2(Procs) − 7, so flat:128
// gets exactly the published constants. Procs must be a power of two in
// 32..2^20 (below 32 the interactive UMed falls under ULow).
//
// Random streams differ from the C code's single drand48 (one PCG stream
// per quantity here), and gamma variates use Marsaglia–Tsang instead of
// Jain's method; the distributions are the same, the numbers are not.
// Submit times are whole seconds as in the C code, but truncated from an
// exact running clock: the C code truncates the running sum itself, which
// drifts the arrivals away from the daily cycle (see lublinStream.next).
type LublinSpec struct {
	Procs     int       // machine size, a power of two
	Jobs      int       // number of jobs
	Estimates Estimates // user estimates (the model has none; default exact)
	Seed      int64
	Rep       int
	Name      string // trace name (default "lublin")
}

// check validates s and returns log2 of its machine size.
func (s *LublinSpec) check() (int, error) {
	k := 0
	for 1<<k < s.Procs {
		k++
	}
	if s.Procs < 1 || 1<<k != s.Procs || k < lfMinLog2Procs || k > lfMaxLog2Procs {
		return 0, fmt.Errorf("procs %d: the Lublin model needs a power of two in %d..%d", s.Procs, 1<<lfMinLog2Procs, 1<<lfMaxLog2Procs)
	}
	if s.Jobs < 1 || s.Jobs > MaxJobs {
		return 0, fmt.Errorf("jobs %d must be in 1..%d", s.Jobs, MaxJobs)
	}
	if err := s.Estimates.check(); err != nil {
		return 0, err
	}
	return k, nil
}

// lublinStream is the arrival process of one job type.
type lublinStream struct {
	p                lublinParams
	weights          [lfBuckets]float64
	current          int
	points, reminder float64
	clock            float64 // exact time of the next arrival
	timeFromBegin    float64 // clock truncated to whole seconds (the C code's unsigned long)
	r                *rand.Rand
}

func newLublinStream(p lublinParams, r *rand.Rand) *lublinStream {
	s := &lublinStream{p: p, r: r, current: lfStartHour * lfBuckets / 24}
	// arrive_init: bucket weights from the gamma(anum, bnum) cdf.
	var mean float64
	for i := lfCyclicDayStart; i < lfBuckets+lfCyclicDayStart; i++ {
		idx := (i - 1) % lfBuckets
		s.weights[idx] = gammaCDF(float64(i)+0.5, p.anum, p.bnum) - gammaCDF(float64(i)-0.5, p.anum, p.bnum)
		mean += s.weights[idx]
	}
	mean /= lfBuckets
	for i := range s.weights {
		s.weights[i] /= mean
	}
	s.next()
	return s
}

// gammaCDF is the cdf of gamma(shape a, scale b) at x (the C gamcdf).
func gammaCDF(x, a, b float64) float64 { return mathext.GammaIncReg(a, x/b) }

// next is the C calc_next_arrive: it advances timeFromBegin to the type's
// next arrival.
func (s *lublinStream) next() {
	bucket := s.current
	var gam float64
	for {
		gam = gammaRand(s.r, s.p.aarr, s.p.barr)
		if gam <= lfTooMuchArrive {
			break
		}
	}
	s.points += math.Exp(gam) / lfSecondsInBucket
	next := 0.0
	for s.points > s.weights[bucket] {
		s.points -= s.weights[bucket]
		bucket = (bucket + 1) % lfBuckets
		next += lfSecondsInBucket
	}
	newReminder := s.points / s.weights[bucket]
	next += lfSecondsInBucket * (newReminder - s.reminder)
	s.reminder = newReminder
	// The C code adds next to the unsigned long time_from_begin, which
	// truncates the running sum at every arrival: the arrival clock then
	// loses about 0.5 s per arrival against the bucket clock, and over a
	// long run the daily cycle drifts and smears (flat within ~1300 days,
	// 200,000 jobs). We keep the exact clock and truncate only the output.
	s.clock += next
	s.timeFromBegin = math.Floor(s.clock)
	s.current = bucket
}

// nodes is the C calc_number_of_nodes.
func (p *lublinParams) nodes(r *rand.Rand) int64 {
	u := r.Float64()
	if u <= p.serialProb {
		return 1
	}
	var par float64
	if r.Float64() <= p.uProb {
		par = p.uLow + r.Float64()*(p.uMed-p.uLow)
	} else {
		par = p.uMed + r.Float64()*(p.uHi-p.uMed)
	}
	if u <= p.serialProb+p.pow2Prob {
		par = math.Floor(par + 0.5)
	}
	return int64(math.Floor(math.Pow(2, par) + 0.5))
}

// runTime is the C time_from_nodes.
func (p *lublinParams) runTime(r *rand.Rand, nodes int64) float64 {
	prob := min(1, max(0, p.pa*float64(nodes)+p.pb))
	for {
		var hg float64
		if r.Float64() <= prob {
			hg = gammaRand(r, p.a1, p.b1)
		} else {
			hg = gammaRand(r, p.a2, p.b2)
		}
		if hg <= lfTooMuchTime {
			return math.Floor(math.Exp(hg))
		}
	}
}

// GenerateLublin draws the trace of s. Job fields: Submit and Run in
// seconds, ReqProcs = AllocProcs = size, ReqTime per Estimates, Status 1,
// Queue = 1 for batch and 0 for interactive jobs (as the C code's SWF
// output), all else −1.
func GenerateLublin(s LublinSpec) (*trace.Trace, error) {
	k, err := s.check()
	if err != nil {
		return nil, err
	}
	est := s.Estimates
	if est.Kind == "" {
		est.Kind = EstimatesExact
	}
	shift := float64(k) - lfUHiRef
	params := [2]lublinParams{lublinInteractive, lublinBatch}
	for i := range params {
		params[i].uHi += shift
		params[i].uMed += shift
	}
	streams := [2]*lublinStream{
		newLublinStream(params[lfInteractive], newStream(s.Seed, streamInteractive)),
		newLublinStream(params[lfBatch], newStream(s.Seed, streamBatch)),
	}
	rs := newStream(s.Seed, streamSizes)
	rv := newStream(s.Seed, streamService)
	re := newStream(s.Seed, streamEstimates)
	jobs := make([]trace.Job, 0, s.Jobs)
	for id := int64(1); id <= int64(s.Jobs); id++ {
		typ := lfInteractive
		if streams[lfBatch].timeFromBegin < streams[lfInteractive].timeFromBegin {
			typ = lfBatch
		}
		st := streams[typ]
		t := st.timeFromBegin
		st.next()
		nodes := params[typ].nodes(rs)
		run := params[typ].runTime(rv, nodes)
		j := trace.NewJob(id)
		j.Submit, j.Run = t, run
		j.ReqProcs, j.AllocProcs = nodes, nodes
		j.ReqTime = est.estimate(re, run)
		j.Status = 1
		j.Queue = int64(typ)
		jobs = append(jobs, j)
	}
	par := map[string]string{
		"machine":   fmt.Sprintf("flat:%d", s.Procs),
		"procs":     strconv.Itoa(s.Procs),
		"jobs":      strconv.Itoa(s.Jobs),
		"estimates": est.String(),
		"seed":      strconv.FormatInt(s.Seed, 10),
		"rep":       strconv.Itoa(s.Rep),
		"uhi_shift": ftoa(shift),
		"source":    "m_lublin99.c constants, batch+interactive (INCLUDE_JOBS_TYPE=1)",
	}
	tr := &trace.Trace{
		Name:    or(s.Name, "lublin"),
		Machine: par["machine"],
		Provenance: trace.Provenance{
			Generator: "lublin", Params: par, Seed: s.Seed,
			SchemaVersion: trace.SchemaVersion, Load: -1, Rep: s.Rep,
		},
		Jobs: jobs,
	}
	tr.Header = header(tr, int64(s.Procs), "seconds")
	return tr, nil
}
