package experiment

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

func TestNonFiniteParquetTrace(t *testing.T) {
	// SWF text cannot hold NaN, Parquet can. Whether the reader refuses the
	// file or the engine rejects the job, the replay must not hang.
	tr := tiny()
	tr.Jobs[1].Submit = math.NaN()
	path := filepath.Join(t.TempDir(), "nan.parquet")
	f, err := os.Create(path) // not WriteFile, which refuses non-finite fields
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteParquet(f, tr); err != nil {
		t.Fatal(err)
	}
	f.Close()
	back, err := trace.ReadFile(path, trace.ReadOptions{})
	if err != nil {
		t.Logf("reader refuses it: %v", err)
		return
	}
	done := make(chan struct{})
	var rows []schema.Summary
	go func() {
		defer close(done)
		rows, err = Run([]*trace.Trace{back}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}, Workers: 1})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("replay of a trace with a NaN submit time hangs")
	}
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Rejected != 2 {
		t.Errorf("rejected %d, want 2 (no procs, NaN submit)", rows[0].Rejected)
	}
}

func TestCommitAllOrNothing(t *testing.T) {
	// A previous run's files must survive a failed write of the new ones:
	// here summary.parquet cannot be replaced (a directory is in the way),
	// and the old jobs.parquet must still be there, unchanged.
	dir := t.TempDir()
	old := []byte("previous run")
	if err := os.WriteFile(filepath.Join(dir, schema.JobsFile), old, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, schema.SummaryFile, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Run([]*trace.Trace{tiny()}, Options{Out: dir, Allocs: []string{"count"}, Scheds: []string{"fcfs"}}); err == nil {
		t.Fatal("no error")
	}
	got, err := os.ReadFile(filepath.Join(dir, schema.JobsFile))
	if err != nil || !bytes.Equal(got, old) {
		t.Errorf("jobs.parquet after a failed run: %q, %v; want the previous run's", got, err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 { // jobs.parquet, summary.parquet/ and the lock
		t.Errorf("left behind: %v", ents)
	}
}

func TestNoSeriesRemovesStaleSeries(t *testing.T) {
	// A results directory must describe one run: after a --no-series run,
	// the series.parquet of an earlier run is gone.
	dir := t.TempDir()
	opt := Options{Out: dir, Allocs: []string{"count"}, Scheds: []string{"fcfs"}}
	if _, err := Run([]*trace.Trace{tiny()}, opt); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, schema.SeriesFile)); err != nil {
		t.Fatal(err)
	}
	opt.NoSeries = true
	if _, err := Run([]*trace.Trace{tiny()}, opt); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, schema.SeriesFile)); !os.IsNotExist(err) {
		t.Errorf("stale %s left next to the new results (%v)", schema.SeriesFile, err)
	}
}

func TestSameNameTwice(t *testing.T) {
	// Two traces with one name and rep (the same file given twice, or
	// a/kth.swf and b/kth.swf) would give result rows nobody can tell apart.
	a, b := tiny(), tiny()
	a.Provenance.Source, b.Provenance.Source = "a/tiny.swf", "b/tiny.swf"
	_, err := Run([]*trace.Trace{a, b}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}})
	if err == nil || !strings.Contains(err.Error(), `"tiny"`) {
		t.Errorf("err %v, want one naming the shared trace name", err)
	}
	b.Provenance.Rep = 1 // replications of one workload share a name
	if _, err := Run([]*trace.Trace{a, b}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}}); err != nil {
		t.Error(err)
	}
}

func TestInputOrderDoesNotMatter(t *testing.T) {
	// Results are sorted by trace name: the order in which traces are
	// given must not change a byte, metadata included.
	a, b := synthetic("a", 200, 1), synthetic("b", 150, 2)
	var files [][]byte
	for _, order := range [][]*trace.Trace{{a, b}, {b, a}} {
		dir := t.TempDir()
		if _, err := Run(order, Options{Out: dir, Allocs: []string{"count"}, Scheds: []string{"fcfs", "easy"}}); err != nil {
			t.Fatal(err)
		}
		f, err := os.ReadFile(filepath.Join(dir, schema.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Errorf("%s depends on the order of the traces", schema.SummaryFile)
	}
}

// A results file whose place is taken during the run (a directory where
// summary.parquet would go) fails the commit before any file is renamed:
// the earlier jobs.parquet stays. summary.parquet is renamed last.
func TestCommitChecksEveryTargetFirst(t *testing.T) {
	dir := t.TempDir()
	old := []byte("previous run")
	if err := os.WriteFile(filepath.Join(dir, schema.JobsFile), old, 0o644); err != nil {
		t.Fatal(err)
	}
	tr := tiny()
	opt := Options{Out: dir, Allocs: []string{"count"}, Scheds: []string{"fcfs"}}
	if err := opt.validate(); err != nil {
		t.Fatal(err)
	}
	tasks, preps, err := plan([]*trace.Trace{tr}, opt)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSink(opt, preps)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.files {
		names = append(names, filepath.Base(f.path))
	}
	if strings.Join(names, " ") != "jobs.parquet series.parquet summary.parquet" {
		t.Errorf("commit order %v, want summary last", names)
	}
	if err := s.write(runTask(tasks[0], opt, nil)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, schema.SummaryFile, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.commit(); err == nil || !strings.Contains(err.Error(), schema.SummaryFile) {
		t.Fatalf("commit: %v", err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, schema.JobsFile)); err != nil || !bytes.Equal(got, old) {
		t.Errorf("jobs.parquet after a failed commit: %q, %v; want the previous run's", got, err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
