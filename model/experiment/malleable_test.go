package experiment

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
)

// twoJobs is the hand-worked Equipartition case of model/malleable on
// flat:2: A (work 4) at 0, B (work 1) at 1, perfect efficiency. A alone on
// 2 until 1, then 1 each: B ends at 2, A alone again ends at 2.5.
func twoJobs(cap int64) *trace.Trace {
	t := &trace.Trace{Name: "two", Machine: "flat:2"}
	t.Provenance.Load = -1
	for i, w := range []float64{4, 1} {
		j := trace.NewJob(int64(i + 1))
		j.Submit, j.Run, j.ReqProcs, j.Status = float64(i), 99, 2, 1
		j.Work, j.Efficiency, j.MaxParallelism = w, 100, cap
		t.Jobs = append(t.Jobs, j)
	}
	return t
}

// TestMalleableMode replays the hand-worked case in malleable mode through
// the results path: responses 2.5 and 1; utilization the time average of
// Σp_i/P, (2·1 + 2·1 + 2·0.5)/(2·2.5) = 1 (both processors always busy);
// mean active (1 + 2 + 1·0.5)/2.5 → Σ residence (2.5 + 1)/2.5 = 1.4; no
// cap: capped_share NaN.
func TestMalleableMode(t *testing.T) {
	rows, err := Run([]*trace.Trace{twoJobs(-1)}, Options{Mode: "malleable", Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 {
		t.Fatalf("%d rows, want one per malleable policy (7)", len(rows))
	}
	r := rows[0]
	for _, r := range rows {
		if r.Alloc != "share" {
			t.Errorf("alloc %q, want share", r.Alloc)
		}
	}
	for _, r = range rows {
		if r.Sched == "eq" {
			break
		}
	}
	if r.Sched != "eq" || r.MeanResponse != 1.75 || r.Utilization != 1 || r.MeanActive != 1.4 || !math.IsNaN(r.CappedShare) {
		t.Errorf("eq: response %g (want 1.75), utilization %g (1), mean active %g (1.4), capped %g (NaN)",
			r.MeanResponse, r.Utilization, r.MeanActive, r.CappedShare)
	}
	// Capped at N = 1: A runs on 1 until B arrives, 1 each after: B ends
	// at 2, A has 4 − 2 = 2 left on 1: 4. Every allocation is at its cap.
	rows, err = Run([]*trace.Trace{twoJobs(1)}, Options{Mode: "malleable", Scheds: []string{"eq"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.MeanResponse != 2.5 || r.CappedShare != 1 || r.Utilization != 5.0/8 {
		t.Errorf("capped eq: response %g (want (4 + 1)/2), capped %g (1), utilization %g (5/8)", r.MeanResponse, r.CappedShare, r.Utilization)
	}
	// Rigid mode ignores the malleable columns and never offers eq.
	if _, err := Run([]*trace.Trace{twoJobs(-1)}, Options{Scheds: []string{"eq"}}); err == nil || !strings.Contains(err.Error(), `scheduler eq does not support machine flat:2 (kinds: malleable)`) {
		t.Errorf("rigid mode with eq: %v", err)
	}
}

// TestMalleableModeErrors: a trace without work or efficiency is refused
// before anything runs, naming the file, the job and the column.
// (tiny replays 3 of its 5 records: one has no processor count, one is
// partial.)
func TestMalleableModeErrors(t *testing.T) {
	tr := tiny()
	tr.Path = "traces/tiny.swf"
	_, err := Run([]*trace.Trace{tr}, Options{Mode: "malleable"})
	want := "traces/tiny.swf: malleable mode: job 1 (record 0): no work (column work), and 2 more jobs"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if _, err := Run([]*trace.Trace{twoJobs(-1)}, Options{Mode: "elastic"}); err == nil || !strings.Contains(err.Error(), `mode "elastic"`) {
		t.Errorf("bad mode: %v", err)
	}
}

// TestMalleableDeterminism: the same synthetic trace gives identical
// summaries whatever the number of workers.
func TestMalleableDeterminism(t *testing.T) {
	tr, err := workload.GenerateMalleable(workload.MalleableSpec{Procs: 16, WorkMean: 100, WorkCV: 5, EffMin: 10, EffMax: 99,
		CapMean: 6, Load: 0.8, Jobs: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	run := func(j int) string {
		rows, err := Run([]*trace.Trace{tr}, Options{Mode: "malleable", Workers: j, Check: true})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range rows {
			fmt.Fprintf(&b, "%s %v %v %v %v\n", r.Sched, r.MeanResponse, r.Utilization, r.MeanActive, r.CappedShare)
		}
		return b.String()
	}
	a, b := run(1), run(2)
	if a != b {
		t.Errorf("-j 1:\n%s-j 2:\n%s", a, b)
	}
	if !strings.Contains(a, "wf") {
		t.Errorf("no wf row:\n%s", a)
	}
}
