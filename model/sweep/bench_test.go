package sweep

import (
	"path/filepath"
	"testing"
	"time"
)

// benchPlan has 1000 small cells: 50 loads × 10 replications × 2 pairs, 50
// jobs each, so that the time per cell is nearly all overhead (the trace
// generated, three files written, synced and renamed into place).
const benchPlan = `name = "bench"
[[workload]]
model = "workload"
machine = "flat:16"
loads = "0.02:1.0:0.02"
reps = 10
jobs = 50
[replay]
allocs = ["count"]
scheds = ["fcfs", "easy"]
`

// BenchmarkSweep1000Cells reports the wall time per cell of a 1000-cell
// sweep (ms/cell) and, for comparison, the simulation alone (sim-ms/cell:
// the same runs through engine and metrics with no file written).
func BenchmarkSweep1000Cells(b *testing.B) {
	f, err := Decode("bench.toml", []byte(benchPlan), nil)
	if err != nil {
		b.Fatal(err)
	}
	p, err := f.Plan()
	if err != nil {
		b.Fatal(err)
	}
	if len(p.Cells) != 1000 {
		b.Fatalf("%d cells", len(p.Cells))
	}
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "j1", 2: "j2"}[workers], func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				dir := filepath.Join(b.TempDir(), "out")
				start := time.Now()
				if _, err := Run(p, Options{Out: dir, Workers: workers}); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N)/1000, "ms/cell")
		})
	}
}
