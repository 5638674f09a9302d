package sweep

import (
	"strings"
	"testing"
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
		{`"tachyon"`, `p.toml:11: replay.comm: comm "tachyon": unknown mode "tachyon" (off, analytic, wormhole)`},
		{`"wormhole:plen=0"`, `p.toml:11: replay.comm: comm "wormhole:plen=0": plen must be ≥ 1 flit`},
		{`"wormhole:unit=packet"`, `p.toml:11: replay.comm:`},
		{`"off:ts=3"`, `p.toml:11: replay.comm: comm "off:ts=3": off takes no parameters`},
		{`"wormhole:flits=3"`, `p.toml:11: replay.comm: comm "wormhole:flits=3":`},
		{`["wormhole", "analytic"]`, `p.toml:11: replay.comm:`},
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
