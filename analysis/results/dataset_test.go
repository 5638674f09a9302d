package results_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
	"github.com/schedlab/schedlab/traces"
)

// replayRef replays the first n embedded traces under the given pairs into
// a results directory (a trace renamed to need percent-encoding) and
// loads it.
func replayRef(tb testing.TB, n int, allocs, scheds []string) (string, *results.Set) {
	tb.Helper()
	ts, err := traces.Default()
	if err != nil {
		tb.Fatal(err)
	}
	ts = ts[:n]
	ts[0].Name = "odd name:1/x%" // every byte escaped but letters and digits
	dir := tb.TempDir()
	if _, err := experiment.Run(ts, experiment.Options{Allocs: allocs, Scheds: scheds, Placement: true, Out: dir, Version: "test"}); err != nil {
		tb.Fatal(err)
	}
	set, err := results.Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return dir, set
}

// cell is one run of a results set, as a sweep writes it.
type cell struct {
	key    schema.CellKey
	meta   schema.Meta
	sum    []results.Summary
	jobs   []results.Job
	series []results.Series
}

// cellsOf splits a results set into its cells, sweep sweepOf(i) for the
// i-th summary row, with the metadata of a sweep's part files: the set's
// version and options, the cell's trace alone.
func cellsOf(s *results.Set, sweepOf func(i int) string) []cell {
	var out []cell
	for i, r := range s.Summary {
		ti, _ := s.TraceInfo(r.Trace)
		c := cell{
			key:  schema.CellKey{Sweep: sweepOf(i), Machine: r.Machine, Alloc: r.Alloc, Sched: r.Sched, Trace: r.Trace, Rep: r.Rep},
			meta: schema.Meta{Version: s.Version, Options: string(s.Options), Traces: schema.JSON([]results.TraceInfo{ti})},
			sum:  []results.Summary{r},
		}
		k := results.Key{Trace: r.Trace, Pair: results.PairOf(&r), Rep: r.Rep}
		if s.Jobs != nil {
			c.jobs = s.JobsOf(k)
		}
		if s.Series != nil {
			c.series = []results.Series{}
			for _, x := range s.Series {
				if x.Trace == k.Trace && x.Alloc == k.Pair.Alloc && x.Sched == k.Pair.Sched && x.Rep == k.Rep {
					c.series = append(c.series, x)
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// writePart writes rows as the part file at dir/rel with the metadata m.
func writePart[T any](tb testing.TB, dir, rel string, rows []T, m schema.Meta) {
	tb.Helper()
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := trace.AtomicWrite(path, func(w io.Writer) error {
		pw := schema.NewWriter[T](w, m)
		if _, err := pw.Write(rows); err != nil {
			return err
		}
		return pw.Close()
	}); err != nil {
		tb.Fatal(err)
	}
}

// write writes the cell's files into the dataset in dir, summary last.
func (c *cell) write(tb testing.TB, dir string) {
	tb.Helper()
	if c.jobs != nil {
		writePart(tb, dir, c.key.Path(schema.JobsTable), c.jobs, c.meta)
	}
	if c.series != nil {
		writePart(tb, dir, c.key.Path(schema.SeriesTable), c.series, c.meta)
	}
	writePart(tb, dir, c.key.Path(schema.SummaryTable), c.sum, c.meta)
}

func writeCells(tb testing.TB, dir string, cells []cell) {
	tb.Helper()
	for i := range cells {
		cells[i].write(tb, dir)
	}
}

func oneSweep(int) string { return "s1" }

// sameSet fails unless the two sets hold the same rows and metadata.
func sameSet(t *testing.T, got, want *results.Set) {
	t.Helper()
	if got.Version != want.Version || string(got.Options) != string(want.Options) {
		t.Errorf("metadata: %q %s, want %q %s", got.Version, got.Options, want.Version, want.Options)
	}
	if !reflect.DeepEqual(got.Traces, want.Traces) {
		t.Errorf("traces:\n%+v\nwant\n%+v", got.Traces, want.Traces)
	}
	sameRows(t, "summary", got.Summary, want.Summary)
	sameRows(t, "jobs", got.Jobs, want.Jobs)
	sameRows(t, "series", got.Series, want.Series)
}

// sameRows compares rows, NaN equal to NaN.
func sameRows[T any](t *testing.T, what string, got, want []T) {
	t.Helper()
	if (got == nil) != (want == nil) || len(got) != len(want) {
		t.Errorf("%s: %d rows (nil %v), want %d (nil %v)", what, len(got), got == nil, len(want), want == nil)
		return
	}
	if reflect.DeepEqual(got, want) {
		return
	}
	for i := range got {
		if g, w := fmt.Sprintf("%+v", got[i]), fmt.Sprintf("%+v", want[i]); g != w {
			t.Errorf("%s row %d:\n%s\nwant\n%s", what, i+1, g, w)
			return
		}
	}
}

var (
	refOnce  sync.Once
	refSet   *results.Set
	baseOnce sync.Once
	baseDir  string
)

// base returns a dataset of the reference's cells (one sweep), written
// once, and the cells; callers copy it before editing.
func base(t *testing.T) (string, []cell) {
	ref := reference(t)
	cells := cellsOf(ref, oneSweep)
	baseOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dataset-base-")
		if err != nil {
			t.Fatal(err)
		}
		writeCells(t, dir, cells)
		baseDir = dir
	})
	if baseDir == "" {
		t.Fatal("base dataset failed")
	}
	return baseDir, cells
}

// TestMain removes the shared base dataset.
func TestMain(m *testing.M) {
	code := m.Run()
	if baseDir != "" {
		os.RemoveAll(baseDir)
	}
	os.Exit(code)
}

// copyTree copies the files of src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// reference is a replay of 3 traces under 6 pairs (one scheduler spec
// needing percent-encoding), loaded.
func reference(t *testing.T) *results.Set {
	refOnce.Do(func() {
		_, refSet = replayRef(t, 3, []string{"count", "contig"}, []string{"fcfs", "easy", "mq:q=4,order=up"})
	})
	if refSet == nil {
		t.Fatal("reference replay failed")
	}
	return refSet
}

// A dataset of a replay's cells loads as the replay's directory does,
// whatever else the directory holds: files at its root, hidden temporary
// files, incomplete cells (even unreadable ones), cells split between
// sweeps with the same options.
func TestDatasetEqualsReplay(t *testing.T) {
	ref := reference(t)
	for _, tc := range []struct {
		name  string
		sweep func(int) string
		edit  func(t *testing.T, dir string, cells []cell)
		want  func(s results.Set) *results.Set
	}{
		{name: "plain", sweep: oneSweep},
		{name: "two sweeps", sweep: func(i int) string { return []string{"a", "b:2"}[i%2] }},
		{name: "clutter and incomplete cells", sweep: oneSweep, edit: func(t *testing.T, dir string, cells []cell) {
			for _, f := range []string{".schedlab.lock", "sweep.json", "report.pdf", "slurm/job-1.out", "summary/README", "jobs/.tmp/x.parquet"} {
				mkfile(t, filepath.Join(dir, f), "x")
			}
			k := cells[0].key
			for _, tb := range schema.Tables {
				mkfile(t, filepath.Join(dir, tb, k.CellDir(), "."+k.FileName()+".tmp-123"), "partial")
			}
			// An incomplete cell: jobs and series without a summary, and
			// a jobs part not even Parquet.
			c := cells[1]
			c.key.Sweep = "later"
			writePart(t, dir, c.key.Path(schema.SeriesTable), c.series, c.meta)
			mkfile(t, filepath.Join(dir, c.key.Path(schema.JobsTable)), "not parquet")
		}},
		{name: "no series", sweep: oneSweep, edit: func(t *testing.T, dir string, _ []cell) {
			os.RemoveAll(filepath.Join(dir, schema.SeriesTable))
		}, want: func(s results.Set) *results.Set { s.Series = nil; return &s }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cells := cellsOf(ref, tc.sweep)
			writeCells(t, dir, cells)
			if tc.edit != nil {
				tc.edit(t, dir, cells)
			}
			got, err := results.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			want := ref
			if tc.want != nil {
				want = tc.want(*ref)
			}
			sameSet(t, got, want)
			if got.Dir != dir {
				t.Errorf("Dir %q", got.Dir)
			}
		})
	}
}

// Files written by the replay itself, one replay per trace placed in the
// cells' paths (split by pair), read as one replay of every trace.
func TestDatasetOfReplayFiles(t *testing.T) {
	ts, err := traces.Default()
	if err != nil {
		t.Fatal(err)
	}
	ts = ts[:2]
	opt := experiment.Options{Allocs: []string{"count"}, Scheds: []string{"fcfs", "sjf"}, Placement: true, Version: "test"}
	all := opt
	all.Out = t.TempDir()
	if _, err := experiment.Run(ts, all); err != nil {
		t.Fatal(err)
	}
	want, err := results.Load(all.Out)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tr := range ts {
		one := opt
		one.Out = t.TempDir()
		if _, err := experiment.Run([]*trace.Trace{tr}, one); err != nil {
			t.Fatal(err)
		}
		s, err := results.Load(one.Out)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(one.Out, schema.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		tracesMeta, _ := pf.Lookup(schema.KeyTraces)
		f.Close()
		cells := cellsOf(s, oneSweep)
		for i := range cells {
			if cells[i].meta.Traces != tracesMeta {
				t.Fatalf("cell metadata %s, replay's %s", cells[i].meta.Traces, tracesMeta)
			}
		}
		writeCells(t, dir, cells)
	}
	got, err := results.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sameSet(t, got, want)
}

// The sweep's writer (experiment.RunDataset), groups in reverse order,
// read as one replay of every trace.
func TestDatasetOfRunDataset(t *testing.T) {
	ts, err := traces.Default()
	if err != nil {
		t.Fatal(err)
	}
	ts = ts[:3]
	opt := experiment.Options{Allocs: []string{"count", "contig"}, Scheds: []string{"fcfs", "mq:q=4,order=up"}, Placement: true, Version: "test", Out: t.TempDir()}
	if _, err := experiment.Run(ts, opt); err != nil {
		t.Fatal(err)
	}
	want, err := results.Load(opt.Out)
	if err != nil {
		t.Fatal(err)
	}
	var groups []experiment.Group
	for i := len(ts) - 1; i >= 0; i-- {
		tr := ts[i]
		m, err := experiment.MachineFor(tr, "")
		if err != nil {
			t.Fatal(err)
		}
		pairs, err := catalog.Pairs(m, opt.Allocs, opt.Scheds)
		if err != nil {
			t.Fatal(err)
		}
		groups = append(groups, experiment.Group{Name: tr.Name, Rep: tr.Provenance.Rep, Machine: m, Pairs: pairs,
			Load: func() (*trace.Trace, error) { return tr, nil }})
	}
	opt.Out = t.TempDir()
	if err := experiment.RunDataset(groups, experiment.Dataset{Sweep: "s:1"}, opt); err != nil {
		t.Fatal(err)
	}
	got, err := results.Load(opt.Out)
	if err != nil {
		t.Fatal(err)
	}
	sameSet(t, got, want)
}

// A trace replayed on two machines is listed once, with both machines.
func TestDatasetTraceOnTwoMachines(t *testing.T) {
	ref := reference(t)
	dir := t.TempDir()
	cells := cellsOf(ref, oneSweep)
	writeCells(t, dir, cells)
	c := cells[0]
	ti, _ := ref.TraceInfo(c.key.Trace)
	ti.Machine = "flat:256"
	c.key.Machine = ti.Machine
	c.meta.Traces = schema.JSON([]results.TraceInfo{ti})
	c.sum = []results.Summary{c.sum[0]}
	c.sum[0].Machine = ti.Machine
	c.jobs = append([]results.Job(nil), c.jobs...)
	for i := range c.jobs {
		c.jobs[i].Machine = ti.Machine
	}
	c.series = append([]results.Series(nil), c.series...)
	for i := range c.series {
		c.series[i].Machine = ti.Machine
	}
	c.write(t, dir)
	got, err := results.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Summary) != len(ref.Summary)+1 || len(got.Traces) != len(ref.Traces) {
		t.Fatalf("%d rows, %d traces", len(got.Summary), len(got.Traces))
	}
	// Same trace, pair and rep: flat:128 sorts before flat:256.
	if got.Summary[0].Machine != "flat:128" || got.Summary[1].Machine != "flat:256" || got.Summary[1].Trace != c.key.Trace {
		t.Errorf("order: %+v %+v", got.Summary[0], got.Summary[1])
	}
	gt, _ := got.TraceInfo(c.key.Trace)
	if gt.Machine != "flat:128, flat:256" {
		t.Errorf("machine %q", gt.Machine)
	}
}

func mkfile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every refusal names the file(s) and what is wrong.
func TestDatasetRefusals(t *testing.T) {
	ref := reference(t)
	p := func(dir string, c cell, table string) string { return filepath.Join(dir, c.key.Path(table)) }
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, dir string, cells []cell) (want []string)
	}{
		{"both layouts", func(t *testing.T, dir string, _ []cell) []string {
			mkfile(t, filepath.Join(dir, schema.SummaryFile), "x")
			return []string{"holds both summary.parquet", "summary/"}
		}},
		{"no complete cell", func(t *testing.T, dir string, _ []cell) []string {
			os.RemoveAll(filepath.Join(dir, schema.SummaryTable))
			return []string{"no complete cell"}
		}},
		{"versions differ", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[4]
			c.meta.Version = "other"
			c.write(t, dir)
			return []string{p(dir, cells[0], schema.SummaryTable), p(dir, c, schema.SummaryTable), "schedlab.version"}
		}},
		{"options differ in another sweep", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[5]
			os.RemoveAll(filepath.Join(dir, schema.SummaryTable, c.key.CellDir(), c.key.FileName()))
			c.key.Sweep = "s2"
			c.meta.Options = strings.Replace(c.meta.Options, `"bsld_tau":10`, `"bsld_tau":20`, 1)
			c.write(t, dir)
			return []string{p(dir, cells[0], schema.SummaryTable), p(dir, c, schema.SummaryTable), "schedlab.options", "different replay options"}
		}},
		{"run in two sweeps", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[3]
			c.key.Sweep = "s2"
			c.write(t, dir)
			return []string{p(dir, cells[3], schema.SummaryTable), p(dir, c, schema.SummaryTable), "the same run"}
		}},
		{"two traces in a part", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[2]
			c.meta.Traces = schema.JSON(ref.Traces[:2])
			writePart(t, dir, c.key.Path(schema.SeriesTable), c.series, c.meta)
			return []string{p(dir, c, schema.SeriesTable), "lists 2 traces, want 1"}
		}},
		{"no traces metadata", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[2]
			c.meta.Traces = "[]"
			writePart(t, dir, c.key.Path(schema.SummaryTable), c.sum, c.meta)
			return []string{p(dir, c, schema.SummaryTable), "lists 0 traces, want 1"}
		}},
		{"file name of another trace", func(t *testing.T, dir string, cells []cell) []string {
			c, o := cells[0], cells[len(cells)-1]
			writePart(t, dir, c.key.Path(schema.JobsTable), o.jobs, o.meta)
			return []string{p(dir, c, schema.JobsTable), "file name is not that of its trace", o.key.FileName()}
		}},
		{"summary under another pair", func(t *testing.T, dir string, cells []cell) []string {
			c, o := cells[0], cells[1] // same trace, another pair
			writePart(t, dir, c.key.Path(schema.SummaryTable), o.sum, o.meta)
			return []string{p(dir, c, schema.SummaryTable), "row 1 is of run", "not of the cell of its path"}
		}},
		{"two summary rows", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[0]
			writePart(t, dir, c.key.Path(schema.SummaryTable), append(c.sum, c.sum...), c.meta)
			return []string{p(dir, c, schema.SummaryTable), "2 summary rows, want 1"}
		}},
		{"jobs of another pair", func(t *testing.T, dir string, cells []cell) []string {
			c, o := cells[0], cells[1]
			writePart(t, dir, c.key.Path(schema.JobsTable), o.jobs, o.meta)
			return []string{p(dir, c, schema.JobsTable), "row 1 is of run", o.key.Alloc + " / " + o.key.Sched}
		}},
		{"series of another run", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[0]
			c.meta.Traces = strings.Replace(c.meta.Traces, `"jobs":2000`, `"jobs":1999`, 1)
			writePart(t, dir, c.key.Path(schema.SeriesTable), c.series, c.meta)
			return []string{p(dir, c, schema.SummaryTable), p(dir, c, schema.SeriesTable), "schedlab.traces", "different runs"}
		}},
		{"two traces with one name", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[1]
			ti, _ := ref.TraceInfo(c.key.Trace)
			ti.Seed++
			c.meta.Traces = schema.JSON([]results.TraceInfo{ti})
			c.write(t, dir)
			return []string{p(dir, cells[0], schema.SummaryTable), p(dir, c, schema.SummaryTable), "two different traces"}
		}},
		{"complete cell without jobs", func(t *testing.T, dir string, cells []cell) []string {
			os.Remove(p(dir, cells[7], schema.JobsTable))
			return []string{p(dir, cells[7], schema.SummaryTable), "without its jobs part"}
		}},
		{"stray Parquet file", func(t *testing.T, dir string, _ []cell) []string {
			mkfile(t, filepath.Join(dir, "series", "sweep=s1", "x.parquet"), "x")
			return []string{filepath.Join(dir, "series", "sweep=s1", "x.parquet"), "1 directories below the table, not 4"}
		}},
		{"partition out of order", func(t *testing.T, dir string, _ []cell) []string {
			f := filepath.Join(dir, "jobs", "machine=a", "sweep=b", "alloc=c", "sched=d", "part-x-1.parquet")
			mkfile(t, f, "x")
			return []string{f, `"machine=a" is not the partition sweep=VALUE`}
		}},
		{"bad escape", func(t *testing.T, dir string, cells []cell) []string {
			c := cells[0]
			c.key.Alloc = "%zz"
			f := filepath.Join(dir, "summary", "sweep=s1", "machine=flat%3A128", "alloc=%zz", "sched=fcfs", c.key.FileName())
			mkfile(t, f, "x")
			return []string{f, "partition alloc", "bad escape"}
		}},
		{"not Parquet", func(t *testing.T, dir string, cells []cell) []string {
			mkfile(t, p(dir, cells[2], schema.SummaryTable), "x")
			return []string{p(dir, cells[2], schema.SummaryTable), "not a Parquet file"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, cells := base(t)
			dir := filepath.Join(t.TempDir(), "d")
			copyTree(t, src, dir)
			want := tc.edit(t, dir, cells)
			_, err := results.Load(dir)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error on several lines: %s", msg)
			}
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

// BenchmarkLoad200Cells loads a replay of 20 traces under 10 pairs (200
// runs, 400k jobs, placements and series) as one results directory and as
// a dataset of 200 cells.
func BenchmarkLoad200Cells(b *testing.B) {
	dir, ref := replayRef(b, 20, []string{"count", "contig"}, []string{"fcfs", "easy", "sjf", "sa", "conservative"})
	ds := b.TempDir()
	cells := cellsOf(ref, oneSweep)
	if len(cells) != 200 {
		b.Fatalf("%d cells", len(cells))
	}
	writeCells(b, ds, cells)
	for _, c := range []struct{ name, dir string }{{"dir", dir}, {"dataset", ds}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := results.Load(c.dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
