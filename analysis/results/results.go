// Package results loads the results directory that `replay run` writes
// (jobs.parquet, summary.parquet, series.parquet; see the results contract,
// docs/results.md) into Go records and Arrow tables, and groups them into
// experiments and policy pairs.
package results

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/internal/columnar"
	"github.com/schedlab/schedlab/model/schema"
)

// The row types of the results files and the trace provenance: the
// contract's own types (model/schema), so that the replay writes and the
// analysis reads one declaration.
type (
	Job       = schema.Job       // one row of jobs.parquet
	Summary   = schema.Summary   // one row of summary.parquet
	Series    = schema.Series    // one row of series.parquet
	TraceInfo = schema.TraceInfo // one element of the schedlab.traces metadata
)

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
func PairOf(s *Summary) Pair { return Pair{s.Alloc, s.Sched} }

// Set is a loaded results directory.
type Set struct {
	Dir     string
	Version string          // schedlab.version ("" when absent)
	Options json.RawMessage // schedlab.options (nil when absent)
	Traces  []TraceInfo     // schedlab.traces, in file order
	Summary []Summary
	Jobs    []Job    // nil when jobs.parquet is absent
	Series  []Series // nil when series.parquet is absent
	// Whether Series is sorted by run (SeriesOf), checked for seriesN rows.
	seriesSorted bool
	seriesN      int
	// The files left on disk by LoadWith's Stream option (nil otherwise).
	jobsFile, seriesFile *streamFile
}

// Load reads a results directory. summary.parquet is required; jobs.parquet
// and series.parquet are read when present. Errors name the file and the
// column. Files of the format before placements (jobs.parquet with a
// `nodes` string column) are refused: re-run `replay run` to rewrite them.
// The files must come from one run: Load refuses files whose version,
// options or traces metadata disagree (two replays writing one directory
// at once can leave the summary of one and the jobs of the other).
//
// A sweep's dataset (dir/jobs/, series/ and summary/, partitioned by
// sweep, machine, alloc and sched: model/schema's dataset layout) is read
// when dir/summary/ is a directory, into the Set a `replay run` of the
// same traces and pairs gives (same rows in the same order; Traces the
// union of the cells'). Only complete cells (with a summary part) count;
// hidden temporary files and files outside the tables are ignored.
// Several sweep= partitions are read as one when their version and
// options metadata agree, and refused otherwise. A directory with both
// summary.parquet and summary/ is an error.
func Load(dir string) (*Set, error) { return LoadWith(dir, LoadOptions{}) }

// LoadWith is Load with options: see LoadOptions.
func LoadWith(dir string, o LoadOptions) (*Set, error) {
	if ok, err := isDataset(dir); err != nil {
		return nil, err
	} else if ok {
		return loadDataset(dir)
	}
	s := &Set{Dir: dir}
	sp := filepath.Join(dir, schema.SummaryFile)
	f, err := readRows(sp, &s.Summary, summaryColumns)
	if err != nil {
		return nil, err
	}
	s.Version, _ = f.Lookup(schema.KeyVersion)
	if v, ok := f.Lookup(schema.KeyOptions); ok && v != "" {
		if !json.Valid([]byte(v)) {
			return nil, fmt.Errorf("%s: metadata %s: invalid JSON", sp, schema.KeyOptions)
		}
		s.Options = json.RawMessage(v)
	}
	if v, ok := f.Lookup(schema.KeyTraces); ok && v != "" {
		if err := json.Unmarshal([]byte(v), &s.Traces); err != nil {
			return nil, fmt.Errorf("%s: metadata %s: %v", sp, schema.KeyTraces, err)
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
	if o.Stream {
		if s.jobsFile, err = openStream(dir, schema.JobsFile, jobColumns, sp, f); err != nil {
			return nil, err
		}
		if s.seriesFile, err = openStream(dir, schema.SeriesFile, seriesColumns, sp, f); err != nil {
			return nil, err
		}
		return s, nil
	}
	jf, err := readAlso(dir, schema.JobsFile, &s.Jobs, jobColumns, sp, f)
	if err != nil {
		return nil, err
	}
	if jf != nil && !hasColumn(jf, "load") {
		for i := range s.Jobs {
			s.Jobs[i].Load = -1
		}
	}
	if _, err := readAlso(dir, schema.SeriesFile, &s.Series, seriesColumns, sp, f); err != nil {
		return nil, err
	}
	return s, nil
}

// readAlso reads dir/name (jobs or series) into *dst when the file exists
// (*dst is then non-nil, even without rows), and checks that it comes from
// the same run as the summary sf read from sp. It returns nil when the
// file does not exist.
func readAlso[T any](dir, name string, dst *[]T, cols []schema.Column, sp string, sf *parquet.File) (*parquet.File, error) {
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		return nil, nil
	}
	f, err := readRows(p, dst, cols)
	if err != nil {
		return nil, err
	}
	if err := sameRun(sp, sf, p, f); err != nil {
		return nil, err
	}
	if *dst == nil {
		*dst = []T{}
	}
	return f, nil
}

// sameRun checks that two results files carry the same run metadata
// (version, options, traces): files of one run always do.
func sameRun(pa string, a *parquet.File, pb string, b *parquet.File) error {
	for _, k := range []string{schema.KeyVersion, schema.KeyOptions, schema.KeyTraces} {
		va, oka := a.Lookup(k)
		vb, okb := b.Lookup(k)
		if va != vb || oka != okb {
			return fmt.Errorf("%s and %s disagree on metadata %s: the files come from different runs (two replays writing one directory?); re-run `replay run` into an empty directory", pa, pb, k)
		}
	}
	return nil
}

// The columns Load checks, from the contract.
var (
	jobColumns     = schema.Columns(Job{})
	summaryColumns = schema.Columns(Summary{})
	seriesColumns  = schema.Columns(Series{})
)

func hasColumn(f *parquet.File, name string) bool {
	_, ok := field(f, name)
	return ok
}

// field returns the top-level field of f named name.
func field(f *parquet.File, name string) (parquet.Field, bool) {
	for _, fd := range f.Schema().Fields() {
		if fd.Name() == name {
			return fd, true
		}
	}
	return nil, false
}

// checkColumn reports whether node n has the physical type of column c:
// a string, an integer, a float, or a list (a group whose leaves include
// the element's fields, each of its kind).
func checkColumn(n parquet.Node, c schema.Column) bool {
	k := c.Kind
	if k == schema.List {
		if n.Leaf() {
			return false
		}
		want := map[string]schema.Column{}
		found := map[string]bool{}
		for _, e := range c.Elem {
			want[e.Name] = e
		}
		var walk func(parquet.Node)
		walk = func(n parquet.Node) {
			for _, f := range n.Fields() {
				if e, ok := want[f.Name()]; ok && f.Leaf() && checkColumn(f, e) {
					found[f.Name()] = true
				} else if !f.Leaf() {
					walk(f)
				}
			}
		}
		walk(n)
		return len(found) == len(want)
	}
	if !n.Leaf() {
		return false
	}
	switch t := n.Type().Kind(); k {
	case schema.String:
		return t == parquet.ByteArray
	case schema.Int:
		return t == parquet.Int64 || t == parquet.Int32
	case schema.Double:
		return t == parquet.Double || t == parquet.Float
	}
	return false
}

// readRows opens path, checks that every required column is present with
// its contract type (and optional ones, when present), then reads all rows
// into *dst.
func readRows[T any](path string, dst *[]T, cols []schema.Column) (*parquet.File, error) {
	osf, f, err := openChecked(path, cols)
	if err != nil {
		return nil, err
	}
	defer osf.Close()
	out, err := readFile[T](path, osf, f)
	if err != nil {
		return nil, err
	}
	*dst = out
	return f, nil
}

// openChecked opens path as a Parquet file and checks its columns against
// cols (readRows's checks); the caller closes the returned *os.File once
// done with the *parquet.File.
func openChecked(path string, cols []schema.Column) (*os.File, *parquet.File, error) {
	osf, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := checkFile(path, osf, cols)
	if err != nil {
		osf.Close()
		return nil, nil, err
	}
	return osf, f, nil
}

// checkFile opens osf, the file at path, as a Parquet file (its footer
// only) and checks its columns.
func checkFile(path string, osf *os.File, cols []schema.Column) (*parquet.File, error) {
	st, err := osf.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := columnar.Open(osf, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: not a Parquet file: %w", path, err)
	}
	if filepath.Base(path) == schema.JobsFile && hasColumn(f, "nodes") && !hasColumn(f, "placement") {
		v, _ := f.Lookup(schema.KeyVersion)
		return nil, fmt.Errorf("%s: column \"nodes\": results format before placements (written by schedlab %q); re-run `replay run` to rewrite the results with the \"placement\" column", path, v)
	}
	for _, c := range cols {
		fd, ok := field(f, c.Name)
		if !ok {
			if c.Optional {
				continue
			}
			return nil, fmt.Errorf("%s: missing column %q (%s)", path, c.Name, c.Kind)
		}
		if !checkColumn(fd, c) {
			t := "a group"
			if fd.Leaf() {
				t = fd.Type().String()
			}
			return nil, fmt.Errorf("%s: column %q has type %s, want %s", path, c.Name, t, c.Kind)
		}
	}
	return f, nil
}

// Pairs returns the distinct policy pairs of the summary, sorted.
func (s *Set) Pairs() []Pair { return PairsOf(s.Summary) }

// Pairs returns the distinct policy pairs of the experiment, sorted.
func (e *Experiment) Pairs() []Pair { return PairsOf(e.Rows) }

// PairsOf returns the distinct policy pairs of summary rows, sorted.
func PairsOf(rows []Summary) []Pair {
	seen := map[Pair]bool{}
	var out []Pair
	for i := range rows {
		p := PairOf(&rows[i])
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
		if len(traces) > 0 && !slices.Contains(traces, t.Name) {
			continue
		}
		if !t.Real() {
			return "time units"
		}
	}
	return "s"
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
	Comm      string    // the runs' communication model ("" or "off": none)
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
		if slices.Contains(PointParams, k) {
			continue
		}
		b, _ := json.Marshal(v)
		out[k] = string(b)
	}
	return out
}

// traceSeed returns the generator seed of a trace ("" when its provenance
// has none, as for real logs).
func traceSeed(ti TraceInfo) string {
	var m map[string]any
	if len(ti.Params) == 0 || json.Unmarshal(ti.Params, &m) != nil || m["seed"] == nil {
		return ""
	}
	b, _ := json.Marshal(m["seed"])
	return string(b)
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
// parameters, communication model), in order of the group's first trace
// name: traces that differ only in PointParams (load, rep, seeds) belong
// together, so two sweeps of different models (uniform against exponential
// sizes, say) are two experiments and their runs are never pooled as
// replications; nor are the cells of a sweep over communication models
// (names then end in the model, "wormhole:plen=16,..."). A generated trace
// that repeats an earlier one (same model, load and seed under another
// name) is left out, so that a copy does not count as a replication. The
// generator and parameters come from the trace provenance metadata; traces
// without it group by machine alone. When several experiments share a
// machine and generator, their names list the parameters that tell them
// apart.
func (s *Set) Experiments() []Experiment {
	idx := map[string]int{}
	var out []Experiment
	var fams []map[string]string
	seen := map[string]bool{}
	// What each trace's provenance says, read once per trace, not per run.
	type origin struct {
		gen, fam, seed, load string
		params               map[string]string
	}
	origins := make(map[string]origin, len(s.Traces))
	for _, ti := range s.Traces {
		if _, dup := origins[ti.Name]; dup {
			continue // as TraceInfo: the first of a name
		}
		f := family(ti)
		origins[ti.Name] = origin{gen: ti.Generator, fam: familyKey(f), seed: traceSeed(ti), load: strconv.FormatFloat(ti.Load, 'g', -1, 64), params: f}
	}
	for _, r := range s.Summary {
		o, ok := origins[r.Trace]
		if !ok {
			o.fam = familyKey(nil)
		}
		gen, fam := o.gen, o.params
		key := r.Machine + "\x00" + gen + "\x00" + o.fam + "\x00" + r.Comm
		if o.seed != "" {
			// A trace generated again under another name (a plan's second
			// workload replaying the first one's traces) is the same
			// trace, not another replication: its runs count once.
			run := key + "\x00" + r.Alloc + "\x00" + r.Sched + "\x00" + o.seed + "\x00" + o.load
			if seen[run] {
				continue
			}
			seen[run] = true
		}
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			name := r.Machine
			if gen != "" {
				name += ", " + gen
			}
			if r.Comm != "" && r.Comm != "off" {
				name += ", " + r.Comm
			}
			out = append(out, Experiment{Name: name, Machine: r.Machine, Generator: gen, Comm: r.Comm})
			fams = append(fams, fam)
		}
		out[i].Rows = append(out[i].Rows, r)
	}
	// Names of experiments sharing machine and generator: add the
	// parameters whose values differ between them.
	for i := range out {
		var diff []string
		for j := range out {
			if j == i || out[j].Machine != out[i].Machine || out[j].Generator != out[i].Generator || out[j].Comm != out[i].Comm {
				continue
			}
			for k, v := range fams[i] {
				if fams[j][k] != v && !slices.Contains(diff, k) {
					diff = append(diff, k)
				}
			}
			for k := range fams[j] {
				if _, ok := fams[i][k]; !ok && !slices.Contains(diff, k) {
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
			v = strings.Trim(v, `"`)
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				v = strconv.FormatFloat(f, 'g', 4, 64)
			}
			parts[n] = k + "=" + v
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
	// Machine and Comm tell apart the runs of one trace, pair and rep in a
	// sweep over machines or communication models; "" matches any.
	Machine string
	Comm    string
}

// cmp compares k with a row's (trace, alloc, sched, rep), the order of
// the jobs and series files: negative when k sorts first.
func (k Key) cmp(trace, alloc, sched string, rep int64) int {
	return cmp.Or(cmp.Compare(k.Trace, trace), cmp.Compare(k.Pair.Alloc, alloc),
		cmp.Compare(k.Pair.Sched, sched), cmp.Compare(k.Rep, rep))
}

// matches reports whether a run's key r is k: the same trace, pair and
// rep, and the same machine and communication model unless k leaves them
// empty (then JobsOf and SeriesOf take the first run's).
func (k Key) matches(r Key) bool {
	return k.Trace == r.Trace && k.Pair == r.Pair && k.Rep == r.Rep &&
		(k.Machine == "" || k.Machine == r.Machine) && (k.Comm == "" || k.Comm == r.Comm)
}

// first fills k's empty machine and model with those of r, the first
// matching run's.
func (k Key) first(r Key) Key {
	if k.Machine == "" {
		k.Machine = r.Machine
	}
	if k.Comm == "" {
		k.Comm = r.Comm
	}
	return k
}

// JobsOf returns the job rows of one (trace, pair, rep) (and of k.Comm,
// when k names one). Rows are sorted
// by (trace, alloc, sched, rep, job_id) by contract, so this is a binary
// search; it falls back to a scan when the file is unsorted.
func (s *Set) JobsOf(k Key) []Job {
	if s.jobsFile != nil && s.Jobs == nil {
		var out []Job
		err := s.EachJobRun(func(rk Key, js []Job) error {
			if k.matches(rk) && out == nil {
				out = CloneJobs(js)
			}
			return nil
		})
		if errors.Is(err, ErrUnsorted) {
			return s.JobsOf(k)
		}
		if err != nil {
			panic(err) // the file was read and checked by LoadWith
		}
		return out
	}
	less := func(j *Job) bool { return k.cmp(j.Trace, j.Alloc, j.Sched, j.Rep) > 0 }
	match := func(j *Job) bool { return k.matches(jobKey(j)) }
	lo := sort.Search(len(s.Jobs), func(i int) bool { return !less(&s.Jobs[i]) })
	hi := lo
	for hi < len(s.Jobs) && k.cmp(s.Jobs[hi].Trace, s.Jobs[hi].Alloc, s.Jobs[hi].Sched, s.Jobs[hi].Rep) == 0 {
		hi++
	}
	// A sweep over communication models holds a run per model under one
	// (trace, pair, rep), each run's rows contiguous.
	for lo < hi && !match(&s.Jobs[lo]) {
		lo++
	}
	if lo < hi {
		k = k.first(jobKey(&s.Jobs[lo]))
	}
	for end := lo; end < hi; end++ {
		if !match(&s.Jobs[end]) {
			hi = end
		}
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
// Rows sorted by (trace, alloc, sched, rep), as replay writes them, are
// found by binary search; otherwise every row is scanned.
func (s *Set) SeriesOf(k Key) []Series {
	if s.seriesFile != nil && s.Series == nil {
		var out []Series
		err := s.EachSeriesRun(func(rk Key, rows []Series) error {
			if k.matches(rk) && out == nil {
				out = slices.Clone(rows)
			}
			return nil
		})
		if errors.Is(err, ErrUnsorted) {
			return s.SeriesOf(k)
		}
		if err != nil {
			panic(err)
		}
		return out
	}
	less := func(r *Series) bool { return k.cmp(r.Trace, r.Alloc, r.Sched, r.Rep) > 0 }
	match := func(r *Series) bool { return k.matches(seriesKey(r)) }
	rows := s.Series
	if s.seriesN != len(s.Series) {
		s.seriesN, s.seriesSorted = len(s.Series), true
		for i := 1; i < len(rows) && s.seriesSorted; i++ {
			a, b := &rows[i-1], &rows[i]
			if a.Trace != b.Trace || a.Alloc != b.Alloc || a.Sched != b.Sched || a.Rep != b.Rep {
				s.seriesSorted = seriesLess(a, b)
			}
		}
	}
	var out []Series
	if s.seriesSorted {
		lo := sort.Search(len(rows), func(i int) bool { return !less(&rows[i]) })
		hi := lo
		for hi < len(rows) && k.cmp(rows[hi].Trace, rows[hi].Alloc, rows[hi].Sched, rows[hi].Rep) == 0 {
			hi++
		}
		if lo < hi {
			k = k.first(seriesKey(&rows[lo]))
		}
		for i := lo; i < hi; i++ {
			if match(&rows[i]) {
				out = append(out, rows[i])
			}
		}
	} else {
		for i := range rows {
			if match(&rows[i]) {
				out = append(out, rows[i])
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time < out[j].Time })
	return out
}

// seriesLess orders series rows of different runs by (trace, alloc, sched,
// rep).
func seriesLess(a, b *Series) bool {
	if a.Trace != b.Trace {
		return a.Trace < b.Trace
	}
	if a.Alloc != b.Alloc {
		return a.Alloc < b.Alloc
	}
	if a.Sched != b.Sched {
		return a.Sched < b.Sched
	}
	return a.Rep < b.Rep
}

// FormatLoad formats a load for labels ("0.7"; "unknown" when negative).
func FormatLoad(l float64) string {
	if l < 0 {
		return "unknown"
	}
	return strconv.FormatFloat(l, 'g', 4, 64)
}

// CloneJobs copies job rows and their placements (one backing array).
func CloneJobs(js []Job) []Job {
	out := slices.Clone(js)
	n := 0
	for i := range js {
		n += len(js[i].Placement)
	}
	arena := make([]schema.Piece, 0, n)
	for i := range out {
		if p := out[i].Placement; len(p) > 0 {
			a := len(arena)
			arena = append(arena, p...)
			out[i].Placement = arena[a:len(arena):len(arena)]
		}
	}
	return out
}
