package experiment

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/schedlab/schedlab/model/internal/race"
	"github.com/schedlab/schedlab/trace"
	embedded "github.com/schedlab/schedlab/traces"
)

// TestSummariesUnchanged replays the KTH-SP2 and NASA iPSC/860 logs and the
// embedded traces under every flat pair and compares every summary number,
// bit for bit, with testdata/summaries-before.csv: the summaries written by
// the replay before the engine, metrics and results were reorganised
// (commit eaded4c). Definitions changed on purpose since then: sd_response
// is NaN for a single counted job (was 0); no row here has one.
func TestSummariesUnchanged(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("replays two real logs; skipped with -short and under the race detector")
	}
	f, err := os.Open("testdata/summaries-before.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	want := map[string][]string{}
	for _, r := range recs[1:] {
		want[r[0]+"/"+r[2]+"/"+r[3]+"/"+r[4]] = r
	}
	traces, err := embedded.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz", "../../../shared/traces/NASA-iPSC-1993-3.1-cln.swf.gz"} {
		if _, err := os.Stat(p); err != nil {
			t.Logf("%s not available: compared without it", p)
			continue
		}
		tr, err := trace.ReadFile(p, trace.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, tr)
	}
	rows, err := Run(traces, Options{Allocs: []string{AllAllocs}}) // every pair, as the golden rows were written
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range rows {
		w, ok := want[r.Trace+"/"+r.Alloc+"/"+r.Sched+"/"+strconv.FormatInt(r.Rep, 10)]
		if !ok {
			t.Errorf("no golden row for %s %s/%s rep %d", r.Trace, r.Alloc, r.Sched, r.Rep)
			continue
		}
		seen++
		for k := 5; k < len(head); k++ {
			g, ok := r.Metric(head[k])
			if !ok {
				t.Fatalf("column %s unknown", head[k])
			}
			v, err := strconv.ParseFloat(w[k], 64)
			if err != nil {
				t.Fatalf("golden %s %s: %v", w[0], head[k], err)
			}
			if g != v && !(math.IsNaN(g) && math.IsNaN(v)) {
				t.Errorf("%s %s/%s rep %s: %s = %v, was %v", w[0], w[2], w[3], w[4], head[k], g, v)
			}
		}
	}
	t.Logf("%d summary rows identical", seen)
	if seen < 504 {
		t.Errorf("compared %d rows, want at least the 504 of the embedded traces", seen)
	}
}
