package workload

import (
	"math"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/trace"
)

func windowsSpec() WorkloadSpec {
	return WorkloadSpec{Machine: "cube:6", Size: SizeSpec{Dist: "uniform"}, Service: Service{Kind: ServiceExp, Mean: 5},
		Arrivals: Arrivals{Kind: ArrivalsPoisson, Load: 0.7, Jobs: 4000}, Seed: 11}
}

// Windows draws priorities uniformly on 0..K−1 and deadlines submit + run
// × U(a, b), deterministically with the seed, and changes no other column.
func TestWindows(t *testing.T) {
	plain, err := Generate(windowsSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range plain.Jobs {
		if j.Priority != trace.Unknown || j.Deadline != trace.Unknown {
			t.Fatalf("job %d without windows: priority %d deadline %g", j.ID, j.Priority, j.Deadline)
		}
	}
	w := Windows{Priorities: 3, LaxityMin: 1.5, LaxityMax: 4}
	gen := func() *trace.Trace {
		tr, err := Generate(windowsSpec())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Apply(tr); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	a, b := gen(), gen()
	if !reflect.DeepEqual(a.Jobs, b.Jobs) {
		t.Fatal("same seed, different windows")
	}
	var count [3]int
	lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
	for i, j := range a.Jobs {
		p := plain.Jobs[i]
		if j.Priority < 0 || j.Priority > 2 {
			t.Fatalf("job %d: priority %d", j.ID, j.Priority)
		}
		count[j.Priority]++
		f := (j.Deadline - j.Submit) / j.Run
		lo, hi, mean = min(lo, f), max(hi, f), mean+f/float64(len(a.Jobs))
		j.Priority, j.Deadline = p.Priority, p.Deadline
		if j != p {
			t.Fatalf("job %d: windows changed another column: %+v vs %+v", j.ID, j, p)
		}
	}
	for k, c := range count {
		if math.Abs(float64(c)-4000.0/3) > 100 { // ±3.4σ
			t.Errorf("class %d: %d jobs of 4000", k, c)
		}
	}
	if lo < 1.5 || hi > 4 || math.Abs(mean-2.75) > 0.05 {
		t.Errorf("laxity factors in [%g, %g], mean %g; want in [1.5, 4], mean 2.75", lo, hi, mean)
	}
	if a.Provenance.Params["priorities"] != "3" || a.Provenance.Params["laxity"] != "1.5-4" {
		t.Errorf("params %v", a.Provenance.Params)
	}
	// Priorities alone leave the deadlines unknown, and draw the same
	// classes as with deadlines (their own stream).
	c, _ := Generate(windowsSpec())
	if err := (Windows{Priorities: 3}).Apply(c); err != nil {
		t.Fatal(err)
	}
	for i, j := range c.Jobs {
		if j.Priority != a.Jobs[i].Priority || j.Deadline != trace.Unknown {
			t.Fatalf("job %d: priority %d deadline %g", j.ID, j.Priority, j.Deadline)
		}
	}
	// A fixed factor.
	d, _ := Generate(windowsSpec())
	if err := (Windows{LaxityMin: 2, LaxityMax: 2}).Apply(d); err != nil {
		t.Fatal(err)
	}
	if j := d.Jobs[7]; j.Deadline != j.Submit+2*j.Run || j.Priority != trace.Unknown || d.Provenance.Params["laxity"] != "2" {
		t.Errorf("fixed factor: %+v %v", j, d.Provenance.Params)
	}
}

func TestParseLaxity(t *testing.T) {
	for s, want := range map[string][2]float64{"": {0, 0}, "0": {0, 0}, "2": {2, 2}, "1.5-4": {1.5, 4}, " 1 - 1 ": {1, 1}} {
		lo, hi, err := ParseLaxity(s)
		if err != nil || lo != want[0] || hi != want[1] {
			t.Errorf("%q: %g, %g, %v", s, lo, hi, err)
		}
	}
	for s, want := range map[string]string{
		"x":     `laxity "x": want a factor A or a range A-B, e.g. 1.5-4`,
		"0.5":   "laxity 0.5: want finite factors 1 ≤ A ≤ B",
		"4-2":   "laxity 4-2: want finite factors 1 ≤ A ≤ B",
		"1-inf": "laxity 1-+Inf: want finite factors 1 ≤ A ≤ B",
	} {
		if _, _, err := ParseLaxity(s); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %q", s, err, want)
		}
	}
	if err := (Windows{Priorities: -1}).Check(); err == nil {
		t.Error("negative priorities accepted")
	}
}
