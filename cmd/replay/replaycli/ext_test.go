package replaycli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/model/ext/exttest"
)

// The test binary is also an external scheduler (exttest.Main).
func TestMain(m *testing.M) {
	exttest.Main()
	os.Exit(m.Run())
}

// An external FCFS gives the built-in fcfs's schedule; a quoted command
// survives --sched's comma splitting.
func TestExtRun(t *testing.T) {
	dir := t.TempDir()
	in := writeSWF(t, dir, "tiny.swf", swf)
	spec := "ext:cmd='" + exttest.Cmd("fcfs") + "',timeout=10"
	for _, s := range []string{"fcfs", spec} {
		if msg, _, stderr := runApp("run", "--quiet", "--alloc", "count", "--sched", s, "--out", filepath.Join(dir, "out"), in); msg != "" {
			t.Fatalf("%s: %s %s", s, msg, stderr)
		}
	}
	got, err := splitSpecs("sched", []string{"fcfs," + spec + ",easy"})
	if err != nil || len(got) != 3 || got[1] != spec {
		t.Fatalf("splitSpecs: %q %v", got, err)
	}
}

// A bad decision fails the run with one line naming the command, the time
// and the reply, and writes no file.
func TestExtErrorWritesNothing(t *testing.T) {
	dir := t.TempDir()
	in := writeSWF(t, dir, "tiny.swf", swf)
	out := filepath.Join(dir, "out")
	cmd := exttest.Cmd("unknown")
	msg, _, _ := runApp("run", "--quiet", "--alloc", "count", "--sched", "ext:cmd='"+cmd+"'", "--out", out, in)
	want := fmt.Sprintf("replay: trace tiny, count/ext:cmd='%s' on flat:4: ext %q: t=0: reply {\"start\":[99]}: job 99 is unknown (no such job has arrived)", cmd, cmd)
	if msg != want {
		t.Fatalf("error\n%s\nwant\n%s", msg, want)
	}
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		if e.Name() != ".schedlab.lock" { // the output directory's lock
			t.Errorf("written: %s", e.Name())
		}
	}
}

// SIGINT during a run with a stalled external scheduler: exit 130, no
// child process left, no partial file.
func TestExtInterruptLeavesNoChild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "replay") // built from cmd/replay, the main package
	if b, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	in := writeSWF(t, dir, "tiny.swf", swf)
	out := filepath.Join(dir, "out")
	pidFile := filepath.Join(dir, "pid")
	spec := "ext:cmd='echo $$ > " + pidFile + "; " + exttest.Cmd("silent") + "'"
	cmd := exec.Command(bin, "run", "--quiet", "--alloc", "count", "--sched", "fcfs,"+spec, "--out", out, in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child did not start")
		}
		b, _ := os.ReadFile(pidFile)
		fmt.Sscan(strings.TrimSpace(string(b)), &pid)
	}
	time.Sleep(100 * time.Millisecond) // the child replaces the shell and reads
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr %q", err, stderr.String())
	}
	for deadline := time.Now().Add(5 * time.Second); running(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("child %d still running after the interrupt", pid)
		}
	}
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") || strings.HasSuffix(e.Name(), ".parquet") {
			t.Errorf("left after the interrupt: %s", e.Name())
		}
	}
}

// running reports whether pid runs (a zombie does not).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
