package synthcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/trace"
	"github.com/urfave/cli/v2"
)

func runSynth(args ...string) error {
	app := &cli.App{Name: "synth", Commands: generatorCommands, Writer: &bytes.Buffer{}, ErrWriter: &bytes.Buffer{}}
	old := os.Stdout
	null, _ := os.Open(os.DevNull)
	os.Stdout = null
	defer func() { os.Stdout = old; null.Close() }()
	return app.Run(append([]string{"synth"}, args...))
}

// The same flags and seed give identical bytes; the trace reads back with
// its provenance; SWF output works too.
func TestWorkloadCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"workload", "--machine", "mesh:32x32", "--size", "increasing", "--service", "h2", "--load", "0.5", "--jobs", "2000", "--estimates", "eet:c=0.5", "--seed", "3"}
	a, b := filepath.Join(dir, "a", "t.parquet"), filepath.Join(dir, "b", "t.parquet")
	os.Mkdir(filepath.Dir(a), 0o755)
	os.Mkdir(filepath.Dir(b), 0o755)
	for _, p := range []string{a, b} {
		if err := runSynth(append(args, "-o", p)...); err != nil {
			t.Fatal(err)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if len(ba) == 0 || !bytes.Equal(ba, bb) {
		t.Fatal("same seed, different bytes")
	}
	tr, err := trace.ReadFile(a, trace.ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	p := tr.Provenance
	if tr.Name != "t" || tr.Machine != "mesh:32x32" || p.Generator != "workload" || p.Seed != 3 || p.Load != 0.5 ||
		p.Params["size"] != "increasing" || p.Params["estimates"] != "eet:c=0.5" || p.Params["h2_alpha"] != "0.95" || len(tr.Jobs) != 2000 {
		t.Errorf("read back %s %s %+v, %d jobs", tr.Name, tr.Machine, p, len(tr.Jobs))
	}
	swf := filepath.Join(dir, "t.swf")
	if err := runSynth(append(args, "-o", swf)...); err != nil {
		t.Fatal(err)
	}
	ts, err := trace.ReadFile(swf, trace.ReadOptions{Strict: true})
	if err != nil || len(ts.Jobs) != 2000 || ts.Jobs[10].ReqProcs != tr.Jobs[10].ReqProcs {
		t.Errorf("swf: %v", err)
	}
}

// Bad parameters fail with a clear message and leave no output file.
func TestCommandErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.parquet")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"workload", "--machine", "mesh:16x16", "--size-max", "17", "--load", "0.5"}, "larger than the machine"},
		{[]string{"workload", "--mean", "-1", "--load", "0.5"}, "mean -1"},
		{[]string{"workload", "--load", "0.5", "--iat", "3"}, "not both"},
		{[]string{"workload", "--estimates", "eet:c=x", "--load", "0.5"}, "not a number"},
		{[]string{"malleable", "--eff", "0-99", "--load", "0.5"}, "ε_min"},
		{[]string{"malleable", "--eff", "a-b", "--load", "0.5"}, "MIN-MAX"},
		{[]string{"lublin", "--procs", "100"}, "power of two"},
	} {
		err := runSynth(append(c.args, "-o", out)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Fatalf("%v: left an output file", c.args)
		}
	}
}

// A sweep writes one file per load and replication with predictable names
// and the load and rep in the metadata.
func TestSweepCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	if err := runSynth("sweep", "--model", "malleable", "--load", "0.5:0.7:0.2", "--reps", "2", "--jobs", "300", "--work-cv", "1", "--eff", "50-99", "-o", dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"malleable-load0.50-rep01", "malleable-load0.50-rep02", "malleable-load0.70-rep01", "malleable-load0.70-rep02"} {
		tr, err := trace.ReadFile(filepath.Join(dir, name+".parquet"), trace.ReadOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Name != name || tr.Provenance.Rep != int(name[len(name)-1]-'0') || len(tr.Jobs) != 300 || tr.Jobs[0].Efficiency < 50 {
			t.Errorf("%s: %s rep %d, %d jobs", name, tr.Name, tr.Provenance.Rep, len(tr.Jobs))
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d files in the sweep directory, want 4", len(entries))
	}
}

// captureStderr runs f with os.Stderr redirected and returns what it wrote.
func captureStderr(t *testing.T, f func() error) (string, error) {
	t.Helper()
	tmp, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = tmp
	ferr := f()
	os.Stderr = old
	tmp.Close()
	b, _ := os.ReadFile(tmp.Name())
	return string(b), ferr
}

// SWF has no columns for the mesh shape, the malleable fields, or the
// load, rep and machine of a trace: read back, they are gone (the header
// keeps them only as Note text). Writing a synthetic trace as SWF says so.
func TestSWFLossWarnings(t *testing.T) {
	dir := t.TempDir()
	swf := filepath.Join(dir, "m.swf")
	msg, err := captureStderr(t, func() error {
		return runSynth("workload", "--machine", "mesh:16x16", "--load", "0.5", "--jobs", "50", "-o", swf)
	})
	if err != nil {
		t.Fatal(err)
	}
	back, err := trace.ReadFile(swf, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if back.Jobs[0].ReqWidth != -1 || back.Provenance.Load != -1 {
		t.Fatalf("SWF kept width %d, load %v: update this test and the warning", back.Jobs[0].ReqWidth, back.Provenance.Load)
	}
	if !strings.Contains(msg, "warning") || !strings.Contains(msg, "req_width") || !strings.Contains(msg, "load") {
		t.Errorf("mesh trace to SWF: stderr %q, want a warning naming req_width and load", msg)
	}
	msg, err = captureStderr(t, func() error {
		return runSynth("malleable", "--load", "0.5", "--jobs", "50", "--perfect", "-o", filepath.Join(dir, "g.swf"))
	})
	if err != nil || !strings.Contains(msg, "work") || !strings.Contains(msg, "efficiency") {
		t.Errorf("malleable trace to SWF: %v, stderr %q", err, msg)
	}
	msg, err = captureStderr(t, func() error {
		return runSynth("sweep", "--load", "0.5", "--reps", "2", "--jobs", "50", "--format", "swf", "-o", filepath.Join(dir, "sw"))
	})
	if err != nil || strings.Count(msg, "rep") == 0 || strings.Count(msg, "warning") != 1 {
		t.Errorf("sweep to SWF: %v, stderr %q (want one warning about load and rep)", err, msg)
	}
	// Parquet keeps everything: no warning.
	msg, err = captureStderr(t, func() error {
		return runSynth("workload", "--machine", "mesh:16x16", "--load", "0.5", "--jobs", "50", "-o", filepath.Join(dir, "m.parquet"))
	})
	if err != nil || msg != "" {
		t.Errorf("parquet: %v, stderr %q", err, msg)
	}
}

// The go:generate line of traces/gen.go, run through this CLI, writes the
// embedded flat traces byte for byte (traces.TestRegenerate checks the
// in-process spec; this checks the command `go generate ./traces` runs).
func TestGoGenerateTraces(t *testing.T) {
	src, err := os.ReadFile("../../../traces/gen.go")
	if err != nil {
		t.Skip("traces/gen.go not found")
	}
	var args []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//go:generate go run ../cmd/synth "); ok {
			args = strings.Fields(rest)
		}
	}
	if len(args) < 2 || args[len(args)-2] != "-o" {
		t.Fatalf("no go:generate synth line ending in -o DIR in traces/gen.go: %q", args)
	}
	want := filepath.Join("../../../traces", args[len(args)-1])
	out := filepath.Join(t.TempDir(), "out")
	args[len(args)-1] = out
	if _, err := captureStderr(t, func() error { return runSynth(args...) }); err != nil {
		t.Fatal(err)
	}
	got, _ := filepath.Glob(filepath.Join(out, "*"))
	ref, _ := filepath.Glob(filepath.Join(want, "*.parquet"))
	if len(got) == 0 || len(got) != len(ref) {
		t.Fatalf("go:generate wrote %d files, %s holds %d", len(got), want, len(ref))
	}
	for _, r := range ref {
		a, _ := os.ReadFile(r)
		b, err := os.ReadFile(filepath.Join(out, filepath.Base(r)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: go:generate output differs from the embedded file (%v)", filepath.Base(r), err)
		}
	}
}
