package replaycli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"

	_ "github.com/schedlab/schedlab/cmd/replay/internal/ring" // the test family ring:N, registered
)

// ringSWF is a small trace for a 16-node ring: jobs of 1 to 16 nodes.
const ringSWF = `; MaxProcs: 16
1 0 -1 10 16 -1 -1 16 20 -1 1 1 -1 -1 -1 -1 -1 -1
2 1 -1 5 6 -1 -1 6 -1 -1 1 1 -1 -1 -1 -1 -1 -1
3 2 -1 8 7 -1 -1 7 -1 -1 1 2 -1 -1 -1 -1 -1 -1
4 3 -1 2 1 -1 -1 1 -1 -1 1 2 -1 -1 -1 -1 -1 -1
5 4 -1 9 9 -1 -1 9 -1 -1 1 3 -1 -1 -1 -1 -1 -1
6 5 -1 3 17 -1 -1 17 -1 -1 1 3 -1 -1 -1 -1 -1 -1
`

// TestTestFamily: a machine family is one package. The ring family
// (cmd/replay/internal/ring), registered by importing it, replays under the
// checker with its own allocator and the schedulers that fit any machine,
// and its results record its machine and its placements' dispersion.
func TestTestFamily(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "ring.swf")
	if err := os.WriteFile(in, []byte(ringSWF), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	app := App()
	app.Writer, app.ErrWriter = &bytes.Buffer{}, &bytes.Buffer{}
	if err := app.Run([]string{"replay", "run", "--quiet", "--machine", "ring:16", "--check", "--sched", "fcfs,easy", "--out", out, in}); err != nil {
		t.Fatal(err)
	}
	set, err := results.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Summary) != 2 {
		t.Fatalf("%d runs, want arc × (fcfs, easy)", len(set.Summary))
	}
	for _, r := range set.Summary {
		// Job 6 asks for 17 nodes, more than the ring has: rejected; the
		// others run.
		if r.Machine != "ring:16" || r.Alloc != "arc" || r.Jobs != 5 || r.Rejected != 1 {
			t.Errorf("%s/%s on %s: %d jobs, %d rejected", r.Alloc, r.Sched, r.Machine, r.Jobs, r.Rejected)
		}
		if !(r.Dispersion >= 1) || math.IsNaN(r.Pieces) || r.Pieces < 1 {
			t.Errorf("%s: dispersion %g, pieces %g: the ring's placements were not counted", r.Sched, r.Dispersion, r.Pieces)
		}
	}
	placed := 0
	for _, j := range set.Jobs {
		for _, p := range j.Placement {
			if p.X < 0 || int(p.X)+int(p.W) > 16 || p.H != 1 {
				t.Errorf("job %d: piece %+v off the ring", j.JobID, p)
			}
		}
		if len(j.Placement) > 0 {
			placed++
		}
	}
	if placed != 10 {
		t.Errorf("%d placements recorded, want 10", placed)
	}
	var list bytes.Buffer
	app = App()
	app.Writer = &list
	if err := app.Run([]string{"replay", "list"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list.String(), "machine    ring:N") || !strings.Contains(list.String(), "allocator  arc            [ring]") {
		t.Errorf("replay list lacks the registered ring family:\n%s", list.String())
	}
}

// TestMalleableMachine: --machine malleable:P and its alias --machine
// flat:P --mode malleable write the same bytes (the results record
// flat:P in mode malleable either way).
func TestMalleableMachine(t *testing.T) {
	dir := t.TempDir()
	tr, err := workload.GenerateMalleable(workload.MalleableSpec{Procs: 16, WorkMean: 100, WorkCV: 5, EffMin: 10, EffMax: 99,
		CapMean: 6, Load: 0.8, Jobs: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "m.parquet")
	if err := trace.WriteFile(in, tr); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{
		{"--machine", "malleable:16"},
		{"--machine", "flat:16", "--mode", "malleable"},
	} {
		app := App()
		app.Writer, app.ErrWriter = &bytes.Buffer{}, &bytes.Buffer{}
		args = append([]string{"replay", "run", "--quiet", "--check", "--sched", "eq,lrwf", "--out", filepath.Join(dir, "out"+string(rune('a'+i)))}, args...)
		if err := app.Run(append(args, in)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"jobs.parquet", "summary.parquet", "series.parquet"} {
		a, err1 := os.ReadFile(filepath.Join(dir, "outa", f))
		b, err2 := os.ReadFile(filepath.Join(dir, "outb", f))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between malleable:16 and flat:16 --mode malleable (%v, %v)", f, err1, err2)
		}
	}
	set, err := results.Load(filepath.Join(dir, "outa"))
	if err != nil {
		t.Fatal(err)
	}
	if set.Summary[0].Machine != "flat:16" || set.Mode() != "malleable" {
		t.Errorf("recorded machine %s in mode %q, want flat:16 in mode malleable", set.Summary[0].Machine, set.Mode())
	}
	if m, err := set.MachineOf(set.Summary[0].Machine); err != nil || m.String() != "malleable:16" {
		t.Errorf("read back as %v, %v", m, err)
	}
}
