package sweep

import (
	"strings"
	"testing"
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
		{"bad mode", strings.Replace(malleablePlan, `mode = "malleable"`, `mode = "elastic"`, 1), `p.toml:10: replay.mode: mode "elastic": want rigid or malleable`},
		{"rigid policy", strings.Replace(malleablePlan, `"eq", "lrwf"`, `"eq", "fcfs"`, 1), `p.toml:11: replay.scheds: "fcfs": unknown malleable-mode scheduler "fcfs"`},
		{"malleable policy in rigid mode", strings.Replace(malleablePlan, `mode = "malleable"`, ``, 1), `p.toml:11: replay.scheds: "eq": unknown scheduler "eq"`},
		{"rigid allocator", strings.Replace(malleablePlan, `mode = "malleable"`, "mode = \"malleable\"\nallocs = [\"count\"]", 1), `p.toml:11: replay.allocs: "count": unknown malleable-mode allocator "count" (known: share)`},
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
