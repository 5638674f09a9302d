package replaycli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// killPlan has enough cells (72) to be interrupted part-way with -j 1.
const killPlan = `name = "kill"
[[workload]]
model = "workload"
machine = "flat:64"
service = "h2"
loads = [0.5, 0.7, 0.9]
reps = 4
crn = true
jobs = 3000
[replay]
allocs = ["count", "contig"]
scheds = ["fcfs", "easy", "conservative"]
`

// walk returns the files under dir: Parquet files by relative path with
// their bytes, and every other file's relative path.
func walk(t *testing.T, dir string) (pq map[string][]byte, other []string) {
	t.Helper()
	pq = map[string][]byte{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if strings.HasSuffix(path, ".parquet") {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			pq[rel] = b
		} else {
			other = append(other, rel)
		}
		return nil
	})
	return pq, other
}

func countSummaries(dir string) int {
	n := 0
	filepath.WalkDir(filepath.Join(dir, "summary"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(path, ".parquet") {
			n++
		}
		return nil
	})
	return n
}

// Killing a sweep (SIGKILL) leaves only whole files; SIGINT removes the
// temporary files and exits 130; --resume then completes the dataset, byte
// for byte the same as an uninterrupted run.
func TestSweepKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "replay")
	if b, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	plan := filepath.Join(dir, "kill.toml")
	if err := os.WriteFile(plan, []byte(killPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole")
	if b, err := exec.Command(bin, "sweep", plan, "--out", whole, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted sweep: %v\n%s", err, b)
	}
	want, _ := walk(t, whole)
	if len(want) != 3*72 {
		t.Fatalf("uninterrupted sweep wrote %d files, want %d", len(want), 3*72)
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		out := filepath.Join(dir, "out-"+sig.String())
		cmd := exec.Command(bin, "sweep", plan, "--out", out, "-j", "1", "--quiet")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for countSummaries(out) < 3 {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("no cell completed")
			}
			time.Sleep(2 * time.Millisecond)
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%v: the sweep was not interrupted (%v): make the plan longer", sig, err)
		}
		got, other := walk(t, out)
		if len(got) >= len(want) {
			t.Fatalf("%v: the sweep had finished: make the plan longer", sig)
		}
		// Only whole files: each is byte-identical to the uninterrupted
		// run's, and readable.
		for k, b := range got {
			if !bytes.Equal(b, want[k]) {
				t.Errorf("%v: %s is not the uninterrupted run's file", sig, k)
			}
			if _, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b))); err != nil {
				t.Errorf("%v: %s: %v", sig, k, err)
			}
		}
		for _, o := range other {
			isTemp := strings.Contains(o, ".tmp-")
			switch {
			case sig == syscall.SIGINT && isTemp:
				t.Errorf("SIGINT left a temporary file: %s", o)
			case !isTemp && !strings.HasPrefix(filepath.Base(o), ".schedlab") && o != "sweep.json":
				t.Errorf("%v: unexpected file %s", sig, o)
			}
		}
		if sig == syscall.SIGINT {
			if ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "replay: interrupted") {
				t.Errorf("SIGINT: exit %d, stderr %q", ee.ExitCode(), stderr.String())
			}
		}
		// Not complete: --merge says so and fails.
		if b, err := exec.Command(bin, "sweep", plan, "--out", out, "--merge").CombinedOutput(); err == nil || !strings.Contains(string(b), "cells are not complete") {
			t.Errorf("%v: merge of an interrupted sweep: %v\n%s", sig, err, b)
		}
		if b, err := exec.Command(bin, "sweep", plan, "--out", out, "--resume", "-j", "2").CombinedOutput(); err != nil {
			t.Fatalf("%v: resume: %v\n%s", sig, err, b)
		} else if !strings.Contains(string(b), "complete already") {
			t.Errorf("%v: resume log %q", sig, b)
		}
		got, other = walk(t, out)
		if len(got) != len(want) {
			t.Errorf("%v: after resume %d files, want %d", sig, len(got), len(want))
		}
		for k, b := range want {
			if !bytes.Equal(b, got[k]) {
				t.Errorf("%v: after resume %s differs from the uninterrupted run's", sig, k)
			}
		}
		for _, o := range other {
			if strings.Contains(o, ".tmp-") {
				t.Errorf("%v: after resume a temporary file is left: %s", sig, o)
			}
		}
		if b, err := exec.Command(bin, "sweep", plan, "--out", out, "--merge").CombinedOutput(); err != nil {
			t.Errorf("%v: merge after resume: %v\n%s", sig, err, b)
		}
	}
}

// A malformed plan: one line naming file, line and key; nothing written.
func TestSweepBadPlan(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, text, want string }{
		{"unknown key", killPlan + "colour = \"blue\"\n", `bad.toml:13: unknown key "replay.colour"`},
		{"bad load range", strings.Replace(killPlan, "loads = [0.5, 0.7, 0.9]", `loads = "0.9:0.5:0.1"`, 1), `bad.toml:6: workload[1].loads: load "0.9:0.5:0.1": HI below LO`},
		{"unknown policy", strings.Replace(killPlan, `"fcfs", "easy"`, `"fcfs", "eazy"`, 1), `bad.toml:12: replay.scheds: "eazy": unknown scheduler "eazy"`},
		{"empty pair list", strings.Replace(killPlan, `allocs = ["count", "contig"]`, `allocs = []`, 1), `bad.toml:11: replay.allocs: an empty list`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := filepath.Join(dir, "bad.toml")
			if err := os.WriteFile(plan, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			msg, stdout, _ := runApp("sweep", "--out", out, plan)
			if !strings.HasPrefix(msg, "replay: "+plan[:len(plan)-len("bad.toml")]+tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("message %q, want %q", msg, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s was created", out)
			}
		})
	}
}

// --list prints every cell and a total; with --shard, that shard's.
func TestSweepList(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "kill.toml")
	if err := os.WriteFile(plan, []byte(killPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	msg, stdout, _ := runApp("sweep", plan, "--list")
	if msg != "" {
		t.Fatal(msg)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 1+72+1 || !strings.Contains(lines[len(lines)-1], "plan 72 of 72 cells, 216000 jobs") {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
	if !strings.HasPrefix(lines[1], "1  ") || !strings.Contains(lines[1], "kill-load0.50-rep01") || !strings.Contains(lines[1], "count") {
		t.Errorf("first cell %q", lines[1])
	}
	n := 0
	for i := 1; i <= 5; i++ {
		_, stdout, _ := runApp("sweep", plan, "--list", "--shard", fmt.Sprintf("%d/5", i))
		l := strings.Split(strings.TrimSpace(stdout), "\n")
		n += len(l) - 2
	}
	if n != 72 {
		t.Errorf("the five shards list %d cells", n)
	}
}
