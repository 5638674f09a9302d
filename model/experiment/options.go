package experiment

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/mesh"
	"github.com/schedlab/schedlab/model/network"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/stretch"
)

// Kind is the type of a replay option's value.
type Kind int

// Option kinds.
const (
	StringOption Kind = iota
	BoolOption
	IntOption
	FloatOption
	ListOption // of strings: comma-separated and repeatable as a flag, an array as a plan key
)

// Option declares one replay option: its name (used in errors and
// documentation), its flag of `replay run`, its key in a sweep plan's
// [replay] table, its type, default and doc line. The flags of cmd/replay
// and the plan keys of model/sweep derive from ReplayOptions.
type Option struct {
	Name    string // the option's name in field errors: the flag's name
	Flag    string // `replay run` flag, without dashes ("": none)
	Key     string // sweep plan [replay] key ("": none)
	Kind    Kind
	Default any    // the flag's default (string, bool, int or float64; nil: the zero value)
	Doc     string // the flag's usage
	// KeyDoc, when set, documents the plan key where it differs from the
	// flag (a list of machines, a negated switch).
	KeyDoc string
}

// ReplayOptions declares every replay option, in the order of
// `replay run --help`.
var ReplayOptions = []Option{
	{Name: "machine", Flag: "machine", Key: "machines", Kind: StringOption, Doc: "machine for every trace (flat:N, mesh:WxH, cube:n, malleable:P; see replay list); default: the trace's hint, else flat:MaxProcs, else (a log without a header size) flat with its largest job, with a warning",
		KeyDoc: "machines, an array: every trace runs on each (default: each trace's machine)"},
	{Name: "mode", Flag: "mode", Key: "mode", Kind: StringOption, Default: policy.ModeRigid, Doc: "rigid (jobs hold their processors from start to end) or malleable, an alias: --machine flat:P --mode malleable is --machine malleable:P (Guha 1995 dynamic space sharing: fractional allocations repartitioned at every arrival and departure; needs the trace's work and efficiency columns; allocator share, schedulers eq, alpha, lrwf, mrwf, wk, we, wf)"},
	{Name: "alloc", Flag: "alloc", Key: "allocs", Kind: ListOption, Doc: "allocator specs, comma-separated, repeatable (default: count on flat machines, every compatible one on the others; all: every compatible one)",
		KeyDoc: "allocs, every compatible one by default (the count default is replay run's)"},
	{Name: "sched", Flag: "sched", Key: "scheds", Kind: ListOption, Doc: "scheduler specs, comma-separated, repeatable, e.g. fcfs,mq:q=32,order=down (default: every compatible one)"},
	{Name: "out", Flag: "out", Kind: StringOption, Default: "out", Doc: "output directory"},
	{Name: "j", Flag: "j", Kind: IntOption, Doc: "parallel runs"},
	{Name: "check", Flag: "check", Key: "check", Kind: BoolOption, Doc: "verify engine invariants (no processor held twice, capacity, causality)"},
	{Name: "shape", Flag: "shape", Key: "shape", Kind: StringOption, Default: mesh.ShapeSquare, Doc: "mesh machines: the w×h request of a job that gives only a processor count n: square (the most square w×h ≥ n with h = ⌈n/w⌉), row (n×1) or exact (a factor pair w·h = n); a job with no shape that fits is rejected"},
	{Name: "comm", Flag: "comm", Key: "comm", Kind: StringOption, Default: network.Off, Doc: "mesh machines: communication model: off (a job's residence is its run time, as Chu 1995 assumes), analytic (contention-free latency) or wormhole (packet-level XY wormhole simulation), with parameters, e.g. wormhole:ts=3,plen=8,msgs=5,unit=round (Bani-Mohammad et al. 2006; model/network): a job's residence is its communication time plus its run time",
		KeyDoc: "a setting or an array of settings (a dimension of the cells)"},
	{Name: "stretch", Flag: "stretch", Key: "stretch", Kind: StringOption, Default: stretch.Off, Doc: "run-time stretch by placement on machines with a hop distance (mesh, mesh3d, torus, cube, fattree, dragonfly): off (a job runs its trace's run time, replays of logs stay exact), hops:alpha=A (run × (1 + A·(d − d*)), d the placement's mean pairwise hops, d* the best placement's of as many nodes) or sst:a=A,b=B (SST's allocation-based timing: run × (1 + A·hb^B)/(1 + A·hb*^B), hb the all-to-all hop-bytes); the estimate stays the request (docs/modelling.md, Run-time stretch)"},
	{Name: "estimates", Flag: "estimates", Key: "estimates", Kind: StringOption, Default: admit.EstimatesRequested, Doc: "runtime estimates: requested (user's requested time when known, else actual), actual, or factor:x=X (X times the actual run time); backfilling may also predict run times (easy:predict=user2, docs/backfilling.md)"},
	{Name: "bsld-tau", Flag: "bsld-tau", Key: "bsld_tau", Kind: FloatOption, Default: DefaultBsldTau, Doc: "bounded-slowdown threshold τ (seconds)"},
	{Name: "warmup", Flag: "warmup", Key: "warmup", Kind: IntOption, Doc: "leave the first N jobs out of the statistics"},
	{Name: "until-last-arrival", Flag: "until-last-arrival", Key: "until_last_arrival", Kind: BoolOption, Doc: "leave jobs finishing after the last arrival out of the statistics"},
	{Name: "until", Flag: "until", Key: "until", Kind: FloatOption, Doc: "stop every run at time `T`: the observation window [0, T] (generated, completed, allocated, delay, throughput, utilization and power in the summary's window_* columns; jobs not completed by T are left out of the per-job statistics)"},
	{Name: "keep-partial", Flag: "keep-partial", Key: "keep_partial", Kind: BoolOption, Doc: "replay partial SWF records (status 2-4) instead of dropping them"},
	{Name: "no-series", Flag: "no-series", Key: "series", Kind: BoolOption, Doc: "do not write series.parquet", KeyDoc: "write the series table (default true)"},
	{Name: "no-jobs", Key: "jobs", Kind: BoolOption, Doc: "write no jobs table", KeyDoc: "write the jobs table (default true)"},
	{Name: "placement", Flag: "placement", Key: "placement", Kind: BoolOption, Default: true, Doc: "record where each job ran in the placement column of jobs.parquet (--placement=false: an empty column, about 20% faster on large runs)"},
	{Name: "table", Flag: "table", Kind: StringOption, Default: TableAuto, Doc: "terminal summary: auto (compact above 40 rows), full (every run) or compact (replications pooled, mean ± 95% CI)"},
	{Name: "force-memory", Flag: "force-memory", Kind: BoolOption, Doc: "run even when the estimated memory exceeds what is available"},
	{Name: "quiet", Flag: "quiet", Kind: BoolOption, Doc: "no progress line and no summary table"},
	{Name: "strict", Flag: "strict", Kind: BoolOption, Doc: "read traces strictly (anomalies are errors, not warnings)"},
	{Name: "warmup-finished", Flag: "warmup-finished", Key: "warmup_finished", Kind: FloatOption, Doc: "leave the first fraction `F` of the completed jobs, by finish time (ties: arrival order), out of the statistics: ⌊F·n⌋ of n jobs; pyss leaves out 0.01 (with --until-last-arrival, its other exclusion)"},
	{Name: "events", Flag: "events", Key: "events", Kind: StringOption, Default: EventsInstant, Doc: "event semantics: instant (every completion and arrival at one time, then one scheduling pass) or sequential (pyss's one event at a time: arrivals before completions, completions in start order each with its own pass, a job whose run time reaches its estimate freed first, a pass at an arrival only if the job fits now; flat machines only; docs/event-semantics.md)"},
}

// Event semantics (option events).
const (
	EventsInstant    = "instant"    // the instant rule (policy's package doc)
	EventsSequential = "sequential" // pyss's one event at a time (engine.Options.Sequential)
)

// CheckWarmupFinished checks the fraction of jobs left out by finish
// time: 0 ≤ F < 1.
func CheckWarmupFinished(f float64) error {
	if !(f >= 0 && f < 1) {
		return &FieldError{Field: "warmup-finished", Value: f, Msg: "must be a fraction in [0, 1)"}
	}
	return nil
}

// CheckEvents checks the event semantics: instant or sequential.
func CheckEvents(ev string) error {
	if ev != EventsInstant && ev != EventsSequential {
		return &FieldError{Field: "events", Value: ev, Msg: "want instant or sequential"}
	}
	return nil
}

// OptionNamed returns the declaration of the option named name.
func OptionNamed(name string) (Option, bool) {
	for _, o := range ReplayOptions {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// FieldError is an invalid value of one replay option: Field is the
// option's Name, Value the value as given (for a list, the element at
// fault; nil when the message says it all), Msg what is wrong. The CLI names the flag, a plan the file,
// line and key.
type FieldError struct {
	Field string
	Value any
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + " " + e.Detail() }

// Detail is the error without the field's name: "value: message", or the
// message alone when Value is nil.
func (e *FieldError) Detail() string {
	if e.Value == nil {
		return e.Msg
	}
	return FormatValue(e.Value) + ": " + e.Msg
}

// FormatValue writes a value as the messages quote it: strings quoted,
// numbers as written.
func FormatValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// AsFieldError returns err's field error, if it has one.
func AsFieldError(err error) (*FieldError, bool) {
	var fe *FieldError
	ok := errors.As(err, &fe)
	return fe, ok
}

// fieldErr makes a field error of a parser's error, which reads
// `word "value": message`: Msg keeps the message.
func fieldErr(field string, v string, err error) *FieldError {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, strconv.Quote(v)+": "); ok {
		msg = rest
	}
	return &FieldError{Field: field, Value: v, Msg: msg}
}

// Validate fills the defaults of opt's zero fields (estimates requested,
// τ = DefaultBsldTau, shape square, GOMAXPROCS workers) and checks every
// option; the first invalid one, in ReplayOptions' order, is returned as
// a *FieldError.
func Validate(opt *Options) error {
	if opt.Machine != "" {
		if err := CheckMachine(opt.Machine); err != nil {
			return err
		}
	}
	if err := policy.CheckMode(opt.Mode); err != nil {
		return fieldErr("mode", opt.Mode, err)
	}
	// The policies must fit the replay mode when it is known: given
	// explicitly, or that of the machine given (malleable:P). Otherwise
	// each trace's machine decides, when the pairs are made.
	mode := ""
	if opt.Mode != "" && opt.Mode != policy.ModeRigid {
		mode = opt.Mode
	}
	if opt.Machine != "" {
		m, _ := policy.ParseMachine(opt.Machine)
		m, err := policy.InMode(m, opt.Mode)
		if err != nil {
			return fieldErr("machine", opt.Machine, err)
		}
		_, mode = policy.Recorded(m)
		mode = cmp.Or(mode, policy.ModeRigid)
	}
	if !slices.Equal(opt.Allocs, []string{AllAllocs}) {
		if err := CheckPolicies("alloc", mode, opt.Allocs); err != nil {
			return err
		}
	}
	if err := CheckPolicies("sched", mode, opt.Scheds); err != nil {
		return err
	}
	if opt.Workers < 0 {
		return CheckWorkers(opt.Workers)
	}
	if opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Shape == "" {
		opt.Shape = mesh.ShapeSquare
	}
	if err := mesh.CheckShape(opt.Shape); err != nil {
		return fieldErr("shape", opt.Shape, err)
	}
	if opt.Comm != "" {
		if err := CheckComm(opt.Comm); err != nil {
			return err
		}
	}
	if err := CheckStretch(opt.Stretch); err != nil {
		return err
	}
	if st, _ := stretch.Parse(opt.Stretch); st.On() {
		if opt.Comm != "" {
			if c, _ := network.Parse(opt.Comm); c.Mode != network.Off {
				return &FieldError{Field: "stretch", Value: opt.Stretch, Msg: "not with a communication model (--comm " + opt.Comm + ")"}
			}
		}
		if opt.Machine != "" {
			m, _ := policy.ParseMachine(opt.Machine)
			if f, _ := policy.FamilyOf(m.Kind); f.Hops == nil || f.Locality == nil {
				return &FieldError{Field: "stretch", Value: opt.Stretch, Msg: "machine " + opt.Machine + " has no hop distance (mesh, mesh3d, torus, cube, fattree and dragonfly machines have)"}
			}
		}
	}
	if opt.Estimates == "" {
		opt.Estimates = admit.EstimatesRequested
	}
	if err := admit.CheckEstimates(opt.Estimates); err != nil {
		return fieldErr("estimates", opt.Estimates, err)
	}
	if opt.BsldTau == 0 {
		opt.BsldTau = DefaultBsldTau
	}
	if err := CheckBsldTau(opt.BsldTau); err != nil {
		return err
	}
	if opt.Warmup < 0 {
		return &FieldError{Field: "warmup", Value: opt.Warmup, Msg: "must be ≥ 0"}
	}
	if err := CheckUntil(opt.Until); err != nil {
		return err
	}
	if err := CheckWarmupFinished(opt.WarmupFinished); err != nil {
		return err
	}
	if opt.Events == "" {
		opt.Events = EventsInstant
	}
	if err := CheckEvents(opt.Events); err != nil {
		return err
	}
	if opt.Events == EventsSequential {
		if mode != "" && mode != policy.ModeRigid {
			return &FieldError{Field: "events", Value: opt.Events, Msg: "flat machines only, not in " + mode + " mode"}
		}
		if m, _ := policy.ParseMachine(opt.Machine); opt.Machine != "" && m.Kind != policy.Flat {
			return &FieldError{Field: "events", Value: opt.Events, Msg: "flat machines only, not " + opt.Machine}
		}
	}
	return nil
}

// validate is Validate, for Run and RunDataset.
func (opt *Options) validate() error { return Validate(opt) }

// CheckMachine checks a machine (policy.ParseMachine).
func CheckMachine(m string) error {
	if _, err := policy.ParseMachine(m); err != nil {
		return fieldErr("machine", m, err)
	}
	return nil
}

// AllAllocs is the --alloc value that pairs every compatible allocator.
const AllAllocs = "all"

// DefaultFlatAlloc is the allocator of flat machines when --alloc is not
// given: on interchangeable processors the allocator changes no schedule
// the scheduler does not decide, so comparisons are between schedulers
// (count/easy against count/conservative), not doubled by contig.
const DefaultFlatAlloc = "count"

// AllocsFor returns the allocator specs to pair on machine m (nil: every
// compatible one): those given, every one for "all", and DefaultFlatAlloc
// on a flat machine when none is given.
func AllocsFor(m policy.Machine, allocs []string) []string {
	switch {
	case slices.Equal(allocs, []string{AllAllocs}):
		return nil
	case allocs == nil && m.Kind == policy.Flat:
		return []string{DefaultFlatAlloc}
	}
	return allocs
}

// CheckPolicies checks a list of allocator (field "alloc") or scheduler
// ("sched") specs in mode: not an empty list, every spec well formed and
// named in the catalog and, unless mode is "" (not known yet), fit for
// replay mode mode ("rigid" or a family's mode, policy.FitsMode).
// Parameters are checked when the pairs are made.
func CheckPolicies(field, mode string, specs []string) error {
	if specs != nil && len(specs) == 0 {
		return &FieldError{Field: field, Msg: "an empty list: leave it out for every compatible policy"}
	}
	for _, s := range specs {
		name, _, err := policy.ParseSpec(s)
		if err == nil {
			what, kinds := "scheduler", []string(nil)
			if field == "alloc" {
				var a policy.AllocatorSpec
				a, err = catalog.Allocator(name)
				what, kinds = "allocator", a.Kinds
			} else {
				var sc policy.SchedulerSpec
				sc, err = catalog.Scheduler(name)
				kinds = sc.Kinds
			}
			if err == nil && mode != "" && !policy.FitsMode(kinds, mode) {
				err = notInMode(what, name, kinds, mode)
			}
		}
		if err != nil {
			return &FieldError{Field: field, Value: s, Msg: err.Error()}
		}
	}
	return nil
}

// CheckComm checks a communication model (network.Parse).
func CheckComm(c string) error {
	if _, err := network.Parse(c); err != nil {
		return fieldErr("comm", c, err)
	}
	return nil
}

// CheckStretch checks a run-time stretch setting (stretch.Parse).
func CheckStretch(s string) error {
	if _, err := stretch.Parse(s); err != nil {
		return fieldErr("stretch", s, err)
	}
	return nil
}

// CheckWorkers checks a number of parallel runs given explicitly: at
// least 1.
func CheckWorkers(n int) error {
	if n < 1 {
		return &FieldError{Field: "j", Value: n, Msg: "want at least 1 worker"}
	}
	return nil
}

// CheckBsldTau checks a bounded-slowdown threshold given explicitly: a
// positive, finite number of seconds.
func CheckBsldTau(tau float64) error {
	if !(tau > 0) || math.IsInf(tau, 0) {
		return &FieldError{Field: "bsld-tau", Value: tau, Msg: "must be a positive number of seconds"}
	}
	return nil
}

// CheckUntil checks an observation window's end: a finite time ≥ 0.
func CheckUntil(t float64) error {
	if t < 0 || math.IsNaN(t) || math.IsInf(t, 0) {
		return &FieldError{Field: "until", Value: t, Msg: "must be a positive time (0: no window)"}
	}
	return nil
}

// CheckOut checks the CLI's output directory: not empty.
func CheckOut(dir string) error {
	if dir == "" {
		return &FieldError{Field: "out", Value: dir, Msg: "must not be empty"}
	}
	return nil
}

// CheckTableLayout checks the terminal summary's layout (CheckTable) as a
// field error.
func CheckTableLayout(layout string) error {
	if err := CheckTable(layout); err != nil {
		return fieldErr("table", layout, err)
	}
	return nil
}

// notInMode says that a policy of kinds does not run in replay mode mode.
func notInMode(what, name string, kinds []string, mode string) error {
	if mode == "" {
		mode = policy.ModeRigid
	}
	if len(kinds) == 0 {
		return fmt.Errorf("%s %s does not run in %s mode", what, name, mode)
	}
	return fmt.Errorf("%s %s does not run in %s mode (kinds: %s)", what, name, mode, strings.Join(kinds, ", "))
}
