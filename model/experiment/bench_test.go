package experiment

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
)

const kthPath = "../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

// BenchmarkKTHAllPairs replays KTH-SP2 (28,476 jobs, flat:100) under every
// flat pair (2 allocators × 12 schedulers) with 2 workers, writing all
// three results files; the trace is read once, outside the timing.
func BenchmarkKTHAllPairs(b *testing.B) {
	if _, err := os.Stat(kthPath); err != nil {
		b.Skip("KTH-SP2 log not available")
	}
	tr, err := trace.ReadFile(kthPath, trace.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run([]*trace.Trace{tr}, Options{Workers: 2, Out: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchTraces caches the synthetic Parquet traces the whole-path
// benchmarks read, one file per spec, made once per test binary.
var benchTraces sync.Map // name → path

// benchTrace writes the named synthetic trace (as `synth` would) to a
// Parquet file shared by the benchmarks, and returns its path.
func benchTrace(b *testing.B, name string) string {
	if p, ok := benchTraces.Load(name); ok {
		return p.(string)
	}
	var (
		t   *trace.Trace
		err error
	)
	switch name {
	case "lublin-120k":
		// A LANL-CM-5-sized log: synth lublin --procs 1024 --jobs 120000.
		t, err = workload.GenerateLublin(workload.LublinSpec{Procs: 1024, Jobs: 120000, Seed: 1, Name: name})
	case "workload-1m":
		// synth workload --machine flat:1024 --size log2 --load 0.7 --jobs 1000000.
		t, err = workload.Generate(workload.WorkloadSpec{
			Machine: "flat:1024", Size: workload.SizeSpec{Dist: "log2"},
			Service:  workload.Service{Kind: "exp", Mean: 10},
			Arrivals: workload.Arrivals{Kind: "poisson", Jobs: 1000000, Load: 0.7},
			Seed:     1, Name: name,
		})
	default:
		b.Fatalf("no bench trace %q", name)
	}
	if err != nil {
		b.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "schedlab-bench-")
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dir, name+".parquet")
	if err := trace.WriteFile(p, t); err != nil {
		b.Fatal(err)
	}
	benchTraces.Store(name, p)
	return p
}

// TestMain removes the benchmarks' trace files.
func TestMain(m *testing.M) {
	code := m.Run()
	benchTraces.Range(func(_, p any) bool {
		os.RemoveAll(filepath.Dir(p.(string)))
		return true
	})
	os.Exit(code)
}

// BenchmarkWhole is the whole in-process path of `replay run --alloc count
// --sched S TRACE`: read the Parquet trace, replay it, write jobs, summary
// and series. Figures are per replay; jobs/s counts the trace's jobs.
func BenchmarkWhole(b *testing.B) {
	for _, c := range []struct{ bench, trace, sched string }{
		{"Lublin120k/fcfs", "lublin-120k", "fcfs"},
		{"Lublin120k/easy", "lublin-120k", "easy"},
		{"Workload1M/fcfs", "workload-1m", "fcfs"},
		{"Workload1M/easy", "workload-1m", "easy"},
	} {
		b.Run(c.bench, func(b *testing.B) {
			path := benchTrace(b, c.trace)
			out := b.TempDir()
			var jobs int
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tr, err := trace.ReadFile(path, trace.ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				jobs = len(tr.Jobs)
				if _, err := Run([]*trace.Trace{tr}, Options{
					Allocs: []string{"count"}, Scheds: []string{c.sched}, Out: out, ReleaseTraces: true,
				}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(jobs)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
