package sched

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/internal/race"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// TestRealLogs replays the KTH-SP2 and NASA iPSC/860 logs under every
// scheduler with both flat allocators and the invariant checker (skipped
// when the logs are absent).
func TestRealLogs(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("real logs; skipped with -short")
	}
	logs := []struct {
		file  string
		procs int
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 100},
		{"NASA-iPSC-1993-3.1-cln.swf.gz", 128},
	}
	specs := []string{"fcfs", "sjf", "smallest:scan=all", "largest", "ssd", "if:wtl=500", "sa", "mq", "mq:order=up,wtl=3600",
		"scan", "scan:order=down,sf=true", "prio-res", "prio-res:max_pri=5"}
	for _, l := range logs {
		path := filepath.Join("..", "..", "..", "shared", "traces", l.file)
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s absent: skipped", path)
			continue
		}
		tr, err := trace.ReadFile(path, trace.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := policy.Machine{Kind: policy.Flat, Procs: l.procs}
		jobs, _ := admit.Jobs(tr, m, "requested")
		for _, alloc := range []string{"count", "contig"} {
			for _, spec := range specs {
				res, err := engine.Run(jobs, m, newAlloc(alloc, l.procs), newSched(t, spec, m), engine.Options{Check: true})
				if err != nil {
					t.Fatalf("%s %s/%s: %v", l.file, alloc, spec, err)
				}
				wait := 0.0
				for _, j := range res.Jobs {
					wait += j.Start - j.Submit
				}
				t.Logf("%s %s/%s: %d jobs, mean wait %.0f s", l.file, alloc, spec, len(res.Jobs), wait/float64(len(res.Jobs)))
			}
		}
	}
}
