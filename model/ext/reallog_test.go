package ext

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/trace"
)

// kth returns the first n jobs of the KTH-SP2 log on flat:100 (skips when
// the log is absent).
func kth(t *testing.T, n int) (policy.Machine, []policy.Job) {
	path := filepath.Join("..", "..", "..", "shared", "traces", "KTH-SP2-1996-2.1-cln.swf.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s absent", path)
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := policy.Machine{Kind: policy.Flat, Procs: 100}
	jobs, _ := admit.Jobs(tr, m, "requested")
	return m, jobs[:min(n, len(jobs))]
}

// sameAsFCFS checks that an external child's schedule is the built-in
// fcfs's, job for job.
func sameAsFCFS(t *testing.T, cmd string, m policy.Machine, jobs []policy.Job, params ...string) {
	want, err := engine.Run(append([]policy.Job(nil), jobs...), m, flat.NewCount(m.Procs), sched.NewFCFS(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := policy.Params{}
	for i := 0; i+1 < len(params); i += 2 {
		p[params[i]] = params[i+1]
	}
	got, err := run(t, cmd, append([]policy.Job(nil), jobs...), m.Procs, p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Jobs {
		if g, w := got.Jobs[i], want.Jobs[i]; g.Start != w.Start || g.End != w.End {
			t.Fatalf("job %d: starts %g ends %g, fcfs %g %g", w.ID, g.Start, g.End, w.Start, w.End)
		}
	}
}

// The Go FCFS child schedules the whole KTH log as the built-in fcfs.
func TestGoChildIsFCFS(t *testing.T) {
	if testing.Short() {
		t.Skip("a real log; skipped with -short")
	}
	m, jobs := kth(t, 1<<30)
	sameAsFCFS(t, childCmd("fcfs"), m, jobs)
	sameAsFCFS(t, childCmd("fcfs-fit"), m, jobs) // asked only where a job may fit
	sameAsFCFS(t, childCmd("fcfs-min"), m, jobs) // and not before the head fits (min_free)
	sameAsFCFS(t, childCmd("fcfs"), m, jobs, "pin", "false")
}

// A Python FCFS (testdata/fcfs.py, standard library) schedules a slice
// of KTH as the built-in fcfs (skips without python3).
func TestPythonChildIsFCFS(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	m, jobs := kth(t, 3000)
	sameAsFCFS(t, "'"+py+"' testdata/fcfs.py", m, jobs)
}
