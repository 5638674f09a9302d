package report

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/schema"
)

func TestCompareKnownDifference(t *testing.T) {
	a := fixture.Build(sweepSpec)
	b := fixture.Build(sweepSpec)
	// B: every mean response 10% higher, every mean wait +2 in rep 0 and
	// +4 in reps 1 and 2; one row dropped.
	for i := range b.Summary {
		b.Summary[i].MeanResponse *= 1.1
		if b.Summary[i].Rep == 0 {
			b.Summary[i].MeanWait += 2
		} else {
			b.Summary[i].MeanWait += 4
		}
	}
	b.Summary = b.Summary[1:]
	cmp, err := CompareSets(a, b, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.OnlyA != 1 || cmp.OnlyB != 0 {
		t.Errorf("unmatched: %d %d", cmp.OnlyA, cmp.OnlyB)
	}
	resp := cmp.Diffs["mean_response"]
	if len(resp) != 5*4 {
		t.Fatalf("%d points", len(resp))
	}
	for _, d := range resp {
		if math.Abs(d.Rel.Mean-0.1) > 1e-12 || math.Abs(d.Rel.HalfWidth) > 1e-12 {
			t.Errorf("%v load %v: rel %+v", d.Pair, d.Load, d.Rel)
		}
	}
	for _, d := range cmp.Diffs["mean_wait"] {
		if d.N != 3 {
			continue // the point with the dropped row
		}
		// Differences 2, 4, 4: mean 10/3, s = 2/sqrt(3), hw = t(.975,2)*s/sqrt(3).
		want := 4.302652729911275 * (2 / math.Sqrt(3)) / math.Sqrt(3)
		if math.Abs(d.Abs.Mean-10.0/3) > 1e-9 || math.Abs(d.Abs.HalfWidth-want) > 1e-9 {
			t.Errorf("wait diff %+v, want 3.333 ± %v", d.Abs, want)
		}
	}
	// No common rows is an error.
	c := fixture.Build(fixture.Spec{Procs: 8, Jobs: 5, Pairs: 1, Seed: 1})
	c.Summary[0].Trace = "other"
	if _, err := CompareSets(a, c, 0.95); err == nil {
		t.Error("disjoint sets compared")
	}
}

func TestCompareFiles(t *testing.T) {
	dirA := writeFixture(t, sweepSpec)
	dirB := writeFixture(t, sweepSpec)
	out := t.TempDir()
	err := Compare(CompareOptions{A: dirA, B: dirB, Out: filepath.Join(out, "c.pdf"), TablesDir: filepath.Join(out, "t"), Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "t", "compare-mean_response.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Identical sets: every difference is exactly zero.
	if !strings.Contains(string(md), "| 0 ± 0 | 0 ± 0 |") {
		t.Errorf("identical sets:\n%s", md)
	}
	tex, _ := os.ReadFile(filepath.Join(out, "t", "compare-mean_response.tex"))
	checkBooktabs(t, string(tex), 9)
	if err := Compare(CompareOptions{A: dirA, B: filepath.Join(out, "missing")}); err == nil || !strings.Contains(err.Error(), schema.SummaryFile) {
		t.Errorf("missing B: %v", err)
	}
}

// TestCompareKeepsWorkloadsApart: a result set holding two sweeps of
// different workload models at the same loads gives one comparison point
// per model and load, each with its own replications, not one point that
// pools both models.
func TestCompareKeepsWorkloadsApart(t *testing.T) {
	twoModels := func() *results.Set {
		s := fixture.Build(sweepSpec)
		n := len(s.Summary)
		for i := range n {
			r := s.Summary[i]
			r.Trace = "exp-" + r.Trace
			r.MeanResponse *= 3
			s.Summary = append(s.Summary, r)
		}
		for _, ti := range slices.Clone(s.Traces) {
			ti.Name = "exp-" + ti.Name
			ti.Params = json.RawMessage(`{"sizes":"exponential"}`)
			s.Traces = append(s.Traces, ti)
		}
		return s
	}
	a, b := twoModels(), twoModels()
	for i := range b.Summary {
		if strings.HasPrefix(b.Summary[i].Trace, "exp-") {
			b.Summary[i].MeanResponse *= 1.2
		}
	}
	cmp, err := CompareSets(a, b, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	resp := cmp.Diffs["mean_response"]
	if len(resp) != 2*5*4 {
		t.Fatalf("%d points, want %d", len(resp), 2*5*4)
	}
	for _, d := range resp {
		if d.N != sweepSpec.Reps {
			t.Errorf("%v load %v: %d runs pooled, want %d", d.Pair, d.Load, d.N, sweepSpec.Reps)
		}
		if r := d.Rel.Mean; math.Abs(r) > 1e-12 && math.Abs(r-0.2) > 1e-12 {
			t.Errorf("%v load %v: rel %v, want 0 or 0.2", d.Pair, d.Load, r)
		}
	}
}

// TestOptionDiff: the comparison's title page says which replay options
// changed between A and B.
func TestOptionDiff(t *testing.T) {
	got := optionDiff(json.RawMessage(`{"warmup":0,"bsld_tau":10,"check":false}`), json.RawMessage(`{"warmup":50,"bsld_tau":10,"filters":["x"]}`))
	want := [][2]string{{"Options A -> B", "check: false -> null"}, {"", `filters: null -> ["x"]`}, {"", "warmup: 0 -> 50"}}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i, got[i], want[i])
		}
	}
	if got := optionDiff(json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":1}`)); len(got) != 1 || got[0][1] != "the same in A and B" {
		t.Errorf("same options: %q", got)
	}
	if got := optionDiff(nil, json.RawMessage(`{"a":1}`)); len(got) != 1 || !strings.Contains(got[0][1], "not recorded") {
		t.Errorf("missing options: %q", got)
	}
}
