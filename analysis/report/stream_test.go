package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// TestStreamedReportEqualsLoaded checks that the report of a streamed
// results directory (Generate) is byte-identical to the report of the
// same directory loaded whole, on sweeps, independent traces, single
// replications (steady state) and a mesh with placements, with and
// without --window.
func TestStreamedReportEqualsLoaded(t *testing.T) {
	specs := map[string]fixture.Spec{
		"sweep": sweepSpec,
		"real":  {Procs: 16, Jobs: 40, Reps: 2, Pairs: 3, Seed: 5, Real: true},
		"mesh":  {Procs: 32, Jobs: 300, Loads: []float64{0.5, 0.8}, Reps: 1, Pairs: 5, Seed: 3, Series: true},
		"one":   {Procs: 32, Jobs: 500, Reps: 1, Pairs: 3, Seed: 7, Series: true},
	}
	for name, s := range specs {
		set := fixture.Build(s)
		if name == "mesh" {
			for i := range set.Summary {
				set.Summary[i].Machine = "mesh:8x4"
			}
			for i := range set.Jobs {
				j := &set.Jobs[i]
				j.Machine = "mesh:8x4"
				j.Placement = []schema.Piece{schema.Piece(policy.Rect(i%7, i%3, 2, 2))}
			}
		}
		dir := t.TempDir()
		if err := results.WriteDir(dir, set); err != nil {
			t.Fatal(err)
		}
		for _, win := range []Window{{}, {Start: 100, End: 400}} {
			full, err := results.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			ctx, err := NewContext(full, Options{Window: win})
			if err != nil {
				t.Fatal(err)
			}
			pages, err := ctx.Pages()
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if err := writePDF(filepath.Join(out, "loaded.pdf"), pages, ctx.Sections); err != nil {
				t.Fatal(err)
			}
			if err := Generate(Options{In: dir, Out: filepath.Join(out, "streamed.pdf"), Window: win, Quiet: true}); err != nil {
				t.Fatal(err)
			}
			a, _ := os.ReadFile(filepath.Join(out, "loaded.pdf"))
			b, _ := os.ReadFile(filepath.Join(out, "streamed.pdf"))
			if len(a) < 10000 || !bytes.Equal(a, b) {
				t.Errorf("%s (window %v): streamed report differs from the loaded one (%d vs %d bytes)", name, win, len(b), len(a))
			}
		}
	}
}
