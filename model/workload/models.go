package workload

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParamType is the type of a model parameter's value.
type ParamType int

// Parameter types; a Values entry of each holds a string, int, int64,
// float64 or bool.
const (
	StringParam ParamType = iota
	IntParam
	Int64Param
	FloatParam
	BoolParam
)

func (t ParamType) String() string {
	return [...]string{"string", "int", "int", "float", "bool"}[t]
}

// Scope says where a parameter is written: as a synth flag, as a key of a
// sweep plan's [[workload]] table, or both.
type Scope int

// Parameter scopes.
const (
	FlagAndKey Scope = iota
	FlagOnly         // synth only (the trace name, a single load)
)

// Param is one typed parameter of a workload model. Its synth flag is
// --Name, its plan key Key(); Default is the flag's default (nil: the
// type's zero); Range or Choices say which values are valid (the model's
// own checks decide; the descriptor documents them), Doc is the flag's
// usage and Source the paper the parameter comes from.
type Param struct {
	Name    string
	Type    ParamType
	Default any
	Choices []string
	Range   string
	Doc     string
	Source  string
	Scope   Scope
}

// Key is the parameter's key in a sweep plan: its name with underscores.
func (p Param) Key() string { return strings.ReplaceAll(p.Name, "-", "_") }

// Zero returns the parameter's default value, typed.
func (p Param) Zero() any {
	if p.Default != nil {
		return p.Default
	}
	switch p.Type {
	case IntParam:
		return 0
	case Int64Param:
		return int64(0)
	case FloatParam:
		return 0.0
	case BoolParam:
		return false
	}
	return ""
}

// Model describes a workload model the way a policy is described: a name,
// a doc line and its typed parameters, from which synth's flags and help,
// a sweep plan's keys and their validation, and docs/workloads.md derive.
type Model struct {
	Name   string
	Doc    string
	Params []Param
	// check validates a complete set of values (every parameter present):
	// the generator's own checks.
	check func(v Values) error
}

// Param returns the parameter named name.
func (m *Model) Param(name string) (Param, bool) {
	for _, p := range m.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Keys returns the model's plan keys, in declaration order.
func (m *Model) Keys() []string {
	var out []string
	for _, p := range m.Params {
		if p.Scope == FlagAndKey {
			out = append(out, p.Key())
		}
	}
	return out
}

// Values holds a model's parameter values by name; a missing one is its
// default.
type Values map[string]any

// Defaults returns m's default values.
func (m *Model) Defaults() Values {
	v := Values{}
	for _, p := range m.Params {
		v[p.Name] = p.Zero()
	}
	return v
}

// complete returns v with every missing parameter at its default.
func (m *Model) complete(v Values) Values {
	out := m.Defaults()
	for k, x := range v {
		out[k] = x
	}
	return out
}

// Str returns the string value name.
func (v Values) Str(name string) string { s, _ := v[name].(string); return s }

// Int returns the int value name.
func (v Values) Int(name string) int { n, _ := v[name].(int); return n }

// Int64 returns the int64 value name.
func (v Values) Int64(name string) int64 { n, _ := v[name].(int64); return n }

// Float returns the float64 value name.
func (v Values) Float(name string) float64 { x, _ := v[name].(float64); return x }

// Bool returns the bool value name.
func (v Values) Bool(name string) bool { b, _ := v[name].(bool); return b }

// ParamError is an invalid value of one model parameter: synth names its
// flag, a plan its file, line and key.
type ParamError struct {
	Model string
	Param string
	Value any
	Msg   string
}

func (e *ParamError) Error() string { return e.Param + " " + e.Detail() }

// Detail is the error without the parameter's name: "value: message".
func (e *ParamError) Detail() string { return FormatValue(e.Value) + ": " + e.Msg }

// FormatValue writes a parameter value as messages quote it.
func FormatValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// AsParamError returns err's parameter error, if it has one.
func AsParamError(err error) (*ParamError, bool) {
	var pe *ParamError
	ok := errors.As(err, &pe)
	return pe, ok
}

// Validate checks v (missing values at their defaults) with the model's
// own checks. An invalid set is blamed on one parameter, as a
// *ParamError: the first, in declaration order, whose value is invalid
// with the values before it as given and those after it at their
// defaults (so a value is blamed only with what comes before it; the
// defaults are valid together; the horizon, declared before the job
// count, is checked with the count it comes with).
func (m *Model) Validate(v Values) error {
	v = m.complete(v)
	err := m.check(v)
	if err == nil {
		return nil
	}
	w := m.Defaults()
	for _, p := range m.Params {
		w[p.Name] = v[p.Name]
		if h, _ := v["horizon"].(float64); p.Name == "horizon" && h != 0 {
			w["jobs"] = v["jobs"] // a horizon goes with the job count it resolved (0 unless given)
		}
		if e := m.check(w); e != nil {
			return &ParamError{Model: m.Name, Param: p.Name, Value: v[p.Name], Msg: trimSubject(e.Error(), v[p.Name])}
		}
	}
	return fmt.Errorf("%s: %w", m.Name, err)
}

// trimSubject drops a generator message's own "name value: " prefix, which
// the parameter error restates.
func trimSubject(msg string, v any) string {
	for _, val := range []string{FormatValue(v), fmt.Sprint(v)} {
		for _, sep := range []string{": ", " "} {
			head, rest, ok := strings.Cut(msg, " "+val+sep)
			if ok && head != "" && !strings.ContainsAny(head, " :") {
				return rest
			}
		}
	}
	return msg
}

// Models lists the workload models, in synth's order.
var Models = []*Model{&WorkloadModel, &MalleableModel, &LublinModel}

// ModelNamed returns the model named name.
func ModelNamed(name string) (*Model, bool) {
	for _, m := range Models {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// The parameters shared by the models' arrival processes.
var (
	paramHorizon = Param{Name: "horizon", Type: FloatParam, Range: "≥ 0", Doc: "generate arrivals up to this time instead of --jobs"}
	paramSeed    = Param{Name: "seed", Type: Int64Param, Default: int64(DefaultSeed), Doc: "random seed"}
	paramLoad    = Param{Name: "load", Type: FloatParam, Range: "> 0", Scope: FlagOnly, Doc: "target offered load ρ (sets the arrival rate from the model's exact means)"}
	paramIAT     = Param{Name: "iat", Type: FloatParam, Range: "> 0", Scope: FlagOnly, Doc: "mean inter-arrival time 1/λ, instead of --load (GABL's load is 1/IAT; Guha's Appendix IATs)"}
)

// WorkloadModel is rigid jobs on a flat machine, a mesh or a hypercube
// (WorkloadSpec, Generate), with priorities and deadlines (Windows).
var WorkloadModel = Model{
	Name: "workload",
	Doc:  "rigid jobs on a flat machine, mesh or hypercube (Chu 1995 §3, Mohapatra, Yu & Das 1995 §4, Bani-Mohammad et al. 2006)",
	Params: []Param{
		{Name: "machine", Type: StringParam, Default: DefaultMachine, Range: "flat:N, mesh:WxH or cube:n", Doc: "machine: flat:N, mesh:WxH or cube:n"},
		{Name: "size", Type: StringParam, Default: DefaultSize, Range: "by machine kind, see the doc", Doc: "job sizes; mesh: uniform, increasing, decreasing, square-uniform, square-increasing, square-decreasing, exponential (Chu §3 / Zhu); cube: uniform, normal (Mohapatra, Yu & Das 1995 §4); flat: uniform, exponential, log2", Source: "Chu 1995 §3; Mohapatra, Yu & Das 1995 §4"},
		{Name: "size-mean", Type: FloatParam, Range: "≥ 0", Doc: "exponential sizes: mean of the exponential before truncation (default: a quarter of the largest size)"},
		{Name: "size-max", Type: IntParam, Range: "≥ 0, at most the machine's limit", Doc: "largest request: mesh side, flat processors or cube dimension (default: the machine's limit; cube: n−1)"},
		{Name: "service", Type: StringParam, Default: DefaultService, Choices: []string{ServiceExp, ServiceUniform, ServiceDet, ServiceH2}, Doc: "service time: exp, uniform (0..2·mean), det, h2"},
		{Name: "mean", Type: FloatParam, Default: DefaultMean, Range: "> 0", Doc: "mean service (residence) time; Chu's EXTM = 10, Mohapatra, Yu & Das 1995 use 5", Source: "Chu 1995; Mohapatra, Yu & Das 1995"},
		{Name: "cv", Type: FloatParam, Default: DefaultCV, Range: "≥ 1 (h2)", Doc: "h2: coefficient of variation C_x (Mohapatra, Yu & Das 1995: 4)", Source: "Mohapatra, Yu & Das 1995"},
		{Name: "h2-alpha", Type: FloatParam, Default: DefaultH2Alpha, Range: "(0, 1) (h2)", Doc: "h2: probability of the short branch α (Mohapatra, Yu & Das 1995: 0.95)", Source: "Mohapatra, Yu & Das 1995"},
		{Name: "h2", Type: StringParam, Default: DefaultH2, Choices: []string{H2Alpha, H2Balanced}, Doc: "h2 parameterisation: alpha (Mohapatra, Yu & Das 1995, uses --h2-alpha) or balanced (balanced means, Guha 1995)", Source: "Mohapatra, Yu & Das 1995; Guha 1995"},
		{Name: "coupling", Type: StringParam, Default: DefaultCoupling, Choices: []string{CouplingDependent, CouplingIndependent}, Doc: "size–demand coupling (Mohapatra, Yu & Das 1995): dependent (residence independent of size) or independent (demand shared, residence = demand/procs)", Source: "Mohapatra, Yu & Das 1995"},
		{Name: "estimates", Type: StringParam, Default: DefaultEstimates, Range: "exact, eet:c=C or factor:x=X", Doc: "user estimates: exact, eet:c=C (Chu §7.3: Normal(y, c·y) clipped at 0) or factor:x=X", Source: "Chu 1995 §7.3"},
		{Name: "arrivals", Type: StringParam, Default: DefaultArrivals, Choices: []string{ArrivalsPoisson, ArrivalsUniform, ArrivalsDet}, Doc: "inter-arrival times: poisson (exponential), uniform (0..2·IAT) or det"},
		paramHorizon,
		{Name: "jobs", Type: IntParam, Default: DefaultJobs, Range: fmt.Sprintf("1..%d", MaxJobs), Doc: "number of jobs (Chu: 50,000 per run)", Source: "Chu 1995"},
		paramSeed,
		{Name: "name", Type: StringParam, Scope: FlagOnly, Doc: "trace name (default: the output file's base name; sweep: the file-name prefix, default the model)"},
		{Name: "priorities", Type: IntParam, Range: "≥ 0", Doc: "priority classes K: each job's priority drawn uniformly from 0..K−1, higher more urgent (pcw; 0: none, -1 in the trace)", Source: "pcw"},
		{Name: "laxity", Type: StringParam, Range: "A or A-B, 1 ≤ A ≤ B", Doc: "deadlines: submit + run × U(A, B) for A-B, or × A (1 ≤ A ≤ B; pcw; default none, -1 in the trace)", Source: "pcw"},
		paramLoad,
		paramIAT,
	},
}

// MalleableModel is Guha's malleable jobs (MalleableSpec,
// GenerateMalleable).
var MalleableModel = Model{
	Name: "malleable",
	Doc:  "malleable jobs with work, efficiency and parallelism cap (Guha 1995, York CS-95-03, Ch. 3)",
	Params: []Param{
		{Name: "procs", Type: IntParam, Default: DefaultMalleableProcs, Range: "≥ 2", Doc: "processors P (Guha: 100)", Source: "Guha 1995"},
		{Name: "work-mean", Type: FloatParam, Default: DefaultWorkMean, Range: "> 0", Doc: "mean work W̄ (Guha: 1000)", Source: "Guha 1995"},
		{Name: "work-cv", Type: FloatParam, Default: DefaultWorkCV, Range: "0 or ≥ 1", Doc: "work coefficient of variation C_W: 0 (fixed) or ≥ 1 (balanced H2; Guha: 0, 1, 5, 10, 30)", Source: "Guha 1995"},
		{Name: "eff", Type: StringParam, Default: DefaultEff, Range: "100/P ≤ ε_min ≤ ε_max < 100", Doc: "effective efficiency range ε_min-ε_max in percent, 100/P ≤ ε < 100 (Guha Table 3.2)", Source: "Guha 1995 Table 3.2"},
		{Name: "eff-dist", Type: StringParam, Default: DefaultEffDist, Choices: []string{EffUniform, EffBeta}, Doc: "efficiency distribution: uniform (integers) or beta (100·Beta matching the range's mean and variance)", Source: "Guha 1995"},
		{Name: "beta-p", Type: FloatParam, Range: "> 0 with beta-q, or 0", Doc: "eff-dist beta: explicit p (with --beta-q)"},
		{Name: "beta-q", Type: FloatParam, Range: "> 0 with beta-p, or 0", Doc: "eff-dist beta: explicit q (with --beta-p)"},
		{Name: "perfect", Type: BoolParam, Doc: "perfect efficiency: β = ∞, γ = p (ε = 100)", Source: "Guha 1995"},
		{Name: "cap-mean", Type: FloatParam, Range: "0 or ≥ 1", Doc: "input mean of the bounded-geometric parallelism cap N_i on 1..P (Guha §7.5; the observed mean is below both this and (P+1)/2); 0: no cap", Source: "Guha 1995 §7.5"},
		paramHorizon,
		{Name: "jobs", Type: IntParam, Default: DefaultMalleableJobs, Range: fmt.Sprintf("1..%d", MaxJobs), Doc: "number of jobs (Guha: ≥ 500,000 per trial)", Source: "Guha 1995"},
		paramSeed,
		{Name: "name", Type: StringParam, Scope: FlagOnly, Doc: "trace name (default: the output file's base name)"},
		paramLoad,
		paramIAT,
	},
}

// LublinModel is the Lublin–Feitelson model (LublinSpec, GenerateLublin).
var LublinModel = Model{
	Name: "lublin",
	Doc:  "rigid batch and interactive jobs from the Lublin–Feitelson (JPDC 2003) model, times in seconds",
	Params: []Param{
		{Name: "procs", Type: IntParam, Default: DefaultLublinProcs, Range: fmt.Sprintf("a power of two in %d..%d", 1<<lfMinLog2Procs, 1<<lfMaxLog2Procs), Doc: "machine size, a power of two in 32..2^20 (the published constants are for 128)", Source: "Lublin & Feitelson 2003"},
		{Name: "jobs", Type: IntParam, Default: DefaultLublinJobs, Range: fmt.Sprintf("1..%d", MaxJobs), Doc: "number of jobs"},
		{Name: "estimates", Type: StringParam, Default: DefaultEstimates, Range: "exact, eet:c=C or factor:x=X", Doc: "user estimates: exact, eet:c=C or factor:x=X"},
		paramSeed,
		{Name: "name", Type: StringParam, Scope: FlagOnly, Doc: "trace name (default: the output file's base name)"},
	},
}

// The models' checks: set here, as they use the models' defaults.
func init() {
	WorkloadModel.check, MalleableModel.check, LublinModel.check = checkWorkload, checkMalleable, checkLublin
}

func checkWorkload(v Values) error {
	s, err := WorkloadSpecOf(v)
	if err != nil {
		return err
	}
	if _, err := WindowsOf(v); err != nil {
		return err
	}
	loadOrOne(&s.Arrivals.Load, &s.Arrivals.IAT)
	c, err := s.compile()
	if err != nil {
		return err
	}
	return s.Arrivals.checkCount(c.iat)
}

func checkMalleable(v Values) error {
	s, err := MalleableSpecOf(v)
	if err != nil {
		return err
	}
	loadOrOne(&s.Load, &s.IAT)
	_, iat, err := s.check()
	if err != nil {
		return err
	}
	return Arrivals{Jobs: s.Jobs, Horizon: s.Horizon}.checkCount(iat)
}

func checkLublin(v Values) error {
	s, err := LublinSpecOf(v)
	if err != nil {
		return err
	}
	_, err = s.check()
	return err
}

// loadOrOne sets a load of 1 when neither a load nor an inter-arrival time
// is given: the parameters are checked whatever the load (the generators
// ask for one of them).
func loadOrOne(load, iat *float64) {
	if *load == 0 && *iat == 0 {
		*load = 1
	}
}

// WorkloadSpecOf returns the rigid-job model's spec of v (missing values
// at their defaults): every field but Seed, Rep and Name, which the
// caller sets.
func WorkloadSpecOf(v Values) (WorkloadSpec, error) {
	v = WorkloadModel.complete(v)
	est, err := ParseEstimates(v.Str("estimates"))
	if err != nil {
		return WorkloadSpec{}, err
	}
	return WorkloadSpec{
		Machine:  v.Str("machine"),
		Size:     SizeSpec{Dist: v.Str("size"), Mean: v.Float("size-mean"), Max: v.Int("size-max")},
		Service:  Service{Kind: v.Str("service"), Mean: v.Float("mean"), CV: v.Float("cv"), H2: v.Str("h2"), Alpha: v.Float("h2-alpha")},
		Coupling: v.Str("coupling"), Estimates: est,
		Arrivals: Arrivals{Kind: v.Str("arrivals"), Jobs: v.Int("jobs"), Horizon: v.Float("horizon"), Load: v.Float("load"), IAT: v.Float("iat")},
	}, nil
}

// WindowsOf returns the priority and deadline model of v.
func WindowsOf(v Values) (Windows, error) {
	lo, hi, err := ParseLaxity(v.Str("laxity"))
	if err != nil {
		return Windows{}, err
	}
	w := Windows{Priorities: v.Int("priorities"), LaxityMin: lo, LaxityMax: hi}
	return w, w.Check()
}

// MalleableSpecOf returns the malleable model's spec of v (missing values
// at their defaults): every field but Seed, Rep and Name.
func MalleableSpecOf(v Values) (MalleableSpec, error) {
	v = MalleableModel.complete(v)
	lo, hi, err := ParseEffRange(v.Str("eff"))
	if err != nil {
		return MalleableSpec{}, err
	}
	return MalleableSpec{
		Procs: v.Int("procs"), WorkMean: v.Float("work-mean"), WorkCV: v.Float("work-cv"),
		EffMin: lo, EffMax: hi, EffDist: v.Str("eff-dist"), BetaP: v.Float("beta-p"), BetaQ: v.Float("beta-q"),
		Perfect: v.Bool("perfect"), CapMean: v.Float("cap-mean"),
		Jobs: v.Int("jobs"), Horizon: v.Float("horizon"), Load: v.Float("load"), IAT: v.Float("iat"),
	}, nil
}

// LublinSpecOf returns the Lublin model's spec of v (missing values at
// their defaults): every field but Seed, Rep and Name.
func LublinSpecOf(v Values) (LublinSpec, error) {
	v = LublinModel.complete(v)
	est, err := ParseEstimates(v.Str("estimates"))
	if err != nil {
		return LublinSpec{}, err
	}
	return LublinSpec{Procs: v.Int("procs"), Jobs: v.Int("jobs"), Estimates: est}, nil
}
