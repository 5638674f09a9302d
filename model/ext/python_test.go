package ext

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/backfill"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/trace"
)

// realLog returns every job of a log in ../shared/traces on flat:procs
// (skips when the log is absent).
func realLog(t *testing.T, name string, procs int) (policy.Machine, []policy.Job) {
	path := filepath.Join("..", "..", "..", "shared", "traces", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s absent", path)
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	jobs, _ := admit.Jobs(tr, m, "requested")
	return m, jobs
}

// samePython checks that the Python example (notebooks/schedlab_ext/
// examples/NAME.py) schedules jobs as the built-in, job for job.
func samePython(t *testing.T, name string, builtin policy.Scheduler, m policy.Machine, jobs []policy.Job, params policy.Params) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	script := filepath.Join("..", "..", "notebooks", "schedlab_ext", "examples", name+".py")
	want, err := engine.Run(append([]policy.Job(nil), jobs...), m, flat.NewCount(m.Procs), builtin, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := run(t, "'"+py+"' "+script, append([]policy.Job(nil), jobs...), m.Procs, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Jobs) != len(want.Jobs) {
		t.Fatalf("%d jobs, built-in %d", len(got.Jobs), len(want.Jobs))
	}
	for i := range want.Jobs {
		if g, w := got.Jobs[i], want.Jobs[i]; g.Start != w.Start || g.End != w.End {
			t.Fatalf("job %d (SWF %d): starts %g ends %g, built-in %g %g", i, w.ID, g.Start, g.End, w.Start, w.End)
		}
	}
}

// The Python EASY (notebooks/schedlab_ext/examples/easy.py) schedules
// the whole KTH-SP2 log as the built-in easy, job for job (about 1 s).
func TestPythonEASYIsEASYOnKTH(t *testing.T) {
	m, jobs := realLog(t, "KTH-SP2-1996-2.1-cln.swf.gz", 100)
	samePython(t, "easy", backfill.NewEASY(), m, jobs, nil)
}

// The Python FCFS, on KTH-SP2 (with -short skipped: EASY above covers
// the client on KTH).
func TestPythonFCFSIsFCFSOnKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole real log; skipped with -short")
	}
	m, jobs := realLog(t, "KTH-SP2-1996-2.1-cln.swf.gz", 100)
	samePython(t, "fcfs", sched.NewFCFS(), m, jobs, nil)
}

// Both on NASA iPSC/860, flat:128, asked at every instant (ask=every) and
// only where a job may fit (the client's default).
func TestPythonOnNASA(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole real log; skipped with -short")
	}
	m, jobs := realLog(t, "NASA-iPSC-1993-3.1-cln.swf.gz", 128)
	for _, ask := range []string{"fit", "every"} {
		p := policy.Params{"ask": ask}
		t.Run("fcfs/"+ask, func(t *testing.T) { samePython(t, "fcfs", sched.NewFCFS(), m, jobs, p) })
		t.Run("easy/"+ask, func(t *testing.T) { samePython(t, "easy", backfill.NewEASY(), m, jobs, p) })
	}
}

// The gym-style environment (notebooks/schedlab_ext/env.py) over a
// replay built from this checkout: episodes start every job once, give a
// finite reward, are deterministic for a seed (test_env.py).
func TestPythonEnv(t *testing.T) {
	if testing.Short() {
		t.Skip("builds replay; skipped with -short")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH to build replay")
	}
	if _, err := os.Stat(filepath.Join("..", "..", "..", "shared", "traces", "KTH-SP2-1996-2.1-cln.swf.gz")); err != nil {
		t.Skip("no KTH log")
	}
	bin := filepath.Join(t.TempDir(), "replay")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/replay").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(py, "-m", "unittest", "-v", "schedlab_ext.test_env")
	cmd.Dir = filepath.Join("..", "..", "notebooks")
	cmd.Env = append(os.Environ(), "SCHEDLAB_REPLAY="+bin, "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Ran 3 tests") || strings.Contains(string(out), "skipped") {
		t.Fatalf("the Python tests did not all run:\n%s", out)
	}
}

// The Python client's unit tests (notebooks/schedlab_ext/test_client.py):
// the handshake's ask, and the events of instants not asked passed on in
// the engine's order.
func TestPythonClient(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	cmd := exec.Command(py, "-m", "unittest", "-v", "schedlab_ext.test_client")
	cmd.Dir = filepath.Join("..", "..", "notebooks")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Ran 4 tests") || strings.Contains(string(out), "skipped") {
		t.Fatalf("the Python tests did not all run:\n%s", out)
	}
}
