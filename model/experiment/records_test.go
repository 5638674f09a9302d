package experiment

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// A log without a machine size is replayed on flat with its largest job,
// with a warning, and the results record the machine as inferred, the
// source's SHA-256, and what happened to the records, by reason.
func TestInferredMachineAndRecords(t *testing.T) {
	for _, c := range []struct {
		name, machine, rec, from string
		warn                     bool
	}{
		{"inferred", "", "flat:4", trace.MachineInferred, true},
		{"given", "flat:6", "flat:6", trace.MachineGiven, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := tiny()
			tr.Header = nil
			tr.Provenance.Source, tr.Provenance.SHA256 = "tiny.swf", strings.Repeat("ab", 32)
			var warns []string
			var recs []*Records
			out := filepath.Join(t.TempDir(), "out")
			_, err := Run([]*trace.Trace{tr}, Options{Machine: c.machine, Allocs: []string{"count"}, Scheds: []string{"fcfs"}, Out: out,
				Warn: func(m string) { warns = append(warns, m) }, Records: func(r *Records) { recs = append(recs, r) }})
			if err != nil {
				t.Fatal(err)
			}
			warned := len(warns) == 1 && strings.Contains(warns[0], "machine inferred as flat:4")
			if warned != c.warn {
				t.Errorf("warnings %q", warns)
			}
			want := []*Records{{Trace: "tiny", Machine: c.rec, MachineFrom: c.from, Records: 5, Replayed: 3,
				Dropped:  []admit.Count{{Reason: admit.NoProcs, Records: 1}, {Reason: admit.Partial, Records: 1}},
				Adjusted: []admit.Count{{Reason: admit.EstimateIsRun, Records: 3}}}}
			if !reflect.DeepEqual(recs, want) {
				t.Errorf("records %+v, want %+v", recs[0], want[0])
			}
			f, err := os.Open(filepath.Join(out, schema.SummaryFile))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, _ := f.Stat()
			pf, err := parquet.OpenFile(f, st.Size())
			if err != nil {
				t.Fatal(err)
			}
			v, _ := pf.Lookup(schema.KeyTraces)
			var ts []schema.TraceInfo
			if err := json.Unmarshal([]byte(v), &ts); err != nil {
				t.Fatal(err)
			}
			if len(ts) != 1 || ts[0].Machine != c.rec || ts[0].MachineFrom != c.from || ts[0].SHA256 != tr.Provenance.SHA256 {
				t.Errorf("traces metadata %s", v)
			}
		})
	}
}
