package schema

import (
	"io"
	"testing"
)

// BenchmarkSummaryFile writes a one-row summary file, as each cell of a
// sweep's dataset does.
func BenchmarkSummaryFile(b *testing.B) {
	m := Meta{Version: "dev", Options: "{}", Traces: `[{"name":"t","source":"","generator":"workload","seed":1,"load":0.5,"rep":0,"machine":"flat:8","jobs":10}]`}
	rows := []Summary{{Trace: "t", Machine: "flat:8", Alloc: "count", Sched: "fcfs", Load: -1}}
	b.ReportAllocs()
	for b.Loop() {
		pw := NewWriter[Summary](io.Discard, m)
		if err := Write(pw, rows); err != nil {
			b.Fatal(err)
		}
		if err := pw.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
