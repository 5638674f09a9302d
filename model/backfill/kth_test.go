package backfill

import (
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// TestKTH replays KTH-SP2 under EASY and conservative with both flat
// allocators and the invariant checker, and checks that backfilling beats
// strict FCFS on mean bounded slowdown by a wide margin.
func TestKTH(t *testing.T) {
	src, m := logJobs(t, "KTH-SP2-1996-2.1-cln.swf.gz", 100)
	bsld := func(jobs []policy.Job) float64 {
		s := 0.0
		for _, j := range jobs {
			s += max(1, (j.End-j.Submit)/max(j.Run, 10))
		}
		return s / float64(len(jobs))
	}
	fcfs := append([]policy.Job(nil), src...)
	if _, err := engine.Run(fcfs, m, flat.NewCount(100), &strictFCFS{}, engine.Options{Check: true}); err != nil {
		t.Fatal(err)
	}
	base := bsld(fcfs)
	for _, c := range []struct {
		name  string
		alloc func() policy.Allocator
		sched func() policy.Scheduler
	}{
		{"easy/count", func() policy.Allocator { return flat.NewCount(100) }, func() policy.Scheduler { return NewEASY() }},
		{"conservative/count", func() policy.Allocator { return flat.NewCount(100) }, func() policy.Scheduler { return NewConservative() }},
		{"easy/contig", func() policy.Allocator { return flat.NewContig(100) }, func() policy.Scheduler { return NewEASY() }},
		{"conservative/contig", func() policy.Allocator { return flat.NewContig(100) }, func() policy.Scheduler { return NewConservative() }},
	} {
		jobs := append([]policy.Job(nil), src...)
		if _, err := engine.Run(jobs, m, c.alloc(), c.sched(), engine.Options{Check: true}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b := bsld(jobs)
		t.Logf("%s: mean bsld %.2f (FCFS/count %.2f)", c.name, b, base)
		if c.name[len(c.name)-5:] == "count" && b > base/10 {
			t.Errorf("%s: mean bsld %.2f not well below FCFS's %.2f", c.name, b, base)
		}
	}
}
