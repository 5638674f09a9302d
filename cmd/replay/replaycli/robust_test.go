package replaycli

import (
	"bytes"
	"fmt"
	"github.com/schedlab/schedlab/model/experiment"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"
)

// runApp runs the replay command in process and returns its error message
// as the command prints it, stdout and stderr.
func runApp(args ...string) (msg, stdout, stderr string) {
	var o, e bytes.Buffer
	app := App()
	app.Writer, app.ErrWriter = &o, &e
	if err := app.Run(xcli.Reorder(app, append([]string{"replay"}, args...))); err != nil {
		msg = xcli.Message("replay", err)
	}
	return msg, o.String(), e.String()
}

func writeSWF(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Each finding of the bad-input review: the message, and no output.
func TestBadInvocations(t *testing.T) {
	dir := t.TempDir()
	in := writeSWF(t, dir, "tiny.swf", swf)
	dup := writeSWF(t, dir, "other/tiny.swf", swf)
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-j", "0", "--out", out, in}, "replay: -j 0: want at least 1 worker"},
		{[]string{"run", "-j", "-5", "--out", out, in}, "replay: -j -5: want at least 1 worker"},
		{[]string{"run", "--bogus", in}, "replay: flag provided but not defined: -bogus\nRun 'replay run --help' for usage."},
		{[]string{"run", "--table", "wide", "--out", out, in}, `replay: --table "wide": want auto, full or compact`},
		{[]string{"run", "--out", out, in, dup}, "replay: traces " + in + " and " + dup + ` have the same name "tiny" and rep 0`},
	} {
		msg, stdout, _ := runApp(c.args...)
		if !strings.HasPrefix(msg, c.want) {
			t.Errorf("%v:\n got %q\nwant %q…", c.args, msg, c.want)
		}
		if stdout != "" {
			t.Errorf("%v printed %q", c.args, stdout)
		}
	}
	// Too large for the memory: refused by the machine alone or by the
	// whole plan's estimate, depending on the memory available.
	if msg, _, _ := runApp("run", "--out", out, "--machine", "flat:1000000000", in); !strings.HasPrefix(msg, "replay: ") || !strings.Contains(msg, "needs about") || strings.Contains(msg, "\n") {
		t.Errorf("flat:1000000000: %q", msg)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists after errors", out)
	}
}

// A run that counts no job (every job rejected) warns; a trace with no
// job record at all (F17 of issue 25: a 0-byte file, a header alone) is
// refused, and nothing is written.
func TestNoJobCountedWarns(t *testing.T) {
	dir := t.TempDir()
	for _, body := range []string{"", "; MaxProcs: 4\n"} {
		in := writeSWF(t, dir, "empty.swf", body)
		out := filepath.Join(dir, "out-empty")
		msg, _, _ := runApp("run", "--quiet", "--machine", "flat:4", "--out", out, in)
		if want := "replay: trace " + in + ": no job records: nothing to replay"; msg != want {
			t.Errorf("%q: message %q, want %q", body, msg, want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%q: %s written", body, out)
		}
	}
	for _, c := range []struct{ name, body string }{
		{"huge.swf", "; MaxProcs: 4\n1 0 -1 10 8 -1 -1 8 20 -1 1 1 -1 -1 -1 -1 -1 -1\n"},
	} {
		in := writeSWF(t, dir, c.name, c.body)
		msg, _, stderr := runApp("run", "--quiet", "--machine", "flat:4", "--alloc", "count", "--sched", "fcfs", "--out", filepath.Join(dir, "out-"+c.name), in)
		if msg != "" {
			t.Fatalf("%s: %s", c.name, msg)
		}
		if !strings.Contains(stderr, "replay: warning: trace "+strings.TrimSuffix(c.name, ".swf")+", count/fcfs: no job counted") {
			t.Errorf("%s: stderr %q", c.name, stderr)
		}
	}
}

// Two replays into one directory: the second fails at once, naming the
// holder, and writes nothing.
func TestOutputLocked(t *testing.T) {
	dir := t.TempDir()
	in := writeSWF(t, dir, "tiny.swf", swf)
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(out, ".schedlab.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	f.WriteString("4242\n")
	msg, _, _ := runApp("run", "--quiet", "--out", out, in)
	if want := "replay: " + out + " is in use by another replay (pid 4242"; !strings.HasPrefix(msg, want) {
		t.Errorf("got %q, want %q…", msg, want)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 1 {
		t.Errorf("files written under a held lock: %v", ents)
	}
	// Released: the run goes through, and clears stale temporary files of
	// a killed run.
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	stale := filepath.Join(out, ".jobs.parquet.tmp-123")
	os.WriteFile(stale, []byte("killed"), 0o644)
	if msg, _, _ := runApp("run", "--quiet", "--out", out, in); msg != "" {
		t.Fatal(msg)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary file kept: %v", err)
	}
}

// SIGINT or SIGTERM while writing: the temporary files go (and the output
// folder, which the run made), the command says "interrupted" and exits
// 130.
func TestInterruptRemovesTemporaryFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "replay")
	if b, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	// A trace long enough to be interrupted: conservative backfilling at
	// overload on 20,000 jobs.
	var sb strings.Builder
	sb.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&sb, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 -1 -1 -1 -1 -1 -1\n", i, i, 50+i%97, 1+i%64, 1+i%64, 60+i%97)
	}
	in := writeSWF(t, dir, "long.swf", sb.String())
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		out := filepath.Join(dir, "out-"+sig.String())
		cmd := exec.Command(bin, "run", "--quiet", "--sched", "conservative,easy,fcfs", "--out", out, in)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			ents, _ := os.ReadDir(out)
			tmp := 0
			for _, e := range ents {
				if strings.Contains(e.Name(), ".tmp-") {
					tmp++
				}
			}
			if tmp > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("no temporary file appeared")
			}
			time.Sleep(5 * time.Millisecond)
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 130 {
			t.Fatalf("%v: exit %v, want 130; stderr %q", sig, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "replay: interrupted") {
			t.Errorf("%v: stderr %q", sig, stderr.String())
		}
		ents, _ := os.ReadDir(out)
		for _, e := range ents {
			if strings.Contains(e.Name(), ".tmp-") || strings.HasSuffix(e.Name(), ".parquet") {
				t.Errorf("%v: left after the interrupt: %s", sig, e.Name())
			}
		}
		// The run made out: nothing of it is left, its lock neither.
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s, which the run made, is left (%d entries): %v", sig, out, len(ents), err)
		}
	}
}

// The three commands, built as users run them: a usage error is two lines
// on stderr (the error, a pointer to --help) and exit status 1; a bad value
// of ours one line; a trace with no job record is refused; a run that
// counts no job (every one rejected) exits 0 with a warning.
func TestExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the commands; skipped with -short")
	}
	dir := t.TempDir()
	for _, cmd := range []string{"replay", "synth", "report"} {
		if b, err := exec.Command("go", "build", "-o", filepath.Join(dir, cmd), "../../"+cmd).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", cmd, err, b)
		}
	}
	tiny := writeSWF(t, dir, "tiny.swf", swf)
	empty := writeSWF(t, dir, "empty.swf", "; MaxProcs: 4\n")
	huge := writeSWF(t, dir, "huge.swf", "; MaxProcs: 4\n1 0 -1 10 8 -1 -1 8 20 -1 1 1 -1 -1 -1 -1 -1 -1\n")
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"replay", "run", "--bogus"}, 1, "replay: flag provided but not defined: -bogus\nRun 'replay run --help' for usage.\n"},
		{[]string{"replay", "--bogus"}, 1, "replay: flag provided but not defined: -bogus\nRun 'replay --help' for usage.\n"},
		{[]string{"synth", "convert", "--bogus", "a", "b"}, 1, "synth: flag provided but not defined: -bogus\nRun 'synth convert --help' for usage.\n"},
		{[]string{"synth", "workload", "--jobs", "x"}, 1, "synth: invalid value \"x\" for flag -jobs: parse error\nRun 'synth workload --help' for usage.\n"},
		{[]string{"report", "--bogus"}, 1, "report: flag provided but not defined: -bogus\nRun 'report --help' for usage.\n"},
		{[]string{"report", "compare", "--bogus", "a", "b"}, 1, "report: flag provided but not defined: -bogus\nRun 'report compare --help' for usage.\n"},
		{[]string{"replay", "run", "-j", "0", tiny}, 1, "replay: -j 0: want at least 1 worker\n"},
		{[]string{"replay", "run", "-j", "-5", tiny}, 1, "replay: -j -5: want at least 1 worker\n"},
		{[]string{"replay", "run", "--quiet", "--alloc", "count", "--sched", "fcfs", "--out", filepath.Join(dir, "out"), empty}, 1,
			"replay: trace " + empty + ": no job records: nothing to replay\n"},
		{[]string{"replay", "run", "--quiet", "--alloc", "count", "--sched", "fcfs", "--out", filepath.Join(dir, "out"), huge}, 0,
			"replay: warning: " + huge + ": 1 jobs request more processors than MaxProcs 4 (first: job 1, line 2); replay rejects and counts them\n" +
				"replay: warning: trace huge, count/fcfs: no job counted (1 in the trace, 1 rejected, 0 filtered): its statistics are NaN\n"},
	} {
		cmd := exec.Command(filepath.Join(dir, c.args[0]), c.args[1:]...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || stderr.String() != c.stderr {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, stderr %q", c.args, code, stderr.String(), c.code, c.stderr)
		}
		if c.code != 0 && stdout.Len() != 0 {
			t.Errorf("%v: stdout %q", c.args, stdout.String())
		}
	}
}

// F4 (issue 25): a machine too large for the memory is refused before any
// allocator of its size is built (the contig allocator's tables would
// take tens of GB), with one line, and nothing is written.
func TestHugeMachineRefusedFirst(t *testing.T) {
	if n, ok := experiment.MemAvailable(); !ok || n > 40<<30 {
		t.Skip("memory not known, or more than 40 GiB available")
	}
	dir := t.TempDir()
	in := writeSWF(t, dir, "t.swf", "; MaxProcs: 8\n1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n")
	out := filepath.Join(dir, "out")
	msg, _, _ := runApp("run", "--quiet", "--alloc", "contig", "--sched", "fcfs", "--machine", "flat:2147483647", "--out", out, in)
	if want := "replay: trace " + in + ": machine flat:2147483647 needs about 48.0 GiB for its processors alone"; !strings.HasPrefix(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("message %q, want %q…", msg, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s written", out)
	}
}
