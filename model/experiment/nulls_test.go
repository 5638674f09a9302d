package experiment

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// nullCounts reads column name of a results file value by value and
// returns how many values are NULL (definition level 0) and how many are
// not, with whether the column is OPTIONAL.
func nullCounts(t *testing.T, path, name string) (nulls, values int, optional bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	leaf, ok := pf.Schema().Lookup(name)
	if !ok {
		t.Fatalf("%s: no column %s", path, name)
	}
	buf := make([]parquet.Value, 256)
	for _, rg := range pf.RowGroups() {
		pages := rg.ColumnChunks()[leaf.ColumnIndex].Pages()
		for {
			p, err := pages.ReadPage()
			if err != nil {
				break
			}
			vr := p.Values()
			for {
				n, err := vr.ReadValues(buf)
				for _, v := range buf[:n] {
					if v.DefinitionLevel() == 0 && leaf.MaxDefinitionLevel > 0 {
						nulls++
					} else {
						values++
					}
				}
				if err != nil {
					break
				}
			}
		}
		pages.Close()
	}
	return nulls, values, leaf.Node.Optional()
}

// Values that do not apply are NULL in the files, not NaN or -1: the
// offered load of a real log, the window columns without --until, the
// communication columns without --comm, dispersion and pieces on a flat
// machine, the capped share in rigid mode, the deadline miss rate without
// deadlines. Where they apply they are values. Undefined statistics stay
// NaN (documented), in REQUIRED columns.
func TestNotApplicableIsNull(t *testing.T) {
	na := []string{"load", "window_end", "window_generated", "window_completed", "window_allocated", "window_delay",
		"window_throughput", "window_util", "window_power", "window_offered", "deadline_miss_rate", "capped_share",
		"dispersion", "pieces", "comm_time", "pkt_latency", "pkt_blocking", "hop_flits"}
	dir := t.TempDir()
	flat := filepath.Join(dir, "flat")
	if _, err := Run([]*trace.Trace{tiny()}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs", "easy"}, Out: flat}); err != nil {
		t.Fatal(err)
	}
	sum := filepath.Join(flat, schema.SummaryFile)
	for _, c := range na {
		if nulls, values, opt := nullCounts(t, sum, c); nulls != 2 || values != 0 || !opt {
			t.Errorf("flat run, summary %s: %d NULL, %d values (optional %v), want 2 NULL", c, nulls, values, opt)
		}
	}
	for _, c := range []string{"mean_wait", "utilization", "jobs"} {
		if nulls, values, opt := nullCounts(t, sum, c); nulls != 0 || values != 2 || opt {
			t.Errorf("flat run, summary %s: %d NULL, %d values (optional %v), want 2 values in a required column", c, nulls, values, opt)
		}
	}
	if nulls, values, _ := nullCounts(t, filepath.Join(flat, schema.JobsFile), "load"); nulls != 6 || values != 0 {
		t.Errorf("flat run, jobs load: %d NULL, %d values, want 6 NULL (3 jobs × 2 runs)", nulls, values)
	}

	// On a mesh with a window and a communication model, with a known load,
	// the same columns hold values.
	tr := pair()
	tr.Provenance.Load = 0.5
	mesh := filepath.Join(dir, "mesh")
	if _, err := Run([]*trace.Trace{tr}, Options{Allocs: []string{"ff"}, Scheds: []string{"fcfs"}, Comm: "analytic:ts=3,plen=8,msgs=1",
		Until: 100, Out: mesh}); err != nil {
		t.Fatal(err)
	}
	sum = filepath.Join(mesh, schema.SummaryFile)
	for _, c := range []string{"load", "window_end", "window_generated", "window_delay", "dispersion", "pieces", "comm_time", "pkt_latency", "hop_flits"} {
		if nulls, values, _ := nullCounts(t, sum, c); nulls != 0 || values != 1 {
			t.Errorf("mesh run, summary %s: %d NULL, %d values, want a value", c, nulls, values)
		}
	}
	if nulls, values, _ := nullCounts(t, filepath.Join(mesh, schema.JobsFile), "load"); nulls != 0 || values != 1 {
		t.Errorf("mesh run, jobs load: %d NULL, %d values", nulls, values)
	}
}

// Every results file carries the units of its columns: seconds for real
// logs, time units for synthetic traces.
func TestUnitsMetadata(t *testing.T) {
	for _, c := range []struct {
		generator, unit, rate string
	}{{"swf", "s", "1/s"}, {"workload", "time units", "per time unit"}} {
		tr := tiny()
		tr.Provenance.Generator = c.generator
		out := filepath.Join(t.TempDir(), "out")
		if _, err := Run([]*trace.Trace{tr}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}, Out: out}); err != nil {
			t.Fatal(err)
		}
		for _, file := range schema.Files {
			f, err := os.Open(filepath.Join(out, file))
			if err != nil {
				t.Fatal(err)
			}
			st, _ := f.Stat()
			pf, err := parquet.OpenFile(f, st.Size())
			if err != nil {
				t.Fatal(err)
			}
			v, _ := pf.Lookup(schema.KeyUnits)
			f.Close()
			var units map[string]string
			if err := json.Unmarshal([]byte(v), &units); err != nil {
				t.Fatalf("%s: %s: %v", file, schema.KeyUnits, err)
			}
			want := map[string]map[string]string{
				schema.JobsFile:    {"submit_time": c.unit, "wait_time": c.unit, "response_time": c.unit, "run_time": c.unit, "estimate": c.unit, "slowdown": ""},
				schema.SummaryFile: {"mean_wait": c.unit, "makespan": c.unit, "size_classes.mean_response": c.unit, "throughput": c.rate, "utilization": ""},
				schema.SeriesFile:  {"time": c.unit, "busy": ""},
			}[file]
			for col, u := range want {
				if units[col] != u {
					t.Errorf("%s (%s): unit of %s is %q, want %q", file, c.generator, col, units[col], u)
				}
			}
		}
	}
}

// The terminal table's time headers carry the unit: [s] for real logs,
// [tu] (the model's time units) otherwise, in both layouts.
func TestTableHeaderUnits(t *testing.T) {
	for _, c := range []struct{ generator, unit string }{{"swf", "[s]"}, {"workload", "[tu]"}} {
		tr := tiny()
		tr.Provenance.Generator = c.generator
		rows, err := Run([]*trace.Trace{tr}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, layout := range []string{TableFull, TableCompact} {
			var b strings.Builder
			if err := FormatSummary(&b, rows, []*trace.Trace{tr}, layout); err != nil {
				t.Fatal(err)
			}
			head := strings.SplitN(b.String(), "\n", 2)[0]
			if !strings.Contains(head, "mean_wait"+c.unit) || !strings.Contains(head, "mean_response"+c.unit) {
				t.Errorf("%s, %s layout: header %q lacks the unit %s", c.generator, layout, head, c.unit)
			}
		}
	}
}
