package reproduce

import (
	"math"
	"math/big"
	"testing"

	"github.com/schedlab/schedlab/model/workload"
)

func close(got, want, rel float64) bool {
	if want == 0 {
		return got == 0
	}
	return math.Abs(got/want-1) <= rel
}

// erlangCExact is the closed form C = (a^c/c!)·c/(c−a) / (Σ_{k<c} a^k/k! +
// (a^c/c!)·c/(c−a)) in exact rational arithmetic: an independent check of
// the recurrence.
func erlangCExact(c int, a *big.Rat) float64 {
	term := big.NewRat(1, 1) // a^k/k!
	sum := new(big.Rat)
	for k := 0; k < c; k++ {
		sum.Add(sum, term)
		term.Mul(term, a)
		term.Quo(term, big.NewRat(int64(k+1), 1))
	}
	cr := big.NewRat(int64(c), 1)
	top := new(big.Rat).Mul(term, new(big.Rat).Quo(cr, new(big.Rat).Sub(cr, a)))
	f, _ := new(big.Rat).Quo(top, sum.Add(sum, top)).Float64()
	return f
}

func TestErlangC(t *testing.T) {
	for _, tc := range []struct {
		c    int
		a    *big.Rat
		want float64 // textbook value, when there is one
	}{
		{1, big.NewRat(1, 2), 0.5}, // M/M/1: P(wait) = ρ
		{2, big.NewRat(1, 1), 1.0 / 3},
		{3, big.NewRat(2, 1), 4.0 / 9},
		{10, big.NewRat(8, 1), 0.40918015}, // the call-centre example: 10 agents, 8 erlangs
		{16, big.NewRat(8, 1), 0},
		{16, big.NewRat(64, 5), 0},    // ρ = 0.8
		{16, big.NewRat(72, 5), 0},    // ρ = 0.9
		{128, big.NewRat(64, 1), 0},   // ρ = 0.5: 1.29e-12, far below what a^c/c! in floats could give
		{128, big.NewRat(512, 5), 0},  // ρ = 0.8
		{128, big.NewRat(576, 5), 0},  // ρ = 0.9
		{500, big.NewRat(495, 1), 0},  // past the float overflow of a^c/c!
		{128, big.NewRat(1, 1000), 0}, // vanishing load
	} {
		a, _ := tc.a.Float64()
		got := ErlangC(tc.c, a)
		exact := erlangCExact(tc.c, tc.a)
		if !close(got, exact, 1e-9) {
			t.Errorf("ErlangC(%d, %g) = %.12g, exact %.12g", tc.c, a, got, exact)
		}
		if tc.want != 0 && !close(got, tc.want, 1e-7) {
			t.Errorf("ErlangC(%d, %g) = %.12g, textbook %.12g", tc.c, a, got, tc.want)
		}
	}
	for _, bad := range []struct {
		c int
		a float64
	}{{0, 0.5}, {4, 4}, {4, 5}, {4, -1}, {4, math.NaN()}} {
		if v := ErlangC(bad.c, bad.a); !math.IsNaN(v) {
			t.Errorf("ErlangC(%d, %g) = %g, want NaN (unstable or invalid)", bad.c, bad.a, v)
		}
	}
}

// Known M/M/c mean waits: M/M/1 W_q = ρ/(μ − λ), and the values the
// queueing suite compares with.
func TestMMcWait(t *testing.T) {
	for _, tc := range []struct {
		c         int
		rho, mean float64
		want      float64
	}{
		{1, 0.5, 1, 1},
		{1, 0.8, 1, 4},
		{1, 0.9, 1, 9},
		{1, 0.9, 10, 90},
		{1, 0.25, 2, 2.0 / 3},                  // λ = 1/8, μ = 1/2: ρ/(μ−λ) = 0.25/0.375
		{2, 0.5, 1, 1.0 / 3},                   // C = 1/3, cμ − λ = 1
		{16, 0.8, 1, 0.3048839129300168 / 3.2}, // C(16, 12.8)/(16·0.2)
		{128, 0.5, 1, 1.2913968723603477e-12 / 64},
		{128, 0.8, 1, 0.009099434740615718 / 25.6},
		{128, 0.9, 1, 0.16887890552973986 / 12.8},
	} {
		if got := MMcWait(tc.c, tc.rho, tc.mean); !close(got, tc.want, 1e-7) {
			t.Errorf("MMcWait(%d, %g, %g) = %.10g, want %.10g", tc.c, tc.rho, tc.mean, got, tc.want)
		}
	}
}

// Property: Erlang C with one server is M/M/1 (P(wait) = ρ); M/G/1 with
// exponential service is M/M/1; M/G/1 with deterministic service waits
// half as long (M/D/1).
func TestTheoryProperties(t *testing.T) {
	for _, rho := range []float64{0.01, 0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99} {
		for _, mean := range []float64{0.5, 1, 10} {
			mm1 := rho * mean / (1 - rho)
			if c := ErlangC(1, rho); !close(c, rho, 1e-12) {
				t.Errorf("ErlangC(1, %g) = %g, want ρ", rho, c)
			}
			if w := MMcWait(1, rho, mean); !close(w, mm1, 1e-12) {
				t.Errorf("MMcWait(1, %g, %g) = %g, want %g", rho, mean, w, mm1)
			}
			es, es2, err := Moments(Service{Kind: workload.ServiceExp, Mean: mean})
			if err != nil {
				t.Fatal(err)
			}
			if w := MG1Wait(rho/es, es, es2); !close(w, mm1, 1e-12) {
				t.Errorf("M/G/1 with exponential service at ρ = %g: %g, want M/M/1's %g", rho, w, mm1)
			}
			es, es2, _ = Moments(Service{Kind: workload.ServiceDet, Mean: mean})
			if w := MG1Wait(rho/es, es, es2); !close(w, mm1/2, 1e-12) {
				t.Errorf("M/D/1 at ρ = %g: %g, want half of M/M/1's %g", rho, w, mm1)
			}
			// More servers at the same ρ never wait longer.
			for c := 1; c < 64; c *= 2 {
				if a, b := MMcWait(c, rho, mean), MMcWait(2*c, rho, mean); b > a {
					t.Errorf("ρ = %g: M/M/%d waits %g > M/M/%d's %g", rho, 2*c, b, c, a)
				}
			}
		}
	}
	if w := MG1Wait(1.2, 1, 2); !math.IsNaN(w) {
		t.Errorf("M/G/1 at ρ = 1.2: %g, want NaN", w)
	}
}

// Moments derives E[S²] from the generator's H2 branches: for the alpha
// parameterisation it is (1 + C²)m² (the branch means are built for it),
// for balanced means too; uniform on (0, 2m) gives 4m²/3.
func TestMoments(t *testing.T) {
	for _, tc := range []struct {
		s         Service
		es, es2   float64
		wantError bool
	}{
		{Service{Kind: workload.ServiceH2, Mean: 1, CV: 4, H2: workload.H2Alpha, Alpha: 0.95}, 1, 17, false},
		{Service{Kind: workload.ServiceH2, Mean: 10, CV: 4, H2: workload.H2Alpha, Alpha: 0.95}, 10, 1700, false},
		{Service{Kind: workload.ServiceH2, Mean: 5, CV: 1.5, H2: workload.H2Alpha, Alpha: 0.5}, 5, 81.25, false},
		{Service{Kind: workload.ServiceH2, Mean: 2, CV: 3, H2: workload.H2Balanced}, 2, 40, false},
		{Service{Kind: workload.ServiceUniform, Mean: 3}, 3, 12, false},
		{Service{Kind: workload.ServiceDet, Mean: 3}, 3, 9, false},
		{Service{Kind: workload.ServiceH2, Mean: 1, CV: 10, H2: workload.H2Alpha, Alpha: 0.5}, 0, 0, true}, // α cannot give C = 10
		{Service{Kind: "pareto", Mean: 1}, 0, 0, true},
		{Service{Kind: workload.ServiceExp, Mean: 0}, 0, 0, true},
	} {
		es, es2, err := Moments(tc.s)
		if (err != nil) != tc.wantError {
			t.Errorf("Moments(%+v): error %v, want error %v", tc.s, err, tc.wantError)
			continue
		}
		if err == nil && (!close(es, tc.es, 1e-12) || !close(es2, tc.es2, 1e-12)) {
			t.Errorf("Moments(%+v) = %g, %g; want %g, %g", tc.s, es, es2, tc.es, tc.es2)
		}
	}
}

func TestTheoryValue(t *testing.T) {
	h2 := Theory{Model: ModelMG1, Rho: 0.5, Mean: 1, Service: "h2", CV: 4, H2: "alpha", H2Alpha: 0.95}
	for _, tc := range []struct {
		th     Theory
		metric string
		want   float64
		err    bool
	}{
		{Theory{Model: ModelMMc, Servers: 1, Rho: 0.8, Mean: 1}, "mean_wait", 4, false},
		{Theory{Model: ModelMMc, Servers: 1, Rho: 0.8, Mean: 2}, "mean_response", 10, false},
		{h2, "mean_wait", 8.5, false}, // P-K: λE[S²]/2(1−ρ) = 0.5·17/1
		{h2, "mean_response", 9.5, false},
		{Theory{Model: ModelMG1, Rho: 0.5, Mean: 1}, "mean_wait", 1, false}, // exponential by default
		{h2, "utilization", 0, true},
		{Theory{Model: ModelMMc, Servers: 0, Rho: 0.5, Mean: 1}, "mean_wait", 0, true},
		{Theory{Model: ModelMMc, Servers: 2, Rho: 1, Mean: 1}, "mean_wait", 0, true},
		{Theory{Model: ModelMMc, Servers: 2, Rho: 0.5, Mean: 1, Service: "h2"}, "mean_wait", 0, true},
		{Theory{Model: ModelMG1, Servers: 2, Rho: 0.5, Mean: 1}, "mean_wait", 0, true},
		{Theory{Model: "M/M/inf", Rho: 0.5, Mean: 1}, "mean_wait", 0, true},
	} {
		got, err := tc.th.Value(tc.metric)
		if (err != nil) != tc.err || err == nil && !close(got, tc.want, 1e-12) {
			t.Errorf("%s %s: %g, %v; want %g (error %v)", tc.th.String(), tc.metric, got, err, tc.want, tc.err)
		}
	}
}

// TestMG1SRPT: the Schrage–Miller mean response against the values the
// extraction of Guha 1995 tabulates for mean service 10 with exponential
// (C = 1) and balanced-H2 (C = 5, 30) service (two decimals), below
// processor sharing and FCFS at every load, and E[S] at a vanishing load.
func TestMG1SRPT(t *testing.T) {
	h2 := func(cv float64) Service {
		return Service{Kind: workload.ServiceH2, H2: workload.H2Balanced, Mean: 10, CV: cv}
	}
	for _, tc := range []struct {
		rho  float64
		want [3]float64 // C = 1, 5, 30
	}{
		{0.9, [3]float64{35.52, 29.64, 29.38}},
		{0.7, [3]float64{18.75, 17.71, 17.66}},
		{0.5, [3]float64{14.25, 13.98, 13.97}},
		{0.3, [3]float64{11.98, 11.92, 11.91}},
	} {
		for i, s := range []Service{{Kind: workload.ServiceExp, Mean: 10}, h2(5), h2(30)} {
			got, err := MG1SRPTResponse(tc.rho/10, s)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-tc.want[i]) > 0.006 {
				t.Errorf("SRPT ρ = %g, %s C = %g: %.4f, want %.2f", tc.rho, s.Kind, s.CV, got, tc.want[i])
			}
			es, es2, _ := Moments(s)
			fcfs := MG1Wait(tc.rho/10, es, es2) + es
			if ps := MG1PSResponse(tc.rho, es); !(got < ps && got < fcfs) {
				t.Errorf("SRPT ρ = %g, C = %g: %.4f not below PS %.4f and FCFS %.4f", tc.rho, s.CV, got, ps, fcfs)
			}
		}
	}
	for _, s := range []Service{{Kind: workload.ServiceExp, Mean: 10}, {Kind: workload.ServiceUniform, Mean: 10}, h2(30)} {
		if got, _ := MG1SRPTResponse(1e-9, s); math.Abs(got/10-1) > 1e-5 {
			t.Errorf("SRPT at vanishing load, %s: %.6f, want 10", s.Kind, got)
		}
	}
	// Uniform on (0, 20): against the same formula integrated by brute
	// force (midpoint rule on a uniform grid of 200 000 cells).
	lam := 0.08
	g := func(x float64) float64 { return 1 / (1 - lam*x*x/40) } // 1/(1 − ρ(x))
	var want, inner float64
	const n = 200000
	dx := 20.0 / n
	prev := 0.0
	for k := 0; k < n; k++ {
		x := (float64(k) + 0.5) * dx
		inner += (g(prev) + g(x)) / 2 * (x - prev) // ∫₀ˣ g by trapezoids
		prev = x
		tx := lam*(x*x*x/60+x*x*(1-x/20))*g(x)*g(x)/2 + inner
		want += tx * dx / 20
	}
	if got, _ := MG1SRPTResponse(lam, Service{Kind: workload.ServiceUniform, Mean: 10}); math.Abs(got/want-1) > 1e-4 {
		t.Errorf("SRPT uniform: %.6f, brute force %.6f", got, want)
	}
	if _, err := MG1SRPTResponse(0.05, Service{Kind: workload.ServiceDet, Mean: 10}); err == nil {
		t.Error("SRPT with deterministic service: no error")
	}
	if got, _ := MG1SRPTResponse(0.1, Service{Kind: workload.ServiceExp, Mean: 10}); !math.IsNaN(got) {
		t.Errorf("SRPT at ρ = 1: %g, want NaN", got)
	}
}

// TestTheoryPSandSRPT: the models through Theory.Value, as a suite names
// them, and their errors.
func TestTheoryPSandSRPT(t *testing.T) {
	ps := Theory{Model: ModelMG1PS, Rho: 0.9, Mean: 10, Service: "h2", CV: 5, H2: "balanced"}
	if v, err := ps.Value("mean_response"); err != nil || math.Abs(v-100) > 1e-9 {
		t.Errorf("PS: %v, %v; want 100", v, err)
	}
	if _, err := ps.Value("mean_wait"); err == nil {
		t.Error("PS mean_wait: no error")
	}
	srpt := Theory{Model: ModelMG1SRP, Rho: 0.7, Mean: 10}
	if v, err := srpt.Value("mean_response"); err != nil || math.Abs(v-18.75) > 0.006 {
		t.Errorf("SRPT: %v, %v; want 18.75", v, err)
	}
	if got := srpt.String(); got != "M/G/1-SRPT (exp), ρ = 0.7" {
		t.Errorf("String %q", got)
	}
	det := Theory{Model: ModelMG1SRP, Rho: 0.7, Mean: 10, Service: "det"}
	if _, err := det.Value("mean_response"); err == nil {
		t.Error("SRPT det: no error")
	}
}
