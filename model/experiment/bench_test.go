package experiment

import (
	"os"
	"testing"

	"github.com/schedlab/schedlab/trace"
)

const kthPath = "../../../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz"

// BenchmarkKTHAllPairs replays KTH-SP2 (28,476 jobs, flat:100) under every
// flat pair (2 allocators × 12 schedulers) with 2 workers, writing all
// three results files; the trace is read once, outside the timing.
func BenchmarkKTHAllPairs(b *testing.B) {
	if _, err := os.Stat(kthPath); err != nil {
		b.Skip("KTH-SP2 log not available")
	}
	tr, err := trace.ReadFile(kthPath, trace.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run([]*trace.Trace{tr}, Options{Workers: 2, Out: dir}); err != nil {
			b.Fatal(err)
		}
	}
}
