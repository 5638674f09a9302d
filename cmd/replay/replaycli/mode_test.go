package replaycli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
)

// TestModeMalleable: replay run --mode malleable writes byte-identical
// results with -j 1 and -j 2; a trace without work is refused naming the
// file; an unknown mode is refused naming the flag.
func TestModeMalleable(t *testing.T) {
	dir := t.TempDir()
	tr, err := workload.GenerateMalleable(workload.MalleableSpec{Procs: 16, WorkMean: 100, WorkCV: 5, EffMin: 10, EffMax: 99,
		CapMean: 6, Load: 0.8, Jobs: 500, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "m.parquet")
	if err := trace.WriteFile(in, tr); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) error {
		app := App()
		app.Writer, app.ErrWriter = &bytes.Buffer{}, &bytes.Buffer{}
		return app.Run(append([]string{"replay", "run", "--quiet"}, args...))
	}
	for _, j := range []string{"1", "2"} {
		if err := run("--mode", "malleable", "--sched", "eq,wf,alpha:x=acc,a=-1", "-j", j, "--out", filepath.Join(dir, "out"+j), in); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"jobs.parquet", "summary.parquet", "series.parquet"} {
		a, err1 := os.ReadFile(filepath.Join(dir, "out1", f))
		b, err2 := os.ReadFile(filepath.Join(dir, "out2", f))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 2 (%v, %v)", f, err1, err2)
		}
	}
	swfIn := filepath.Join(dir, "tiny.swf")
	if err := os.WriteFile(swfIn, []byte(swf), 0o644); err != nil {
		t.Fatal(err)
	}
	err = run("--mode", "malleable", "--out", filepath.Join(dir, "bad"), swfIn)
	if err == nil || !strings.Contains(err.Error(), swfIn+": malleable mode: job 1 (record 0): no work (column work)") {
		t.Errorf("SWF in malleable mode: %v", err)
	}
	if err := run("--mode", "elastic", "--out", filepath.Join(dir, "bad"), in); err == nil || !strings.Contains(err.Error(), `--mode "elastic"`) {
		t.Errorf("bad mode: %v", err)
	}
}
