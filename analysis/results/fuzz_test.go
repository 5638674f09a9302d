package results_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	. "github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/schema"
)

// fuzzFiles are the three files of a small valid run (jobs with
// placements, series), the seeds of FuzzLoad.
var fuzzFiles = sync.OnceValues(func() (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "fuzzload")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	set := fixture.Build(fixture.Spec{Procs: 64, Jobs: 12, Loads: []float64{0.5}, Reps: 1, Pairs: 2, Seed: 7, Series: true})
	if err := WriteDir(dir, set); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, name := range []string{schema.SummaryFile, schema.JobsFile, schema.SeriesFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out[name] = b
	}
	return out, nil
})

var fuzzNames = []string{schema.SummaryFile, schema.JobsFile, schema.SeriesFile}

// FuzzLoad replaces one file of a valid run (which: 0 summary, 1 jobs, 2
// series) by the fuzzer's bytes, seeded with the valid files and
// mutations of them, and loads the run whole and streamed: the loader
// must never panic (nor crash in its decoder goroutines), and its errors
// are one line.
func FuzzLoad(f *testing.F) {
	files, err := fuzzFiles()
	if err != nil {
		f.Fatal(err)
	}
	for which, name := range fuzzNames {
		b := files[name]
		f.Add(uint8(which), b)
		for _, at := range []int{4, len(b) / 3, len(b) / 2, len(b) - 40, len(b) - 9} {
			m := append([]byte(nil), b...)
			m[at] ^= 0x94
			f.Add(uint8(which), m)
		}
		f.Add(uint8(which), b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		dir := t.TempDir()
		for i, name := range fuzzNames {
			b := files[name]
			if i == int(which)%len(fuzzNames) {
				b = data
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		oneLine := func(what string, err error) {
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: multi-line error %q", what, err)
			}
		}
		_, err := Load(dir)
		oneLine("load", err)
		s, err := LoadWith(dir, LoadOptions{Stream: true})
		oneLine("stream", err)
		if err != nil {
			return
		}
		oneLine("jobs", s.EachJobRun(func(Key, []Job) error { return nil }))
		oneLine("series", s.EachSeriesRun(func(Key, []Series) error { return nil }))
	})
}
