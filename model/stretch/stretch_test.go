package stretch_test

import (
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/stretch"
	"github.com/schedlab/schedlab/model/torus"
)

func parse(t *testing.T, v string) stretch.Spec {
	t.Helper()
	s, err := stretch.Parse(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func machine(t *testing.T, spec string) policy.Machine {
	t.Helper()
	m, err := policy.ParseMachine(spec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }

// TestFactorTorus: a row of 4 nodes has hop-bytes 2·(1+2+3+1+2+1) = 20
// on a 4×4 mesh, whose best 4 nodes (a 2×2 square: 1+1+2 hops from each)
// have 16; on the 4×4 torus the row is a ring (1+2+1 from each): 16, the
// best, so no stretch.
func TestFactorTorus(t *testing.T) {
	row := torus.Cuboid{A: 4, B: 1, C: 1}
	for _, c := range []struct {
		machine, stretch string
		want             float64
	}{
		{"mesh3d:4x4x1", "hops:alpha=1", 1 + (20.0-16)/12},
		{"mesh3d:4x4x1", "sst:a=1,b=1", 21.0 / 17},
		{"mesh3d:4x4x1", "sst:a=0.5,b=0.5", (1 + 0.5*math.Sqrt(20)) / (1 + 0.5*4)},
		{"torus:4x4", "hops:alpha=1", 1},
		{"torus:4x4", "sst:a=1,b=1", 1},
	} {
		m := machine(t, c.machine)
		md, err := stretch.New(parse(t, c.stretch), m, 4)
		if err != nil {
			t.Fatal(err)
		}
		got := md.Factor([]policy.Piece{torus.GeomOf(m).Piece(row)})
		if !near(got, c.want) {
			t.Errorf("%s %s: factor %g, want %g", c.machine, c.stretch, got, c.want)
		}
	}
}

// TestEngineDragonfly replays jobs on dragonfly:g=3,a=2,p=2,h=1 (group i
// holds routers 2i and 2i+1, router r nodes 2r and 2r+1; group i's link
// to t is on its local router t, or t−1 when t > i) under FCFS.
//
// df-spread deals job 1's 3 nodes one per group: nodes 0, 4 and 8, whose
// hops are 0–4: 1 (both routers hold the 0–1 link), 0–8: 2 (router 0 is
// not group 0's router linked to group 2), 4–8: 3 (neither end holds the
// 1–2 link): hb = 2·6 = 12. The best 3 nodes (two on a router, one on
// its neighbour) have 0+1+1: hb* = 4. Job 2's 2 nodes go to 1 and 5, one
// hop apart (hb 2, hb* 0), job 3's one node to 2.
//
// hops:alpha=0.3: job 1 runs 100·(1 + 0.3·(12−4)/6) = 140, job 2
// 50·(1 + 0.3·2/2) = 65, job 3 its 30. df-simple places job 1 on nodes
// 0, 1, 2 (hb 4, the best): no stretch; job 2 on 3 and 4, two hops apart
// (router 1 does not hold group 0's link to group 1): 50·(1 + 0.3·4/2) =
// 80.
func TestEngineDragonfly(t *testing.T) {
	m := machine(t, "dragonfly:g=3,a=2,p=2,h=1")
	for _, c := range []struct {
		alloc, stretch string
		end            []float64
	}{
		{"df-spread", "off", []float64{100, 50, 30}},
		{"df-spread", "hops:alpha=0.3", []float64{140, 65, 30}},
		{"df-spread", "sst:a=0.5,b=1", []float64{100 * 7.0 / 3, 50 * 2, 30}},
		{"df-simple", "hops:alpha=0.3", []float64{100, 80, 30}},
	} {
		pairs, err := catalog.Pairs(m, []string{c.alloc}, []string{"fcfs"})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := pairs[0].NewAllocator(m)
		s, _ := pairs[0].NewScheduler(m)
		jobs := []policy.Job{
			{ID: 1, Record: 0, Run: 100, Estimate: 100, Procs: 3},
			{ID: 2, Record: 1, Run: 50, Estimate: 1000, Procs: 2},
			{ID: 3, Record: 2, Run: 30, Estimate: 1000, Procs: 1},
		}
		opt := engine.Options{Check: true}
		if st := parse(t, c.stretch); st.On() {
			md, err := stretch.New(st, m, 3)
			if err != nil {
				t.Fatal(err)
			}
			opt.Progress = md
		}
		res, err := engine.Run(jobs, m, a, s, opt)
		if err != nil {
			t.Fatal(err)
		}
		for i, j := range res.Jobs {
			if j.Start != 0 || !near(j.End, c.end[i]) {
				t.Errorf("%s %s: job %d ran %g..%g, want 0..%g", c.alloc, c.stretch, j.ID, j.Start, j.End, c.end[i])
			}
		}
	}
}

// TestParse checks the settings and that a bad one is one line naming
// the option and what is wrong.
func TestParse(t *testing.T) {
	for v, want := range map[string]string{
		"": "off", "off": "off", "hops:alpha=0.25": "hops:alpha=0.25", "sst:a=0.001865,b=0.1569": "sst:a=0.001865,b=0.1569",
		"hops:alpha=0": "hops:alpha=0",
	} {
		if got := parse(t, v).String(); got != want {
			t.Errorf("%q: %q, want %q", v, got, want)
		}
	}
	for v, msg := range map[string]string{
		"hops":               "hops needs alpha=A",
		"hops:alpha=-1":      "alpha must be a finite number ≥ 0",
		"hops:alpha=x":       "alpha",
		"hops:beta=1":        "beta",
		"sst:a=1":            "sst needs a=A,b=B",
		"sst:a=1,b=-2":       "b must be a finite number ≥ 0",
		"sst:a=Inf,b=1":      "a must be a finite number ≥ 0",
		"off:alpha=1":        "off takes no parameters",
		"linear:alpha=1":     `unknown model "linear" (off, hops, sst)`,
		"hops:alpha=NaN,x=1": "x",
	} {
		_, err := stretch.Parse(v)
		if err == nil {
			t.Errorf("%q: no error", v)
			continue
		}
		if e := err.Error(); !strings.HasPrefix(e, "stretch ") || !strings.Contains(e, msg) || strings.Contains(e, "\n") {
			t.Errorf("%q: error %q, want one line naming stretch and %q", v, e, msg)
		}
	}
}

// TestNoTopology: a flat machine has no hop distance.
func TestNoTopology(t *testing.T) {
	_, err := stretch.New(parse(t, "hops:alpha=1"), machine(t, "flat:8"), 4)
	if err == nil || !strings.Contains(err.Error(), "no hop distance") {
		t.Fatalf("flat:8: %v", err)
	}
}
