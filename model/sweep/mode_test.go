package sweep

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/workload"
)

const malleablePlan = `name = "m"
[[workload]]
model = "malleable"
procs = 8
perfect = true
work_cv = 5
loads = [0.7]
jobs = 300
[replay]
mode = "malleable"
scheds = ["eq", "lrwf", "wf:cap=false"]
`

// TestMalleablePlan: mode = "malleable" offers the malleable policies on
// the share allocator, and only those; every error names the line.
func TestMalleablePlan(t *testing.T) {
	p, err := decode(t, malleablePlan)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Cells {
		got = append(got, c.Alloc+"/"+c.Sched)
	}
	if g := strings.Join(got, " "); g != "share/eq share/lrwf share/wf:cap=false" {
		t.Errorf("cells %s", g)
	}
	if p.Options().Mode != "malleable" || p.metaOptions(p.Options()).Mode != "malleable" {
		t.Errorf("mode not passed on: %+v", p.Options())
	}
	all, err := decode(t, strings.Replace(malleablePlan, `scheds = ["eq", "lrwf", "wf:cap=false"]`, "", 1))
	if err != nil || len(all.Cells) != 7 {
		t.Errorf("every malleable policy: %v cells, %v", len(all.Cells), err)
	}
	rigid, err := decode(t, strings.Replace(basePlan, "warmup = 10", "warmup = 10\nmode = \"rigid\"", 1))
	if err != nil || rigid.Options().Mode != "" || rigid.Cells[0].Alloc != "count" {
		t.Errorf("explicit rigid mode: %v", err)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"bad mode", strings.Replace(malleablePlan, `mode = "malleable"`, `mode = "elastic"`, 1), `p.toml:10: replay.mode: "elastic": want rigid or malleable`},
		{"rigid policy", strings.Replace(malleablePlan, `"eq", "lrwf"`, `"eq", "fcfs"`, 1), `p.toml:11: replay.scheds: "fcfs": scheduler fcfs does not run in malleable mode`},
		{"malleable policy in rigid mode", strings.Replace(malleablePlan, `mode = "malleable"`, ``, 1), `p.toml:11: replay.scheds: "eq": scheduler eq does not run in rigid mode (kinds: malleable)`},
		{"rigid allocator", strings.Replace(malleablePlan, `mode = "malleable"`, "mode = \"malleable\"\nallocs = [\"count\"]", 1), `p.toml:11: replay.allocs: "count": allocator count does not run in malleable mode (kinds: flat)`},
		{"rigid model", strings.Replace(basePlan, "allocs = [\"count\", \"contig\"]\nscheds = [\"fcfs\", \"easy\"]", "mode = \"malleable\"", 1), `p.toml:3: workload[1].model: "workload": its jobs have no work and efficiency`},
	} {
		_, err := decode(t, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestMalleableSweepRuns: a malleable plan runs into the dataset.
func TestMalleableSweepRuns(t *testing.T) {
	p, err := decode(t, malleablePlan)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Run(p, Options{Out: t.TempDir(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st.Ran != 3 {
		t.Errorf("%d cells ran, want 3", st.Ran)
	}
}

// TestMalleableIAT: iat gives each load's mean inter-arrival time; the
// load names the trace and is recorded as its nominal load; the arrivals
// follow the IAT, not the load. A number is every load's; errors name the
// line.
func TestMalleableIAT(t *testing.T) {
	text := strings.Replace(malleablePlan, "loads = [0.7]\njobs = 300", "loads = [0.3, 0.9]\niat = [40.0, 2.5]\njobs = 2000\nperfect = false\neff = \"50-99\"", 1)
	text = strings.Replace(text, "perfect = true\n", "", 1)
	p, err := decode(t, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		unit int
		load float64
		iat  float64
	}{{0, 0.3, 40}, {1, 0.9, 2.5}} {
		u := p.units[tc.unit]
		tr, err := u.gen()
		if err != nil {
			t.Fatal(err)
		}
		if tr.Provenance.Load != tc.load || u.load != tc.load || tr.Provenance.Params["load"] != strconv.FormatFloat(tc.load, 'g', -1, 64) {
			t.Errorf("%s: load %v (unit %v, param %q), want %v", tr.Name, tr.Provenance.Load, u.load, tr.Provenance.Params["load"], tc.load)
		}
		if !strings.Contains(tr.Name, workload.FormatLoad(tc.load)) {
			t.Errorf("trace name %s does not name load %v", tr.Name, tc.load)
		}
		mean := tr.Jobs[len(tr.Jobs)-1].Submit / float64(len(tr.Jobs))
		if math.Abs(mean/tc.iat-1) > 0.1 {
			t.Errorf("%s: mean inter-arrival %.3g, want about %g", tr.Name, mean, tc.iat)
		}
	}
	one, err := decode(t, strings.Replace(text, "iat = [40.0, 2.5]", "iat = 5", 1))
	if err != nil {
		t.Fatal(err)
	}
	if tr, err := one.units[1].gen(); err != nil || tr.Provenance.Params["iat"] != "5" {
		t.Errorf("one iat for every load: %v, %v", err, tr.Provenance.Params)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"count", strings.Replace(text, "iat = [40.0, 2.5]", "iat = [40.0]", 1), `p.toml:7: workload[1].iat: 1 values for 2 loads`},
		{"negative", strings.Replace(text, "iat = [40.0, 2.5]", "iat = [40.0, -1]", 1), `p.toml:7: workload[1].iat: -1: a mean inter-arrival time must be positive`},
		{"string", strings.Replace(text, "iat = [40.0, 2.5]", `iat = "x"`, 1), `p.toml:7: workload[1].iat: string: want a number`},
		{"rigid model", strings.Replace(basePlan, "loads", "iat = 3\nloads", 1), `does not apply to model "workload"`},
	} {
		_, err := decode(t, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestWorkloadScheds: a workload's scheds replace [replay]'s for its
// traces only; a bad or empty list names the workload's line.
func TestWorkloadScheds(t *testing.T) {
	text := malleablePlan + `[[workload]]
name = "w2"
model = "malleable"
procs = 8
perfect = true
loads = [0.5]
jobs = 100
scheds = ["alpha:a=-1", "eq"]
`
	p, err := decode(t, text)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Cells {
		got = append(got, c.Workload+":"+c.Sched)
	}
	if g := strings.Join(got, " "); g != "m1:eq m1:lrwf m1:wf:cap=false w2:alpha:a=-1 w2:eq" {
		t.Errorf("cells %s", g)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"unknown", strings.Replace(text, `"alpha:a=-1", "eq"`, `"fcfs"`, 1), `p.toml:19: workload[2].scheds: "fcfs": scheduler fcfs does not run in malleable mode`},
		{"empty", strings.Replace(text, `"alpha:a=-1", "eq"`, ``, 1), `p.toml:19: workload[2].scheds: an empty list`},
	} {
		_, err := decode(t, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// A malleable machine is written in a plan as its alias, flat:P with
// mode = "malleable": the cells are keyed by the machine the results
// record.
func TestMalleableMachineInPlan(t *testing.T) {
	text := strings.Replace(malleablePlan, `mode = "malleable"`, `machines = ["malleable:8"]`, 1)
	_, err := decode(t, text)
	if err == nil || !strings.Contains(err.Error(), `p.toml:10: replay.machines[1]: machine malleable:8: in a plan, write flat:8 with mode = "malleable"`) {
		t.Errorf("got %v", err)
	}
}
