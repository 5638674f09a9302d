package report

import (
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
)

// BenchmarkGenerate100x10 measures the whole report (load, pages, PDF) for
// 100 policy pairs × 10 loads (one replication, 200 jobs per trace, with
// jobs and series): the goal is under 10 s.
func BenchmarkGenerate100x10(b *testing.B) {
	loads := []float64{0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9}
	in := writeFixture(b, fixture.Spec{Procs: 64, Jobs: 200, Loads: loads, Reps: 1, Pairs: 100, Seed: 3, Series: true})
	out := filepath.Join(b.TempDir(), "r.pdf")
	b.ResetTimer()
	for range b.N {
		if err := Generate(Options{In: in, Out: out, Quiet: true}); err != nil {
			b.Fatal(err)
		}
	}
}
