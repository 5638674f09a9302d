package workload

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// Size–demand coupling (flag --coupling; Mohapatra, Yu & Das 1995 §4).
const (
	// CouplingDependent: the residence time has the same distribution for
	// every size, so larger jobs carry more total demand (Mohapatra, Yu & Das 1995, Table I).
	CouplingDependent = "dependent"
	// CouplingIndependent: the total service demand x has the same
	// distribution for every size, with mean E[processors]·mean, and the
	// residence time is x / processors, so larger jobs run shorter.
	CouplingIndependent = "independent"
)

// WorkloadSpec is the rigid-job model of `synth workload`.
//
// Offered load. For every machine the target load ρ sets the arrival rate
//
//	λ = ρ · N / (E[processors] · mean)
//
// with E[processors] the exact mean of the size distribution (not a sample
// mean) and mean the service mean (--mean). This is each paper's own
// definition: Chu §3, load = n̄·EXTM/(N·IATM) with n̄ the mean requested
// submesh size; Mohapatra, Yu & Das 1995 §4, λ = 2^n/(mean job size × mean residence)·rate,
// with "mean job size" read as the mean number of processors (the paper's
// 6-cube example); under independent coupling the mean total demand is
// E[processors]·mean by construction, so the same formula holds. GABL
// (Bani-Mohammad et al. 2006) defines load as 1/IAT: pass --iat for it.
type WorkloadSpec struct {
	Machine   string    // "flat:N", "mesh:WxH" or "cube:n"
	Size      SizeSpec  // job-size distribution
	Service   Service   // service (residence) time, or total demand under independent coupling
	Coupling  string    // CouplingDependent (default) or CouplingIndependent
	Estimates Estimates // user estimates (zero value: exact)
	Arrivals  Arrivals  // arrival process, load and length
	Seed      int64     // random seed
	Rep       int       // replication index (0 when single)
	Name      string    // trace name (default "workload")
}

// compiled is a checked WorkloadSpec.
type compiled struct {
	m       policy.Machine
	sizes   *sizeModel
	service sampler
	indep   bool
	iat     float64
}

func (s *WorkloadSpec) compile() (*compiled, error) {
	m, err := policy.ParseMachine(s.Machine)
	if err != nil {
		return nil, err
	}
	sizes, err := newSizeModel(m, s.Size)
	if err != nil {
		return nil, err
	}
	c := &compiled{m: m, sizes: sizes}
	switch s.Coupling {
	case CouplingDependent, "":
	case CouplingIndependent:
		c.indep = true
	default:
		return nil, fmt.Errorf("coupling %q: unknown (want dependent or independent)", s.Coupling)
	}
	if !(s.Service.Mean > 0) {
		return nil, fmt.Errorf("service: mean %g must be positive", s.Service.Mean)
	}
	mean := s.Service.Mean
	if c.indep {
		mean *= sizes.meanP
	}
	if c.service, err = s.Service.compile(mean); err != nil {
		return nil, err
	}
	if err := s.Arrivals.check(); err != nil {
		return nil, err
	}
	if err := s.Estimates.check(); err != nil {
		return nil, err
	}
	c.iat = s.Arrivals.IAT
	if c.iat == 0 {
		c.iat = sizes.meanP * s.Service.Mean / (float64(m.Procs) * s.Arrivals.Load)
	}
	return c, nil
}

// MeanProcs returns the exact mean number of processors per job of s's
// size distribution on s's machine.
func (s *WorkloadSpec) MeanProcs() (float64, error) {
	m, err := policy.ParseMachine(s.Machine)
	if err != nil {
		return 0, err
	}
	sm, err := newSizeModel(m, s.Size)
	if err != nil {
		return 0, err
	}
	return sm.meanP, nil
}

// IAT returns the mean inter-arrival time s generates with: Arrivals.IAT
// when set, else the one the target load implies.
func (s *WorkloadSpec) IAT() (float64, error) {
	c, err := s.compile()
	if err != nil {
		return 0, err
	}
	return c.iat, nil
}

// Generate draws the trace of s. Jobs are numbered 1..n in submit order;
// each has Submit, Run (residence time), ReqProcs = AllocProcs (w·h on a
// mesh, 2^k on a hypercube), ReqWidth/ReqHeight on a mesh, ReqTime (the
// user estimate), Status 1, Wait −1, all else −1.
func Generate(s WorkloadSpec) (*trace.Trace, error) {
	c, err := s.compile()
	if err != nil {
		return nil, err
	}
	est := s.Estimates
	if est.Kind == "" {
		est.Kind = EstimatesExact
	}
	clock := &arrivalClock{kind: s.Arrivals.Kind, iat: c.iat, r: newStream(s.Seed, streamArrivals)}
	rs := newStream(s.Seed, streamSizes)
	rv := newStream(s.Seed, streamService)
	re := newStream(s.Seed, streamEstimates)
	if err := s.Arrivals.checkCount(c.iat); err != nil {
		return nil, err
	}
	jobs := make([]trace.Job, 0, s.Arrivals.capacity(c.iat))
	for id := int64(1); ; id++ {
		if s.Arrivals.Jobs > 0 && len(jobs) == s.Arrivals.Jobs {
			break
		}
		t := clock.next()
		if s.Arrivals.Horizon > 0 && t > s.Arrivals.Horizon {
			break
		}
		procs, w, h := c.sizes.draw(rs)
		run := c.service.sample(rv)
		if c.indep {
			run /= float64(procs)
		}
		j := trace.NewJob(id)
		j.Submit, j.Run = t, run
		j.ReqProcs, j.AllocProcs = procs, procs
		j.ReqWidth, j.ReqHeight = w, h
		j.ReqTime = est.estimate(re, run)
		j.Status = 1
		jobs = append(jobs, j)
	}
	p := map[string]string{
		"machine":    c.m.String(),
		"coupling":   or(s.Coupling, CouplingDependent),
		"estimates":  est.String(),
		"seed":       strconv.FormatInt(s.Seed, 10),
		"rep":        strconv.Itoa(s.Rep),
		"mean_procs": ftoa(c.sizes.meanP),
	}
	s.Size.params(p)
	s.Service.params(p)
	s.Arrivals.params(p, c.iat)
	p["offered_load"] = ftoa(s.offered(c))
	load := -1.0
	if s.Arrivals.IAT == 0 {
		load = s.Arrivals.Load
	}
	tr := &trace.Trace{
		Name:    or(s.Name, "workload"),
		Machine: c.m.String(),
		Provenance: trace.Provenance{
			Generator:     "workload",
			Params:        p,
			Seed:          s.Seed,
			SchemaVersion: trace.SchemaVersion,
			Load:          load,
			Rep:           s.Rep,
		},
		Jobs:     jobs,
		Warnings: loadWarning(max(load, s.offered(c))),
	}
	tr.Header = header(tr, int64(c.m.Procs), "abstract time units")
	return tr, nil
}

// offered is the offered load implied by c's arrival rate.
func (s *WorkloadSpec) offered(c *compiled) float64 {
	return c.sizes.meanP * s.Service.Mean / (float64(c.m.Procs) * c.iat)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// header builds the SWF header of a synthetic trace.
func header(tr *trace.Trace, procs int64, units string) trace.Header {
	var h trace.Header
	h.Set("Version", "2.2")
	h.Set("Computer", tr.Machine)
	h.Set("Information", "synthetic trace by schedlab synth "+tr.Provenance.Generator+"; times in "+units)
	h.Set("MaxJobs", strconv.Itoa(len(tr.Jobs)))
	h.Set("MaxRecords", strconv.Itoa(len(tr.Jobs)))
	h.Set("MaxNodes", strconv.FormatInt(procs, 10))
	h.Set("MaxProcs", strconv.FormatInt(procs, 10))
	for _, k := range tr.Provenance.ParamKeys() {
		h = append(h, trace.HeaderField{Key: "Note", Value: k + "=" + tr.Provenance.Params[k]})
	}
	return h
}
