package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Service-time distributions (flag --service).
const (
	ServiceExp     = "exp"     // exponential (Chu §3; GABL A.4)
	ServiceUniform = "uniform" // uniform on (0, 2·mean) (Mohapatra, Yu & Das 1995 §4; range inferred)
	ServiceDet     = "det"     // deterministic, always the mean
	ServiceH2      = "h2"      // two-stage hyperexponential (Mohapatra, Yu & Das 1995 §4; Guha 1995 §3.1)
)

// H2 parameterisations.
const (
	H2Alpha    = "alpha"    // Mohapatra, Yu & Das 1995: branch probability α, C_x; branch means from the paper's formulas
	H2Balanced = "balanced" // Guha 1995: balanced means, p₁ = ½(1+√((C²−1)/(C²+1)))
)

// Service describes a service-time (or work) distribution by its mean.
type Service struct {
	Kind  string  // ServiceExp, ServiceUniform, ServiceDet or ServiceH2
	Mean  float64 // mean (> 0)
	CV    float64 // coefficient of variation (H2 only; ≥ 1)
	H2    string  // H2Alpha (default) or H2Balanced (H2 only)
	Alpha float64 // probability of the short branch (H2Alpha only; in (0, 1))
}

// sampler is a compiled service distribution.
type sampler struct {
	kind   string
	mean   float64
	p1     float64 // H2: probability of branch 1
	m1, m2 float64 // H2: branch means
}

// H2Branches returns the branch probability p₁ and the branch means m₁ and
// m₂ of the two-stage hyperexponential with the given mean and CV.
//
// With H2Alpha (Mohapatra, Yu and Das 1995, §4), p₁ = α and
//
//	m₂ = 1/λ_l = m + m·√((C²−1)·α / (2(1−α)))       (long branch)
//	m₁ = 1/λ_s = m − m·√((C²−1)·(1−α) / (2α))       (short branch)
//
// (mean 5, C = 4, α = 0.95 gives 1.8586 and 64.687). With H2Balanced (Guha,
// Guha 1995 §3.1: "hypergeometric", read as H2 with balanced means)
// p₁ = ½(1+√((C²−1)/(C²+1))) and m_j = m/(2p_j).
func H2Branches(form string, mean, cv, alpha float64) (p1, m1, m2 float64, err error) {
	if !(cv >= 1) || math.IsInf(cv, 0) {
		return 0, 0, 0, fmt.Errorf("h2: coefficient of variation %g must be ≥ 1 and finite", cv)
	}
	c2 := cv*cv - 1
	switch form {
	case H2Balanced:
		p1 = 0.5 * (1 + math.Sqrt(c2/(cv*cv+1)))
		p2 := 1 - p1
		if p2 <= 0 { // C so large that p₂ underflows
			return 0, 0, 0, fmt.Errorf("h2: coefficient of variation %g too large", cv)
		}
		return p1, mean / (2 * p1), mean / (2 * p2), nil
	case H2Alpha, "":
		if !(alpha > 0 && alpha < 1) {
			return 0, 0, 0, fmt.Errorf("h2: --h2-alpha %g must be in (0, 1)", alpha)
		}
		m1 = mean - mean*math.Sqrt(c2*(1-alpha)/(2*alpha))
		m2 = mean + mean*math.Sqrt(c2*alpha/(2*(1-alpha)))
		if m1 <= 0 {
			return 0, 0, 0, fmt.Errorf("h2: α = %g cannot give C_x = %g (short-branch mean %.4g ≤ 0); need C_x² < 1 + 2α/(1−α)", alpha, cv, m1)
		}
		return alpha, m1, m2, nil
	}
	return 0, 0, 0, fmt.Errorf("h2: unknown parameterisation %q (want %s or %s)", form, H2Alpha, H2Balanced)
}

// compile checks s and returns its sampler with the given mean (the
// service mean, or the mean total demand under independent coupling).
func (s Service) compile(mean float64) (sampler, error) {
	if !(mean > 0) || math.IsInf(mean, 0) {
		return sampler{}, fmt.Errorf("service: mean %g must be positive and finite", s.Mean)
	}
	sp := sampler{kind: s.Kind, mean: mean}
	switch s.Kind {
	case ServiceExp, ServiceUniform, ServiceDet:
	case ServiceH2:
		var err error
		sp.p1, sp.m1, sp.m2, err = H2Branches(s.H2, mean, s.CV, s.Alpha)
		if err != nil {
			return sampler{}, err
		}
	default:
		return sampler{}, fmt.Errorf("service: unknown distribution %q (want exp, uniform, det or h2)", s.Kind)
	}
	return sp, nil
}

// sample draws one value.
func (sp *sampler) sample(r *rand.Rand) float64 {
	switch sp.kind {
	case ServiceExp:
		return sp.mean * exp1(r)
	case ServiceUniform:
		return 2 * sp.mean * r.Float64()
	case ServiceDet:
		return sp.mean
	}
	if r.Float64() < sp.p1 {
		return sp.m1 * exp1(r)
	}
	return sp.m2 * exp1(r)
}

// params records s in canonical strings under prefix.
func (s Service) params(p map[string]string) {
	p["service"] = s.Kind
	p["mean"] = ftoa(s.Mean)
	if s.Kind == ServiceH2 {
		p["cv"] = ftoa(s.CV)
		form := s.H2
		if form == "" {
			form = H2Alpha
		}
		p["h2"] = form
		if form == H2Alpha {
			p["h2_alpha"] = ftoa(s.Alpha)
		}
	}
}
