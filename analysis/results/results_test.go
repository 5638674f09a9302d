package results_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

func TestRoundTripAndGrouping(t *testing.T) {
	dir := t.TempDir()
	want := fixture.Build(fixture.Spec{Procs: 32, Jobs: 40, Loads: []float64{0.3, 0.6, 0.9}, Reps: 3, Pairs: 4, Seed: 7, Series: true})
	if err := results.WriteDir(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := results.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Summary) != 3*3*4 || len(got.Jobs) != 3*3*4*40 || len(got.Series) != len(want.Series) {
		t.Fatalf("rows: %d summary, %d jobs, %d series", len(got.Summary), len(got.Jobs), len(got.Series))
	}
	for i := range want.Summary {
		if fmt.Sprint(got.Summary[i]) != fmt.Sprint(want.Summary[i]) { // NaN-tolerant
			t.Fatalf("summary row %d: %+v != %+v", i, got.Summary[i], want.Summary[i])
		}
	}
	for i := range want.Jobs {
		if !slices.Equal(got.Jobs[i].Placement, want.Jobs[i].Placement) || got.Jobs[i].AllocProcs != want.Jobs[i].AllocProcs || len(want.Jobs[i].Placement) == 0 {
			t.Fatalf("job row %d: placement %v, want %v", i, got.Jobs[i].Placement, want.Jobs[i].Placement)
		}
	}
	if got.Version != "fixture" || len(got.Traces) != 9 || got.Traces[4].Load != 0.6 {
		t.Errorf("metadata: %q %+v", got.Version, got.Traces)
	}
	if !strings.Contains(got.Traces[0].ParamString(), "procs=32") {
		t.Errorf("params %q", got.Traces[0].ParamString())
	}
	if got.TimeUnit() != "time units" {
		t.Errorf("unit %q", got.TimeUnit())
	}
	if ps := got.Pairs(); len(ps) != 4 || !ps[0].Less(ps[1]) {
		t.Errorf("pairs %v", ps)
	}
	exps := got.Experiments()
	if len(exps) != 1 || !exps[0].Sweep() || len(exps[0].Loads) != 3 {
		t.Fatalf("experiments %+v", exps)
	}
	cells := exps[0].Cells()
	if len(cells) != 4*3 {
		t.Fatalf("%d cells", len(cells))
	}
	for _, c := range cells {
		if len(c.Rows) != 3 || c.Rows[0].Rep != 0 || c.Rows[2].Rep != 2 {
			t.Fatalf("cell %v %v: reps %v", c.Pair, c.Load, c.Reps())
		}
		ci := c.CI("mean_response", 0.95)
		if !ci.Defined() || ci.N != 3 {
			t.Errorf("CI %+v", ci)
		}
	}
	// Jobs lookup matches a scan and the summary's job count.
	k := results.Key{Trace: got.Summary[5].Trace, Pair: results.PairOf(&got.Summary[5]), Rep: got.Summary[5].Rep}
	if js := got.JobsOf(k); int64(len(js)) != got.Summary[5].Jobs {
		t.Errorf("JobsOf: %d jobs, want %d", len(js), got.Summary[5].Jobs)
	}
	ser := got.SeriesOf(k)
	if len(ser) == 0 || ser[len(ser)-1].Busy != 0 {
		t.Errorf("series must end idle: %+v", ser[len(ser)-1])
	}
	// Relative difference of a pair against itself is exactly 0.
	rd, err := results.RelativeToBaseline(&cells[0], &cells[0], "mean_response", 0.95)
	if err != nil || rd.Mean != 0 || rd.HalfWidth != 0 {
		t.Errorf("self relative difference %+v %v", rd, err)
	}
}

func TestNonSweep(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 10, Reps: 2, Pairs: 2, Seed: 1, Real: true})
	if set.TimeUnit() != "s" {
		t.Errorf("real logs: unit %q", set.TimeUnit())
	}
	exps := set.Experiments()
	if len(exps) != 1 || exps[0].Sweep() {
		t.Fatalf("%+v", exps)
	}
	if cells := exps[0].Cells(); len(cells) != 2*2 || cells[0].Trace == "" {
		t.Errorf("cells %+v", cells)
	}
}

func TestArrowRecord(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 10, Pairs: 2, Seed: 1})
	rec := results.ToRecord(memory.DefaultAllocator, set.Summary)
	defer rec.Release()
	if rec.NumRows() != 2 || rec.Schema().Field(0).Name != "trace" || rec.Schema().Field(7).Name != "mean_response" {
		t.Fatalf("schema %v", rec.Schema())
	}
	if v := rec.Column(7).(*array.Float64).Value(1); v != set.Summary[1].MeanResponse {
		t.Errorf("mean_response %v", v)
	}
	jr := results.ToRecord(nil, set.Jobs)
	defer jr.Release()
	if jr.NumCols() != 23 || jr.Schema().Field(19).Name != "placement" || jr.Schema().Field(14).Type != arrow.PrimitiveTypes.Float64 {
		t.Fatalf("jobs schema %v", jr.Schema())
	}
	// The placement list holds each job's pieces.
	pl := jr.Column(19).(*array.List)
	st := pl.ListValues().(*array.Struct)
	for i := range set.Jobs {
		lo, hi := pl.ValueOffsets(i)
		if int(hi-lo) != len(set.Jobs[i].Placement) {
			t.Fatalf("job %d: %d pieces, want %d", i, hi-lo, len(set.Jobs[i].Placement))
		}
		for k := lo; k < hi; k++ {
			p := set.Jobs[i].Placement[k-lo]
			if st.Field(0).(*array.Int32).Value(int(k)) != p.X || st.Field(2).(*array.Int32).Value(int(k)) != p.W || st.Field(3).(*array.Int32).Value(int(k)) != p.H {
				t.Fatalf("job %d piece %d", i, k-lo)
			}
		}
	}
}

type badSummary struct {
	Trace   string `parquet:"trace"`
	Machine string `parquet:"machine"`
	Alloc   string `parquet:"alloc"`
	Sched   string `parquet:"sched"`
	Rep     string `parquet:"rep"`
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := results.Load(dir); err == nil || !strings.Contains(err.Error(), "summary.parquet") {
		t.Errorf("missing file: %v", err)
	}
	p := filepath.Join(dir, schema.SummaryFile)
	write := func(rows []badSummary) {
		if err := trace.AtomicWrite(p, func(w io.Writer) error {
			pw := parquet.NewGenericWriter[badSummary](w)
			if _, err := pw.Write(rows); err != nil {
				return err
			}
			return pw.Close()
		}); err != nil {
			t.Fatal(err)
		}
	}
	write([]badSummary{{"a", "m", "x", "y", "1"}})
	_, err := results.Load(dir)
	if err == nil || !strings.Contains(err.Error(), `column "rep"`) || !strings.Contains(err.Error(), p) {
		t.Errorf("wrong type: %v", err)
	}
	// Missing required column.
	type onlyTrace struct {
		Trace string  `parquet:"trace"`
		Rep   int64   `parquet:"rep"`
		X     float64 `parquet:"x"`
	}
	if err := trace.AtomicWrite(p, func(w io.Writer) error {
		pw := parquet.NewGenericWriter[onlyTrace](w)
		pw.Write([]onlyTrace{{"a", 1, 2}})
		return pw.Close()
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := results.Load(dir); err == nil || !strings.Contains(err.Error(), `missing column "machine"`) {
		t.Errorf("missing column: %v", err)
	}
	os.WriteFile(p, []byte("not parquet"), 0o644)
	if _, err := results.Load(dir); err == nil || !strings.Contains(err.Error(), "not a Parquet file") {
		t.Errorf("garbage: %v", err)
	}
}

func TestOptionalColumnsDefault(t *testing.T) {
	// A summary without the optional columns loads with load = -1.
	type minimal struct {
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
	}
	dir := t.TempDir()
	if err := trace.AtomicWrite(filepath.Join(dir, schema.SummaryFile), func(w io.Writer) error {
		pw := parquet.NewGenericWriter[minimal](w)
		pw.Write([]minimal{{Trace: "t", Machine: "flat:4", Alloc: "count", Sched: "fcfs", MeanResponse: 3, Power: math.Inf(1)}})
		return pw.Close()
	}); err != nil {
		t.Fatal(err)
	}
	s, err := results.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Summary[0].Load != -1 || s.Summary[0].MeanResponse != 3 || !math.IsInf(s.Summary[0].Power, 1) || s.Jobs != nil {
		t.Errorf("%+v", s.Summary[0])
	}
}

// TestExperimentsSplitWorkloads: two sweeps by the same generator on the
// same machine but with different model parameters (uniform against
// exponential sizes) are two experiments, not one whose cells pool six
// "replications" of two different workloads.
func TestExperimentsSplitWorkloads(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 10, Loads: []float64{0.5, 0.8}, Reps: 2, Pairs: 2, Seed: 1})
	n := len(set.Summary)
	for i := range n {
		r := set.Summary[i]
		r.Trace = "exp-" + r.Trace
		set.Summary = append(set.Summary, r)
	}
	for _, ti := range slices.Clone(set.Traces) {
		ti.Name = "exp-" + ti.Name
		ti.Params = json.RawMessage(`{"procs":16,"sizes":"exponential","mean_procs":"94.09000000000009","load":` + strconv.FormatFloat(ti.Load, 'g', -1, 64) + `}`)
		set.Traces = append(set.Traces, ti)
	}
	exps := set.Experiments()
	if len(exps) != 2 {
		t.Fatalf("%d experiments, want 2", len(exps))
	}
	for _, e := range exps {
		if !strings.Contains(e.Name, "sizes=") {
			t.Errorf("name %q does not say which workload", e.Name)
		}
		for _, c := range e.Cells() {
			if len(c.Rows) != 2 {
				t.Errorf("%s: cell %v %v pools %d rows, want 2", e.Name, c.Pair, c.Load, len(c.Rows))
			}
		}
	}
	// Numbers written as JSON strings (workload.go's ftoa) read as numbers
	// to 4 significant digits, not with float noise.
	if !strings.Contains(exps[1].Name+exps[0].Name, "mean_procs=94.09,") {
		t.Errorf("names %q, %q: want mean_procs=94.09", exps[0].Name, exps[1].Name)
	}
	// Per-point parameters (load, seed, rep...) do not split a sweep.
	one := fixture.Build(fixture.Spec{Procs: 16, Jobs: 10, Loads: []float64{0.5, 0.8}, Reps: 2, Pairs: 1, Seed: 1})
	for i := range one.Traces {
		ti := &one.Traces[i]
		ti.Params = json.RawMessage(fmt.Sprintf(`{"procs":16,"load":%g,"offered_load":%g,"iat":%d,"rep":%d,"seed":%d}`, ti.Load, ti.Load, i, ti.Rep, i))
	}
	if exps := one.Experiments(); len(exps) != 1 || strings.Contains(exps[0].Name, "(") {
		t.Errorf("one sweep split: %d experiments, %q", len(exps), exps[0].Name)
	}
}

// TestSingleLoadReplications: replications at one known load (synth sweep
// --load 0.7 --reps 4) are pooled into one cell per pair with a Student-t
// interval, not shown as four unrelated traces without intervals.
func TestSingleLoadReplications(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 20, Loads: []float64{0.7}, Reps: 4, Pairs: 2, Seed: 3})
	exps := set.Experiments()
	if len(exps) != 1 || !exps[0].Sweep() {
		t.Fatalf("not a sweep: %+v", exps)
	}
	cells := exps[0].Cells()
	if len(cells) != 2 {
		t.Fatalf("%d cells, want 2", len(cells))
	}
	if ci := cells[0].CI("mean_response", 0.95); ci.N != 4 || !ci.Defined() {
		t.Errorf("CI %+v", ci)
	}
}

// TestRelativeToBaselinePairsOnTrace: a cell pooling two traces that both
// carry rep 1 (two sweeps with different seeds) pairs each trace with the
// baseline's run of the same trace, not both with whichever baseline row
// came last.
func TestRelativeToBaselinePairsOnTrace(t *testing.T) {
	row := func(trace string, v float64) results.Summary {
		return results.Summary{Trace: trace, Rep: 1, MeanResponse: v}
	}
	base := &results.Cell{Rows: []results.Summary{row("a", 10), row("b", 100)}}
	x := &results.Cell{Rows: []results.Summary{row("a", 11), row("b", 110)}}
	ci, err := results.RelativeToBaseline(x, base, "mean_response", 0.95)
	if err != nil || ci.N != 2 || math.Abs(ci.Mean-0.1) > 1e-12 || math.Abs(ci.HalfWidth) > 1e-12 {
		t.Errorf("got %+v %v, want 0.1 ± 0 over 2 pairs", ci, err)
	}
}

// TestLoadRejectsDuplicateRuns: two summary rows for the same (trace,
// machine, alloc, sched, rep), e.g. two result files concatenated, would be
// pooled as two replications; Load refuses them, naming the rows.
func TestLoadRejectsDuplicateRuns(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 8, Jobs: 5, Loads: []float64{0.5, 0.7}, Reps: 2, Pairs: 2, Seed: 1})
	set.Summary = append(set.Summary, set.Summary[3])
	dir := t.TempDir()
	if err := results.WriteDir(dir, set); err != nil {
		t.Fatal(err)
	}
	_, err := results.Load(dir)
	if err == nil || !strings.Contains(err.Error(), "summary.parquet: row") || !strings.Contains(err.Error(), "repeats row") {
		t.Errorf("duplicate run: %v", err)
	}
}

// TestLoadRefusesMixedRuns: two replays writing one directory at once can
// leave the summary of one run next to the jobs and series of the other;
// Load refuses files whose run metadata disagree, naming both files and
// the key.
func TestLoadRefusesMixedRuns(t *testing.T) {
	spec := fixture.Spec{Procs: 8, Jobs: 5, Loads: []float64{0.5}, Reps: 1, Pairs: 1, Seed: 1, Series: true}
	for _, tc := range []struct {
		key    string
		change func(*results.Set)
		file   string
	}{
		{"schedlab.options", func(s *results.Set) { s.Options = json.RawMessage(`{"bsld_tau":60}`) }, "jobs.parquet"},
		{"schedlab.version", func(s *results.Set) { s.Version = "other" }, "series.parquet"},
		{"schedlab.traces", func(s *results.Set) { s.Traces[0].Seed++ }, "jobs.parquet"},
	} {
		a, b := t.TempDir(), t.TempDir()
		if err := results.WriteDir(a, fixture.Build(spec)); err != nil {
			t.Fatal(err)
		}
		other := fixture.Build(spec)
		tc.change(other)
		if err := results.WriteDir(b, other); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(b, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(a, tc.file), data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = results.Load(a)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(a, "summary.parquet")) || !strings.Contains(err.Error(), filepath.Join(a, tc.file)) || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s differs in %s: %v", tc.key, tc.file, err)
		}
	}
}

// TestCommSweepRuns: a sweep over communication models holds one run per
// model under the same (trace, pair, rep); experiments, JobsOf and SeriesOf
// keep them apart, and a key without a model matches any.
func TestCommSweepRuns(t *testing.T) {
	comms := []string{"wormhole:plen=16", "wormhole:plen=8"}
	set := &results.Set{}
	for _, c := range comms {
		set.Summary = append(set.Summary, results.Summary{Trace: "t", Machine: "mesh:4x4", Alloc: "gabl", Sched: "fcfs", Rep: 1, Load: 0.5, Comm: c})
		for id := int64(1); id <= 2; id++ {
			set.Jobs = append(set.Jobs, results.Job{Trace: "t", Machine: "mesh:4x4", Alloc: "gabl", Sched: "fcfs", Rep: 1, JobID: id, Comm: c, Wait: float64(len(c))})
			set.Series = append(set.Series, results.Series{Trace: "t", Machine: "mesh:4x4", Alloc: "gabl", Sched: "fcfs", Rep: 1, Time: float64(id), Comm: c})
		}
	}
	exps := set.Experiments()
	if len(exps) != 2 || exps[0].Comm == exps[1].Comm || !strings.Contains(exps[0].Name, "wormhole:plen=") {
		t.Fatalf("experiments %+v: want one per comm, named by it", exps)
	}
	p := results.Pair{Alloc: "gabl", Sched: "fcfs"}
	for _, c := range comms {
		k := results.Key{Trace: "t", Pair: p, Rep: 1, Comm: c}
		js := set.JobsOf(k)
		if len(js) != 2 {
			t.Fatalf("%s: %d jobs, want 2", c, len(js))
		}
		for _, j := range js {
			if j.Comm != c {
				t.Errorf("%s: job of %s", c, j.Comm)
			}
		}
		ss := set.SeriesOf(k)
		if len(ss) != 2 || ss[0].Comm != c || ss[1].Comm != c {
			t.Errorf("%s: series %+v", c, ss)
		}
	}
	if js := set.JobsOf(results.Key{Trace: "t", Pair: p, Rep: 1}); len(js) != 2 {
		t.Errorf("a key without a model: %d jobs, want one run's 2", len(js))
	}
}

// TestMachineSweepRuns: one trace replayed on two machines of one family
// (a plan's machines array) gives two runs under the same (trace, pair,
// rep); JobsOf and SeriesOf keep them apart.
func TestMachineSweepRuns(t *testing.T) {
	machines := []string{"mesh:8x8", "mesh:4x4"}
	set := &results.Set{}
	for n, m := range machines {
		set.Summary = append(set.Summary, results.Summary{Trace: "t", Machine: m, Alloc: "ff", Sched: "fcfs", Rep: 1, Load: 0.5})
		for id := int64(1); id <= int64(n+1); id++ {
			set.Jobs = append(set.Jobs, results.Job{Trace: "t", Machine: m, Alloc: "ff", Sched: "fcfs", Rep: 1, JobID: id})
			set.Series = append(set.Series, results.Series{Trace: "t", Machine: m, Alloc: "ff", Sched: "fcfs", Rep: 1, Time: float64(id)})
		}
	}
	if exps := set.Experiments(); len(exps) != 2 {
		t.Fatalf("%d experiments, want one per machine", len(exps))
	}
	p := results.Pair{Alloc: "ff", Sched: "fcfs"}
	for n, m := range machines {
		k := results.Key{Trace: "t", Pair: p, Rep: 1, Machine: m}
		if js := set.JobsOf(k); len(js) != n+1 || js[0].Machine != m {
			t.Errorf("%s: jobs %+v, want %d of its own", m, js, n+1)
		}
		if ss := set.SeriesOf(k); len(ss) != n+1 || ss[0].Machine != m {
			t.Errorf("%s: series %+v, want %d of its own", m, ss, n+1)
		}
	}
}

// TestExperimentsDropCopies: a plan's second workload replaying the first
// one's traces under other names (same model, load and seed) adds no
// replications; traces with other seeds do.
func TestExperimentsDropCopies(t *testing.T) {
	params := func(seed int) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"size":"uniform","load":"0.5","rep":"1","seed":"%d"}`, seed))
	}
	set := &results.Set{}
	for _, tr := range []struct {
		name string
		seed int
	}{{"a-rep01", 7}, {"a-rep02", 8}, {"b-rep01", 7}, {"b-rep02", 8}, {"c-rep01", 9}} {
		set.Traces = append(set.Traces, results.TraceInfo{Name: tr.name, Generator: "workload", Load: 0.5, Machine: "flat:8", Params: params(tr.seed)})
		set.Summary = append(set.Summary, results.Summary{Trace: tr.name, Machine: "flat:8", Alloc: "count", Sched: "fcfs", Load: 0.5, MeanResponse: float64(tr.seed)})
	}
	exps := set.Experiments()
	if len(exps) != 1 {
		t.Fatalf("%d experiments, want 1", len(exps))
	}
	cells := exps[0].Cells()
	if len(cells) != 1 || len(cells[0].Rows) != 3 {
		t.Fatalf("cells %+v: want one cell of 3 replications (seeds 7, 8, 9)", cells)
	}
	if got := strings.Join(exps[0].Traces, ","); got != "a-rep01,a-rep02,c-rep01" {
		t.Errorf("traces %s, want the first copy of each seed", got)
	}
}
