// Package sweep runs experiments described as data: a plan (a TOML file)
// names the workloads (synthetic models with their parameters, or trace
// files), the loads and replications, the machines, the allocators and
// schedulers and the replay options; it expands deterministically into
// cells (trace × machine × pair), which run over a worker pool, in shards
// on several machines (Slurm, GNU parallel) if need be, into one
// hive-partitioned Parquet dataset (model/schema's dataset.go).
//
// Decoding is strict: a key the plan format does not know is an error
// naming the file, the line and the key, and so is every invalid value
// (a bad load range, an unknown policy, a machine with no compatible pair).
// traces/plans/quick.toml documents every key.
package sweep

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/malleable"
	"github.com/schedlab/schedlab/model/network"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
)

// File is a plan as written. Zero values mean "the default" (the synth
// command's default for a model parameter, the replay's for an option).
type File struct {
	Name        string     `toml:"name"`        // the sweep's name: the dataset's sweep= partition
	Description string     `toml:"description"` // free text
	Workloads   []Workload `toml:"workload"`    // [[workload]] tables, in order
	Replay      Replay     `toml:"replay"`      // [replay]

	path  string
	lines keyLines
}

// Workload is one [[workload]] table: a synthetic model with its
// parameters, swept over loads and replications, or trace files.
type Workload struct {
	Name   string   `toml:"name"`   // trace-name prefix (model); default: the plan's name, with the table's number when there are several
	Model  string   `toml:"model"`  // "workload", "malleable" or "lublin"; empty with traces
	Traces []string `toml:"traces"` // trace files or globs, relative to the plan's folder
	Strict bool     `toml:"strict"` // traces: read strictly

	Loads   any     `toml:"loads"`   // offered loads: an array of numbers or "LO:HI:STEP"
	Reps    int     `toml:"reps"`    // replications (default 1)
	CRN     bool    `toml:"crn"`     // common random numbers across loads
	Jobs    int     `toml:"jobs"`    // jobs per trace
	Horizon float64 `toml:"horizon"` // or a time horizon
	Seed    *int64  `toml:"seed"`    // base seed (default 1)

	// Rigid jobs (model "workload"): synth workload's flags.
	Machine   string  `toml:"machine"`
	Size      string  `toml:"size"`
	SizeMean  float64 `toml:"size_mean"`
	SizeMax   int     `toml:"size_max"`
	Service   string  `toml:"service"`
	Mean      float64 `toml:"mean"`
	CV        float64 `toml:"cv"`
	H2Alpha   float64 `toml:"h2_alpha"`
	H2        string  `toml:"h2"`
	Coupling  string  `toml:"coupling"`
	Estimates string  `toml:"estimates"` // also lublin
	Arrivals  string  `toml:"arrivals"`
	// Priorities and deadlines (pcw): synth workload's --priorities and
	// --laxity (workload.Windows).
	Priorities int    `toml:"priorities"`
	Laxity     string `toml:"laxity"`

	// Malleable jobs (model "malleable"): synth malleable's flags.
	Procs    int      `toml:"procs"` // also lublin
	WorkMean float64  `toml:"work_mean"`
	WorkCV   *float64 `toml:"work_cv"`
	Eff      string   `toml:"eff"`
	EffDist  string   `toml:"eff_dist"`
	BetaP    float64  `toml:"beta_p"`
	BetaQ    float64  `toml:"beta_q"`
	Perfect  bool     `toml:"perfect"`
	CapMean  float64  `toml:"cap_mean"`
	// IAT (model "malleable"): mean inter-arrival times instead of the
	// loads' λ = ρ·P/W̄, a number or one per load in loads' order (Guha
	// 1995's Appendix calibrated λ per experiment). Each load then only
	// names its trace and is recorded as the trace's (nominal) load.
	IAT any `toml:"iat"`

	// Scheds, when given, replaces [replay]'s scheds for this workload's
	// traces (every model and trace files): the policies of one figure
	// need not run on every other figure's workloads.
	Scheds []string `toml:"scheds"`
	// Comm, when given, replaces [replay]'s comm for this workload's
	// traces: one setting or an array (a sweep over message lengths need
	// not run at every load of the plan).
	Comm any `toml:"comm"`
}

// Replay is the [replay] table: machines, policies and replay options,
// for every workload.
type Replay struct {
	Mode             string   `toml:"mode"`      // "rigid" (default) or "malleable" (model/malleable's policies, allocator share)
	Machines         []string `toml:"machines"`  // default: each trace's machine (a model's machine, a file's hint, else flat:MaxProcs)
	Allocs           []string `toml:"allocs"`    // allocator specs; default every compatible one
	Scheds           []string `toml:"scheds"`    // scheduler specs; default every compatible one
	Estimates        string   `toml:"estimates"` // "requested" (default) or "actual"
	Warmup           int      `toml:"warmup"`
	UntilLastArrival bool     `toml:"until_last_arrival"`
	Until            float64  `toml:"until"` // > 0: the observation window [0, until] of every run
	KeepPartial      bool     `toml:"keep_partial"`
	BsldTau          float64  `toml:"bsld_tau"`
	Series           *bool    `toml:"series"`    // default true
	Jobs             *bool    `toml:"jobs"`      // write the jobs table (default true)
	Placement        *bool    `toml:"placement"` // default true
	Check            bool     `toml:"check"`
	Events           string   `toml:"events"` // instant (default) or sequential
	WarmupFinished   float64  `toml:"warmup_finished"`
	Shape            string   `toml:"shape"` // mesh machines: square (default), row or exact
	// Comm is the communication model on mesh machines (off, analytic,
	// wormhole:ts=3,plen=8,msgs=5; model/network): one setting, or an
	// array of settings, a dimension of the cells (see Plan).
	Comm any `toml:"comm"`
	// Stretch is the run-time stretch model (off, hops:alpha=A,
	// sst:a=A,b=B; model/stretch), one setting for every cell.
	Stretch string `toml:"stretch"`
}

// MaxReps bounds a workload's replications, and MaxTraces its traces
// (loads × replications): a plan beyond them is a typo, refused at once
// rather than planned out of memory.
const (
	MaxReps   = 10000
	MaxTraces = 100000
)

// Decode strictly decodes a plan document read from path (used in
// messages and to resolve trace globs). ext, when not nil, points to a
// struct whose toml-tagged fields are further top-level keys, decoded from
// the same document (a suite's expectations); a key unknown to both is an
// error naming the line.
func Decode(path string, data []byte, ext any) (*File, error) {
	lines := indexKeys(data)
	f := &File{path: path, lines: lines}
	if err := decodeStrict(path, data, f, topKeys(ext), lines); err != nil {
		return nil, err
	}
	if ext != nil {
		if err := decodeStrict(path, data, ext, topKeys(f), lines); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Load reads, decodes and validates the plan file path.
func Load(path string) (*Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Decode(path, data, nil)
	if err != nil {
		return nil, err
	}
	return f.Plan()
}

// Path returns the file the plan was decoded from.
func (f *File) Path() string { return f.path }

// Where returns "path:line: key" for messages about a key, given as its
// path (array-of-tables elements numbered from 0: Where("workload", "1",
// "loads")). The line is that of the nearest enclosing key written in the
// file; keys never written get the enclosing table's line, or none.
func (f *File) Where(key ...string) string {
	name := displayKey(key)
	for i := len(key); i > 0; i-- {
		if line, ok := f.lines[strings.Join(key[:i], ".")]; ok && line > 0 {
			return fmt.Sprintf("%s:%d: %s", f.path, line, name)
		}
	}
	return fmt.Sprintf("%s: %s", f.path, name)
}

// displayKey spells a key path for people: array elements numbered from
// 1 in brackets ("workload[2].loads").
func displayKey(key []string) string {
	var b strings.Builder
	for i, k := range key {
		if n, err := strconv.Atoi(k); err == nil && i > 0 {
			fmt.Fprintf(&b, "[%d]", n+1)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String()
}

// errAt formats an error about a key.
func (f *File) errAt(format string, args []any, key ...string) error {
	return fmt.Errorf("%s: %s", f.Where(key...), fmt.Sprintf(format, args...))
}

func (f *File) wkey(i int, key string) []string { return []string{"workload", strconv.Itoa(i), key} }

// Plan is a validated plan, expanded into cells.
type Plan struct {
	File  *File
	Name  string
	Cells []Cell  // in plan order: workloads, traces (loads, then replications), machines, comm settings, allocators, schedulers
	units []*unit // the traces, in order
	opt   experiment.Options
	// comms lists the plan's communication settings, canonical, in plan
	// order; with more than one, comm is a dimension of the cells (each
	// under its comm= partition) and opt.Comm is empty.
	comms []string
}

// Comms returns the plan's communication models, canonical
// (model/network.Spec.String), in plan order: one for a plan with one
// setting (or none: "off"), several for a plan that sweeps them.
func (p *Plan) Comms() []string { return p.comms }

// CommSwept reports whether the plan has several communication models,
// making comm a dimension of its cells.
func (p *Plan) CommSwept() bool { return len(p.comms) > 1 }

// Cell is one run of a plan: one trace on one machine under one pair and
// one communication model.
type Cell struct {
	Index    int     // position in plan order, from 0
	Workload string  // its workload's name
	Trace    string  // the trace's name
	Rep      int     // the trace's replication
	Load     float64 // the trace's target load (-1 when unknown)
	Machine  string
	Alloc    string // canonical allocator spec
	Sched    string // canonical scheduler spec
	Jobs     int    // jobs in the trace (an estimate for a horizon)
	Cost     float64
	Comm     string // communication model, canonical ("off" when none)

	unit     int
	pair     catalog.Pair
	commPart bool // the plan sweeps comm: the key has a comm= partition
}

// Key returns the cell's dataset key.
func (c *Cell) Key(sweep string) schema.CellKey {
	k := schema.CellKey{Sweep: sweep, Machine: c.Machine, Alloc: c.Alloc, Sched: c.Sched, Trace: c.Trace, Rep: int64(c.Rep)}
	if c.commPart {
		k.Comm = c.Comm
	}
	return k
}

// unit is one trace of a plan: generated by a model or read from a file.
type unit struct {
	w     int // workload index
	name  string
	rep   int
	load  float64
	jobs  int
	gen   func() (*trace.Trace, error) // synthetic
	tr    *trace.Trace                 // read from a file (while planned)
	hint  string                       // machine hint
	procs int                          // MaxProcs, for flat:MaxProcs
	desc  string                       // what makes the trace (model, parameters and seed; or the file), for the fingerprint
}

// pairWeight is the relative cost per job of a scheduler, for balancing
// shards: conservative backfilling replans every reservation at every
// pass; everything else is about one.
func pairWeight(sched string) float64 {
	name, _, _ := strings.Cut(sched, ":")
	if name == "conservative" {
		return 4
	}
	return 1
}

// Plan validates the plan and expands it into cells. Errors name the file,
// the line and the key.
func (f *File) Plan() (*Plan, error) {
	if f.Name == "" {
		return nil, f.errAt("a plan needs a name (it names the dataset's sweep= partition)", nil, "name")
	}
	if strings.ContainsAny(f.Name, "/\\") {
		return nil, f.errAt("%q: no slashes in a sweep's name", []any{f.Name}, "name")
	}
	if len(f.Workloads) == 0 {
		return nil, fmt.Errorf("%s: no [[workload]] table: a plan needs at least one workload", f.path)
	}
	p := &Plan{File: f, Name: f.Name}
	if err := f.options(&p.opt); err != nil {
		return nil, err
	}
	replayComms, err := f.commList(f.Replay.Comm, "replay", "comm")
	if err != nil {
		return nil, err
	}
	wcomms := make([][]string, len(f.Workloads))
	seenComm := map[string]bool{}
	names := map[string]int{}
	for i := range f.Workloads {
		wcomms[i] = replayComms
		if f.Workloads[i].Comm != nil {
			if wcomms[i], err = f.commList(f.Workloads[i].Comm, f.wkey(i, "comm")...); err != nil {
				return nil, err
			}
		}
		for _, c := range wcomms[i] {
			if !seenComm[c] {
				seenComm[c] = true
				p.comms = append(p.comms, c)
			}
		}
		if m := f.Workloads[i].Model; f.Replay.Mode == malleable.Mode && (m == "workload" || m == "lublin") {
			return nil, f.errAt("%q: its jobs have no work and efficiency: the malleable mode replays model \"malleable\" or trace files with those columns", []any{m}, f.wkey(i, "model")...)
		}
		units, err := f.expand(i)
		if err != nil {
			return nil, err
		}
		name := f.workloadName(i)
		if j, dup := names[name]; dup {
			return nil, f.errAt("workload %q repeats workload %d's name: their traces could not be told apart", []any{name, j + 1}, f.wkey(i, "name")...)
		}
		names[name] = i
		p.units = append(p.units, units...)
	}
	seen := map[string]string{}
	for ui, u := range p.units {
		k := u.name + "\x00" + strconv.Itoa(u.rep)
		if o, dup := seen[k]; dup {
			return nil, f.errAt("trace %s (rep %d) appears twice (%s and %s): results could not be told apart", []any{u.name, u.rep, o, f.workloadName(u.w)}, f.wkey(u.w, "traces")...)
		}
		seen[k] = f.workloadName(u.w)
		machines := f.Replay.Machines
		if len(machines) == 0 {
			m := u.hint
			if m == "" {
				if u.procs <= 0 {
					return nil, f.errAt("trace %s: no machine hint and no MaxProcs in its header: name machines in [replay]", []any{u.name}, "replay", "machines")
				}
				m = fmt.Sprintf("flat:%d", u.procs)
			}
			machines = []string{m}
		}
		for mi, ms := range machines {
			m, err := policy.ParseMachine(ms)
			if err != nil {
				key := []string{"replay", "machines"}
				if len(f.Replay.Machines) == 0 {
					key = f.wkey(u.w, "machine")
				}
				_ = mi
				return nil, f.errAt("%v", []any{err}, key...)
			}
			pairs, err := f.pairs(m, u.w)
			if err != nil {
				return nil, err
			}
			for _, comm := range wcomms[u.w] {
				if fam, _ := policy.FamilyOf(m.Kind); comm != network.Off && fam.Network == nil {
					key := []string{"replay", "comm"}
					if f.Workloads[u.w].Comm != nil {
						key = f.wkey(u.w, "comm")
					}
					return nil, f.errAt("%s: a communication model needs a mesh machine, not %s (trace %s)", []any{comm, m, u.name}, key...)
				}
				for _, pr := range pairs {
					c := Cell{Index: len(p.Cells), Workload: f.workloadName(u.w), Trace: u.name, Rep: u.rep, Load: u.load,
						Machine: m.String(), Alloc: pr.Alloc, Sched: pr.Sched, Jobs: u.jobs, Comm: comm, unit: ui, pair: pr, commPart: p.CommSwept()}
					c.Cost = float64(max(u.jobs, 1)) * pairWeight(pr.Sched)
					p.Cells = append(p.Cells, c)
				}
			}
		}
	}
	switch {
	case p.CommSwept():
		p.opt.Comm = "" // each group's own
	case replayComms[0] == p.comms[0] && (p.opt.Comm != "" || p.comms[0] == network.Off):
		// [replay]'s one setting, as written (recorded so, as before).
	case p.comms[0] == network.Off:
		p.opt.Comm = ""
	default:
		p.opt.Comm = p.comms[0] // a workload's, or an array of one
	}
	return p, nil
}

// commList reads a comm key (under [replay] or a workload): a setting or
// a non-empty array of distinct settings, returned canonical
// (network.Spec.String); absent, the default "off". Errors name the
// file, the line, the key and the element.
func (f *File) commList(v any, key ...string) ([]string, error) {
	var specs []string
	switch x := v.(type) {
	case nil:
		return []string{network.Off}, nil
	case string:
		specs = []string{x}
	case []any:
		if len(x) == 0 {
			return nil, f.errAt("an empty list: leave the key out for no communication model", nil, key...)
		}
		for j, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, f.errAt("element %d is %T, not a string such as \"wormhole:plen=16\"", []any{j + 1, e}, key...)
			}
			specs = append(specs, s)
		}
	default:
		return nil, f.errAt("%T: want a string (\"wormhole:ts=3,plen=8,msgs=5\") or an array of them", []any{v}, key...)
	}
	out := make([]string, len(specs))
	first := map[string]int{}
	for j, s := range specs {
		if err := experiment.CheckComm(s); err != nil {
			fe, _ := experiment.AsFieldError(err)
			if len(specs) > 1 {
				return nil, f.errAt("element %d: %s", []any{j + 1, fe.Detail()}, key...)
			}
			return nil, f.fieldErr(err, key...)
		}
		c, _ := network.Parse(s)
		out[j] = c.String()
		if k, dup := first[out[j]]; dup {
			return nil, f.errAt("elements %d and %d are the same setting (%s)", []any{k + 1, j + 1, out[j]}, key...)
		}
		first[out[j]] = j
	}
	return out, nil
}

// workloadName is workload i's name: its name key, else the plan's name
// (numbered when the plan has several workloads).
func (f *File) workloadName(i int) string {
	w := &f.Workloads[i]
	if w.Name != "" {
		return w.Name
	}
	if len(f.Workloads) == 1 {
		return f.Name
	}
	return fmt.Sprintf("%s%d", f.Name, i+1)
}

// options checks [replay] and fills the experiment's options: one
// check, experiment.Validate, whose field errors name the key here.
func (f *File) options(o *experiment.Options) error {
	r := &f.Replay
	for i, m := range r.Machines {
		if err := experiment.CheckMachine(m); err != nil {
			return f.fieldErr(err, "replay", "machines", strconv.Itoa(i))
		}
		// A plan's cells are keyed by the machine the results record:
		// a machine recorded in a mode is written that way.
		if pm, err := policy.ParseMachine(m); err == nil {
			if rec, mode := policy.Recorded(pm); mode != "" {
				return f.errAt("machine %s: in a plan, write %s with mode = %q", []any{pm, rec, mode}, "replay", "machines", strconv.Itoa(i))
			}
		}
	}
	comm, _ := r.Comm.(string) // a list: checked by Plan, a dimension of the cells
	*o = experiment.Options{
		Allocs: r.Allocs, Scheds: r.Scheds, Estimates: r.Estimates, BsldTau: r.BsldTau, Warmup: r.Warmup,
		UntilLastArrival: r.UntilLastArrival, Until: r.Until, KeepPartial: r.KeepPartial, Check: r.Check,
		NoSeries: r.Series != nil && !*r.Series, Placement: r.Placement == nil || *r.Placement,
		NoJobs: r.Jobs != nil && !*r.Jobs, Shape: r.Shape, Mode: r.Mode, Comm: comm, Events: r.Events, WarmupFinished: r.WarmupFinished,
		Stretch: r.Stretch,
	}
	if err := experiment.Validate(o); err != nil {
		return f.fieldErr(err)
	}
	// The plan's machines are its own (not o.Machine): its policies must
	// fit its mode, rigid unless given.
	mode := cmp.Or(r.Mode, policy.ModeRigid)
	if err := experiment.CheckPolicies("alloc", mode, r.Allocs); err != nil {
		return f.fieldErr(err)
	}
	if err := experiment.CheckPolicies("sched", mode, r.Scheds); err != nil {
		return f.fieldErr(err)
	}
	o.Workers = 0 // the run's, not the plan's
	if o.Mode == policy.ModeRigid {
		o.Mode = "" // the default: recorded as before modes existed
	}
	return nil
}

// fieldErr writes a replay option's field error at its [replay] key (or
// at key, when given): "plan.toml:7: replay.until: -3: must be ...".
// Other errors are written at key as they are.
func (f *File) fieldErr(err error, key ...string) error {
	fe, ok := experiment.AsFieldError(err)
	if !ok {
		return f.errAt("%v", []any{err}, key...)
	}
	if len(key) == 0 {
		o, _ := experiment.OptionNamed(fe.Field)
		key = []string{"replay", o.Key}
	}
	return f.errAt("%s", []any{fe.Detail()}, key...)
}

// pairs returns the pairs of [replay] for machine m and workload wi (the
// workload's own scheds when given): the named policies that support m
// (every compatible one when none is named). A machine left with no pair
// is an error.
func (f *File) pairs(m policy.Machine, wi int) ([]catalog.Pair, error) {
	r := &f.Replay
	m, err := policy.InMode(m, r.Mode)
	if err != nil {
		return nil, f.errAt("%v", []any{err}, "replay", "mode")
	}
	schedList, schedKey := r.Scheds, []string{"replay", "scheds"}
	if ws := f.Workloads[wi].Scheds; ws != nil {
		schedList, schedKey = ws, f.wkey(wi, "scheds")
	}
	keep := func(specs []string, supports func(string) bool) []string {
		if specs == nil {
			return nil
		}
		out := []string{}
		for _, s := range specs {
			name, _, _ := policy.ParseSpec(s)
			if supports(name) {
				out = append(out, s)
			}
		}
		return out
	}
	allocs := keep(r.Allocs, func(n string) bool {
		s, err := catalog.Allocator(n)
		return err == nil && policy.Fits(s.Kinds, m.Kind)
	})
	scheds := keep(schedList, func(n string) bool {
		s, err := catalog.Scheduler(n)
		return err == nil && policy.Fits(s.Kinds, m.Kind)
	})
	if allocs != nil && len(allocs) == 0 {
		return nil, f.errAt("no allocator of the list supports machine %s: the plan has no pair to run on it", []any{m}, "replay", "allocs")
	}
	if scheds != nil && len(scheds) == 0 {
		return nil, f.errAt("no scheduler of the list supports machine %s: the plan has no pair to run on it", []any{m}, schedKey...)
	}
	pairs, err := catalog.Pairs(m, allocs, scheds)
	if err != nil {
		// Put the error at the key it concerns without reading its text:
		// the allocators' when they fail alone (with every scheduler).
		key := schedKey
		if _, aerr := catalog.Pairs(m, allocs, nil); aerr != nil {
			key = []string{"replay", "allocs"}
		}
		return nil, f.errAt("%v", []any{err}, key...)
	}
	return pairs, nil
}

// Options returns the replay options every cell runs with.
func (p *Plan) Options() experiment.Options { return p.opt }

// expand checks workload i and returns its traces.
func (f *File) expand(i int) ([]*unit, error) {
	w := &f.Workloads[i]
	at := func(key, format string, args ...any) error { return f.errAt(format, args, f.wkey(i, key)...) }
	if w.Scheds != nil && len(w.Scheds) == 0 {
		return nil, at("scheds", "an empty list: leave the key out for [replay]'s schedulers")
	}
	if err := experiment.CheckPolicies("sched", cmp.Or(f.Replay.Mode, policy.ModeRigid), w.Scheds); err != nil {
		return nil, f.fieldErr(err, f.wkey(i, "scheds")...)
	}
	if len(w.Traces) > 0 {
		if w.Model != "" {
			return nil, at("model", "a workload has either a model or traces, not both")
		}
		if err := f.onlyKeys(i, "traces", "name", "strict", "scheds", "comm"); err != nil {
			return nil, err
		}
		return f.readTraces(i)
	}
	if w.Name != "" && strings.ContainsAny(w.Name, "/\\") {
		return nil, at("name", "%q: no slashes in a workload's name", w.Name)
	}
	if w.Reps == 0 {
		w.Reps = 1
	}
	if w.Reps < 0 || w.Reps > MaxReps {
		return nil, at("reps", "%d: want 1..%d replications", w.Reps, MaxReps)
	}
	seed := int64(workload.DefaultSeed)
	if w.Seed != nil {
		seed = *w.Seed
	}
	name := f.workloadName(i)
	switch w.Model {
	case "":
		return nil, at("model", "a workload needs a model (workload, malleable, lublin) or traces")
	case "workload":
		m := &workload.WorkloadModel
		if err := f.onlyKeys(i, append(sweepKeys[w.Model], m.Keys()...)...); err != nil {
			return nil, err
		}
		loads, err := f.loads(i)
		if err != nil {
			return nil, err
		}
		v := f.modelValues(i, m)
		if err := f.checkModel(i, m, v, loads[0], 0); err != nil {
			return nil, err
		}
		win, _ := workload.WindowsOf(v)
		spec, _ := workload.WorkloadSpecOf(v)
		spec.Name = name
		jobs := spec.Arrivals.Jobs
		sw := workload.Sweep{Loads: loads, Reps: w.Reps, Seed: seed, CRN: w.CRN}
		desc := fmt.Sprintf("workload %+v %+v", spec, sw)
		if !win.Zero() {
			desc += fmt.Sprintf(" windows %+v", win)
		}
		var units []*unit
		for _, load := range loads {
			// Generate the first replication now: a bad parameter is an
			// error of the plan, not of a shard on a cluster. Its jobs
			// count the trace's cost.
			s := spec
			s.Arrivals.Load = load
			n := jobs
			if n == 0 {
				iat, err := s.IAT()
				if err != nil {
					return nil, at("model", "%v", err)
				}
				n = int(w.Horizon/iat) + 1
			}
			for rep := 1; rep <= w.Reps; rep++ {
				load, rep := load, rep
				units = append(units, &unit{w: i, name: workload.SweepName(name, load, rep), rep: rep, load: load, jobs: n, hint: spec.Machine,
					desc: desc, gen: func() (*trace.Trace, error) {
						t, err := sw.WorkloadTrace(spec, load, rep)
						if err == nil {
							err = win.Apply(t)
						}
						return t, err
					}})
			}
		}
		tiny := spec
		tiny.Arrivals.Load, tiny.Arrivals.Jobs, tiny.Arrivals.Horizon = loads[0], 10, 0
		if err := f.checkGen(i, func() error { _, err := workload.Generate(tiny); return err }); err != nil {
			return nil, err
		}
		return units, nil
	case "malleable":
		m := &workload.MalleableModel
		if err := f.onlyKeys(i, append(sweepKeys[w.Model], m.Keys()...)...); err != nil {
			return nil, err
		}
		loads, err := f.loads(i)
		if err != nil {
			return nil, err
		}
		v := f.modelValues(i, m)
		iat0 := 0.0
		if f.Workloads[i].IAT != nil {
			iats, err := f.iats(i, len(loads))
			if err != nil {
				return nil, err
			}
			iat0 = iats[0]
		}
		if err := f.checkModel(i, m, v, loads[0], iat0); err != nil {
			return nil, err
		}
		spec, _ := workload.MalleableSpecOf(v)
		spec.Name = name
		jobs, procs := spec.Jobs, spec.Procs
		iats, err := f.iats(i, len(loads))
		if err != nil {
			return nil, err
		}
		sw := workload.Sweep{Loads: loads, Reps: w.Reps, Seed: seed, CRN: w.CRN}
		desc := fmt.Sprintf("malleable %+v %+v", spec, sw)
		if iats != nil {
			desc += fmt.Sprintf(" iat %v", iats)
		}
		var units []*unit
		for li, load := range loads {
			gen := func(rep int) (*trace.Trace, error) { return sw.MalleableTrace(spec, load, rep) }
			if iats != nil {
				gen = func(rep int) (*trace.Trace, error) { return sw.MalleableTraceIAT(spec, load, iats[li], rep) }
			}
			for rep := 1; rep <= w.Reps; rep++ {
				rep := rep
				units = append(units, &unit{w: i, name: workload.SweepName(name, load, rep), rep: rep, load: load, jobs: max(jobs, 1),
					desc: desc, hint: fmt.Sprintf("flat:%d", procs), gen: func() (*trace.Trace, error) { return gen(rep) }})
			}
		}
		tiny := spec
		tiny.Load, tiny.Jobs, tiny.Horizon = loads[0], 10, 0
		if iats != nil {
			tiny.Load, tiny.IAT = 0, iats[0]
		}
		if err := f.checkGen(i, func() error { _, err := workload.GenerateMalleable(tiny); return err }); err != nil {
			return nil, err
		}
		return units, nil
	case "lublin":
		m := &workload.LublinModel
		if err := f.onlyKeys(i, append(sweepKeys[w.Model], m.Keys()...)...); err != nil {
			return nil, err
		}
		v := f.modelValues(i, m)
		if err := f.checkModel(i, m, v, 0, 0); err != nil {
			return nil, err
		}
		ls, _ := workload.LublinSpecOf(v)
		procs, jobs, est := ls.Procs, ls.Jobs, ls.Estimates
		var units []*unit
		for rep := 1; rep <= w.Reps; rep++ {
			rep := rep
			tname := fmt.Sprintf("%s-rep%02d", name, rep)
			s := workload.LublinSpec{Procs: procs, Jobs: jobs, Estimates: est, Seed: workload.SweepSeed(seed, 0, rep), Rep: rep, Name: tname}
			units = append(units, &unit{w: i, name: tname, rep: rep, load: -1, jobs: jobs, hint: fmt.Sprintf("flat:%d", procs), desc: fmt.Sprintf("lublin %+v", s),
				gen: func() (*trace.Trace, error) { return workload.GenerateLublin(s) }})
		}
		tiny := workload.LublinSpec{Procs: procs, Jobs: 10, Estimates: est, Seed: seed}
		if err := f.checkGen(i, func() error { _, err := workload.GenerateLublin(tiny); return err }); err != nil {
			return nil, err
		}
		return units, nil
	}
	return nil, at("model", "%q: want workload, malleable or lublin (or traces = [...])", w.Model)
}

// sweepKeys are the keys of a [[workload]] table of each model besides
// its parameters (workload.Model.Keys): the sweep's own.
var sweepKeys = map[string][]string{
	"workload":  {"name", "model", "loads", "reps", "crn", "scheds", "comm"},
	"malleable": {"name", "model", "loads", "reps", "crn", "iat", "scheds"},
	"lublin":    {"name", "model", "reps", "scheds"},
}

// modelValues returns the parameter values workload i gives model m: its
// keys as decoded (a key left out or zero is the parameter's default, as
// everywhere in a plan); jobs with a horizon and no jobs key is 0.
func (f *File) modelValues(i int, m *workload.Model) workload.Values {
	fields := map[string]reflect.Value{}
	w := reflect.ValueOf(&f.Workloads[i]).Elem()
	for j := 0; j < w.NumField(); j++ {
		if tag := w.Type().Field(j).Tag.Get("toml"); tag != "" {
			fields[tag] = w.Field(j)
		}
	}
	v := workload.Values{}
	for _, p := range m.Params {
		x, ok := fields[p.Key()]
		if !ok || p.Scope != workload.FlagAndKey {
			continue
		}
		if x.Kind() == reflect.Pointer {
			if x.IsNil() {
				continue
			}
			x = x.Elem()
		} else if x.IsZero() {
			continue
		}
		v[p.Name] = x.Interface()
	}
	if _, ok := m.Param("horizon"); ok && f.Workloads[i].Jobs == 0 && f.Workloads[i].Horizon != 0 {
		v["jobs"] = 0
	}
	return v
}

// checkModel checks workload i's values of model m (at load, or at mean
// inter-arrival time iat when not 0); a bad value is an error at its key.
func (f *File) checkModel(i int, m *workload.Model, v workload.Values, load, iat float64) error {
	c := workload.Values{}
	for k, x := range v {
		c[k] = x
	}
	if _, ok := m.Param("load"); ok {
		c["load"], c["iat"] = load, iat
		if iat != 0 {
			c["load"] = 0.0
		}
	}
	err := m.Validate(c)
	if err == nil {
		return nil
	}
	pe, ok := workload.AsParamError(err)
	if !ok {
		return f.errAt("%v", []any{err}, "workload", strconv.Itoa(i))
	}
	key := strings.ReplaceAll(pe.Param, "-", "_")
	if key == "load" {
		key = "loads"
	}
	return f.errAt("%s", []any{pe.Detail()}, f.wkey(i, key)...)
}

// checkGen runs gen, which generates a tiny version of a workload's
// first trace, so that a bad model parameter is an error of the plan
// (naming the workload), found before anything runs, not of a shard on a
// cluster.
func (f *File) checkGen(i int, gen func() error) error {
	if err := gen(); err != nil {
		return f.errAt("%v", []any{err}, "workload", strconv.Itoa(i))
	}
	return nil
}

// onlyKeys refuses keys of workload i that its kind does not use.
func (f *File) onlyKeys(i int, allowed ...string) error {
	ok := map[string]bool{}
	for _, k := range allowed {
		ok[k] = true
	}
	prefix := "workload." + strconv.Itoa(i) + "."
	var bad []string
	for k := range f.lines {
		if rest, found := strings.CutPrefix(k, prefix); found && !strings.Contains(rest, ".") && !ok[rest] {
			bad = append(bad, rest)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	w := &f.Workloads[i]
	kind := "model " + strconv.Quote(w.Model)
	if len(w.Traces) > 0 {
		kind = "a workload of trace files"
	}
	return f.errAt("does not apply to %s", []any{kind}, f.wkey(i, bad[0])...)
}

// loads returns workload i's loads.
func (f *File) loads(i int) ([]float64, error) {
	w := &f.Workloads[i]
	key := f.wkey(i, "loads")
	var s string
	switch v := w.Loads.(type) {
	case nil:
		return nil, f.errAt("a model workload needs loads (an array of numbers, or \"LO:HI:STEP\")", nil, key...)
	case string:
		s = v
	case []any:
		if len(v) == 0 {
			return nil, f.errAt("an empty list", nil, key...)
		}
		parts := make([]string, len(v))
		for j, x := range v {
			switch n := x.(type) {
			case float64:
				parts[j] = strconv.FormatFloat(n, 'g', -1, 64)
			case int64:
				parts[j] = strconv.FormatInt(n, 10)
			default:
				return nil, f.errAt("element %d is %T, not a number", []any{j + 1, x}, key...)
			}
		}
		s = strings.Join(parts, ",")
	case float64:
		s = strconv.FormatFloat(v, 'g', -1, 64)
	case int64:
		s = strconv.FormatInt(v, 10)
	default:
		return nil, f.errAt("%T: want an array of numbers or \"LO:HI:STEP\"", []any{v}, key...)
	}
	loads, err := workload.ParseLoads(s)
	if err != nil {
		return nil, f.errAt("%v", []any{err}, key...)
	}
	seen := map[float64]bool{}
	for _, l := range loads {
		if seen[l] {
			return nil, f.errAt("load %s appears twice", []any{workload.FormatLoad(l)}, key...)
		}
		seen[l] = true
	}
	if reps := max(w.Reps, 1); len(loads)*reps > MaxTraces {
		return nil, f.errAt("%d loads × %d replications: more than %d traces", []any{len(loads), reps, MaxTraces}, key...)
	}
	return loads, nil
}

// iats returns workload i's mean inter-arrival times, one per load (nil
// when the key is absent): a number is every load's, an array must have
// one positive number per load.
func (f *File) iats(i, n int) ([]float64, error) {
	key := f.wkey(i, "iat")
	bad := func(format string, args ...any) ([]float64, error) { return nil, f.errAt(format, args, key...) }
	num := func(x any) (float64, bool) {
		switch v := x.(type) {
		case float64:
			return v, true
		case int64:
			return float64(v), true
		}
		return 0, false
	}
	var out []float64
	switch v := f.Workloads[i].IAT.(type) {
	case nil:
		return nil, nil
	case []any:
		if len(v) != n {
			return bad("%d values for %d loads: give one mean inter-arrival time per load, in the loads' order", len(v), n)
		}
		for j, x := range v {
			t, ok := num(x)
			if !ok {
				return bad("element %d is %T, not a number", j+1, x)
			}
			out = append(out, t)
		}
	default:
		t, ok := num(v)
		if !ok {
			return bad("%T: want a number or an array of numbers (one per load)", v)
		}
		for range n {
			out = append(out, t)
		}
	}
	for _, t := range out {
		if !(t > 0) || math.IsInf(t, 0) {
			return bad("%g: a mean inter-arrival time must be positive and finite", t)
		}
	}
	return out, nil
}

// readTraces reads the trace files of workload i (globs relative to the
// plan's folder), in name order.
func (f *File) readTraces(i int) ([]*unit, error) {
	w := &f.Workloads[i]
	var paths []string
	seen := map[string]bool{}
	for j, pat := range w.Traces {
		key := []string{"workload", strconv.Itoa(i), "traces"}
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(filepath.Dir(f.path), pat)
		}
		matches, err := filepath.Glob(pat)
		if err != nil {
			return nil, f.errAt("pattern %d %q: %v", []any{j + 1, w.Traces[j], err}, key...)
		}
		if len(matches) == 0 {
			return nil, f.errAt("%q matches no file (relative to %s)", []any{w.Traces[j], filepath.Dir(f.path)}, key...)
		}
		sort.Strings(matches)
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				paths = append(paths, m)
			}
		}
	}
	var units []*unit
	for _, path := range paths {
		t, err := trace.ReadFile(path, trace.ReadOptions{Strict: w.Strict})
		if err != nil {
			return nil, err
		}
		desc := path
		if st, err := os.Stat(path); err == nil {
			desc = fmt.Sprintf("%s %d bytes", path, st.Size())
		}
		units = append(units, &unit{w: i, name: t.Name, rep: t.Provenance.Rep, load: t.Provenance.Load, jobs: len(t.Jobs),
			tr: t, hint: t.Machine, procs: int(t.MaxProcs()), desc: desc})
	}
	return units, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func orf(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}
