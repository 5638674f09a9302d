package results_test

import (
	"errors"
	"os"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	. "github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/schema"
)

// runsOf collects every run EachJobRun and EachSeriesRun deliver (copied).
func runsOf(t *testing.T, s *Set) (map[Key][]Job, map[Key][]Series, []Key) {
	t.Helper()
	jobs := map[Key][]Job{}
	series := map[Key][]Series{}
	var order []Key
	err := s.EachJobRun(func(k Key, js []Job) error {
		if _, ok := jobs[k]; ok {
			t.Errorf("run %v delivered twice", k)
		}
		c := slices.Clone(js)
		for i := range c {
			c[i].Placement = slices.Clone(c[i].Placement)
		}
		jobs[k] = c
		order = append(order, k)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EachSeriesRun(func(k Key, rows []Series) error {
		series[k] = slices.Clone(rows)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return jobs, series, order
}

// checkStreamEqualsLoad checks that a streamed Set delivers, run by run,
// the rows the loaded Set's JobsOf and SeriesOf return.
func checkStreamEqualsLoad(t *testing.T, dir string) {
	t.Helper()
	full, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := LoadWith(dir, LoadOptions{Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Jobs != nil || st.Series != nil {
		t.Fatal("streamed set holds rows")
	}
	if st.NumJobs() != int64(len(full.Jobs)) || st.NumSeries() != int64(len(full.Series)) {
		t.Errorf("row counts %d/%d, want %d/%d", st.NumJobs(), st.NumSeries(), len(full.Jobs), len(full.Series))
	}
	jobs, series, _ := runsOf(t, st)
	mjobs, mseries, _ := runsOf(t, full)
	n := 0
	for i := range full.Summary {
		r := &full.Summary[i]
		k := Key{Trace: r.Trace, Pair: PairOf(r), Rep: r.Rep, Machine: r.Machine, Comm: r.Comm}
		want := full.JobsOf(k)
		n += len(want)
		sameColumnRows(t, "stream jobs", jobs[k], want)
		sameColumnRows(t, "in-memory jobs", mjobs[k], want)
		if !reflect.DeepEqual(series[k], full.SeriesOf(k)) && len(series[k])+len(full.SeriesOf(k)) > 0 {
			t.Errorf("run %v: series differ", k)
		}
		if !reflect.DeepEqual(mseries[k], full.SeriesOf(k)) && len(mseries[k])+len(full.SeriesOf(k)) > 0 {
			t.Errorf("run %v: in-memory series differ", k)
		}
		if i < 3 {
			sameColumnRows(t, "streamed JobsOf", st.JobsOf(k), want)
		}
	}
	if n != len(full.Jobs) {
		t.Errorf("runs of the summary hold %d of %d job rows", n, len(full.Jobs))
	}
}

func TestStreamEqualsLoad(t *testing.T) {
	for _, s := range []fixture.Spec{
		{Procs: 32, Jobs: 5000, Loads: []float64{0.5, 0.9}, Reps: 2, Pairs: 3, Seed: 4, Series: true},
		{Procs: 16, Jobs: 40, Reps: 2, Pairs: 3, Seed: 5, Real: true},
	} {
		set := fixture.Build(s)
		for i := range set.Jobs {
			if i%3 != 0 {
				set.Jobs[i].Placement = []schema.Piece{{X: int32(i % 7), W: int32(1 + i%4), H: 1}, {X: 9, W: int32(i % 5), H: 1}}
			}
		}
		dir := t.TempDir()
		if err := WriteDir(dir, set); err != nil {
			t.Fatal(err)
		}
		checkStreamEqualsLoad(t, dir)
	}
}

// TestStreamDefaultRun compares both paths on a default run's results
// (SCHEDLAB_RESULTS=DIR; skipped when unset).
func TestStreamDefaultRun(t *testing.T) {
	dir := os.Getenv("SCHEDLAB_RESULTS")
	if dir == "" {
		t.Skip("SCHEDLAB_RESULTS not set")
	}
	checkStreamEqualsLoad(t, dir)
}

func TestStreamUnsorted(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 30, Loads: []float64{0.5, 0.8}, Reps: 1, Pairs: 2, Seed: 2, Series: true})
	slices.Reverse(set.Jobs)
	dir := t.TempDir()
	if err := WriteDir(dir, set); err != nil {
		t.Fatal(err)
	}
	full, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := LoadWith(dir, LoadOptions{Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	err = st.EachJobRun(func(Key, []Job) error { return nil })
	if !errors.Is(err, ErrUnsorted) {
		t.Fatalf("unsorted jobs: %v, want ErrUnsorted", err)
	}
	jobs, _, _ := runsOf(t, st)
	for i := range full.Summary {
		r := &full.Summary[i]
		k := Key{Trace: r.Trace, Pair: PairOf(r), Rep: r.Rep, Machine: r.Machine, Comm: r.Comm}
		sameColumnRows(t, "unsorted", jobs[k], full.JobsOf(k))
	}
}

// TestStreamBoundedMemory checks that the peak heap of a pass over the
// jobs does not grow with the number of runs: 4 and 64 runs of the same
// size.
func TestStreamBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	peak := func(reps int) (uint64, int64) {
		set := fixture.Build(fixture.Spec{Procs: 32, Jobs: 4000, Loads: []float64{0.5, 0.9}, Reps: reps, Pairs: 2, Seed: 3})
		dir := t.TempDir()
		if err := WriteDir(dir, set); err != nil {
			t.Fatal(err)
		}
		set = nil
		st, err := LoadWith(dir, LoadOptions{Stream: true})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var base, m runtime.MemStats
		runtime.ReadMemStats(&base)
		var hi uint64
		var rows int64
		err = st.EachJobRun(func(k Key, js []Job) error {
			rows += int64(len(js))
			runtime.ReadMemStats(&m)
			hi = max(hi, m.HeapAlloc)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return hi - min(hi, base.HeapAlloc), rows
	}
	small, n1 := peak(1)
	large, n16 := peak(16)
	t.Logf("peak heap over the pass: %d runs: %d KB; %d runs: %d KB", n1/4000, small>>10, n16/4000, large>>10)
	if n16 != 16*n1 {
		t.Fatalf("rows %d and %d", n1, n16)
	}
	// Loading the 15×4 extra runs would take 60 000 rows of about 230
	// bytes (14 MB); the pass may grow by a few bytes a row at most (the
	// dictionaries of the longer file).
	if large > small+4<<20 {
		t.Errorf("peak heap grows with the runs: %d KB for %d rows, %d KB for %d rows", small>>10, n1, large>>10, n16)
	}
}
