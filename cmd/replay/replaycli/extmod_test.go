package replaycli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExternalModule builds testdata/extmod, a module of its own that
// registers a scheduler (catalog.RegisterScheduler, using model/fifo) and
// calls replaycli.Main, with its replace directive pointed at this
// repository, and runs it: the scheduler is listed with its parameter,
// runs beside a built-in one, is planned and run by a sweep, and a bad
// parameter is the usual one-line error with no output written. This is
// the path a user's own module takes.
func TestExternalModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module; skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH: cannot build the external module")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := filepath.Join(dir, "mod")
	if err := os.CopyFS(mod, os.DirFS("testdata/extmod")); err != nil {
		t.Fatal(err)
	}
	gomod := filepath.Join(mod, "go.mod")
	b, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "=> ../../../../..", "=> "+root, 1)
	if src == string(b) {
		t.Fatal("testdata/extmod/go.mod: no replace directive to the repository")
	}
	// The repository's go.sum has every checksum the module needs.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gomod, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "myreplay")
	build := exec.Command(goBin, "build", "-o", bin, ".")
	build.Dir = mod
	// Offline, from the module cache the repository's own build uses.
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the external module: %v\n%s", err, out)
	}

	out, err := exec.Command(bin, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("myreplay list: %v\n%s", err, out)
	}
	if want := "scheduler  greedy         [any] every waiting job that fits, in arrival order; params: limit=0 (jobs started per instant at most (0: no limit))"; !strings.Contains(string(out), want+"\n") {
		t.Errorf("myreplay list lacks %q:\n%s", want, out)
	}

	// Job 3 passes the blocked job 2 under greedy, not under fcfs.
	swf := filepath.Join(dir, "tiny.swf")
	if err := os.WriteFile(swf, []byte("; MaxProcs: 4\n"+
		"1 0 -1 10 3 -1 -1 3 10 -1 1 1 -1 -1 -1 -1 -1 -1\n"+
		"2 1 -1 5 2 -1 -1 2 5 -1 1 1 -1 -1 -1 -1 -1 -1\n"+
		"3 2 -1 2 1 -1 -1 1 2 -1 1 1 -1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "out")
	out, err = exec.Command(bin, "run", "--alloc", "count", "--sched", "fcfs,greedy:limit=1", "--out", res, swf).CombinedOutput()
	if err != nil {
		t.Fatalf("myreplay run: %v\n%s", err, out)
	}
	wait := map[string]string{} // sched → mean_wait in the summary table
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 8 && f[0] == "tiny" {
			wait[f[3]] = f[8]
		}
	}
	if wait["fcfs"] != "5.67" || wait["greedy:limit=1"] != "3.00" {
		t.Errorf("mean waits %v, want fcfs 5.67 and greedy:limit=1 3.00:\n%s", wait, out)
	}
	for _, f := range []string{"jobs.parquet", "summary.parquet"} {
		if _, err := os.Stat(filepath.Join(res, f)); err != nil {
			t.Errorf("myreplay run: %v", err)
		}
	}

	// A plan names it like a built-in one.
	plan := filepath.Join(dir, "plan.toml")
	if err := os.WriteFile(plan, []byte(`name = "ext"
[[workload]]
name = "w"
model = "workload"
loads = [0.8]
reps = 1
jobs = 200
seed = 1
machine = "flat:16"
[replay]
allocs = ["count"]
scheds = ["fcfs", "greedy:limit=2"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(bin, "sweep", plan, "--list").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "  count  greedy:limit=2  200\n") {
		t.Errorf("myreplay sweep --list: %v\n%s", err, out)
	}
	sweep := filepath.Join(dir, "sweep")
	if out, err := exec.Command(bin, "sweep", plan, "--quiet", "--out", sweep).CombinedOutput(); err != nil {
		t.Errorf("myreplay sweep: %v\n%s", err, out)
	} else if m, _ := filepath.Glob(filepath.Join(sweep, "summary", "sweep=ext", "*", "alloc=count", "sched=greedy*", "*.parquet")); len(m) == 0 {
		t.Errorf("myreplay sweep: no greedy cell under %s", sweep)
	}

	bad := filepath.Join(dir, "bad")
	out, err = exec.Command(bin, "run", "--sched", "greedy:limit=-1", "--out", bad, swf).CombinedOutput()
	if want := "replay: trace tiny: scheduler greedy:limit=-1: parameter limit=-1: want 0 or more\n"; err == nil || string(out) != want {
		t.Errorf("bad parameter: %v, output %q, want %q", err, out, want)
	}
	if _, err := os.Stat(filepath.Join(bad, "summary.parquet")); err == nil {
		t.Errorf("bad parameter: %s/summary.parquet written", bad)
	}
}
