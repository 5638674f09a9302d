package reproduce

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/model/workload"
)

// ErlangB returns the Erlang B blocking probability B(c, a) of c servers
// offered a = λ/μ erlangs, by the recurrence B(0) = 1,
// B(k) = a·B(k−1) / (k + a·B(k−1)), which stays in [0, 1] at every step and
// so neither overflows nor cancels for large c (the closed form's a^c/c!
// overflows at c = 171 and loses precision long before).
func ErlangB(c int, a float64) float64 {
	b := 1.0
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	return b
}

// ErlangC returns the Erlang C probability that an arrival waits in an
// M/M/c queue offered a = λ/μ erlangs (a < c), from Erlang B:
// C = c·B / (c − a·(1 − B)). It is NaN unless 0 ≤ a < c.
func ErlangC(c int, a float64) float64 {
	if c < 1 || !(a >= 0) || a >= float64(c) {
		return math.NaN()
	}
	b := ErlangB(c, a)
	return float64(c) * b / (float64(c) - a*(1-b))
}

// MMcWait returns the mean time in queue W_q of an M/M/c queue at
// per-server utilisation rho = λ/(cμ) with mean service time mean = 1/μ:
// W_q = C(c, cρ) / (cμ − λ) = C(c, cρ)·mean / (c(1 − ρ)). For c = 1 this is
// the M/M/1 value ρ/(μ − λ).
func MMcWait(c int, rho, mean float64) float64 {
	return ErlangC(c, float64(c)*rho) * mean / (float64(c) * (1 - rho))
}

// MG1Wait returns the Pollaczek–Khinchine mean time in queue of an M/G/1
// queue with arrival rate lambda and service moments es = E[S] and
// es2 = E[S²]: W_q = λ·E[S²] / (2(1 − ρ)), ρ = λ·E[S] < 1 (NaN otherwise).
func MG1Wait(lambda, es, es2 float64) float64 {
	rho := lambda * es
	if !(rho >= 0 && rho < 1) {
		return math.NaN()
	}
	return lambda * es2 / (2 * (1 - rho))
}

// MG1PSResponse returns the mean response time of an M/G/1 processor-
// sharing queue at utilisation rho with mean service time es: E[S]/(1 − ρ),
// whatever the service distribution (NaN unless 0 ≤ ρ < 1). Guha 1995's
// Equipartition under perfect efficiency is this queue with a speed-P
// server: mean service W̄/P.
func MG1PSResponse(rho, es float64) float64 {
	if !(rho >= 0 && rho < 1) {
		return math.NaN()
	}
	return es / (1 - rho)
}

// partial is a continuous service distribution by its cdf F(x) and the
// partial moments M1(x) = ∫₀ˣ t dF(t), M2(x) = ∫₀ˣ t² dF(t), with its
// density f, the scale of its smallest and largest features (for the
// integration grid) and an upper end beyond which it has no mass.
type partial struct {
	f, F, m1, m2 func(x float64) float64
	lo, hi       float64
}

// expMix is the mixture Σ p_j Exp(mean m_j).
func expMix(p, m []float64) partial {
	sum := func(g func(p, m, e, x float64) float64) func(float64) float64 {
		return func(x float64) float64 {
			var s float64
			for j := range p {
				s += g(p[j], m[j], math.Exp(-x/m[j]), x)
			}
			return s
		}
	}
	lo, hi := slices.Min(m), slices.Max(m)
	return partial{
		f:  sum(func(p, m, e, _ float64) float64 { return p * e / m }),
		F:  sum(func(p, _, e, _ float64) float64 { return p * (1 - e) }),
		m1: sum(func(p, m, e, x float64) float64 { return p * (m - (x+m)*e) }),
		m2: sum(func(p, m, e, x float64) float64 { return p * (2*m*m - (x*x+2*m*x+2*m*m)*e) }),
		lo: lo, hi: 60 * hi,
	}
}

// partialOf returns s as a partial; deterministic service has no density
// and is refused.
func partialOf(s Service) (partial, error) {
	m := s.Mean
	switch s.Kind {
	case workload.ServiceExp, "":
		return expMix([]float64{1}, []float64{m}), nil
	case workload.ServiceH2:
		p1, m1, m2, err := workload.H2Branches(s.H2, m, s.CV, s.Alpha)
		if err != nil {
			return partial{}, err
		}
		return expMix([]float64{p1, 1 - p1}, []float64{m1, m2}), nil
	case workload.ServiceUniform:
		b := 2 * m
		clip := func(x float64) float64 { return min(max(x, 0), b) }
		return partial{
			f: func(x float64) float64 {
				if x < 0 || x > b {
					return 0
				}
				return 1 / b
			},
			F:  func(x float64) float64 { return clip(x) / b },
			m1: func(x float64) float64 { x = clip(x); return x * x / (2 * b) },
			m2: func(x float64) float64 { x = clip(x); return x * x * x / (3 * b) },
			lo: b, hi: b,
		}, nil
	}
	return partial{}, fmt.Errorf("M/G/1-SRPT: service %q has no density (want exp, uniform or h2)", s.Kind)
}

// MG1SRPTResponse returns the mean response time of an M/G/1 queue under
// shortest remaining processing time first, preemptive, at arrival rate
// lambda (Schrage & Miller, "The queue M/G/1 with the shortest remaining
// processing time discipline", Operations Research 14(4), 1966):
//
//	T(x) = λ(M2(x) + x²(1 − F(x))) / (2(1 − ρ(x))²) + ∫₀ˣ dt/(1 − ρ(t)),
//	ρ(x) = λ·M1(x),  E[T] = ∫ T(x) dF(x),
//
// integrated numerically (trapezoids on a grid linear near 0 and
// geometric beyond, 60 000 points, relative error below 1e-6 on the
// exponential). Service must have a density: exp, uniform or h2. Guha
// 1995's LRWF under perfect efficiency is this queue with a speed-P server.
func MG1SRPTResponse(lambda float64, s Service) (float64, error) {
	es, _, err := Moments(s)
	if err != nil {
		return 0, err
	}
	if rho := lambda * es; !(rho >= 0 && rho < 1) {
		return math.NaN(), nil
	}
	d, err := partialOf(s)
	if err != nil {
		return 0, err
	}
	// x_k = x0·(e^{kh} − 1): steps of x0·h near 0, relative steps h beyond.
	const n = 60000
	x0 := d.lo * 1e-3
	h := math.Log1p(d.hi/x0) / n
	var total, inner float64
	var prevX, prevG, prevT float64
	for k := 0; k <= n; k++ {
		x := x0 * math.Expm1(float64(k)*h)
		if k == n {
			x = d.hi
		}
		g := 1 / (1 - lambda*d.m1(x)) // 1/(1 − ρ(x))
		if k > 0 {
			inner += (x - prevX) * (g + prevG) / 2
		}
		tail := x * x * (1 - d.F(x))
		t := (lambda*(d.m2(x)+tail)*g*g/2 + inner) * d.f(x)
		if k > 0 {
			total += (x - prevX) * (t + prevT) / 2
		}
		prevX, prevG, prevT = x, g, t
	}
	return total, nil
}

// Service is a service-time distribution as the synth generator draws it
// (model/workload.Service; the suite's theory table uses the generator's
// flag names).
type Service = workload.Service

// Moments returns the first two moments E[S] and E[S²] of the service
// distribution s, derived from the way the generator samples it:
// exponential 2m², uniform on (0, 2m) 4m²/3, deterministic m², and the
// two-stage hyperexponential Σ p_j·2m_j² over the branch probabilities and
// means of workload.H2Branches (not assumed to be (1 + C²)m²).
func Moments(s Service) (es, es2 float64, err error) {
	m := s.Mean
	if !(m > 0) || math.IsInf(m, 0) {
		return 0, 0, fmt.Errorf("service mean %g must be positive and finite", m)
	}
	switch s.Kind {
	case workload.ServiceExp, "":
		return m, 2 * m * m, nil
	case workload.ServiceUniform:
		return m, 4 * m * m / 3, nil
	case workload.ServiceDet:
		return m, m * m, nil
	case workload.ServiceH2:
		p1, m1, m2, err := workload.H2Branches(s.H2, m, s.CV, s.Alpha)
		if err != nil {
			return 0, 0, err
		}
		p2 := 1 - p1
		return p1*m1 + p2*m2, 2 * (p1*m1*m1 + p2*m2*m2), nil
	}
	return 0, 0, fmt.Errorf("unknown service distribution %q (want exp, uniform, det or h2)", s.Kind)
}

// Theory is a queueing model whose exact mean an expectation compares with
// ([expect.theory]; value kind only). Models:
//
//   - "M/M/c": Poisson arrivals, c = Servers exponential servers with mean
//     service Mean, per-server utilisation Rho = λ·Mean/c; W_q by Erlang C.
//   - "M/G/1": Poisson arrivals, one server, utilisation Rho = λ·E[S],
//     service as the generator draws it (Service, CV, H2, H2Alpha, Mean;
//     the synth flag names); W_q by Pollaczek–Khinchine.
//   - "M/G/1-PS": the same queue under processor sharing; mean response
//     E[S]/(1 − ρ) (Guha 1995's Equipartition at perfect efficiency, with
//     Mean = W̄/P).
//   - "M/G/1-SRPT": the same queue under preemptive shortest remaining
//     processing time; mean response by Schrage & Miller (Guha 1995's
//     LRWF at perfect efficiency); service exp, uniform or h2.
//
// The metric decides the value: mean_wait is W_q, mean_response W_q + E[S]
// (the PS and SRPT models give mean_response only).
type Theory struct {
	Model   string  `toml:"model"`
	Servers int     `toml:"servers"`
	Rho     float64 `toml:"rho"`
	Mean    float64 `toml:"mean"`
	Service string  `toml:"service"`
	CV      float64 `toml:"cv"`
	H2      string  `toml:"h2"`
	H2Alpha float64 `toml:"h2_alpha"`
}

// Theory models.
const (
	ModelMMc    = "M/M/c"
	ModelMG1    = "M/G/1"
	ModelMG1PS  = "M/G/1-PS"
	ModelMG1SRP = "M/G/1-SRPT"
)

// service returns the M/G/1 service distribution (exponential by default).
func (t *Theory) service() Service {
	kind := t.Service
	if kind == "" {
		kind = workload.ServiceExp
	}
	return Service{Kind: kind, Mean: t.Mean, CV: t.CV, H2: t.H2, Alpha: t.H2Alpha}
}

// check validates the model's parameters.
func (t *Theory) check() error {
	if !(t.Rho > 0 && t.Rho < 1) {
		return fmt.Errorf("rho %g: the model is stable only for 0 < ρ < 1", t.Rho)
	}
	if !(t.Mean > 0) || math.IsInf(t.Mean, 0) {
		return fmt.Errorf("mean %g must be positive and finite", t.Mean)
	}
	switch t.Model {
	case ModelMMc:
		if t.Servers < 1 {
			return fmt.Errorf("servers %d: M/M/c needs c ≥ 1", t.Servers)
		}
		if t.Service != "" && t.Service != workload.ServiceExp || t.CV != 0 || t.H2 != "" || t.H2Alpha != 0 {
			return errors.New("M/M/c takes no service distribution (exponential): use model = \"M/G/1\"")
		}
	case ModelMG1, ModelMG1PS, ModelMG1SRP:
		if t.Servers > 1 {
			return fmt.Errorf("servers %d: %s has one server", t.Servers, t.Model)
		}
		if _, _, err := Moments(t.service()); err != nil {
			return err
		}
		if t.Model == ModelMG1SRP {
			if _, err := partialOf(t.service()); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("model %q: want %q, %q, %q or %q", t.Model, ModelMMc, ModelMG1, ModelMG1PS, ModelMG1SRP)
	}
	return nil
}

// Value returns the model's exact value of metric: mean_wait (W_q) or
// mean_response (W_q + E[S]).
func (t *Theory) Value(metric string) (float64, error) {
	if err := t.check(); err != nil {
		return 0, err
	}
	var wq, es float64
	switch t.Model {
	case ModelMMc:
		wq, es = MMcWait(t.Servers, t.Rho, t.Mean), t.Mean
	case ModelMG1:
		var es2 float64
		es, es2, _ = Moments(t.service())
		wq = MG1Wait(t.Rho/es, es, es2)
	case ModelMG1PS, ModelMG1SRP:
		if metric != "mean_response" {
			return 0, fmt.Errorf("metric %q: %s gives mean_response only", metric, t.Model)
		}
		es, _, _ = Moments(t.service())
		if t.Model == ModelMG1PS {
			return MG1PSResponse(t.Rho, es), nil
		}
		return MG1SRPTResponse(t.Rho/es, t.service())
	}
	switch metric {
	case "mean_wait":
		return wq, nil
	case "mean_response":
		return wq + es, nil
	}
	return 0, fmt.Errorf("metric %q: the queueing models give mean_wait and mean_response only", metric)
}

// String names the model and its parameters: "M/M/16, ρ = 0.8" or
// "M/G/1 (h2, C = 4), ρ = 0.5".
func (t *Theory) String() string {
	switch t.Model {
	case ModelMMc:
		return fmt.Sprintf("M/M/%d, ρ = %g", t.Servers, t.Rho)
	case ModelMG1, ModelMG1PS, ModelMG1SRP:
		s := t.service()
		if s.Kind == workload.ServiceH2 {
			return fmt.Sprintf("%s (H2, C = %g), ρ = %g", t.Model, s.CV, t.Rho)
		}
		return fmt.Sprintf("%s (%s), ρ = %g", t.Model, s.Kind, t.Rho)
	}
	return t.Model
}
