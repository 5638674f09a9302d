// Package experiment runs every (trace × compatible allocator/scheduler
// pair) through the event engine over a worker pool, computes per-job rows
// and per-pair summaries with model/metrics, and streams them as Parquet in
// the results contract of model/schema (jobs.parquet, summary.parquet,
// series.parquet).
//
// The package is split by concern: options.go declares and validates the
// replay options; plan.go orders the runs; pool.go runs them over workers and emits them in order;
// stats.go turns an engine result into rows; sink.go streams the rows to
// temporary files committed all at once; table.go prints the terminal
// summary.
//
// # Determinism
//
// Runs are ordered by (trace name, allocator, scheduler, rep, input order)
// and their results are emitted in that order, whatever the number of
// workers and the order in which runs finish: -j 1 and -j 8 give
// byte-identical files. Nothing in the output depends on the wall clock or
// on map order; the worker count is not recorded.
//
// # Metric conventions
//
// One definition of each metric, in model/metrics: response, wait,
// slowdown (a zero run time counts as one time unit, floored at 1),
// bounded slowdown (τ = 10 by default), utilization, throughput, power,
// sd_response (n − 1 divisor, NaN below two jobs). The system-level figures
// (utilization, queue lengths, makespan) cover every replayed job, filters
// notwithstanding; when filters leave no job to count, the per-job
// statistics and power are NaN: undefined, not 0.
//
// # Filters
//
//   - Partial SWF records (status 2, 3, 4) are not replayed by default and
//     count in `filtered`; KeepPartial replays them as ordinary jobs.
//   - Warmup N leaves the first N replayed jobs (by submit order) out of the
//     statistics; UntilLastArrival leaves out the jobs that finish after the
//     last arrival. Both only affect the summary: jobs.parquet keeps a row for
//     every replayed job. Jobs left out count in `filtered`.
//   - Traces are told apart by (name, rep): two traces sharing both are an
//     error naming both files.
//   - Rejected jobs (admit.Jobs: no processor count, unknown run or submit
//     time, larger than the machine's family allows; the family's
//     conversion: no mesh shape that fits; or an allocator's feasibility
//     check) are never replayed; they count in `rejected`.
//
// # Machines
//
// The runner knows no machine kind: it asks the machine's family
// (policy.Family) how trace jobs become requests, whether runs record
// placements and their dispersion, whether a communication model fits,
// and which extra summary columns it fills. Results record a machine as
// its family says (policy.Recorded: malleable:P as flat:P in mode
// malleable).
package experiment

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// Options configures an experiment.
type Options struct {
	Machine          string   // machine for every trace ("flat:100"); "" → each trace's hint, else flat:MaxProcs
	Allocs           []string // allocator specs; nil → every one supporting the machine
	Scheds           []string // scheduler specs; nil → every one supporting the machine
	Workers          int      // worker pool size; 0 → GOMAXPROCS
	Check            bool     // engine invariant checking
	Estimates        string   // "requested" (default when "") or "actual"
	BsldTau          float64  // bounded-slowdown threshold τ; 0 → 10
	Warmup           int      // leave the first N replayed jobs out of the statistics
	UntilLastArrival bool     // leave out jobs finishing after the last arrival
	WarmupFinished   float64  // leave out the first ⌊F·n⌋ of the n completed jobs by (finish time, arrival)
	Until            float64  // > 0: end every run at this time, the observation window [0, Until] (engine.Options.Until)
	KeepPartial      bool     // replay partial SWF records instead of dropping them
	NoSeries         bool     // do not record or write series.parquet
	NoJobs           bool     // RunDataset: write no jobs table (the summary and series only)
	Shape            string   // mesh machines: the shaping rule of jobs that give only a processor count (mesh.Shapes; "" → square)
	Mode             string   // "rigid" (default when "") or a family's mode: "malleable" replays flat:P as malleable:P (policy.InMode)
	Events           string   // event semantics: EventsInstant (default when "") or EventsSequential (flat machines only)
	Comm             string   // communication model on mesh machines (model/network.Parse: off, analytic, wormhole:ts=3,plen=8,msgs=5); "" → off
	Stretch          string   // run-time stretch by placement (model/stretch.Parse: off, hops:alpha=A, sst:a=A,b=B); "" → off
	Placement        bool     // record placements in jobs.parquet (O(pieces) per job; the count allocator scatters jobs in many pieces)
	Out              string   // output directory; "" → write nothing
	Version          string   // tool version recorded in the files' metadata
	// ReleaseTraces lets Run drop each trace's job records (t.Jobs = nil)
	// once converted to engine jobs, to save memory: the caller must not use
	// them afterwards.
	ReleaseTraces bool
	// MemoryLimit, when > 0, refuses a plan whose estimated memory
	// (EstimateMemory) exceeds it, before anything runs.
	MemoryLimit int64
	// Progress, when set, is called once the runs are planned (0 done),
	// within each run every engine.TickInstants event instants, and after
	// each run. Calls are serialized.
	Progress func(Progress)
	// MetaOptions, when set, is what the files record of the options
	// (its Filters are filled in): a sweep records its own.
	MetaOptions *schema.Options
	// Warn, when set, receives one-line warnings (e.g. a run that counted
	// no job).
	Warn func(msg string)
	// Records, when set, receives what the replay does with each trace's
	// records (dropped and adjusted, by reason), once per trace, in plan
	// order, before the runs start (Run only).
	Records func(r *Records)
}

// DefaultBsldTau is the default bounded-slowdown threshold, in seconds.
const DefaultBsldTau = 10.0

// task is one (trace, pair) run.
type task struct {
	tr   *prepared
	pair catalog.Pair
}

// prepared is a trace with its machine and engine jobs.
type prepared struct {
	name     string // the trace's name, known before it is loaded
	t        *trace.Trace
	m        policy.Machine
	rec      string // m as the results record it (policy.Recorded: malleable:P is flat:P)
	from     string // where m came from (machineIn)
	audit    *Records
	n        int // replayed jobs
	records  int // jobs in the trace
	rejected int
	partial  int

	mu   sync.Mutex
	jobs []policy.Job // nil once the last run took them
	left int          // runs that have not taken their jobs yet
	// load, when set, loads the trace on the first take (a sweep's groups
	// are generated or read on a worker, when their first run starts);
	// release, when set, is called once the trace has been converted.
	load    func() (*trace.Trace, error)
	release func()
	opt     *Options
	comm    string // RunDataset: the group's communication model ("" → Options.Comm)
	err     error
}

// prepare converts t into engine jobs on p's machine as its family
// (policy.Family) has them: a job larger than the family's bound is
// rejected, the family's conversion makes the requests (a mesh shape, a
// subcube), partial records are dropped unless opt.KeepPartial, and the
// family checks the jobs left (malleable jobs need a work and an
// efficiency): its error names the file.
func (p *prepared) prepare(t *trace.Trace, opt *Options) error {
	f, ok := policy.FamilyOf(p.m.Kind)
	if !ok {
		return fmt.Errorf("%s: machine %s: no such machine family", where(t), p.m)
	}
	m := p.m
	if f.MaxJob != nil {
		m.Procs = f.MaxJob(p.m)
	}
	jobs, rej := admit.Jobs(t, m, opt.Estimates)
	p.t, p.name, p.rejected = t, t.Name, len(rej)
	if opt.Records != nil {
		p.audit = &Records{Trace: t.Name, Machine: p.rec, MachineFrom: p.from, Records: len(t.Jobs)}
		p.audit.Dropped, p.audit.Adjusted = admit.Tally(t, m, opt.Estimates, opt.KeepPartial)
	}
	family := 0
	if f.Jobs != nil {
		jobs, family = f.Jobs(p.m, jobs, policy.JobOptions{Shape: opt.Shape})
		p.rejected += family
	}
	if !opt.KeepPartial {
		w := 0
		for _, j := range jobs {
			if t.Jobs[j.Record].Partial() {
				p.partial++
				continue
			}
			jobs[w] = j
			w++
		}
		jobs = jobs[:w]
	}
	p.jobs, p.n, p.records = jobs, len(jobs), len(t.Jobs)
	if p.audit != nil {
		// Tally counted the partial records admit accepts; the family's
		// conversion may have refused some of them first: those count as
		// the family's.
		for k, c := range p.audit.Dropped {
			if c.Reason == admit.Partial {
				p.audit.Dropped[k].Records = p.partial
				family -= c.Records - p.partial
			}
		}
		p.audit.Dropped = slices.DeleteFunc(p.audit.Dropped, func(c admit.Count) bool { return c.Records == 0 })
		if family > 0 {
			p.audit.Dropped = append(p.audit.Dropped, admit.Count{Reason: "refused by the " + p.m.Kind + " machine's conversion (e.g. no request shape fits)", Records: family})
		}
		p.audit.Replayed = p.n
	}
	if f.Check != nil {
		if err := f.Check(p.m, jobs); err != nil {
			return fmt.Errorf("%s: %w", where(t), err)
		}
	}
	return nil
}

// Records says what a replay does with a trace's records: how many it
// replays, and how many it drops or adjusts, by reason (admit.Tally, the
// machine family's conversion, partial records). Jobs the allocator
// refuses at run time, and the filters of the statistics (warmup, until),
// are the summary's rejected and filtered columns.
type Records struct {
	Trace       string
	Machine     string // as the results record it
	MachineFrom string // trace.MachineGiven, MachineHeader, MachineInferred, or "" (a hint of unknown origin)
	Records     int    // records in the trace
	Replayed    int
	Dropped     []admit.Count
	Adjusted    []admit.Count
}

// String is the records line of the replay's summary.
func (r *Records) String() string {
	var b strings.Builder
	from := ""
	if r.MachineFrom != "" {
		from = " (" + r.MachineFrom + ")"
	}
	fmt.Fprintf(&b, "%s on %s%s: %d records, %d replayed", r.Trace, r.Machine, from, r.Records, r.Replayed)
	for _, part := range []struct {
		what string
		cs   []admit.Count
	}{{"dropped", r.Dropped}, {"adjusted", r.Adjusted}} {
		if len(part.cs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "; %s:", part.what)
		for i, c := range part.cs {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %d %s", c.Records, c.Reason)
		}
	}
	return b.String()
}

// take returns the jobs for one run: a copy, except for the last run of the
// trace, which takes the prepared slice itself (a 1M-job trace replayed
// under one pair is never copied). A lazy trace is loaded by the first.
func (p *prepared) take() ([]policy.Job, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.load != nil {
		load := p.load
		p.load = nil
		t, err := load()
		if err != nil {
			p.err = err
		} else if p.err = p.prepare(t, p.opt); p.err == nil {
			if p.opt.ReleaseTraces {
				t.Jobs = nil
			}
		}
		if p.release != nil {
			p.release()
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	p.left--
	if p.left == 0 {
		jobs := p.jobs
		p.jobs = nil
		return jobs, nil
	}
	return append([]policy.Job(nil), p.jobs...), nil
}

// MachineFor returns the machine a trace is replayed on: override when not
// empty, else the trace's machine hint, else flat:MaxProcs from its header,
// else flat with the trace's largest job (trace.GuessMachine: a lower
// bound, which the caller should warn about).
func MachineFor(t *trace.Trace, override string) (policy.Machine, error) {
	m, _, err := machineIn(t, override, "")
	return m, err
}

// machineIn is MachineFor in replay mode mode (policy.InMode: flat:P in
// mode malleable is malleable:P); from says where the machine came from
// (trace.MachineGiven, MachineHeader or MachineInferred; a hint's
// recorded origin, "" when unrecorded).
func machineIn(t *trace.Trace, override, mode string) (m policy.Machine, from string, err error) {
	s := override
	switch {
	case s != "":
		from = trace.MachineGiven
	case t.Machine != "":
		s, from = t.Machine, t.Provenance.MachineFrom
	default:
		if s, from = t.GuessMachine(); s == "" {
			return policy.Machine{}, "", fmt.Errorf("trace %s: no machine given (--machine), no machine hint, no MaxProcs/MaxNodes in the header and no job with a processor count", t.Name)
		}
	}
	m, err = policy.ParseMachine(s)
	if err == nil {
		m, err = policy.InMode(m, mode)
	}
	if err != nil {
		return policy.Machine{}, "", fmt.Errorf("trace %s: %w", t.Name, err)
	}
	return m, from, nil
}

// recorded is machine m as the results record it (policy.Recorded).
func recorded(m policy.Machine) string {
	s, _ := policy.Recorded(m)
	return s
}

// where names a trace's file for messages.
func where(t *trace.Trace) string {
	switch {
	case t.Path != "":
		return t.Path
	case t.Provenance.Source != "":
		return t.Provenance.Source
	}
	return "trace " + t.Name
}

// plan prepares every trace and returns the runs in output order.
func plan(traces []*trace.Trace, opt Options) ([]task, []*prepared, error) {
	if len(traces) == 0 {
		return nil, nil, fmt.Errorf("no traces to replay")
	}
	type key struct {
		name string
		rep  int
	}
	seen := map[key]*trace.Trace{}
	for _, t := range traces {
		k := key{t.Name, t.Provenance.Rep}
		if o, dup := seen[k]; dup {
			return nil, nil, fmt.Errorf("traces %s and %s have the same name %q and rep %d: their results could not be told apart (rename one)", where(o), where(t), t.Name, t.Provenance.Rep)
		}
		seen[k] = t
	}
	var tasks []task
	var preps []*prepared
	for _, t := range traces {
		if len(t.Jobs) == 0 {
			return nil, nil, fmt.Errorf("trace %s: no job records: nothing to replay", where(t))
		}
		m, from, err := machineIn(t, opt.Machine, opt.Mode)
		if err != nil {
			return nil, nil, err
		}
		if from == trace.MachineInferred && t.Machine == "" && opt.Warn != nil {
			opt.Warn(trace.InferredWarning(where(t), m.String()))
		}
		// Checking the policies' parameters builds an allocator of the
		// machine's size: refuse a machine too large for the memory first.
		if need := int64(m.Procs) * bytesPerProc; opt.MemoryLimit > 0 && need > opt.MemoryLimit {
			return nil, nil, fmt.Errorf("trace %s: machine %s needs about %s for its processors alone and %s is available: a smaller machine, or --force-memory to run anyway", where(t), m, gib(need), gib(opt.MemoryLimit))
		}
		pairs, err := catalog.Pairs(m, AllocsFor(m, opt.Allocs), opt.Scheds)
		if err != nil {
			return nil, nil, fmt.Errorf("trace %s: %w", t.Name, err)
		}
		p := &prepared{m: m, rec: recorded(m), from: from, left: len(pairs)}
		if err := p.prepare(t, &opt); err != nil {
			return nil, nil, err
		}
		if opt.ReleaseTraces {
			t.Jobs = nil // converted: the engine jobs are all the runs need
		}
		preps = append(preps, p)
		for _, pr := range pairs {
			tasks = append(tasks, task{p, pr})
		}
	}
	sort.SliceStable(tasks, func(a, b int) bool {
		x, y := tasks[a], tasks[b]
		if x.tr.t.Name != y.tr.t.Name {
			return x.tr.t.Name < y.tr.t.Name
		}
		if x.pair.Alloc != y.pair.Alloc {
			return x.pair.Alloc < y.pair.Alloc
		}
		if x.pair.Sched != y.pair.Sched {
			return x.pair.Sched < y.pair.Sched
		}
		return x.tr.t.Provenance.Rep < y.tr.t.Provenance.Rep
	})
	// Trace metadata in result order (name, rep), whatever the input order.
	sort.SliceStable(preps, func(a, b int) bool {
		x, y := preps[a].t, preps[b].t
		if x.Name != y.Name {
			return x.Name < y.Name
		}
		return x.Provenance.Rep < y.Provenance.Rep
	})
	return tasks, preps, nil
}
