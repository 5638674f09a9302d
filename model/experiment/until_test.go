package experiment

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// TestUntilWindow replays tiny (see tiny) with the observation window
// [0, 12]: J1 ran 0..10, J3 10..10 (completed), J2 runs 10..15 (allocated,
// not completed); J4 (no processor count) and J5 (partial) never reach the
// replay. So G = 3, A = 3, C = 2; R = 0 + 5 + 5, M = 10/3; X = 2/12; U = (4·10 + 2·5 + 1·0)/(4·12)
// (J2's whole residence counts); P = X/M = 0.05. The per-job statistics
// count J1 and J3 (waits 0, 5; responses 10, 5); J2 is filtered.
func TestUntilWindow(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	rows, err := Run([]*trace.Trace{tiny()}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}, Check: true, Workers: 1, Until: 12, Out: out, Placement: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	if r.WindowEnd != 12 || r.WindowGenerated != 3 || r.WindowAllocated != 3 || r.WindowCompleted != 2 {
		t.Errorf("T, G, A, C = %g, %d, %d, %d; want 12, 3, 3, 2", r.WindowEnd, r.WindowGenerated, r.WindowAllocated, r.WindowCompleted)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"window_delay", r.WindowDelay, 10.0 / 3},
		{"window_throughput", r.WindowThroughput, 2.0 / 12},
		{"window_util", r.WindowUtilization, 50.0 / 48},
		{"window_power", r.WindowPower, (2.0 / 12) / (10.0 / 3)},
		{"mean_wait", r.MeanWait, 2.5},
		{"mean_response", r.MeanResponse, 7.5},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	if r.Jobs != 2 || r.Rejected != 1 || r.Filtered != 2 { // J5 partial, J2 not completed
		t.Errorf("jobs %d rejected %d filtered %d; want 2 1 2", r.Jobs, r.Rejected, r.Filtered)
	}
	// The jobs table holds the completed jobs only.
	jobs, err := parquet.ReadFile[schema.Job](filepath.Join(out, schema.JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || jobs[0].JobID != 1 || jobs[1].JobID != 3 {
		t.Errorf("jobs table: %+v", jobs)
	}

	// Without a window the window columns are 0 and NaN.
	rows, err = Run([]*trace.Trace{tiny()}, Options{Allocs: []string{"count"}, Scheds: []string{"fcfs"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.WindowEnd != 0 || r.WindowGenerated != 0 || !math.IsNaN(r.WindowPower) || !math.IsNaN(r.WindowDelay) {
		t.Errorf("no window: %+v", r)
	}
}
