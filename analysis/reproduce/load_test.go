package reproduce

import (
	"strings"
	"testing"
)

// A small suite: two workloads, quick and full sizes, three claims.
const smallSuite = `name = "s"
description = "a test suite"

[[workload]]
name = "a"
model = "workload"
machine = "flat:1"
size_max = 1
service = "exp"
mean = 1
loads = [0.5, 0.8]
jobs = 100
seed = 1

[[workload]]
name = "b"
model = "workload"
machine = "flat:4"
size_max = 1
loads = [0.5]
reps = 3
jobs = 100

[replay]
allocs = ["count"]
scheds = ["fcfs"]

[quick]
jobs = 200
reps = 2
warmup = 10
tolerance = { rel = 0.1 }

[quick.workload.b]
jobs = 300

[full]
jobs = 5000
reps = 4
warmup = 100
tolerance = { rel = 0.01, ci = 3 }

[[expect]]
claim = "M/M/1 at 0.5"
source = "theory"
metric = "mean_wait"
select = { trace = "a-load0.50-*" }
theory = { model = "M/M/c", servers = 1, rho = 0.5, mean = 1 }

[[expect]]
claim = "a ratio"
source = "theory"
kind = "ratio"
metric = "mean_wait"
num = { trace = "a-load0.80-*" }
den = { trace = "a-load0.50-*" }
published = 4
full_tolerance = { rel = 0.05 }

[[expect]]
claim = "a ranking"
source = "theory"
kind = "ranking"
metric = "mean_wait"
rank = [{ trace = "a-load0.50-*" }, { trace = "a-load0.80-*" }]
`

func TestDecodeAndPlan(t *testing.T) {
	f, s, err := Decode("s.toml", []byte(smallSuite))
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "s" || len(s.Expect) != 3 || s.Quick.Workload["b"].Jobs != 300 || s.Expect[0].Select.Trace != "a-load0.50-*" {
		t.Fatalf("decoded %+v %+v", f, s)
	}
	if got := WorkloadNames(f); strings.Join(got, ",") != "a,b" {
		t.Errorf("workload names %v", got)
	}
	type size struct{ cells, jobs, warmup int }
	for _, tc := range []struct {
		m    Mode
		seed *int64
		want size
	}{
		// quick: a 2 loads × 2 reps × 200 jobs, b 1 load × 2 reps × 300 jobs
		{Quick, nil, size{6, 2*2*200 + 2*300, 10}},
		// full: a 2 × 4 × 5000, b 1 × 4 × 5000
		{Full, nil, size{12, 12 * 5000, 100}},
	} {
		p, err := s.Plan(f, tc.m, tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		jobs := 0
		for _, c := range p.Cells {
			jobs += c.Jobs
		}
		if got := (size{len(p.Cells), jobs, p.Options().Warmup}); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.m, got, tc.want)
		}
		if err := s.CheckPlan(p, f.Where); err != nil {
			t.Errorf("%s: %v", tc.m, err)
		}
	}
	// The file is left alone, so that both modes plan from it.
	if f.Workloads[0].Jobs != 100 || f.Workloads[1].Reps != 3 || f.Replay.Warmup != 0 {
		t.Errorf("Plan changed the file: %+v", f.Workloads)
	}
	// --seed changes every workload's traces, nothing else.
	p1, _ := s.Plan(f, Quick, nil)
	seed := int64(99)
	p2, _ := s.Plan(f, Quick, &seed)
	for i := range p2.File.Workloads {
		if w := p2.File.Workloads[i]; w.Seed == nil || *w.Seed != 99+int64(i) {
			t.Errorf("workload %d: seed %v, want %d", i, w.Seed, 99+i)
		}
	}
	if s1 := p1.File.Workloads[0].Seed; s1 == nil || *s1 != 1 || f.Workloads[0].Seed == p2.File.Workloads[0].Seed {
		t.Error("--seed changed the file's seed")
	}
	if tol := s.tolerance(&s.Expect[1], Full); tol.Rel != 0.05 {
		t.Errorf("full tolerance of the ratio: %+v", tol)
	}
}

// Every malformed suite gives one error naming the file, the line and the
// key.
func TestDecodeErrors(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(smallSuite, old) {
			t.Fatalf("%q not in the suite", old)
		}
		return strings.Replace(smallSuite, old, new, 1)
	}
	for _, tc := range []struct {
		name, text, want string
	}{
		{"unknown expect key", edit(`claim = "a ratio"`, "claim = \"a ratio\"\nvalue = 3"), `s.toml:52: unknown key "expect.value"`},
		{"unknown quick key", edit("warmup = 10", "warmup = 10\nseeds = 3"), `s.toml:32: unknown key "quick.seeds"`},
		{"no expectations", smallSuite[:strings.Index(smallSuite, "[[expect]]")], `s.toml: expect: no [[expect]]`},
		{"unknown metric", edit(`metric = "mean_wait"`, `metric = "mean_wiat"`), `s.toml:46: expect[1].metric: "mean_wiat" is not a numeric summary column`},
		{"unknown kind", edit(`kind = "ratio"`, `kind = "crossover"`), `s.toml:53: expect[2].kind: unknown kind "crossover" (want at_most, at_most/full, ranking, ranking/full, ratio, ratio/full, value, value/full)`},
		{"no claim", edit(`claim = "M/M/1 at 0.5"`, ``), `s.toml:43: expect[1].claim: missing`},
		{"no source", edit(`source = "theory"`+"\nmetric", "metric"), `s.toml:43: expect[1].source: missing`},
		{"bad glob", edit(`select = { trace = "a-load0.50-*" }`, `select = { trace = "a-[" }`), `s.toml:47: expect[1].select.trace: pattern "a-["`},
		{"published and theory", edit(`theory = { model`, `published = 1`+"\n"+`theory = { model`), `s.toml:43: expect[1]: give published or theory, not both`},
		{"neither", edit(`theory = { model = "M/M/c", servers = 1, rho = 0.5, mean = 1 }`, ``), `s.toml:43: expect[1]: give the published value`},
		{"bad theory", edit(`rho = 0.5, mean = 1 }`, `rho = 1.5, mean = 1 }`), `s.toml:48: expect[1].theory: rho 1.5`},
		{"theory metric", edit(`metric = "mean_wait"`, `metric = "utilization"`), `s.toml:48: expect[1].theory: metric "utilization"`},
		{"ratio without den", edit(`den = { trace = "a-load0.50-*" }`, ``), `s.toml:50: expect[2]: a ratio needs num and den`},
		{"ratio without published", edit(`published = 4`, ``), `s.toml:50: expect[2].published: a ratio needs its published value`},
		{"ranking of one", edit(`rank = [{ trace = "a-load0.50-*" }, { trace = "a-load0.80-*" }]`, `rank = [{ trace = "a-load0.50-*" }]`), `s.toml:65: expect[3].rank: a ranking needs at least two cells`},
		{"ranking order", edit(`kind = "ranking"`, `kind = "ranking"`+"\norder = \"up\""), `s.toml:64: expect[3].order: "up"`},
		{"negative rel", edit(`tolerance = { rel = 0.1 }`, `tolerance = { rel = -0.1 }`), `s.toml:32: quick.tolerance.rel: -0.1 must be`},
		{"empty tolerance", edit(`full_tolerance = { rel = 0.05 }`, `full_tolerance = { max_ci = 0.05 }`), `s.toml:58: expect[2].full_tolerance: no rule`},
		{"no tolerance", edit("tolerance = { rel = 0.1 }\n", ""), `s.toml:42: expect[1]: no tolerance`},
		{"unknown workload size", edit("[quick.workload.b]", "[quick.workload.c]"), `s.toml:34: quick.workload.c: no workload named "c" (have a, b)`},
		{"negative jobs", edit("jobs = 5000", "jobs = -5"), `s.toml:38: full.jobs: -5 must be ≥ 0`},
		{"bad select comm", edit(`select = { trace = "a-load0.50-*" }`, `select = { trace = "a-load0.50-*", comm = "wormhole:plen=0" }`), `s.toml:47: expect[1].select.comm: comm "wormhole:plen=0": plen must be 1..1000000 flits`},
		{"ranking with num only", edit(`kind = "ranking"`, `kind = "ranking"`+"\nnum = { sched = \"fcfs\" }"), `s.toml:60: expect[3]: a ranking of ratios needs both num and den`},
		{"bad level", edit("description = \"a test suite\"", "description = \"a test suite\"\nlevel = 95"), `s.toml:3: level: 95: want a confidence level`},
	} {
		_, _, err := Decode("s.toml", []byte(tc.text))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want prefix %q", tc.name, err, tc.want)
		}
	}
}

// CheckPlan finds selectors that pick no configuration, or several,
// before anything runs.
func TestCheckPlan(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"typo", `select = { trace = "a-load0.50-*" }`, `select = { trace = "a-load0.05-*" }`, `s.toml:47: expect[1].select: no matching cells (trace=a-load0.05-*), in the plan`},
		{"two loads", `select = { trace = "a-load0.50-*" }`, `select = { trace = "a-*" }`, `s.toml:47: expect[1].select: 2 configurations match (a-load0.50 flat:1 count/fcfs, a-load0.80 flat:1 count/fcfs): narrow the selector, in the plan`},
		{"ratio", `den = { trace = "a-load0.50-*" }`, `den = { trace = "a-load0.50-*", sched = "easy" }`, `s.toml:56: expect[2].den: no matching cells (trace=a-load0.50-*, sched=easy), in the plan`},
		{"rank", `{ trace = "a-load0.80-*" }]`, `{ trace = "b-*", machine = "flat:1" }]`, `s.toml:65: expect[3].rank[2]: no matching cells (trace=b-*, machine=flat:1), in the plan`},
	} {
		f, s, err := Decode("s.toml", []byte(strings.Replace(smallSuite, tc.old, tc.new, 1)))
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Plan(f, Quick, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CheckPlan(p, f.Where); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
}

// A mode's until sets the observation window: every generated workload
// runs to that horizon (its jobs count dropped) and the replay ends there.
func TestPlanUntil(t *testing.T) {
	src := strings.Replace(smallSuite, "[full]\njobs = 5000", "[full]\nuntil = 250", 1)
	f, s, err := Decode("s.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Plan(f, Full, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Options().Until != 250 {
		t.Errorf("replay until %g, want 250", p.Options().Until)
	}
	for i, w := range p.File.Workloads {
		if w.Horizon != 250 || w.Jobs != 0 {
			t.Errorf("workload %d: horizon %g, jobs %d; want 250, 0", i, w.Horizon, w.Jobs)
		}
	}
	q, err := s.Plan(f, Quick, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q.Options().Until != 0 || q.File.Workloads[0].Horizon != 0 {
		t.Errorf("quick: until %g, horizon %g; want none", q.Options().Until, q.File.Workloads[0].Horizon)
	}
	bad := strings.Replace(smallSuite, "[full]\njobs = 5000", "[full]\nuntil = -1", 1)
	if _, _, err := Decode("s.toml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "full.until") {
		t.Errorf("negative until: %v", err)
	}
}

// The suite's level: 0.95 unless given (the reproduce command passes it to Evaluate).
func TestLevel(t *testing.T) {
	_, s, err := Decode("s.toml", []byte(smallSuite))
	if err != nil || s.ConfidenceLevel() != 0.95 {
		t.Fatalf("default level %v, %v", s.ConfidenceLevel(), err)
	}
	_, s, err = Decode("s.toml", []byte(strings.Replace(smallSuite, "description = \"a test suite\"", "description = \"a test suite\"\nlevel = 0.9", 1)))
	if err != nil || s.ConfidenceLevel() != 0.9 {
		t.Fatalf("level %v, %v", s.ConfidenceLevel(), err)
	}
}
