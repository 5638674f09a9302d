// Package results loads the results directory that `replay run` writes
// (jobs.parquet, summary.parquet, series.parquet; see the results contract
// in the README) into Go records and Arrow tables, and groups them into
// experiments and policy pairs.
package results

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// File names inside a results directory.
const (
	JobsFile    = "jobs.parquet"
	SummaryFile = "summary.parquet"
	SeriesFile  = "series.parquet"
)

// Metadata keys of the results files.
const (
	KeyVersion = "schedlab.version"
	KeyOptions = "schedlab.options"
	KeyTraces  = "schedlab.traces"
)

// Job is one row of jobs.parquet: one accepted job under one (trace, pair).
type Job struct {
	Trace           string  `parquet:"trace"`
	Machine         string  `parquet:"machine"`
	Alloc           string  `parquet:"alloc"`
	Sched           string  `parquet:"sched"`
	Rep             int64   `parquet:"rep"`
	JobID           int64   `parquet:"job_id"`
	Submit          float64 `parquet:"submit_time"`
	Start           float64 `parquet:"start_time"`
	End             float64 `parquet:"end_time"`
	Wait            float64 `parquet:"wait_time"`
	Response        float64 `parquet:"response_time"`
	Slowdown        float64 `parquet:"slowdown"`
	BoundedSlowdown float64 `parquet:"bounded_slowdown"`
	ReqProcs        int64   `parquet:"req_procs"`
	AllocProcs      int64   `parquet:"alloc_procs"`
	Load            float64 `parquet:"load"`
	Run             float64 `parquet:"run_time"`
	Estimate        float64 `parquet:"estimate"`
	User            int64   `parquet:"user_id"`
	Nodes           string  `parquet:"nodes"`
}

// Summary is one row of summary.parquet: the metrics of one (trace, pair).
type Summary struct {
	Trace        string  `parquet:"trace"`
	Machine      string  `parquet:"machine"`
	Alloc        string  `parquet:"alloc"`
	Sched        string  `parquet:"sched"`
	Rep          int64   `parquet:"rep"`
	Jobs         int64   `parquet:"jobs"`
	Rejected     int64   `parquet:"rejected"`
	MeanResponse float64 `parquet:"mean_response"`
	SDResponse   float64 `parquet:"sd_response"`
	MeanWait     float64 `parquet:"mean_wait"`
	MeanSlowdown float64 `parquet:"mean_slowdown"`
	MeanBSLD     float64 `parquet:"mean_bsld"`
	Utilization  float64 `parquet:"utilization"`
	Makespan     float64 `parquet:"makespan"`
	Throughput   float64 `parquet:"throughput"`
	Power        float64 `parquet:"power"`
	MaxQueue     int64   `parquet:"max_queue"`
	MeanQueue    float64 `parquet:"mean_queue"`
	Load         float64 `parquet:"load"`
	Procs        int64   `parquet:"procs"`
	BSLDTau      float64 `parquet:"bsld_tau"`
	Filtered     int64   `parquet:"filtered"`
	MaxWait      float64 `parquet:"max_wait"`
	MeanRun      float64 `parquet:"mean_run"`
}

// Series is one row of series.parquet: the machine state after all events
// at one instant of one (trace, pair).
type Series struct {
	Trace   string  `parquet:"trace"`
	Machine string  `parquet:"machine"`
	Alloc   string  `parquet:"alloc"`
	Sched   string  `parquet:"sched"`
	Rep     int64   `parquet:"rep"`
	Time    float64 `parquet:"time"`
	Busy    int64   `parquet:"busy"`
	Running int64   `parquet:"running"`
	Queue   int64   `parquet:"queue"`
}

// Metric returns the value of a summary column by name (the float columns
// and the integer ones as float64) and whether the column exists.
func (s *Summary) Metric(column string) (float64, bool) {
	switch column {
	case "jobs":
		return float64(s.Jobs), true
	case "rejected":
		return float64(s.Rejected), true
	case "mean_response":
		return s.MeanResponse, true
	case "sd_response":
		return s.SDResponse, true
	case "mean_wait":
		return s.MeanWait, true
	case "mean_slowdown":
		return s.MeanSlowdown, true
	case "mean_bsld":
		return s.MeanBSLD, true
	case "utilization":
		return s.Utilization, true
	case "makespan":
		return s.Makespan, true
	case "throughput":
		return s.Throughput, true
	case "power":
		return s.Power, true
	case "max_queue":
		return float64(s.MaxQueue), true
	case "mean_queue":
		return s.MeanQueue, true
	case "load":
		return s.Load, true
	case "max_wait":
		return s.MaxWait, true
	case "mean_run":
		return s.MeanRun, true
	case "filtered":
		return float64(s.Filtered), true
	}
	return math.NaN(), false
}

// Pair is an (allocator, scheduler) policy pair in canonical spec form.
type Pair struct{ Alloc, Sched string }

// String is "alloc / sched".
func (p Pair) String() string { return p.Alloc + " / " + p.Sched }

// Less orders pairs by allocator, then scheduler.
func (p Pair) Less(q Pair) bool {
	if p.Alloc != q.Alloc {
		return p.Alloc < q.Alloc
	}
	return p.Sched < q.Sched
}

// ParsePair parses "alloc/sched" (the --baseline flag form). The allocator
// spec cannot contain '/', so the first '/' splits.
func ParsePair(s string) (Pair, error) {
	a, b, ok := strings.Cut(s, "/")
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if !ok || a == "" || b == "" {
		return Pair{}, fmt.Errorf("pair %q: want alloc/sched", s)
	}
	return Pair{a, b}, nil
}

// PairOf returns the pair of a summary row.
func (s *Summary) PairOf() Pair { return Pair{s.Alloc, s.Sched} }

// TraceInfo is one element of the schedlab.traces metadata: the provenance
// of one replayed trace.
type TraceInfo struct {
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Generator string          `json:"generator"`
	Params    json.RawMessage `json:"params,omitempty"`
	Seed      int64           `json:"seed"`
	Load      float64         `json:"load"`
	Rep       int64           `json:"rep"`
	Machine   string          `json:"machine"`
	Jobs      int64           `json:"jobs"`
}

// ParamString renders Params as "k=v, k=v" in key order ("" when absent).
func (t *TraceInfo) ParamString() string {
	if len(t.Params) == 0 {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal(t.Params, &m); err != nil {
		return string(t.Params)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// Real reports whether the trace is a converted real log (times in
// seconds) rather than a synthetic one (abstract time units): its
// generator is "swf" or its source is an SWF file.
func (t *TraceInfo) Real() bool {
	g := strings.ToLower(t.Generator)
	s := strings.ToLower(t.Source)
	return g == "swf" || strings.HasSuffix(s, ".swf") || strings.HasSuffix(s, ".swf.gz")
}

// Set is a loaded results directory.
type Set struct {
	Dir     string
	Version string          // schedlab.version ("" when absent)
	Options json.RawMessage // schedlab.options (nil when absent)
	Traces  []TraceInfo     // schedlab.traces, in file order
	Summary []Summary
	Jobs    []Job    // nil when jobs.parquet is absent
	Series  []Series // nil when series.parquet is absent
}

// Load reads a results directory. summary.parquet is required; jobs.parquet
// and series.parquet are read when present. Errors name the file and the
// column.
func Load(dir string) (*Set, error) {
	s := &Set{Dir: dir}
	sp := filepath.Join(dir, SummaryFile)
	f, err := readRows(sp, &s.Summary, summaryColumns)
	if err != nil {
		return nil, err
	}
	s.Version, _ = f.Lookup(KeyVersion)
	if v, ok := f.Lookup(KeyOptions); ok && v != "" {
		if !json.Valid([]byte(v)) {
			return nil, fmt.Errorf("%s: metadata %s: invalid JSON", sp, KeyOptions)
		}
		s.Options = json.RawMessage(v)
	}
	if v, ok := f.Lookup(KeyTraces); ok && v != "" {
		if err := json.Unmarshal([]byte(v), &s.Traces); err != nil {
			return nil, fmt.Errorf("%s: metadata %s: %v", sp, KeyTraces, err)
		}
	}
	if !hasColumn(f, "load") {
		for i := range s.Summary {
			s.Summary[i].Load = -1
		}
	}
	type run struct {
		trace, machine, alloc, sched string
		rep                          int64
	}
	seen := make(map[run]int, len(s.Summary))
	for i, r := range s.Summary {
		if r.Trace == "" || r.Alloc == "" || r.Sched == "" {
			return nil, fmt.Errorf("%s: row %d: empty trace, alloc or sched", sp, i+1)
		}
		k := run{r.Trace, r.Machine, r.Alloc, r.Sched, r.Rep}
		if j, ok := seen[k]; ok {
			return nil, fmt.Errorf("%s: row %d: run (trace %s, %s / %s, rep %d) repeats row %d (trace names must be unique within a results set)", sp, i+1, r.Trace, r.Alloc, r.Sched, r.Rep, j)
		}
		seen[k] = i + 1
	}
	jp := filepath.Join(dir, JobsFile)
	if _, err := os.Stat(jp); err == nil {
		f, err := readRows(jp, &s.Jobs, jobColumns)
		if err != nil {
			return nil, err
		}
		if !hasColumn(f, "load") {
			for i := range s.Jobs {
				s.Jobs[i].Load = -1
			}
		}
		if s.Jobs == nil {
			s.Jobs = []Job{}
		}
	}
	serp := filepath.Join(dir, SeriesFile)
	if _, err := os.Stat(serp); err == nil {
		if _, err := readRows(serp, &s.Series, seriesColumns); err != nil {
			return nil, err
		}
		if s.Series == nil {
			s.Series = []Series{}
		}
	}
	return s, nil
}

type kind int

const (
	kString kind = iota
	kInt
	kDouble
)

func (k kind) String() string {
	return [...]string{"string", "int64", "double"}[k]
}

type column struct {
	name     string
	kind     kind
	optional bool // added after the column list; defaulted when absent
}

var jobColumns = []column{
	{"trace", kString, false}, {"machine", kString, false}, {"alloc", kString, false},
	{"sched", kString, false}, {"rep", kInt, false}, {"job_id", kInt, false},
	{"submit_time", kDouble, false}, {"start_time", kDouble, false}, {"end_time", kDouble, false},
	{"wait_time", kDouble, false}, {"response_time", kDouble, false}, {"slowdown", kDouble, false},
	{"bounded_slowdown", kDouble, false}, {"req_procs", kInt, false}, {"alloc_procs", kInt, false},
	{"load", kDouble, true}, {"run_time", kDouble, true}, {"estimate", kDouble, true},
	{"user_id", kInt, true}, {"nodes", kString, true},
}

var summaryColumns = []column{
	{"trace", kString, false}, {"machine", kString, false}, {"alloc", kString, false},
	{"sched", kString, false}, {"rep", kInt, false}, {"jobs", kInt, false}, {"rejected", kInt, false},
	{"mean_response", kDouble, false}, {"sd_response", kDouble, false}, {"mean_wait", kDouble, false},
	{"mean_slowdown", kDouble, false}, {"mean_bsld", kDouble, false}, {"utilization", kDouble, false},
	{"makespan", kDouble, false}, {"throughput", kDouble, false}, {"power", kDouble, false},
	{"max_queue", kInt, false}, {"mean_queue", kDouble, false},
	{"load", kDouble, true}, {"procs", kInt, true}, {"bsld_tau", kDouble, true},
	{"filtered", kInt, true}, {"max_wait", kDouble, true}, {"mean_run", kDouble, true},
}

var seriesColumns = []column{
	{"trace", kString, false}, {"machine", kString, false}, {"alloc", kString, false},
	{"sched", kString, false}, {"rep", kInt, false}, {"time", kDouble, false},
	{"busy", kInt, false}, {"running", kInt, false}, {"queue", kInt, false},
}

func hasColumn(f *parquet.File, name string) bool {
	_, ok := f.Schema().Lookup(name)
	return ok
}

// readRows opens path, checks that every required column is present with
// its contract type (and optional ones, when present), then reads all rows
// into *dst.
func readRows[T any](path string, dst *[]T, cols []column) (f *parquet.File, err error) {
	osf, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer osf.Close()
	st, err := osf.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err = parquet.OpenFile(osf, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: not a Parquet file: %w", path, err)
	}
	for _, c := range cols {
		leaf, ok := f.Schema().Lookup(c.name)
		if !ok {
			if c.optional {
				continue
			}
			return nil, fmt.Errorf("%s: missing column %q (%s)", path, c.name, c.kind)
		}
		var good bool
		switch k := leaf.Node.Type().Kind(); c.kind {
		case kString:
			good = k == parquet.ByteArray
		case kInt:
			good = k == parquet.Int64 || k == parquet.Int32
		case kDouble:
			good = k == parquet.Double || k == parquet.Float
		}
		if !good {
			return nil, fmt.Errorf("%s: column %q has type %s, want %s", path, c.name, leaf.Node.Type(), c.kind)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", path, r)
		}
	}()
	rd := parquet.NewGenericReader[T](f)
	defer rd.Close()
	out := make([]T, f.NumRows())
	n := 0
	for n < len(out) {
		m, err := rd.Read(out[n:])
		n += m
		if err != nil {
			if n == len(out) {
				break
			}
			return nil, fmt.Errorf("%s: row %d: %w", path, n+1, err)
		}
		if m == 0 {
			return nil, fmt.Errorf("%s: row %d: short read", path, n+1)
		}
	}
	*dst = out
	return f, nil
}

// Pairs returns the distinct policy pairs of the summary, sorted.
func (s *Set) Pairs() []Pair {
	seen := map[Pair]bool{}
	var out []Pair
	for i := range s.Summary {
		p := s.Summary[i].PairOf()
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// TraceInfo returns the provenance of a trace by name.
func (s *Set) TraceInfo(name string) (TraceInfo, bool) {
	for _, t := range s.Traces {
		if t.Name == name {
			return t, true
		}
	}
	return TraceInfo{}, false
}

// TimeUnit returns the time unit of the set's traces: "s" when every trace
// with provenance is a real log, "time units" otherwise (synthetic traces,
// or unknown provenance).
func (s *Set) TimeUnit(traces ...string) string {
	if len(s.Traces) == 0 {
		return "time units"
	}
	for _, t := range s.Traces {
		if len(traces) > 0 && !contains(traces, t.Name) {
			continue
		}
		if !t.Real() {
			return "time units"
		}
	}
	return "s"
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Experiment is a group of traces replayed on the same machine and made by
// the same generator with the same model parameters (they differ only in
// load, replication and seeds): a load sweep when every trace's load is
// known and there are two or more loads or replications, a set of
// independent traces otherwise.
type Experiment struct {
	Name      string    // "machine, generator", plus "(param=value, ...)" when needed to tell experiments apart
	Machine   string    // machine spec
	Generator string    // generator from the provenance ("" when unknown)
	Traces    []string  // trace names, sorted
	Loads     []float64 // distinct known loads, ascending; empty when none
	Rows      []Summary // summary rows, in file order
}

// Sweep reports whether the experiment is a load sweep (x = load): every
// trace's load known, and either two or more distinct loads or
// replications (two or more traces) at a single load, which are pooled
// into one point with a confidence interval.
func (e *Experiment) Sweep() bool {
	if len(e.Loads) == 0 {
		return false
	}
	for i := range e.Rows {
		if e.Rows[i].Load < 0 {
			return false
		}
	}
	return len(e.Loads) >= 2 || len(e.Traces) >= 2
}

// PointParams are the generator parameters that vary from point to point
// of one sweep (the load, the replication and their seeds); the others
// identify the workload model.
var PointParams = []string{"load", "offered_load", "iat", "rep", "seed"}

// family returns the workload-model parameters of a trace (its params
// without PointParams), values as JSON text; nil when unknown.
func family(ti TraceInfo) map[string]string {
	var m map[string]any
	if len(ti.Params) == 0 || json.Unmarshal(ti.Params, &m) != nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if contains(PointParams, k) {
			continue
		}
		b, _ := json.Marshal(v)
		out[k] = string(b)
	}
	return out
}

// WorkloadKey identifies the workload model of a trace: its generator and
// its parameters other than PointParams ("" without provenance). Runs of
// traces with the same key at the same load are replications.
func (s *Set) WorkloadKey(trace string) string {
	ti, ok := s.TraceInfo(trace)
	if !ok {
		return ""
	}
	return ti.Generator + "\x00" + familyKey(family(ti))
}

func familyKey(f map[string]string) string {
	b, _ := json.Marshal(f) // map keys are sorted
	return string(b)
}

// Experiments groups the summary by (machine, generator, workload-model
// parameters), in order of the group's first trace name: traces that differ
// only in PointParams (load, rep, seeds) belong together, so two sweeps of
// different models (uniform against exponential sizes, say) are two
// experiments and their runs are never pooled as replications. The
// generator and parameters come from the trace provenance metadata; traces
// without it group by machine alone. When several experiments share a
// machine and generator, their names list the parameters that tell them
// apart.
func (s *Set) Experiments() []Experiment {
	idx := map[string]int{}
	var out []Experiment
	var fams []map[string]string
	for _, r := range s.Summary {
		gen := ""
		var fam map[string]string
		if ti, ok := s.TraceInfo(r.Trace); ok {
			gen = ti.Generator
			fam = family(ti)
		}
		key := r.Machine + "\x00" + gen + "\x00" + familyKey(fam)
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			name := r.Machine
			if gen != "" {
				name += ", " + gen
			}
			out = append(out, Experiment{Name: name, Machine: r.Machine, Generator: gen})
			fams = append(fams, fam)
		}
		out[i].Rows = append(out[i].Rows, r)
	}
	// Names of experiments sharing machine and generator: add the
	// parameters whose values differ between them.
	for i := range out {
		var diff []string
		for j := range out {
			if j == i || out[j].Machine != out[i].Machine || out[j].Generator != out[i].Generator {
				continue
			}
			for k, v := range fams[i] {
				if fams[j][k] != v && !contains(diff, k) {
					diff = append(diff, k)
				}
			}
			for k := range fams[j] {
				if _, ok := fams[i][k]; !ok && !contains(diff, k) {
					diff = append(diff, k)
				}
			}
		}
		if len(diff) == 0 {
			continue
		}
		sort.Strings(diff)
		parts := make([]string, len(diff))
		for n, k := range diff {
			v, ok := fams[i][k]
			if !ok {
				v = "unset"
			}
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				v = strconv.FormatFloat(f, 'g', 4, 64)
			}
			parts[n] = k + "=" + strings.Trim(v, `"`)
		}
		out[i].Name += " (" + strings.Join(parts, ", ") + ")"
	}
	for i := range out {
		e := &out[i]
		ts := map[string]bool{}
		ls := map[float64]bool{}
		for _, r := range e.Rows {
			ts[r.Trace] = true
			if r.Load >= 0 {
				ls[r.Load] = true
			}
		}
		for t := range ts {
			e.Traces = append(e.Traces, t)
		}
		sort.Strings(e.Traces)
		for l := range ls {
			e.Loads = append(e.Loads, l)
		}
		sort.Float64s(e.Loads)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Traces[0] < out[j].Traces[0] })
	return out
}

// Key identifies the rows of a (trace, pair) in jobs and series.
type Key struct {
	Trace string
	Pair  Pair
	Rep   int64
}

// JobsOf returns the job rows of one (trace, pair, rep). Rows are sorted
// by (trace, alloc, sched, rep, job_id) by contract, so this is a binary
// search; it falls back to a scan when the file is unsorted.
func (s *Set) JobsOf(k Key) []Job {
	less := func(j *Job) bool {
		if j.Trace != k.Trace {
			return j.Trace < k.Trace
		}
		if j.Alloc != k.Pair.Alloc {
			return j.Alloc < k.Pair.Alloc
		}
		if j.Sched != k.Pair.Sched {
			return j.Sched < k.Pair.Sched
		}
		return j.Rep < k.Rep
	}
	match := func(j *Job) bool {
		return j.Trace == k.Trace && j.Alloc == k.Pair.Alloc && j.Sched == k.Pair.Sched && j.Rep == k.Rep
	}
	lo := sort.Search(len(s.Jobs), func(i int) bool { return !less(&s.Jobs[i]) })
	hi := lo
	for hi < len(s.Jobs) && match(&s.Jobs[hi]) {
		hi++
	}
	if hi > lo {
		return s.Jobs[lo:hi]
	}
	var out []Job
	for i := range s.Jobs {
		if match(&s.Jobs[i]) {
			out = append(out, s.Jobs[i])
		}
	}
	return out
}

// SeriesOf returns the series rows of one (trace, pair, rep), in time order.
func (s *Set) SeriesOf(k Key) []Series {
	var out []Series
	for i := range s.Series {
		r := &s.Series[i]
		if r.Trace == k.Trace && r.Alloc == k.Pair.Alloc && r.Sched == k.Pair.Sched && r.Rep == k.Rep {
			out = append(out, *r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time < out[j].Time })
	return out
}

// FormatLoad formats a load for labels ("0.7"; "unknown" when negative).
func FormatLoad(l float64) string {
	if l < 0 {
		return "unknown"
	}
	return strconv.FormatFloat(l, 'g', 4, 64)
}
