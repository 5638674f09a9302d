package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// replaySWF replays SWF records (fields 1–9; the rest filled in) on
// flat:procs with the count allocator and scheduler sched, estimates the
// requested times, and returns the starts in job order.
func replaySWF(t *testing.T, procs int, sched string, sequential bool, recs ...string) []float64 {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "; MaxProcs: %d\n", procs)
	for _, r := range recs {
		b.WriteString(r + " -1 1 1 1 1 1 -1 -1 -1\n")
	}
	tr, err := trace.ReadSWF(strings.NewReader(b.String()), "golden", trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	jobs, rej := admit.Jobs(tr, m, admit.EstimatesRequested)
	if len(rej) > 0 {
		t.Fatalf("rejected: %v", rej)
	}
	ps, err := catalog.Pairs(m, []string{"count"}, []string{sched})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := ps[0].NewAllocator(m)
	s, _ := ps[0].NewScheduler(m)
	res, err := engine.Run(jobs, m, a, s, engine.Options{Check: true, Sequential: sequential})
	if err != nil {
		t.Fatal(err)
	}
	st := make([]float64, len(jobs))
	for _, j := range res.Jobs {
		st[j.ID-1] = j.Start
	}
	return st
}

// TestSequentialGolden replays the five inputs of issue 23, one per rule
// of the sequential semantics, under EASY with requested-time estimates:
// the sequential starts are those pyss gave, the instant starts
// schedlab's own (worked by hand in the comments).
func TestSequentialGolden(t *testing.T) {
	cases := []struct {
		rule       string
		procs      int
		recs       []string
		seq, inst  []float64
		whyDiffers string
	}{
		{"E", 2, []string{"1 0 -1 2 1 -1 -1 1 4", "2 0 -1 1 2 -1 -1 2 1", "3 0 -1 2 1 -1 -1 1 4", "4 1 -1 1 1 -1 -1 1 1"},
			// At 2 jobs 1 and 3 end: sequentially job 1's completion has
			// its own pass, in which job 4 backfills (ends at 3, before
			// job 2's reservation at 4, job 3 still running).
			[]float64{0, 3, 0, 2}, []float64{0, 2, 0, 3}, "a pass per completion"},
		{"S", 2, []string{"1 0 -1 1 1 -1 -1 1 2", "2 1 -1 1 2 -1 -1 2 2", "3 1 -1 1 1 -1 -1 1 1"},
			// At 1 job 3 arrives before job 1's completion is processed:
			// job 2 is reserved at 2 and job 3 backfills.
			[]float64{0, 2, 1}, []float64{0, 1, 2}, "arrivals before completions"},
		{"T", 3, []string{"1 0 -1 2 2 -1 -1 2 2", "2 0 -1 1 2 -1 -1 2 3", "3 1 -1 2 1 -1 -1 1 2", "4 2 -1 2 3 -1 -1 3 4", "5 2 -1 2 1 -1 -1 1 2"},
			// At 3 jobs 2 (started 2) and 3 (started 1) end: job 3's
			// completion comes first and its pass backfills job 5 while
			// job 2 still holds 2 processors.
			[]float64{0, 2, 1, 5, 3}, []float64{0, 2, 1, 3, 5}, "completions in start order"},
		{"X", 2, []string{"1 0 -1 1 1 -1 -1 1 2", "2 0 -1 1 2 -1 -1 2 1", "3 0 -1 1 1 -1 -1 1 1", "4 1 -1 1 1 -1 -1 1 1"},
			// At 1 job 3 (run = estimate) frees its processor before job
			// 4 arrives, so job 4 fits, a pass runs and it backfills.
			[]float64{0, 2, 0, 1}, []float64{0, 1, 0, 2}, "run = estimate released first"},
		{"Q", 2, []string{"1 0 -1 2 1 -1 -1 1 4", "2 1 -1 2 2 -1 -1 2 2", "3 1 -1 1 1 -1 -1 1 1", "4 1 -1 2 1 -1 -1 1 2", "5 2 -1 1 2 -1 -1 2 2"},
			// At 2 job 5 (2 processors) does not fit: no pass, so job 4
			// cannot backfill before job 1's completion lets job 2 start
			// (a pass at job 5's arrival would give 0 4 1 2 6).
			[]float64{0, 2, 1, 4, 6}, []float64{0, 2, 1, 4, 6}, "a pass at an arrival only if it fits"},
	}
	for _, c := range cases {
		for _, seq := range []bool{true, false} {
			want := c.inst
			if seq {
				want = c.seq
			}
			got := replaySWF(t, c.procs, "easy", seq, c.recs...)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("rule %s (%s), sequential %v: starts %v, want %v", c.rule, c.whyDiffers, seq, got, want)
			}
		}
	}
}

// TestSequentialEveryFlatScheduler replays random workloads under every
// flat scheduler in both semantics, with the invariant checker on. Under
// strict FCFS the two semantics start the same jobs at the same times
// (the jobs started at t are the longest prefix of the queue that fits
// once every processor freed at t is free, whatever the order in which
// they are freed), which the test checks job for job.
func TestSequentialEveryFlatScheduler(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 16}
	rng := rand.New(rand.NewPCG(23, 4))
	for rep := 0; rep < 20; rep++ {
		var jobs []policy.Job
		sub := 0.0
		for i := 0; i < 200; i++ {
			sub += float64(rng.IntN(4)) // many simultaneous arrivals
			run := float64(rng.IntN(8))
			est := run + float64(rng.IntN(3)) // run = estimate a third of the time
			jobs = append(jobs, policy.Job{ID: int64(i + 1), Submit: sub, Run: run, Estimate: est, Procs: 1 + rng.IntN(16), User: -1})
		}
		n := 0
		for _, sc := range catalog.Schedulers() {
			if sc.Named || !policy.Supports(sc.Kinds, policy.Flat) {
				continue
			}
			var got [2][]float64
			for k, seq := range []bool{false, true} {
				ps, err := catalog.Pairs(m, []string{"count"}, []string{sc.Name})
				if err != nil {
					t.Fatal(err)
				}
				a, _ := ps[0].NewAllocator(m)
				s, _ := ps[0].NewScheduler(m)
				js := slices.Clone(jobs)
				res, err := engine.Run(js, m, a, s, engine.Options{Check: true, Sequential: seq})
				if err != nil {
					t.Fatalf("%s sequential %v: %v", sc.Name, seq, err)
				}
				for _, j := range res.Jobs {
					got[k] = append(got[k], j.Start)
				}
			}
			n++
			if sc.Name == "fcfs" && !slices.Equal(got[0], got[1]) {
				t.Errorf("rep %d: fcfs starts differ between the semantics", rep)
			}
		}
		if n < 10 {
			t.Fatalf("%d flat schedulers replayed", n)
		}
	}
}
