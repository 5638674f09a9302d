package sweep

import (
	"strings"
	"testing"
)

// A workload table takes priorities and laxity (synth workload's flags):
// its traces carry them, they count in the fingerprint, and bad values are
// errors naming the key.
func TestPlanWindows(t *testing.T) {
	text := strings.Replace(basePlan, "jobs = 200", "jobs = 200\npriorities = 3\nlaxity = \"1.5-4\"", 1)
	p, err := decode(t, text)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := p.units[0].gen()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range tr.Jobs {
		if j.Priority < 0 || j.Priority > 2 || j.Deadline < j.Submit+1.5*j.Run || j.Deadline > j.Submit+4*j.Run {
			t.Fatalf("job %+v", j)
		}
	}
	plain, err := decode(t, basePlan)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Fingerprint() == p.Fingerprint() {
		t.Error("priorities and laxity did not change the fingerprint")
	}
	tp, err := plain.units[0].gen()
	if err != nil {
		t.Fatal(err)
	}
	if j := tp.Jobs[0]; j.Priority != -1 || j.Deadline != -1 {
		t.Errorf("plain plan: job %+v", j)
	}
	for edit, want := range map[string]string{
		"laxity = \"0.5\"": `p.toml:8: workload[1].laxity: "0.5": want finite factors 1 ≤ A ≤ B`,
		"priorities = -1":  `p.toml:8: workload[1].priorities: -1: want a number of classes ≥ 1, or 0 for none`,
	} {
		_, err := decode(t, strings.Replace(basePlan, "jobs = 200", "jobs = 200\n"+edit, 1))
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", edit, err, want)
		}
	}
}
