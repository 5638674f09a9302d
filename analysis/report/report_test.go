package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/results"
)

func writeFixture(t testing.TB, s fixture.Spec) string {
	t.Helper()
	dir := t.TempDir()
	if err := results.WriteDir(dir, fixture.Build(s)); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGenerateSweepDeterministic(t *testing.T) {
	in := writeFixture(t, fixture.Spec{Procs: 32, Jobs: 150, Loads: []float64{0.3, 0.5, 0.7, 0.9}, Reps: 3, Pairs: 5, Seed: 11, Series: true})
	out := t.TempDir()
	opts := Options{In: in, Out: filepath.Join(out, "a.pdf"), FiguresDir: filepath.Join(out, "fig"), Formats: []string{"svg", "png", "eps"}, TablesDir: filepath.Join(out, "tab"), Baseline: fixture.PairName(0).Alloc + "/" + fixture.PairName(0).Sched, Quiet: true}
	if err := Generate(opts); err != nil {
		t.Fatal(err)
	}
	opts.Out = filepath.Join(out, "b.pdf")
	opts.FiguresDir, opts.TablesDir = "", ""
	if err := Generate(opts); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(out, "a.pdf"))
	b, _ := os.ReadFile(filepath.Join(out, "b.pdf"))
	if len(a) < 10000 || !bytes.Equal(a, b) {
		t.Fatalf("PDF not byte-identical across runs (%d vs %d bytes)", len(a), len(b))
	}
	if keep := os.Getenv("SCHEDLAB_KEEP_PDF"); keep != "" {
		os.WriteFile(keep, a, 0o644)
	}
}
