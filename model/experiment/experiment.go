// Package experiment runs every (trace × compatible allocator/scheduler
// pair) through the event engine over a worker pool, computes per-job rows
// and per-pair summaries, and writes them as Parquet (the results contract:
// jobs.parquet, summary.parquet, series.parquet).
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
//   - wait = start − submit; response = end − submit.
//   - slowdown = response / run; for a zero-run-time job (KTH-SP2 has 8,
//     NASA 173) the run time is taken as one time unit (the SWF resolution,
//     1 s), i.e. slowdown = max(1, response).
//   - bounded slowdown = max(1, response / max(run, τ)), τ = 10 s by default
//     (pyss's convention; Feitelson et al.).
//   - utilization = busy processor-time / (procs × makespan) over
//     [first arrival, last completion] of the whole run; mean_queue is the
//     time-averaged number of waiting jobs over the same span; max_queue is
//     the largest number waiting after any instant. These system-level
//     figures cover every replayed job, filters notwithstanding.
//   - throughput = jobs / makespan with jobs the number of jobs counted in
//     the statistics; power = throughput / mean_wait (seed 001 §4.2),
//     written as IEEE +Inf when the mean wait is 0.
//   - sd_response is the sample standard deviation (n − 1 divisor), 0 for
//     a single job.
//   - When filters leave no job to count (jobs = 0), the per-job statistics
//     (mean_*, sd_response, max_wait) and power are NaN: undefined, not 0.
//
// # Filters
//
//   - Partial SWF records (status 2, 3, 4: parts of a job whose summary
//     line is also in the log) are not replayed by default and count in
//     `filtered`; KeepPartial replays them as ordinary jobs.
//   - Warmup N leaves the first N replayed jobs (by submit order) out of
//     the statistics; UntilLastArrival leaves out the jobs that finish after
//     the last arrival. Both only affect the summary: jobs.parquet keeps a
//     row for every replayed job, so that analyses can choose their own
//     windows. Jobs left out count in `filtered`.
//   - Traces are told apart by (name, rep): two traces sharing both are
//     an error.
//   - Rejected jobs (engine.Jobs: no processor count, unknown run or
//     submit time, larger than the machine) are never replayed; they count
//     in `rejected`, and the other jobs still run.
package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// Options configures an experiment.
type Options struct {
	Machine          string   // machine for every trace ("flat:100"); "" → each trace's hint, else flat:MaxProcs
	Allocs           []string // allocator specs; nil → every one supporting the machine
	Scheds           []string // scheduler specs; nil → every one supporting the machine
	Workers          int      // worker pool size; ≤ 0 → GOMAXPROCS
	Check            bool     // engine invariant checking
	Estimates        string   // "requested" (default when "") or "actual"
	BsldTau          float64  // bounded-slowdown threshold τ; 0 → 10
	Warmup           int      // leave the first N replayed jobs out of the statistics
	UntilLastArrival bool     // leave out jobs finishing after the last arrival
	KeepPartial      bool     // replay partial SWF records instead of dropping them
	NoSeries         bool     // do not record or write series.parquet
	Out              string   // output directory; "" → write nothing
	Version          string   // tool version recorded in the files' metadata
	// Progress, when set, is called after each run with the number of runs
	// done, the total, and the number of jobs simulated so far. Calls are
	// serialized.
	Progress func(done, total int, jobs int64)
}

// File names inside Options.Out.
const (
	JobsFile    = "jobs.parquet"
	SummaryFile = "summary.parquet"
	SeriesFile  = "series.parquet"
)

// Metadata keys of the results files.
const (
	MetaVersion = "schedlab.version"
	MetaOptions = "schedlab.options"
	MetaTraces  = "schedlab.traces"
)

// DefaultBsldTau is the default bounded-slowdown threshold, in seconds.
const DefaultBsldTau = 10.0

// task is one (trace, pair) run.
type task struct {
	tr   *prepared
	pair catalog.Pair
}

// prepared is a trace with its machine and engine jobs.
type prepared struct {
	t        *trace.Trace
	m        policy.Machine
	jobs     []policy.Job
	rejected int
	partial  int
}

type output struct {
	jobs    []JobRow
	series  []SeriesRow
	summary SummaryRow
	err     error
}

// MachineFor returns the machine a trace is replayed on: override when not
// empty, else the trace's machine hint, else flat:MaxProcs from its header.
func MachineFor(t *trace.Trace, override string) (policy.Machine, error) {
	s := override
	if s == "" {
		s = t.Machine
	}
	if s == "" {
		n := t.MaxProcs()
		if n <= 0 {
			return policy.Machine{}, fmt.Errorf("trace %s: no machine given (--machine), no machine hint and no MaxProcs/MaxNodes in the header", t.Name)
		}
		s = fmt.Sprintf("flat:%d", n)
	}
	m, err := policy.ParseMachine(s)
	if err != nil {
		return policy.Machine{}, fmt.Errorf("trace %s: %w", t.Name, err)
	}
	return m, nil
}

// Run replays every trace under every compatible pair, writes the results
// files when opt.Out is set (all or nothing), and returns the summary rows
// in output order.
func Run(traces []*trace.Trace, opt Options) ([]SummaryRow, error) {
	if opt.Estimates == "" {
		opt.Estimates = engine.EstimatesRequested
	}
	if err := engine.CheckEstimates(opt.Estimates); err != nil {
		return nil, err
	}
	if opt.BsldTau == 0 {
		opt.BsldTau = DefaultBsldTau
	}
	if opt.BsldTau < 0 || math.IsNaN(opt.BsldTau) {
		return nil, fmt.Errorf("bounded-slowdown tau %g: must be positive", opt.BsldTau)
	}
	if opt.Warmup < 0 {
		return nil, fmt.Errorf("warmup %d: must be ≥ 0", opt.Warmup)
	}
	if len(traces) == 0 {
		return nil, fmt.Errorf("no traces to replay")
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type key struct {
		name string
		rep  int
	}
	seen := map[key]*trace.Trace{}
	for _, t := range traces {
		k := key{t.Name, t.Provenance.Rep}
		if o, dup := seen[k]; dup {
			return nil, fmt.Errorf("traces %s and %s have the same name %q and rep %d: their results could not be told apart", o.Provenance.Source, t.Provenance.Source, t.Name, t.Provenance.Rep)
		}
		seen[k] = t
	}
	var tasks []task
	var preps []*prepared
	for _, t := range traces {
		m, err := MachineFor(t, opt.Machine)
		if err != nil {
			return nil, err
		}
		pairs, err := catalog.Pairs(m, opt.Allocs, opt.Scheds)
		if err != nil {
			return nil, fmt.Errorf("trace %s: %w", t.Name, err)
		}
		jobs, rej := engine.Jobs(t, m, opt.Estimates)
		p := &prepared{t: t, m: m, rejected: len(rej)}
		if !opt.KeepPartial {
			w := 0
			for _, j := range jobs {
				if t.Jobs[j.Index].Partial() {
					p.partial++
					continue
				}
				jobs[w] = j
				w++
			}
			jobs = jobs[:w]
		}
		p.jobs = jobs
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

	var sink *sink
	if opt.Out != "" {
		sink = newSink(opt, preps)
	}
	summary := make([]SummaryRow, 0, len(tasks))
	err := runPool(tasks, workers, opt, func(i int, o *output) error {
		summary = append(summary, o.summary)
		if sink != nil {
			return sink.write(o)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if sink != nil {
		if err := sink.commit(opt.Out); err != nil {
			return nil, err
		}
	}
	return summary, nil
}

// runPool runs the tasks over workers goroutines and calls emit for each
// output in task order. At most 2×workers outputs wait to be emitted.
func runPool(tasks []task, workers int, opt Options, emit func(int, *output) error) error {
	n := len(tasks)
	type done struct {
		i int
		o *output
	}
	idx := make(chan int)
	results := make(chan done, workers)
	tokens := make(chan struct{}, 2*workers)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				results <- done{i, runTask(tasks[i], opt)}
			}
		}()
	}
	go func() {
		defer close(idx)
		for i := 0; i < n; i++ {
			select {
			case tokens <- struct{}{}:
			case <-quit:
				return
			}
			select {
			case idx <- i:
			case <-quit:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	pending := map[int]*output{}
	next := 0
	var jobsDone int64
	var err error
	for d := range results {
		if err != nil {
			continue // drain
		}
		pending[d.i] = d.o
		for err == nil {
			o, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if o.err != nil {
				err = o.err
			} else {
				err = emit(next, o)
			}
			jobsDone += int64(len(tasks[next].tr.jobs))
			next++
			<-tokens
			if opt.Progress != nil {
				opt.Progress(next, n, jobsDone)
			}
		}
		if err != nil {
			close(quit)
		}
	}
	return err
}

// runTask replays one (trace, pair) and computes its rows.
func runTask(tk task, opt Options) (result *output) {
	p := tk.tr
	t := p.t
	fail := func(err error) *output {
		return &output{err: fmt.Errorf("trace %s, %s/%s on %s: %w", t.Name, tk.pair.Alloc, tk.pair.Sched, p.m, err)}
	}
	// A policy bug that panics is reported like any other failure of the
	// run, naming the trace and pair, instead of killing the process with a
	// goroutine dump (and the other runs' results with it).
	defer func() {
		if r := recover(); r != nil {
			result = fail(fmt.Errorf("panic: %v", r))
		}
	}()
	a, err := tk.pair.NewAllocator(p.m)
	if err != nil {
		return fail(err)
	}
	s, err := tk.pair.NewScheduler(p.m)
	if err != nil {
		return fail(err)
	}
	jobs := append([]policy.Job(nil), p.jobs...)
	res, err := engine.Run(jobs, p.m, a, s, engine.Options{Check: opt.Check, Series: !opt.NoSeries, Nodes: opt.Out != ""})
	if err != nil {
		return fail(err)
	}
	machine := p.m.String()
	rep := int64(t.Provenance.Rep)
	load := t.Provenance.Load
	tau := opt.BsldTau
	out := &output{}

	// Statistics over the counted jobs.
	lastArrival := math.Inf(-1)
	if len(jobs) > 0 {
		lastArrival = jobs[len(jobs)-1].Submit
	}
	var n int64
	var sumResp, sumResp2, sumWait, sumSd, sumBsld, maxWait, sumRun float64
	var meanResp float64
	filtered := int64(p.partial)
	for i := range jobs {
		j := &jobs[i]
		if i < opt.Warmup || (opt.UntilLastArrival && j.End > lastArrival) {
			filtered++
			continue
		}
		wait := j.Start - j.Submit
		resp := j.End - j.Submit
		n++
		// Welford for the response variance.
		d := resp - meanResp
		meanResp += d / float64(n)
		sumResp2 += d * (resp - meanResp)
		sumResp += resp
		sumWait += wait
		sumSd += slowdown(resp, j.Run)
		sumBsld += bsld(resp, j.Run, tau)
		maxWait = max(maxWait, wait)
		sumRun += j.Run
	}
	makespan := res.Last - res.First
	sum := SummaryRow{
		Trace: t.Name, Machine: machine, Alloc: tk.pair.Alloc, Sched: tk.pair.Sched, Rep: rep,
		Jobs: n, Rejected: int64(p.rejected), MaxQueue: int64(res.MaxQueue), Load: load,
		Procs: int64(p.m.Procs), BsldTau: tau, Filtered: filtered, Makespan: makespan,
		MaxWait: maxWait,
	}
	if n > 0 {
		fn := float64(n)
		sum.MeanResponse = sumResp / fn
		sum.MeanWait = sumWait / fn
		sum.MeanSlowdown = sumSd / fn
		sum.MeanBsld = sumBsld / fn
		sum.MeanRun = sumRun / fn
		if n > 1 {
			sum.SDResponse = math.Sqrt(sumResp2 / (fn - 1))
		}
	}
	if makespan > 0 {
		sum.Utilization = res.BusyArea / (float64(p.m.Procs) * makespan)
		sum.MeanQueue = res.QueueArea / makespan
		sum.Throughput = float64(n) / makespan
	}
	switch {
	case n == 0:
		// No job counted (every one filtered out): the per-job statistics
		// are undefined, not zero (a mean bounded slowdown of 0 would be
		// below its floor of 1, a power of +Inf a perfect score).
		nan := math.NaN()
		sum.MeanResponse, sum.SDResponse, sum.MeanWait, sum.MeanSlowdown = nan, nan, nan, nan
		sum.MeanBsld, sum.MeanRun, sum.MaxWait, sum.Power = nan, nan, nan, nan
	case sum.MeanWait > 0:
		sum.Power = sum.Throughput / sum.MeanWait
	default:
		sum.Power = math.Inf(1)
	}
	out.summary = sum
	if opt.Out == "" {
		return out
	}

	// Job rows, by job ID.
	order := make([]int32, len(jobs))
	for i := range order {
		order[i] = int32(i)
	}
	sort.SliceStable(order, func(a, b int) bool { return jobs[order[a]].ID < jobs[order[b]].ID })
	out.jobs = make([]JobRow, len(jobs))
	for k, i := range order {
		j := &jobs[i]
		resp := j.End - j.Submit
		out.jobs[k] = JobRow{
			Trace: t.Name, Machine: machine, Alloc: tk.pair.Alloc, Sched: tk.pair.Sched, Rep: rep,
			JobID: j.ID, SubmitTime: j.Submit, StartTime: j.Start, EndTime: j.End,
			WaitTime: j.Start - j.Submit, ResponseTime: resp,
			Slowdown: slowdown(resp, j.Run), BoundedSlowdown: bsld(resp, j.Run, tau),
			ReqProcs: int64(j.Procs), AllocProcs: int64(res.AllocProcs[i]), Load: load,
			RunTime: j.Run, Estimate: j.Estimate, UserID: j.User, Nodes: res.Nodes[i],
		}
	}
	if !opt.NoSeries {
		out.series = make([]SeriesRow, len(res.Series))
		for k, s := range res.Series {
			out.series[k] = SeriesRow{
				Trace: t.Name, Machine: machine, Alloc: tk.pair.Alloc, Sched: tk.pair.Sched, Rep: rep,
				Time: s.Time, Busy: int64(s.Busy), Running: int64(s.Running), Queue: int64(s.Queue),
			}
		}
	}
	return out
}

// slowdown is response / run, with a zero run time taken as one time unit.
func slowdown(resp, run float64) float64 {
	if run <= 0 {
		return max(1, resp)
	}
	return resp / run
}

// bsld is the bounded slowdown max(1, response / max(run, tau)).
func bsld(resp, run, tau float64) float64 {
	return max(1, resp/max(run, tau))
}

// sink streams rows into three in-memory Parquet files, written to disk
// only when every run succeeded.
type sink struct {
	jobs, summary, series bytes.Buffer
	jobsW                 *parquet.GenericWriter[JobRow]
	summaryW              *parquet.GenericWriter[SummaryRow]
	seriesW               *parquet.GenericWriter[SeriesRow]
}

type optionsJSON struct {
	Machine          string   `json:"machine"`
	Allocs           []string `json:"allocs"`
	Scheds           []string `json:"scheds"`
	Estimates        string   `json:"estimates"`
	BsldTau          float64  `json:"bsld_tau"`
	Warmup           int      `json:"warmup"`
	UntilLastArrival bool     `json:"until_last_arrival"`
	Check            bool     `json:"check"`
	Filters          []string `json:"filters"`
}

type traceJSON struct {
	Name      string            `json:"name"`
	Source    string            `json:"source"`
	Generator string            `json:"generator"`
	Params    map[string]string `json:"params"`
	Seed      int64             `json:"seed"`
	Load      float64           `json:"load"`
	Rep       int               `json:"rep"`
	Machine   string            `json:"machine"`
	Jobs      int               `json:"jobs"`
}

func jsonString(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // plain strings, numbers, maps: cannot fail
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func newSink(opt Options, preps []*prepared) *sink {
	var filters []string
	if !opt.KeepPartial {
		filters = append(filters, "drop-partial")
	}
	if opt.Warmup > 0 {
		filters = append(filters, fmt.Sprintf("warmup=%d", opt.Warmup))
	}
	if opt.UntilLastArrival {
		filters = append(filters, "until-last-arrival")
	}
	o := optionsJSON{Machine: opt.Machine, Allocs: opt.Allocs, Scheds: opt.Scheds, Estimates: opt.Estimates,
		BsldTau: opt.BsldTau, Warmup: opt.Warmup, UntilLastArrival: opt.UntilLastArrival, Check: opt.Check, Filters: filters}
	// In result order (name, rep), whatever the order of the inputs.
	preps = append([]*prepared(nil), preps...)
	sort.SliceStable(preps, func(a, b int) bool {
		x, y := preps[a].t, preps[b].t
		if x.Name != y.Name {
			return x.Name < y.Name
		}
		return x.Provenance.Rep < y.Provenance.Rep
	})
	var ts []traceJSON
	for _, p := range preps {
		pv := p.t.Provenance
		ts = append(ts, traceJSON{Name: p.t.Name, Source: pv.Source, Generator: pv.Generator, Params: pv.Params,
			Seed: pv.Seed, Load: pv.Load, Rep: pv.Rep, Machine: p.m.String(), Jobs: len(p.t.Jobs)})
	}
	version := opt.Version
	if version == "" {
		version = "dev"
	}
	wopts := []parquet.WriterOption{
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.CreatedBy("schedlab", version, ""),
		parquet.MaxRowsPerRowGroup(1 << 20),
		parquet.KeyValueMetadata(MetaVersion, version),
		parquet.KeyValueMetadata(MetaOptions, jsonString(o)),
		parquet.KeyValueMetadata(MetaTraces, jsonString(ts)),
	}
	s := &sink{}
	s.jobsW = parquet.NewGenericWriter[JobRow](&s.jobs, wopts...)
	s.summaryW = parquet.NewGenericWriter[SummaryRow](&s.summary, wopts...)
	if !opt.NoSeries {
		s.seriesW = parquet.NewGenericWriter[SeriesRow](&s.series, wopts...)
	}
	return s
}

func (s *sink) write(o *output) error {
	if _, err := s.jobsW.Write(o.jobs); err != nil {
		return fmt.Errorf("%s: %w", JobsFile, err)
	}
	if _, err := s.summaryW.Write([]SummaryRow{o.summary}); err != nil {
		return fmt.Errorf("%s: %w", SummaryFile, err)
	}
	if s.seriesW != nil {
		if _, err := s.seriesW.Write(o.series); err != nil {
			return fmt.Errorf("%s: %w", SeriesFile, err)
		}
	}
	return nil
}

// commit closes the Parquet writers and writes the files into dir, all or
// nothing as far as the file system allows: every file is first written and
// synced to a temporary file next to its target, and only when all of them
// are complete are they renamed into place. A failure before the renames
// leaves dir as it was (a previous run's files untouched). Without series,
// a series.parquet left by an earlier run is removed, so that the directory
// never mixes two runs.
func (s *sink) commit(dir string) error {
	if err := s.jobsW.Close(); err != nil {
		return fmt.Errorf("%s: %w", JobsFile, err)
	}
	if err := s.summaryW.Close(); err != nil {
		return fmt.Errorf("%s: %w", SummaryFile, err)
	}
	type file struct {
		name string
		buf  *bytes.Buffer
		tmp  string
	}
	files := []*file{{name: JobsFile, buf: &s.jobs}, {name: SummaryFile, buf: &s.summary}}
	if s.seriesW != nil {
		if err := s.seriesW.Close(); err != nil {
			return fmt.Errorf("%s: %w", SeriesFile, err)
		}
		files = append(files, &file{name: SeriesFile, buf: &s.series})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cleanup := func() {
		for _, f := range files {
			if f.tmp != "" {
				os.Remove(f.tmp)
			}
		}
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			cleanup()
			return fmt.Errorf("%s: is a directory", path)
		}
		tmp, err := writeTemp(path, f.buf.Bytes())
		if err != nil {
			cleanup()
			return err
		}
		f.tmp = tmp
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := os.Rename(f.tmp, path); err != nil {
			cleanup()
			return fmt.Errorf("%s: %w", path, err)
		}
		f.tmp = ""
	}
	if s.seriesW == nil {
		if err := os.Remove(filepath.Join(dir, SeriesFile)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// writeTemp writes b to a synced temporary file next to path (as
// trace.AtomicWrite does) and returns its name; the caller renames it.
func writeTemp(path string, b []byte) (name string, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(b); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if err = f.Chmod(0o644); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return f.Name(), nil
}

// FormatSummary writes the summary rows as an aligned text table.
func FormatSummary(w io.Writer, rows []SummaryRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "trace\tmachine\talloc\tsched\trep\tjobs\trejected\tfiltered\tmean_wait\tmean_response\tmean_bsld\tutilization\tmakespan\tmax_queue\tmean_queue\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.3f\t%.4f\t%.0f\t%d\t%.2f\t\n",
			r.Trace, r.Machine, r.Alloc, r.Sched, r.Rep, r.Jobs, r.Rejected, r.Filtered,
			r.MeanWait, r.MeanResponse, r.MeanBsld, r.Utilization, r.Makespan, r.MaxQueue, r.MeanQueue)
	}
	return tw.Flush()
}
