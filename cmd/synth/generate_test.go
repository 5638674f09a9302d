package main

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
