package synthcli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/trace"
)

// --priorities and --laxity fill the priority and deadline columns, in
// synth workload and synth sweep alike; bad values are refused.
func TestWindowsFlags(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "w.parquet")
	args := []string{"--machine", "cube:5", "--size", "uniform", "--load", "0.6", "--jobs", "300", "--seed", "5"}
	if err := runSynth(append([]string{"workload", "--priorities", "4", "--laxity", "1-3", "-o", p}, args...)...); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadFile(p, trace.ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, j := range tr.Jobs {
		f := (j.Deadline - j.Submit) / j.Run
		if j.Priority < 0 || j.Priority > 3 || j.Run > 0 && (f < 1 || f > 3) {
			t.Fatalf("job %d: priority %d, deadline %g (submit %g run %g)", j.ID, j.Priority, j.Deadline, j.Submit, j.Run)
		}
		seen[j.Priority] = true
	}
	if len(seen) != 4 || tr.Provenance.Params["priorities"] != "4" || tr.Provenance.Params["laxity"] != "1-3" {
		t.Errorf("classes %v, params %v", seen, tr.Provenance.Params)
	}
	sw := filepath.Join(dir, "sw")
	if err := runSynth("sweep", "--load", "0.5,0.7", "--machine", "cube:4", "--jobs", "50", "--priorities", "2", "--laxity", "2", "-o", sw); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(sw, "*.parquet"))
	if len(files) != 2 {
		t.Fatalf("sweep wrote %v", files)
	}
	for _, f := range files {
		tr, err := trace.ReadFile(f, trace.ReadOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		if j := tr.Jobs[3]; j.Priority < 0 || j.Priority > 1 || j.Deadline != j.Submit+2*j.Run {
			t.Errorf("%s: job %+v", f, j)
		}
	}
	for _, bad := range [][]string{{"--priorities", "-2"}, {"--laxity", "0.5"}, {"--laxity", "a-b"}} {
		out := filepath.Join(dir, "bad.parquet")
		if err := runSynth(append(append([]string{"workload"}, bad...), append(args, "-o", out)...)...); err == nil {
			t.Errorf("%v accepted", bad)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v left %s", bad, out)
		}
	}
}
