package workload

import (
	"math"
	"strings"
	"testing"
)

// Exponential sizes with a very large (or infinite) mean: the discretised
// exponential tends to the uniform on 1..max, never to NaN; an infinite
// mean is an error.
func TestExponentialSizeLargeMean(t *testing.T) {
	s := flatSpec()
	s.Size = SizeSpec{Dist: SizeExponential, Mean: 1e300}
	mp, err := s.MeanProcs()
	if err != nil || !(math.Abs(mp-64.5) <= 1e-6) {
		t.Errorf("size-mean 1e300: E[procs] = %v, %v; want 64.5 (uniform limit)", mp, err)
	}
	tr, err := Generate(s)
	if err != nil || math.IsNaN(tr.Jobs[0].Submit) {
		t.Errorf("size-mean 1e300: %v, first submit %v", err, tr.Jobs[0].Submit)
	}
	s.Size.Mean = math.Inf(1)
	if _, err := Generate(s); err == nil || !strings.Contains(err.Error(), "size-mean") {
		t.Errorf("size-mean +Inf: error %v", err)
	}
}

// The bounded geometric cap is the geometric conditioned on N ≤ P: its
// frequencies match the exact pmf, and a huge input mean gives the uniform
// limit on 1..P (mean (P+1)/2) instead of rejecting forever.
func TestBoundedGeometricExact(t *testing.T) {
	const n = 200000
	for _, capMean := range []float64{25, 1e15} {
		tr, err := GenerateMalleable(MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: 1, Perfect: true, CapMean: capMean, Load: 0.5, Jobs: n, Seed: 8})
		if err != nil {
			t.Fatal(err)
		}
		counts := make([]int, 101)
		for _, j := range tr.Jobs {
			counts[j.MaxParallelism]++
		}
		q := 1 - 1/capMean
		norm := -math.Expm1(100 * math.Log1p(-1/capMean))
		// bins 1..10, 11..30, 31..100
		for _, b := range [][2]int{{1, 10}, {11, 30}, {31, 100}} {
			var p float64
			k := 0
			for v := b[0]; v <= b[1]; v++ {
				p += math.Pow(q, float64(v-1)) * (1 / capMean) / norm
				k += counts[v]
			}
			if !within4σ(k, n, p) {
				t.Errorf("cap mean %g: P[%d..%d] sample %.4f, exact %.4f", capMean, b[0], b[1], float64(k)/n, p)
			}
		}
	}
}

// A Beta efficiency distribution with almost no mass in [100/P, 100) is an
// error, not an endless redraw loop.
func TestBetaAcceptanceGuard(t *testing.T) {
	_, err := GenerateMalleable(MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: 1, EffMin: 1, EffMax: 99, EffDist: EffBeta, BetaP: 0.001, BetaQ: 1000, Load: 0.5, Jobs: 10, Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "beta") {
		t.Errorf("Beta(0.001, 1000): error %v", err)
	}
}

// Replayed as rigid jobs (ReqProcs = N_i or P, Run = T(ReqProcs)), a
// malleable trace with imperfect efficiency offers more than Guha's load
// λ·W̄/P: at ρ = 0.9 with ε uniform on 1..99 and no cap the rigid load is
// ρ·E[100/ε] ≈ 4.7, which must be warned about.
func TestMalleableRigidLoadWarning(t *testing.T) {
	tr, err := GenerateMalleable(MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: 1, EffMin: 1, EffMax: 99, Load: 0.9, Jobs: 20000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var h float64
	for e := 1; e <= 99; e++ {
		h += 100 / float64(e) / 99
	}
	if math.Abs(h*0.9-4.707) > 0.001 {
		t.Fatalf("E[100/ε]·0.9 = %v", h*0.9)
	}
	if len(tr.Warnings) == 0 || !strings.Contains(strings.Join(tr.Warnings, "\n"), "rigid") {
		t.Errorf("no rigid-load warning: %v", tr.Warnings)
	}
	// perfect efficiency: the rigid load is Guha's load, no warning
	tr, _ = GenerateMalleable(MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: 1, Perfect: true, Load: 0.9, Jobs: 20000, Seed: 1})
	if len(tr.Warnings) != 0 {
		t.Errorf("perfect efficiency at 0.9: warnings %v", tr.Warnings)
	}
}

// An estimate model given through the API is checked as ParseEstimates
// checks the flag: an unknown kind is an error, not silently exact.
func TestEstimatesChecked(t *testing.T) {
	for _, e := range []Estimates{{Kind: "tsafrir"}, {Kind: EstimatesEET, C: -1}, {Kind: EstimatesFactor, X: 0}, {Kind: EstimatesEET, C: math.NaN()}} {
		s := flatSpec()
		s.Estimates = e
		if _, err := Generate(s); err == nil || !strings.Contains(err.Error(), "estimates") {
			t.Errorf("Generate with %+v: error %v", e, err)
		}
		if _, err := GenerateLublin(LublinSpec{Procs: 128, Jobs: 10, Estimates: e}); err == nil || !strings.Contains(err.Error(), "estimates") {
			t.Errorf("GenerateLublin with %+v: error %v", e, err)
		}
	}
}

// The recorded work distribution is the one drawn from: fixed W at C_W = 0.
func TestWorkDistParam(t *testing.T) {
	for cv, want := range map[float64]string{0: "det", 1: "h2-balanced", 5: "h2-balanced"} {
		tr, err := GenerateMalleable(MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: cv, Perfect: true, Load: 0.5, Jobs: 3})
		if err != nil || tr.Provenance.Params["work_dist"] != want {
			t.Errorf("C_W = %v: work_dist %q, want %q (%v)", cv, tr.Provenance.Params["work_dist"], want, err)
		}
	}
}

// A NaN or infinite coefficient of variation is an error, not NaN run times.
func TestH2BadCV(t *testing.T) {
	for _, form := range []string{H2Alpha, H2Balanced} {
		for _, cv := range []float64{math.NaN(), math.Inf(1)} {
			if _, _, _, err := H2Branches(form, 5, cv, 0.95); err == nil {
				t.Errorf("%s C = %v accepted", form, cv)
			}
		}
	}
	if _, err := GenerateMalleable(MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: math.NaN(), Perfect: true, Load: 0.5, Jobs: 3}); err == nil {
		t.Error("work-cv NaN accepted")
	}
}

// A NaN or infinite cap mean is an error, not silently "no cap".
func TestCapMeanNotFinite(t *testing.T) {
	for _, c := range []float64{math.NaN(), math.Inf(1)} {
		if _, err := GenerateMalleable(MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: 1, Perfect: true, CapMean: c, Load: 0.5, Jobs: 3}); err == nil || !strings.Contains(err.Error(), "cap-mean") {
			t.Errorf("cap-mean %v: error %v", c, err)
		}
	}
}
