package workload

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/trace"
)

// Sweep describes a load sweep: one trace per (load, replication).
//
// Replication r (1..Reps) at load ρ is generated with seed
// SweepSeed(Seed, ρ, r), so every trace has its own independent streams
// (with CRN, SweepSeed(Seed, 0, r) for every load: common random numbers
// across loads, so the traces of one replication differ only in their
// arrival rate and their realised loads are ordered like the targets), and
// is named SweepName(model, ρ, r), e.g. "workload-load0.30-rep01"; its
// provenance records Load = ρ and Rep = r.
type Sweep struct {
	Loads []float64 // offered loads
	Reps  int       // replications per load (≥ 1)
	Seed  int64     // base seed
	CRN   bool      // common random numbers across loads (one seed per replication)
}

// ParseLoads parses a load list: "LO:HI:STEP" (inclusive, e.g.
// "0.1:0.9:0.1"), a comma-separated list "0.3,0.5,0.7", or one value.
// Values are rounded to 1e-9 so that 0.1:0.9:0.1 gives exactly 0.1, ..., 0.9.
func ParseLoads(s string) ([]float64, error) {
	bad := func(why string) ([]float64, error) {
		return nil, fmt.Errorf("load %q: %s", s, why)
	}
	round := func(f float64) float64 { return math.Round(f*1e9) / 1e9 }
	num := func(v string) (float64, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if r := round(f); err != nil || !(r > 0) || math.IsInf(r, 0) { // 1e300 rounds to +Inf
			return 0, fmt.Errorf("load %q: %q is not a positive number (loads are rounded to 1e-9)", s, v)
		}
		return f, nil
	}
	if parts := strings.Split(s, ":"); len(parts) == 3 {
		lo, err := num(parts[0])
		if err != nil {
			return nil, err
		}
		hi, err := num(parts[1])
		if err != nil {
			return nil, err
		}
		step, err := num(parts[2])
		if err != nil {
			return nil, err
		}
		if hi < lo {
			return bad("HI below LO")
		}
		c := math.Floor((hi-lo)/step+1e-9) + 1 // may be +Inf: compare before converting
		if !(c <= 10000) {
			return bad("more than 10000 loads")
		}
		n := int(c)
		out := make([]float64, n)
		for i := range out {
			out[i] = round(lo + float64(i)*step)
		}
		return out, nil
	} else if len(parts) != 1 {
		return bad("want LO:HI:STEP, a comma-separated list, or one value")
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		f, err := num(p)
		if err != nil {
			return nil, err
		}
		out = append(out, round(f))
	}
	return out, nil
}

// FormatLoad spells a load for file names: two decimals ("0.30") unless
// more are needed ("0.125").
func FormatLoad(load float64) string {
	s := strconv.FormatFloat(load, 'f', -1, 64)
	if two := strconv.FormatFloat(load, 'f', 2, 64); len(s) <= len(two) {
		return two
	}
	return s
}

// SweepName is the name of replication rep at load: "MODEL-loadL-repRR".
func SweepName(model string, load float64, rep int) string {
	return fmt.Sprintf("%s-load%s-rep%02d", model, FormatLoad(load), rep)
}

// Run generates every trace of the sweep in order (loads as given, then
// replications 1..Reps) and hands each to emit. gen makes the trace of one
// load, replication and seed; its Name is set to SweepName(model, ...).
func (sw Sweep) Run(model string, gen func(load float64, rep int, seed int64) (*trace.Trace, error), emit func(*trace.Trace) error) error {
	if len(sw.Loads) == 0 {
		return fmt.Errorf("sweep: no loads")
	}
	if sw.Reps < 1 {
		return fmt.Errorf("sweep: reps %d must be ≥ 1", sw.Reps)
	}
	for _, load := range sw.Loads {
		for rep := 1; rep <= sw.Reps; rep++ {
			tr, err := sw.Trace(model, load, rep, gen)
			if err != nil {
				return err
			}
			if err := emit(tr); err != nil {
				return err
			}
		}
	}
	return nil
}

// Trace generates the one trace of the sweep at load and replication rep,
// exactly as Run would: a plan's runner generates only the traces its
// cells need.
func (sw Sweep) Trace(model string, load float64, rep int, gen func(load float64, rep int, seed int64) (*trace.Trace, error)) (*trace.Trace, error) {
	key := load
	if sw.CRN {
		key = 0
	}
	tr, err := gen(load, rep, SweepSeed(sw.Seed, key, rep))
	if err != nil {
		return nil, fmt.Errorf("sweep load %s rep %d: %w", FormatLoad(load), rep, err)
	}
	tr.Name = SweepName(model, load, rep)
	tr.Provenance.Params["sweep_seed"] = strconv.FormatInt(sw.Seed, 10)
	tr.Provenance.Params["sweep_crn"] = strconv.FormatBool(sw.CRN)
	// The SWF header carries every parameter as a note; so must an
	// SWF sweep's (the header was built before these two existed).
	tr.Header = append(tr.Header,
		trace.HeaderField{Key: "Note", Value: "sweep_crn=" + strconv.FormatBool(sw.CRN)},
		trace.HeaderField{Key: "Note", Value: "sweep_seed=" + strconv.FormatInt(sw.Seed, 10)})
	return tr, nil
}

// SweepWorkload runs a sweep of the rigid-job model: base with its load,
// seed and replication replaced (its IAT must be unset). The traces are
// named SweepName(base.Name, ...), or SweepName("workload", ...) when
// base.Name is empty.
func (sw Sweep) SweepWorkload(base WorkloadSpec, emit func(*trace.Trace) error) error {
	if base.Arrivals.IAT != 0 {
		return fmt.Errorf("sweep: --iat cannot be swept; give --load")
	}
	return sw.Run(or(base.Name, "workload"), workloadGen(base), emit)
}

// WorkloadTrace generates one trace of SweepWorkload's sweep.
func (sw Sweep) WorkloadTrace(base WorkloadSpec, load float64, rep int) (*trace.Trace, error) {
	return sw.Trace(or(base.Name, "workload"), load, rep, workloadGen(base))
}

func workloadGen(base WorkloadSpec) func(load float64, rep int, seed int64) (*trace.Trace, error) {
	return func(load float64, rep int, seed int64) (*trace.Trace, error) {
		s := base
		s.Arrivals.Load, s.Seed, s.Rep = load, seed, rep
		return Generate(s)
	}
}

// SweepMalleable runs a sweep of the malleable model, named like
// SweepWorkload's (default prefix "malleable").
func (sw Sweep) SweepMalleable(base MalleableSpec, emit func(*trace.Trace) error) error {
	if base.IAT != 0 {
		return fmt.Errorf("sweep: --iat cannot be swept; give --load")
	}
	return sw.Run(or(base.Name, "malleable"), malleableGen(base), emit)
}

// MalleableTrace generates one trace of SweepMalleable's sweep.
func (sw Sweep) MalleableTrace(base MalleableSpec, load float64, rep int) (*trace.Trace, error) {
	return sw.Trace(or(base.Name, "malleable"), load, rep, malleableGen(base))
}

// MalleableTraceIAT generates the trace at replication rep of a sweep
// point whose arrival rate is given as a mean inter-arrival time iat
// rather than by load (Guha 1995's Appendix IATs, calibrated per
// experiment): load only names the trace, keys its seed like
// MalleableTrace's, and is recorded as the trace's nominal load
// (Provenance.Load and the load parameter); offered_load stays λ·W̄/P.
func (sw Sweep) MalleableTraceIAT(base MalleableSpec, load, iat float64, rep int) (*trace.Trace, error) {
	tr, err := sw.Trace(or(base.Name, "malleable"), load, rep, func(_ float64, rep int, seed int64) (*trace.Trace, error) {
		s := base
		s.Load, s.IAT, s.Seed, s.Rep = 0, iat, seed, rep
		return GenerateMalleable(s)
	})
	if err != nil {
		return nil, err
	}
	tr.Provenance.Load = load
	tr.Provenance.Params["load"] = ftoa(load)
	tr.Header = append(tr.Header, trace.HeaderField{Key: "Note", Value: "load=" + ftoa(load)})
	return tr, nil
}

func malleableGen(base MalleableSpec) func(load float64, rep int, seed int64) (*trace.Trace, error) {
	return func(load float64, rep int, seed int64) (*trace.Trace, error) {
		s := base
		s.Load, s.Seed, s.Rep = load, seed, rep
		return GenerateMalleable(s)
	}
}
