package sweep

import (
	"os"
	"strings"
	"testing"
)

// FuzzPlan: decoding and planning a plan document never panics and
// refuses with one line. Seeded with the bundled plans and broken ones.
func FuzzPlan(f *testing.F) {
	for _, p := range []string{"../../traces/plans/quick.toml", "../../traces/plans/gabl06-plen.toml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"name = \"x\"\n[[workload]]\nmodel = \"workload\"\nloads = [0.5]\njobs = -1\n",
		"name = \"x\"\n[[workload]]\nmodel = \"workload\"\nloads = \"0.1:0.9:0.1\"\nreps = 100000000\n",
		"name = \"../x\"\n", "name = 1\n", "[[workload]]\n", "name = \"x\"\nmachines = [\"mesh:4294967296x4294967296\"]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		file, err := Decode("fuzz.toml", []byte(doc), nil)
		if err == nil {
			_, err = file.Plan()
		}
		if err != nil && strings.Contains(strings.TrimRight(err.Error(), "\n"), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
	})
}

// F5 (issue 25): replications and traces beyond the bounds are refused at
// once, naming the line, instead of planned out of memory.
func TestPlanCountBounds(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"name = \"x\"\n[[workload]]\nmodel = \"workload\"\nloads = [0.5]\nreps = 100000000\n", "p.toml:5: workload[1].reps: 100000000: want 1..10000 replications"},
		{"name = \"x\"\n[[workload]]\nmodel = \"workload\"\nloads = \"0.0001:1:0.0001\"\nreps = 11\n", "p.toml:4: workload[1].loads: 10000 loads × 11 replications: more than 100000 traces"},
	} {
		file, err := Decode("p.toml", []byte(c.doc), nil)
		if err == nil {
			_, err = file.Plan()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

// F8 (issue 25): a plan's jobs and horizon are checked when it is
// planned, with its line, before anything is written.
func TestPlanJobsChecked(t *testing.T) {
	for _, c := range []struct{ key, want string }{
		{"jobs = -1", "p.toml:5: workload[1].jobs: -1: jobs (-1) and horizon (0) must be positive"},
		{"jobs = 9999999999999", "p.toml:5: workload[1].jobs: 9999999999999: more than 50000000 jobs in one trace"},
		{"horizon = -5", "p.toml:5: workload[1].horizon: -5: jobs (0) and horizon (-5) must be positive"},
	} {
		doc := "name = \"x\"\n[[workload]]\nmodel = \"workload\"\nloads = [0.5]\n" + c.key + "\n"
		file, err := Decode("p.toml", []byte(doc), nil)
		if err == nil {
			_, err = file.Plan()
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.key, err, c.want)
		}
	}
}

// F5 (issue 25): a shard count beyond MaxShards is refused.
func TestShardBound(t *testing.T) {
	if _, err := ParseShard("1/99999999999"); err == nil || err.Error() != `shard "1/99999999999": at most 100000 shards` {
		t.Errorf("error %v", err)
	}
	if s, err := ParseShard("7/100000"); err != nil || s != (Shard{7, 100000}) {
		t.Errorf("7/100000: %v %v", s, err)
	}
}
