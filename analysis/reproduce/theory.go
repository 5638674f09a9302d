package reproduce

import (
	"errors"
	"fmt"
	"math"

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
//
// The metric decides the value: mean_wait is W_q, mean_response W_q + E[S].
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
	ModelMMc = "M/M/c"
	ModelMG1 = "M/G/1"
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
	case ModelMG1:
		if t.Servers > 1 {
			return fmt.Errorf("servers %d: M/G/1 has one server", t.Servers)
		}
		if _, _, err := Moments(t.service()); err != nil {
			return err
		}
	default:
		return fmt.Errorf("model %q: want %q or %q", t.Model, ModelMMc, ModelMG1)
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
	case ModelMG1:
		s := t.service()
		if s.Kind == workload.ServiceH2 {
			return fmt.Sprintf("M/G/1 (H2, C = %g), ρ = %g", s.CV, t.Rho)
		}
		return fmt.Sprintf("M/G/1 (%s), ρ = %g", s.Kind, t.Rho)
	}
	return t.Model
}
