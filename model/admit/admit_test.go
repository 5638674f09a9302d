package admit_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

func TestJobs(t *testing.T) {
	tr := &trace.Trace{}
	add := func(id int64, submit, run float64, req, alloc int64, reqTime float64) {
		j := trace.NewJob(id)
		j.Submit, j.Run, j.ReqProcs, j.AllocProcs, j.ReqTime = submit, run, req, alloc, reqTime
		tr.Jobs = append(tr.Jobs, j)
	}
	add(1, 10, 5, 4, -1, 100) // ok: requested procs, estimate 100
	add(2, 5, 5, -1, 8, -1)   // ok: allocated procs, estimate = run; sorts first
	add(3, 10, 0, 2, 2, 50)   // ok: zero run time
	add(4, 11, -1, 2, 2, 50)  // unknown run time
	add(5, 12, 5, -1, -1, 50) // no processor count
	add(6, 13, 5, 200, 2, 50) // larger than the machine
	add(7, -1, 5, 1, 1, 50)   // unknown submit
	m := policy.Machine{Kind: policy.Flat, Procs: 128}
	jobs, rej := admit.Jobs(tr, m, admit.EstimatesRequested)
	var got []string
	for _, j := range jobs {
		got = append(got, fmt.Sprintf("%d:%d:%g", j.ID, j.Procs, j.Estimate))
	}
	if g, w := strings.Join(got, " "), "2:8:5 1:4:100 3:2:50"; g != w {
		t.Errorf("jobs %s, want %s", g, w)
	}
	for k, j := range jobs {
		if want := [...]int32{1, 0, 2}[k]; j.Index != int32(k) || j.Record != want {
			t.Errorf("job %d: index %d record %d, want %d and %d", j.ID, j.Index, j.Record, k, want)
		}
	}
	var rg []string
	for _, r := range rej {
		rg = append(rg, fmt.Sprint(r.ID))
	}
	if g, w := strings.Join(rg, " "), "4 5 6 7"; g != w {
		t.Errorf("rejected %s, want %s (%v)", g, w, rej)
	}
	jobs, _ = admit.Jobs(tr, m, admit.EstimatesActual)
	if jobs[1].Estimate != 5 {
		t.Errorf("actual estimates: job 1 estimate %g, want 5", jobs[1].Estimate)
	}
}

// Jobs carries the mesh shape and the malleable characteristics (-1 when
// unknown; none at all for a rigid job).
func TestJobsShapeAndMalleable(t *testing.T) {
	tr := &trace.Trace{}
	for id := int64(1); id <= 3; id++ {
		j := trace.NewJob(id)
		j.Submit, j.Run, j.ReqProcs = 0, 5, 8
		tr.Jobs = append(tr.Jobs, j)
	}
	tr.Jobs[0].Work, tr.Jobs[0].Efficiency, tr.Jobs[0].MaxParallelism = 1000, 87.5, 16
	tr.Jobs[0].ReqWidth, tr.Jobs[0].ReqHeight = 4, 2
	tr.Jobs[2].Work, tr.Jobs[2].Efficiency, tr.Jobs[2].MaxParallelism = math.NaN(), math.Inf(1), 0
	for id := int64(4); id <= 5; id++ {
		j := trace.NewJob(id)
		j.Submit, j.Run, j.ReqProcs = 0, 5, 8
		tr.Jobs = append(tr.Jobs, j)
	}
	tr.Jobs[3].Efficiency = 50
	tr.Jobs[4].MaxParallelism = 3
	jobs, rej := admit.Jobs(tr, policy.Machine{Kind: policy.Mesh, Procs: 64, Width: 8, Height: 8}, admit.EstimatesRequested)
	if len(rej) != 0 {
		t.Fatal(rej)
	}
	var got []string
	for _, j := range jobs {
		got = append(got, fmt.Sprintf("%dx%d %v", j.Width, j.Height, j.Malleable))
	}
	if g, w := strings.Join(got, " | "), "4x2 &{1000 87.5 16} | 0x0 <nil> | 0x0 <nil> | 0x0 &{-1 50 -1} | 0x0 &{-1 -1 3}"; g != w {
		t.Errorf("got %s, want %s", g, w)
	}
}

// Jobs takes priority and deadline from the trace, -1 when unknown.
func TestJobsPriorityDeadline(t *testing.T) {
	tr := &trace.Trace{}
	for i, pd := range [][2]float64{{2, 30.5}, {-1, -1}, {0, 0}, {1 << 40, 7}} {
		j := trace.NewJob(int64(i + 1))
		j.Submit, j.Run, j.ReqProcs = 0, 5, 1
		j.Priority, j.Deadline = int64(pd[0]), pd[1]
		tr.Jobs = append(tr.Jobs, j)
	}
	jobs, rej := admit.Jobs(tr, policy.Machine{Kind: policy.Flat, Procs: 4}, admit.EstimatesRequested)
	if len(rej) != 0 {
		t.Fatal(rej)
	}
	want := [][2]float64{{2, 30.5}, {-1, -1}, {0, 0}, {-1, 7}}
	for i, j := range jobs {
		if float64(j.Priority()) != want[i][0] || j.Deadline() != want[i][1] {
			t.Errorf("job %d: priority %d deadline %g, want %v", j.ID, j.Priority(), j.Deadline(), want[i])
		}
	}
	if jobs[1].Window != nil {
		t.Error("a job with neither priority nor deadline has a Window")
	}
}

// TestEstimatesFactor: factor:x=X makes every estimate X times the run
// time, whatever the request; bad modes are one error naming the value.
func TestEstimatesFactor(t *testing.T) {
	tr := &trace.Trace{}
	for i, r := range []float64{5, 0, 40} {
		j := trace.NewJob(int64(i + 1))
		j.Submit, j.Run, j.ReqProcs, j.ReqTime = float64(i), r, 1, 1000
		tr.Jobs = append(tr.Jobs, j)
	}
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	for _, c := range []struct {
		mode string
		want string
	}{
		{"factor:x=3", "15 0 120"},
		{"factor:x=0.5", "2.5 0 20"},
		{admit.EstimatesRequested, "1000 1000 1000"},
		{admit.EstimatesActual, "5 0 40"},
	} {
		if err := admit.CheckEstimates(c.mode); err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		jobs, _ := admit.Jobs(tr, m, c.mode)
		var got []string
		for _, j := range jobs {
			got = append(got, fmt.Sprint(j.Estimate))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%s: estimates %s, want %s", c.mode, g, c.want)
		}
	}
	for _, bad := range []string{"factor", "factor:x=0", "factor:x=-2", "factor:x=inf", "factor:x=abc", "factor:y=2", "factors:x=2", "predicted"} {
		err := admit.CheckEstimates(bad)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: error %v, want one line naming it", bad, err)
		}
	}
}
