package workload

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/trace"
)

func TestParseLoads(t *testing.T) {
	got, err := ParseLoads("0.1:0.9:0.1")
	if err != nil || len(got) != 9 || got[0] != 0.1 || got[2] != 0.3 || got[8] != 0.9 {
		t.Fatalf("0.1:0.9:0.1 = %v, %v", got, err)
	}
	got, err = ParseLoads("0.3,0.5")
	if err != nil || len(got) != 2 || got[1] != 0.5 {
		t.Fatalf("0.3,0.5 = %v, %v", got, err)
	}
	for _, bad := range []string{"", "a", "0.9:0.1:0.1", "0.1:0.9", "-0.5", "0.1:0.9:0", "1e-10", "1e-10:0.1:0.05"} {
		if _, err := ParseLoads(bad); err == nil {
			t.Errorf("ParseLoads(%q) accepted", bad)
		}
	}
	for l, want := range map[float64]string{0.3: "0.30", 0.125: "0.125", 1: "1.00", 0.05: "0.05"} {
		if FormatLoad(l) != want {
			t.Errorf("FormatLoad(%v) = %q, want %q", l, FormatLoad(l), want)
		}
	}
	if n := SweepName("workload", 0.3, 1); n != "workload-load0.30-rep01" {
		t.Errorf("SweepName = %q", n)
	}
}

// A sweep makes one trace per (load, rep) with distinct seeds, the load
// and rep in the provenance, and seeds that do not depend on the other
// loads of the sweep.
func TestSweep(t *testing.T) {
	base := flatSpec()
	base.Arrivals.Load, base.Arrivals.Jobs = 0, 50
	var got []*trace.Trace
	sw := Sweep{Loads: []float64{0.3, 0.5}, Reps: 2, Seed: 9}
	if err := sw.SweepWorkload(base, func(tr *trace.Trace) error { got = append(got, tr); return nil }); err != nil {
		t.Fatal(err)
	}
	names := []string{"workload-load0.30-rep01", "workload-load0.30-rep02", "workload-load0.50-rep01", "workload-load0.50-rep02"}
	seeds := map[int64]bool{}
	for i, tr := range got {
		if tr.Name != names[i] {
			t.Errorf("trace %d named %q, want %q", i, tr.Name, names[i])
		}
		if tr.Provenance.Rep != i%2+1 || tr.Provenance.Load != []float64{0.3, 0.5}[i/2] || tr.Provenance.Params["sweep_seed"] != "9" {
			t.Errorf("%s: provenance %+v", tr.Name, tr.Provenance)
		}
		seeds[tr.Provenance.Seed] = true
	}
	if len(seeds) != 4 {
		t.Errorf("seeds not distinct: %v", seeds)
	}
	var only []*trace.Trace
	sw.Loads = []float64{0.5}
	_ = sw.SweepWorkload(base, func(tr *trace.Trace) error { only = append(only, tr); return nil })
	if only[0].Provenance.Seed != got[2].Provenance.Seed || only[0].Jobs[3] != got[2].Jobs[3] {
		t.Error("a load's traces depend on the other loads of the sweep")
	}
	// CRN: the same job stream at every load, arrivals scaled by the IAT.
	var crn []*trace.Trace
	sw = Sweep{Loads: []float64{0.3, 0.6}, Reps: 2, Seed: 9, CRN: true}
	_ = sw.SweepWorkload(base, func(tr *trace.Trace) error { crn = append(crn, tr); return nil })
	a, b := crn[0], crn[2] // rep 1 at 0.3 and 0.6
	if a.Provenance.Seed != b.Provenance.Seed || a.Provenance.Seed == crn[1].Provenance.Seed {
		t.Fatalf("CRN seeds %d %d %d", a.Provenance.Seed, b.Provenance.Seed, crn[1].Provenance.Seed)
	}
	for i := range a.Jobs {
		if a.Jobs[i].Run != b.Jobs[i].Run || a.Jobs[i].ReqProcs != b.Jobs[i].ReqProcs || math.Abs(a.Jobs[i].Submit-2*b.Jobs[i].Submit) > 1e-9*a.Jobs[i].Submit {
			t.Fatalf("CRN job %d differs beyond the arrival scale", i+1)
		}
	}
	base.Arrivals.IAT = 3
	if err := sw.SweepWorkload(base, func(*trace.Trace) error { return nil }); err == nil {
		t.Error("sweeping --iat accepted")
	}
}

// Every parameter of a sweep's trace, sweep_seed and sweep_crn included, is
// also a header note, so that SWF output keeps it.
func TestSweepHeaderNotesEveryParam(t *testing.T) {
	sw := Sweep{Loads: []float64{0.5}, Reps: 1, Seed: 9, CRN: true}
	spec := WorkloadSpec{Machine: "flat:16", Size: SizeSpec{Dist: SizeUniform},
		Service: Service{Kind: ServiceExp, Mean: 10}, Coupling: CouplingDependent,
		Arrivals: Arrivals{Kind: ArrivalsPoisson, Jobs: 10}}
	err := sw.SweepWorkload(spec, func(tr *trace.Trace) error {
		notes := map[string]bool{}
		for _, h := range tr.Header {
			if h.Key == "Note" {
				notes[h.Value] = true
			}
		}
		for _, k := range tr.Provenance.ParamKeys() {
			if !notes[k+"="+tr.Provenance.Params[k]] {
				t.Errorf("parameter %s=%s has no header note", k, tr.Provenance.Params[k])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
