package replaycli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/analysis/results"
)

// TestFatTreeDragonflyMachines (issue 26): a log replays under the checker
// on a fat tree read from a Slurm topology.conf and on a dragonfly, with
// every allocator of each family; the results record the machine and the
// placements' hop distance.
func TestFatTreeDragonflyMachines(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "ring.swf")
	if err := os.WriteFile(in, []byte(ringSWF), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "topology.conf")
	if err := os.WriteFile(conf, []byte("SwitchName=s0 Nodes=n[01-08]\nSwitchName=s1 Nodes=n[09-16]\nSwitchName=top Switches=s[0-1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		machine string
		allocs  int
	}{{"fattree:file=" + conf, 3}, {"dragonfly:g=2,a=2,p=4,h=1", 5}} {
		out := filepath.Join(dir, "out"+c.machine[:4])
		app := App()
		app.Writer, app.ErrWriter = &bytes.Buffer{}, &bytes.Buffer{}
		if err := app.Run([]string{"replay", "run", "--quiet", "--machine", c.machine, "--alloc", "all", "--check", "--sched", "fcfs,easy,conservative", "--out", out, in}); err != nil {
			t.Fatalf("%s: %v", c.machine, err)
		}
		set, err := results.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Summary) != 3*c.allocs {
			t.Fatalf("%s: %d runs, want %d", c.machine, len(set.Summary), 3*c.allocs)
		}
		for _, r := range set.Summary {
			// Job 6 asks for 17 nodes, more than the 16 of either machine.
			if r.Machine != c.machine || r.Jobs != 5 || r.Rejected != 1 || math.IsNaN(r.Dispersion) || r.Dispersion < 0 {
				t.Errorf("%s/%s on %s: %d jobs, %d rejected, dispersion %g", r.Alloc, r.Sched, r.Machine, r.Jobs, r.Rejected, r.Dispersion)
			}
		}
	}
}
