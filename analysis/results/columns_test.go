package results_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	. "github.com/schedlab/schedlab/analysis/results"
)

// rowsOf reads path with parquet-go's row reconstruction (the reader the
// columnar codec replaced).
func rowsOf[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := parquet.NewGenericReader[T](f)
	defer rd.Close()
	out := make([]T, rd.NumRows())
	for n := 0; n < len(out); {
		m, err := rd.Read(out[n:])
		n += m
		if err != nil && n < len(out) {
			t.Fatal(err)
		}
	}
	return out
}

// sameColumnRows compares rows read both ways, an empty list (placement,
// size classes) equal to none.
func sameColumnRows[T any](t *testing.T, name string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", name, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if j, ok := any(&g).(*Job); ok && len(j.Placement) == 0 {
			j.Placement = nil
			any(&w).(*Job).Placement = nil
			if len(any(&want[i]).(*Job).Placement) != 0 {
				t.Fatalf("%s: row %d: no placement, want %v", name, i+1, any(&want[i]).(*Job).Placement)
			}
		}
		if r, ok := any(&g).(*Summary); ok && len(r.SizeClasses) == 0 {
			if len(any(&w).(*Summary).SizeClasses) != 0 {
				t.Fatalf("%s: row %d: no size classes, want %v", name, i+1, any(&w).(*Summary).SizeClasses)
			}
			r.SizeClasses, any(&w).(*Summary).SizeClasses = nil, nil
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: row %d: %+v, want %+v", name, i+1, g, w)
		}
	}
}

// TestReadColumns: Load's column reader gives the rows of parquet-go's
// row reader, on a fixture with jobs (placements included) and series,
// and on the default run's results when RESULTS_DIR names them.
func TestReadColumns(t *testing.T) {
	fix := t.TempDir()
	set := fixture.Build(fixture.Spec{Procs: 64, Jobs: 300, Loads: []float64{0.5, 0.9}, Reps: 2, Pairs: 6, Seed: 7, Series: true})
	if err := WriteDir(fix, set); err != nil {
		t.Fatal(err)
	}
	dirs := []string{fix}
	if d := os.Getenv("RESULTS_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		s, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Jobs) == 0 || len(s.Series) == 0 {
			t.Fatalf("%s: no jobs or series", dir)
		}
		placed := 0
		for i := range s.Jobs {
			placed += len(s.Jobs[i].Placement)
		}
		if placed == 0 {
			t.Fatalf("%s: no placements", dir)
		}
		sameColumnRows(t, "jobs", s.Jobs, rowsOf[Job](t, filepath.Join(dir, "jobs.parquet")))
		sameColumnRows(t, "series", s.Series, rowsOf[Series](t, filepath.Join(dir, "series.parquet")))
		sameColumnRows(t, "summary", s.Summary, rowsOf[Summary](t, filepath.Join(dir, "summary.parquet")))
	}
}
