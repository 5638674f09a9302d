package experiment

import (
	"cmp"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// spread3 is three jobs at time 0 on dragonfly:g=3,a=2,p=2,h=1: df-spread
// places the first (3 nodes, run 100) on nodes 0, 4 and 8 (hop-bytes 12,
// the best 3 nodes' 4), the second (2 nodes, run 50) on 1 and 5 (2, the
// best 0), the third (1 node, run 30) on 2 (model/stretch's
// TestEngineDragonfly works them by hand).
func spread3() *trace.Trace {
	t := &trace.Trace{Name: "spread3", Machine: "dragonfly:g=3,a=2,p=2,h=1"}
	t.Provenance.Load = -1
	for i, c := range []struct{ procs, run int }{{3, 100}, {2, 50}, {1, 30}} {
		j := trace.NewJob(int64(i + 1))
		j.Submit, j.Run, j.ReqProcs, j.ReqTime, j.Status = 0, float64(c.run), int64(c.procs), 1000, 1
		t.Jobs = append(t.Jobs, j)
	}
	return t
}

// The stretch option end to end: off (given or not) replays the trace's
// run times; hops:alpha=0.3 runs the jobs 140, 65 and 30, so the mean
// response is 235/3 and the makespan 140.
func TestStretchRun(t *testing.T) {
	for _, c := range []struct {
		stretch            string
		response, makespan float64
	}{
		{"", 180.0 / 3, 100},
		{"off", 180.0 / 3, 100},
		{"hops:alpha=0.3", 235.0 / 3, 140},
	} {
		rows, err := Run([]*trace.Trace{spread3()}, Options{Allocs: []string{"df-spread"}, Scheds: []string{"fcfs"}, Stretch: c.stretch, Check: true, Workers: 1})
		if err != nil {
			t.Fatalf("%q: %v", c.stretch, err)
		}
		r := rows[0]
		if !nearly(r.MeanResponse, c.response) || !nearly(r.Makespan, c.makespan) {
			t.Errorf("%q: mean response %g, makespan %g; want %g, %g", c.stretch, r.MeanResponse, r.Makespan, c.response, c.makespan)
		}
	}
}

// The files record the stretch model in schedlab.options, canonical, and
// nothing of it when off.
func TestStretchMeta(t *testing.T) {
	for st, want := range map[string]string{"": "", "off": "", "hops:alpha=.30": `"stretch":"hops:alpha=0.3"`} {
		dir := t.TempDir()
		if _, err := Run([]*trace.Trace{spread3()}, Options{Out: dir, Allocs: []string{"df-spread"}, Scheds: []string{"fcfs"}, Stretch: st, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		pr, err := file.OpenParquetFile(filepath.Join(dir, schema.SummaryFile), false)
		if err != nil {
			t.Fatal(err)
		}
		v := pr.MetaData().KeyValueMetadata().FindValue(schema.KeyOptions)
		pr.Close()
		if v == nil {
			t.Fatalf("%q: no options metadata", st)
		}
		if got := strings.Contains(*v, `"stretch"`); got != (want != "") || want != "" && !strings.Contains(*v, want) {
			t.Errorf("%q: options %s, want %s", st, *v, cmp.Or(want, "no stretch key"))
		}
	}
}

func nearly(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
