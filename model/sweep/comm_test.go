package sweep

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/schema"
)

// A mesh plan for the comm key's tests: line 11 is comm.
const meshPlan = `name = "m"
[[workload]]
model = "workload"
machine = "mesh:8x8"
loads = [0.3]
reps = 1
jobs = 50
seed = 3
[replay]
allocs = ["gabl", "ff"]
comm = "wormhole:ts=3,plen=16,msgs=5,unit=msg"
scheds = ["fcfs"]
`

// comm under [replay] reaches the replay's options and the fingerprint;
// a bad value is one error naming the file, the line and the key.
func TestPlanComm(t *testing.T) {
	p, err := decode(t, meshPlan)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Options().Comm; got != "wormhole:ts=3,plen=16,msgs=5,unit=msg" {
		t.Errorf("Options().Comm = %q", got)
	}
	if len(p.Cells) != 2 || p.Cells[0].Alloc != "gabl" || p.Cells[1].Alloc != "ff" {
		t.Errorf("cells %+v", p.Cells)
	}
	off, err := decode(t, strings.Replace(meshPlan, `comm = "wormhole:ts=3,plen=16,msgs=5,unit=msg"`+"\n", "", 1))
	if err != nil {
		t.Fatal(err)
	}
	if off.Options().Comm != "" {
		t.Errorf("no comm key: Options().Comm = %q, want \"\" (off)", off.Options().Comm)
	}
	other, err := decode(t, strings.Replace(meshPlan, "plen=16", "plen=32", 1))
	if err != nil {
		t.Fatal(err)
	}
	fp := map[string]string{p.Fingerprint(): "plen=16", off.Fingerprint(): "off", other.Fingerprint(): "plen=32"}
	if len(fp) != 3 {
		t.Errorf("comm does not change the fingerprint: %v", fp)
	}
	for _, tc := range []struct{ value, want string }{
		{`"analytic"`, ""},
		{`"off"`, ""},
		{`"tachyon"`, `p.toml:11: replay.comm: "tachyon": unknown mode "tachyon" (off, analytic, wormhole)`},
		{`"wormhole:plen=0"`, `p.toml:11: replay.comm: "wormhole:plen=0": plen must be 1..1000000 flits`},
		{`"wormhole:unit=packet"`, `p.toml:11: replay.comm:`},
		{`"off:ts=3"`, `p.toml:11: replay.comm: "off:ts=3": off takes no parameters`},
		{`"wormhole:flits=3"`, `p.toml:11: replay.comm: "wormhole:flits=3":`},
		{`["wormhole", "analytic"]`, ""},
		{`[]`, `p.toml:11: replay.comm: an empty list`},
		{`["wormhole", 3]`, `p.toml:11: replay.comm: element 2 is int64, not a string`},
		{`["wormhole", "wormhole:plen=0"]`, `p.toml:11: replay.comm: element 2: "wormhole:plen=0": plen must be 1..1000000 flits`},
		{`["wormhole:plen=8", "wormhole:ts=3,plen=8"]`, `p.toml:11: replay.comm: elements 1 and 2 are the same setting (wormhole:ts=3,plen=8,msgs=5)`},
		{`3`, `p.toml:11: replay.comm: int64: want a string`},
	} {
		_, err := decode(t, strings.Replace(meshPlan, `"wormhole:ts=3,plen=16,msgs=5,unit=msg"`, tc.value, 1))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("comm = %s: %v", tc.value, err)
		case tc.want != "" && err == nil:
			t.Errorf("comm = %s accepted", tc.value)
		case tc.want != "" && !strings.HasPrefix(err.Error(), tc.want):
			t.Errorf("comm = %s: error\n%v\nwant prefix\n%s", tc.value, err, tc.want)
		}
	}
}

// comm as an array is a dimension of the cells: one cell per setting
// (between machine and pair in plan order), each under its comm=
// partition, recorded in the summary's comm column; a workload's comm
// replaces [replay]'s for its traces; a plan with one setting keeps the
// four-level layout and its fingerprint.
func TestPlanCommSweep(t *testing.T) {
	text := strings.Replace(meshPlan, `comm = "wormhole:ts=3,plen=16,msgs=5,unit=msg"`,
		`comm = ["wormhole:plen=16,msgs=5,unit=msg", "analytic:plen=32,msgs=5,unit=msg"]`, 1)
	p, err := decode(t, text)
	if err != nil {
		t.Fatal(err)
	}
	c16, c32 := "wormhole:ts=3,plen=16,msgs=5,unit=msg", "analytic:ts=3,plen=32,msgs=5,unit=msg"
	if !p.CommSwept() || !reflect.DeepEqual(p.Comms(), []string{c16, c32}) || p.Options().Comm != "" {
		t.Fatalf("Comms %v, swept %v, Options().Comm %q", p.Comms(), p.CommSwept(), p.Options().Comm)
	}
	var got []string
	for _, c := range p.Cells {
		got = append(got, c.Comm+" "+c.Alloc)
	}
	want := []string{c16 + " gabl", c16 + " ff", c32 + " gabl", c32 + " ff"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cells\n got %q\nwant %q", got, want)
	}
	if k := p.Cells[2].Key("m"); k.Comm != c32 || !strings.Contains(k.Path(schema.SummaryTable), "/comm=analytic%3A") {
		t.Errorf("key %+v: %s", k, k.Path(schema.SummaryTable))
	}
	single, err := decode(t, meshPlan)
	if err != nil {
		t.Fatal(err)
	}
	if single.CommSwept() || single.Cells[0].Comm != c16 || single.Cells[0].Key("m").Comm != "" {
		t.Errorf("one setting: swept %v, cell comm %q, key %+v", single.CommSwept(), single.Cells[0].Comm, single.Cells[0].Key("m"))
	}
	// A workload's own comm (an array of one) replaces [replay]'s.
	own, err := decode(t, strings.Replace(meshPlan, "seed = 3\n", "seed = 3\ncomm = [\"analytic:plen=32,msgs=5,unit=msg\"]\n", 1))
	if err != nil {
		t.Fatal(err)
	}
	if own.CommSwept() || own.Cells[0].Comm != c32 || own.Options().Comm != c32 {
		t.Errorf("workload comm: swept %v, cell %q, options %q", own.CommSwept(), own.Cells[0].Comm, own.Options().Comm)
	}
	one, err := decode(t, strings.Replace(meshPlan, `"wormhole:ts=3,plen=16,msgs=5,unit=msg"`, `["analytic:plen=32,msgs=5,unit=msg"]`, 1))
	if err != nil || one.CommSwept() || one.Options().Comm != c32 {
		t.Errorf("an array of one: %v, options %q", err, one.Options().Comm)
	}
	if _, err := decode(t, strings.Replace(meshPlan, "seed = 3\n", "seed = 3\ncomm = \"tachyon\"\n", 1)); err == nil || !strings.HasPrefix(err.Error(), "p.toml:9: workload[1].comm: \"tachyon\"") {
		t.Errorf("bad workload comm: %v", err)
	}
	flat := strings.Replace(meshPlan, `machine = "mesh:8x8"`, `machine = "flat:64"`, 1)
	flat = strings.Replace(flat, `allocs = ["gabl", "ff"]`, `allocs = ["count"]`, 1)
	if _, err := decode(t, flat); err == nil || !strings.Contains(err.Error(), "p.toml:11: replay.comm: wormhole:ts=3,plen=16,msgs=5,unit=msg: a communication model needs a mesh machine, not flat:64") {
		t.Errorf("comm on a flat machine: %v", err)
	}

	// The dataset: one partition per setting, read back as four runs
	// whose comm column names the setting.
	dir := t.TempDir()
	if _, err := Run(p, Options{Out: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, c := range p.Cells {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(c.Key(p.Name).Path(schema.SummaryTable)))); err != nil {
			t.Error(err)
		}
	}
	set, err := results.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Summary) != 4 {
		t.Fatalf("%d summary rows, want 4", len(set.Summary))
	}
	seen := map[string]bool{}
	for _, r := range set.Summary {
		seen[r.Comm+" "+r.Alloc] = true
		if r.Comm == c32 && !(r.PktBlocking == 0) {
			t.Errorf("analytic run with blocking %g", r.PktBlocking)
		}
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no summary row %s", w)
		}
	}
	if len(set.Jobs) != 4*50 || set.Jobs[0].Comm == "" {
		t.Errorf("%d job rows (want 200), comm %q", len(set.Jobs), set.Jobs[0].Comm)
	}
}
