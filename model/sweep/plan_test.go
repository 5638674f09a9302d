package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A plan with one model workload, for edits in the tests.
const basePlan = `name = "t"
[[workload]]
model = "workload"
machine = "flat:16"
loads = [0.5, 0.8]
reps = 2
jobs = 200
seed = 3
[replay]
allocs = ["count", "contig"]
scheds = ["fcfs", "easy"]
warmup = 10
`

func decode(t *testing.T, text string) (*Plan, error) {
	t.Helper()
	f, err := Decode("p.toml", []byte(text), nil)
	if err != nil {
		return nil, err
	}
	return f.Plan()
}

// Every malformed plan gives one error naming the file, the line and the
// key.
func TestPlanErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"unknown top key", basePlan + "bogus = 1\n", `p.toml:13: unknown key "replay.bogus"`},
		{"unknown workload key", strings.Replace(basePlan, "jobs = 200", "jobs = 200\nnoise = 2", 1), `p.toml:8: unknown key "workload.noise"`},
		{"unknown table", basePlan + "[extra]\nx = 1\n", `p.toml:13: unknown key "extra"`},
		{"load range", strings.Replace(basePlan, "loads = [0.5, 0.8]", `loads = "0.9:0.1:0.1"`, 1), `p.toml:5: workload[1].loads: load "0.9:0.1:0.1": HI below LO`},
		{"negative load", strings.Replace(basePlan, "loads = [0.5, 0.8]", `loads = [0.5, -1]`, 1), `p.toml:5: workload[1].loads: load "0.5,-1": "-1" is not a positive number`},
		{"load not a number", strings.Replace(basePlan, "loads = [0.5, 0.8]", `loads = [0.5, "x"]`, 1), `p.toml:5: workload[1].loads: element 2 is string, not a number`},
		{"repeated load", strings.Replace(basePlan, "loads = [0.5, 0.8]", `loads = [0.5, 0.5]`, 1), `p.toml:5: workload[1].loads: load 0.50 appears twice`},
		{"no loads", strings.Replace(basePlan, "loads = [0.5, 0.8]\n", ``, 1), `p.toml:2: workload[1].loads: a model workload needs loads`},
		{"unknown policy", strings.Replace(basePlan, `"fcfs", "easy"`, `"fcfs", "nosuch"`, 1), `p.toml:11: replay.scheds: "nosuch": unknown scheduler "nosuch"`},
		{"bad parameter", strings.Replace(basePlan, `"fcfs", "easy"`, `"mq:q=0"`, 1), `p.toml:11: replay.scheds: scheduler mq:q=0:`},
		{"bad allocator parameter", strings.Replace(basePlan, `"count", "contig"`, `"count:x=1"`, 1), `p.toml:10: replay.allocs: allocator count`},
		{"empty pair list", strings.Replace(basePlan, `scheds = ["fcfs", "easy"]`, `scheds = []`, 1), `p.toml:11: replay.scheds: an empty list`},
		{"no pair on the machine", basePlan + `machines = ["mesh:4x4"]` + "\n", `p.toml:10: replay.allocs: no allocator of the list supports machine mesh:4x4`},
		{"bad machine", basePlan + `machines = ["flat:0"]` + "\n", `p.toml:13: replay.machines[1]:`},
		{"type", strings.Replace(basePlan, "reps = 2", `reps = "two"`, 1), `p.toml:6: workload[1].reps: cannot decode TOML string into a value of type int`},
		{"key of another model", strings.Replace(basePlan, "jobs = 200", "jobs = 200\nwork_mean = 5", 1), `p.toml:8: workload[1].work_mean: does not apply to model "workload"`},
		{"bad model parameter", strings.Replace(basePlan, "jobs = 200", "jobs = 200\nmean = -1", 1), `p.toml:8: workload[1].mean: -1: service: mean -1 must be positive`},
		{"unknown model", strings.Replace(basePlan, `model = "workload"`, `model = "poisson"`, 1), `p.toml:3: workload[1].model: "poisson": want workload, malleable or lublin`},
		{"no name", strings.Replace(basePlan, `name = "t"`, ``, 1), `p.toml: name: a plan needs a name`},
		{"no workload", "name = \"t\"\n", `p.toml: no [[workload]] table`},
		{"negative warmup", strings.Replace(basePlan, "warmup = 10", "warmup = -1", 1), `p.toml:12: replay.warmup: -1: must be ≥ 0`},
		{"negative until", strings.Replace(basePlan, "warmup = 10", "warmup = 10\nuntil = -5", 1), `p.toml:13: replay.until: -5: must be a positive time (0: no window)`},
		{"bad estimates", basePlan + "estimates = \"psychic\"\n", `p.toml:13: replay.estimates:`},
		{"no trace file", "name = \"t\"\n[[workload]]\ntraces = [\"nothing-*.swf\"]\n", `p.toml:3: workload[1].traces: "nothing-*.swf" matches no file`},
		{"traces and model", "name = \"t\"\n[[workload]]\ntraces = [\"x.swf\"]\nmodel = \"workload\"\n", `p.toml:4: workload[1].model: a workload has either a model or traces`},
		{"duplicate key", basePlan + "warmup = 3\n", `p.toml:13: warmup: key warmup is already defined`},
		{"syntax", basePlan + "[replay\n", `p.toml:13:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode(t, tc.text)
			if err == nil {
				t.Fatalf("no error")
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant prefix\n%s", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error on several lines: %q", err)
			}
		})
	}
}

// The plan expands into trace × machine × pair, in plan order, with
// sweep names and the replication's load and rep.
func TestPlanCells(t *testing.T) {
	p, err := decode(t, basePlan)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(p.Cells), 2*2*2*2; got != want {
		t.Fatalf("%d cells, want %d", got, want)
	}
	want := []struct {
		trace, alloc, sched string
		rep                 int
		load                float64
	}{
		{"t-load0.50-rep01", "count", "fcfs", 1, 0.5},
		{"t-load0.50-rep01", "count", "easy", 1, 0.5},
		{"t-load0.50-rep01", "contig", "fcfs", 1, 0.5},
		{"t-load0.50-rep01", "contig", "easy", 1, 0.5},
		{"t-load0.50-rep02", "count", "fcfs", 2, 0.5},
	}
	for i, w := range want {
		c := p.Cells[i]
		if c.Index != i || c.Trace != w.trace || c.Alloc != w.alloc || c.Sched != w.sched || c.Rep != w.rep || c.Load != w.load || c.Machine != "flat:16" || c.Jobs != 200 {
			t.Errorf("cell %d = %+v, want %+v", i, c, w)
		}
	}
	if last := p.Cells[len(p.Cells)-1]; last.Trace != "t-load0.80-rep02" {
		t.Errorf("last cell %s", last.Trace)
	}
	if o := p.Options(); o.Warmup != 10 || !o.Placement || o.NoSeries || o.Estimates != "requested" || o.BsldTau != 10 {
		t.Errorf("options %+v", o)
	}
	// Policies a machine does not support are skipped on it, the rest run.
	p, err = decode(t, strings.Replace(basePlan, `scheds = ["fcfs", "easy"]`, `scheds = ["fcfs"]`, 1)+`machines = ["flat:16", "flat:8"]`+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cells) != 4*2*2 {
		t.Errorf("%d cells on two machines", len(p.Cells))
	}
}

// Comments and key order do not change the fingerprint; a parameter does.
func TestFingerprint(t *testing.T) {
	a, err := decode(t, basePlan)
	if err != nil {
		t.Fatal(err)
	}
	b, err := decode(t, "# a comment\n"+strings.Replace(basePlan, "reps = 2\njobs = 200", "jobs = 200\nreps = 2", 1))
	if err != nil {
		t.Fatal(err)
	}
	c, err := decode(t, strings.Replace(basePlan, "warmup = 10", "warmup = 11", 1))
	if err != nil {
		t.Fatal(err)
	}
	if a.Fingerprint() != b.Fingerprint() {
		t.Errorf("comments or key order changed the fingerprint")
	}
	if a.Fingerprint() == c.Fingerprint() {
		t.Errorf("the warm-up did not change the fingerprint")
	}
	for _, opt := range []string{"events = \"sequential\"", "warmup_finished = 0.01"} {
		d, err := decode(t, strings.Replace(basePlan, "warmup = 10", "warmup = 10\n"+opt, 1))
		if err != nil {
			t.Fatal(err)
		}
		if d.Fingerprint() == a.Fingerprint() {
			t.Errorf("%s did not change the fingerprint", opt)
		}
	}
	if d, _ := decode(t, strings.Replace(basePlan, "warmup = 10", "warmup = 10\nevents = \"instant\"", 1)); d == nil || d.Fingerprint() != a.Fingerprint() {
		t.Errorf("the default events changed the fingerprint")
	}
	// The model's parameters and seed make the traces: they count.
	for _, edit := range [][2]string{{"seed = 3", "seed = 4"}, {"jobs = 200", "jobs = 200\nmean = 11"}, {"reps = 2", "reps = 2\ncrn = true"}} {
		d, err := decode(t, strings.Replace(basePlan, edit[0], edit[1], 1))
		if err != nil {
			t.Fatal(err)
		}
		if d.Fingerprint() == a.Fingerprint() {
			t.Errorf("%q → %q did not change the fingerprint", edit[0], edit[1])
		}
	}
}

// ext's keys are accepted and decoded; a key unknown to both is refused;
// Where finds the lines of ext's keys.
func TestDecodeExt(t *testing.T) {
	type expect struct {
		Claim string  `toml:"claim"`
		Value float64 `toml:"value"`
	}
	var ext struct {
		Expect []expect `toml:"expect"`
	}
	text := basePlan + "\n[[expect]]\nclaim = \"a\"\nvalue = 1\n\n[[expect]]\nclaim = \"b\"\nvalue = 2\n"
	f, err := Decode("s.toml", []byte(text), &ext)
	if err != nil {
		t.Fatal(err)
	}
	if len(ext.Expect) != 2 || ext.Expect[1].Value != 2 {
		t.Errorf("ext = %+v", ext)
	}
	if got := f.Where("expect", "1", "value"); got != "s.toml:20: expect[2].value" {
		t.Errorf("Where = %q", got)
	}
	if got := f.Where("replay", "scheds"); got != "s.toml:11: replay.scheds" {
		t.Errorf("Where = %q", got)
	}
	if _, err := f.Plan(); err != nil {
		t.Errorf("plan: %v", err)
	}
	_, err = Decode("s.toml", []byte(text+"typo = 1\n"), &ext)
	if err == nil || !strings.Contains(err.Error(), `s.toml:21: unknown key "expect.typo"`) {
		t.Errorf("unknown key in an ext table: %v", err)
	}
	_, err = Decode("s.toml", []byte("stray = 1\n"+text), &ext)
	if err == nil || !strings.Contains(err.Error(), `s.toml:1: unknown key "stray"`) {
		t.Errorf("unknown top-level key: %v", err)
	}
}

// Shards partition the cells; the assignment is balanced and depends only
// on the plan and n.
func TestAssign(t *testing.T) {
	text := strings.Replace(basePlan, `scheds = ["fcfs", "easy"]`, `scheds = ["fcfs", "easy", "conservative"]`, 1)
	text = strings.Replace(text, "loads = [0.5, 0.8]", `loads = "0.1:0.9:0.1"`, 1)
	p, err := decode(t, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 7, len(p.Cells) + 5} {
		a := p.Assign(n)
		b := p.Assign(n)
		cost := make([]float64, n+1)
		seen := 0
		for i := 1; i <= n; i++ {
			cells := p.CellsOf(Shard{i, n})
			if n == 1 {
				cells = p.CellsOf(Shard{})
			}
			seen += len(cells)
			for _, c := range cells {
				if a[c.Index] != i {
					t.Fatalf("n=%d: cell %d in shard %d, assigned %d", n, c.Index, i, a[c.Index])
				}
				cost[i] += c.Cost
			}
		}
		if seen != len(p.Cells) {
			t.Errorf("n=%d: shards hold %d cells of %d", n, seen, len(p.Cells))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("n=%d: assignment not stable", n)
			}
		}
		// LPT: no shard exceeds the mean by more than the largest cell.
		var total, biggest float64
		for _, c := range p.Cells {
			total += c.Cost
			biggest = max(biggest, c.Cost)
		}
		for i := 1; i <= n; i++ {
			if cost[i] > total/float64(n)+biggest {
				t.Errorf("n=%d: shard %d costs %g, mean %g, largest cell %g", n, i, cost[i], total/float64(n), biggest)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, s := range []string{"0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "-1/2"} {
		if _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q): no error", s)
		}
	}
	if s, err := ParseShard("2/5"); err != nil || s != (Shard{2, 5}) {
		t.Errorf("ParseShard(2/5) = %v, %v", s, err)
	}
}

// A workload of trace files reads them relative to the plan's folder.
func TestTraceFiles(t *testing.T) {
	dir := t.TempDir()
	swf := "; MaxProcs: 8\n1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n2 5 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	if err := os.WriteFile(filepath.Join(dir, "tiny.swf"), []byte(swf), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(dir, "p.toml")
	text := "name = \"files\"\n[[workload]]\ntraces = [\"*.swf\"]\n[replay]\nscheds = [\"fcfs\"]\nallocs = [\"count\"]\n"
	if err := os.WriteFile(plan, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cells) != 1 || p.Cells[0].Trace != "tiny" || p.Cells[0].Machine != "flat:8" || p.Cells[0].Jobs != 2 {
		t.Fatalf("cells %+v", p.Cells)
	}
	if _, err := Run(p, Options{Out: filepath.Join(dir, "out"), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if m := p.Missing(filepath.Join(dir, "out")); len(m) != 0 {
		t.Errorf("missing %v", m)
	}
}
