package malleable

import "math"

// The f_i rules of the Work & Efficiency family (Guha 1995 §4.4, §7.2–7.4).
const (
	FKnee = "wk" // W&k_i: f_i = k_i = β_i, at most P (§7.2; also written W&β_i)
	FEff  = "we" // W&ε_i: f_i = ε_i·P/100 (§7.3)
	FF    = "wf" // W&F(ε_i): the piecewise-linear F of §7.4
)

// workEff is the Work & Efficiency family (Guha 1995 §4.4): phase 1 takes
// the active jobs by increasing remaining work W_i and gives each
// p_i = min(r, f_i), r ← r − p_i, from r = P ("r = p" in the text: P, reset
// at every repartition); phase 2 divides what is left, r, equally among
// the active jobs.
//
// With caps (§7.5, "processor allocations to job J_i is bounded by the
// N_i value"): phase 1 gives min(r, f_i, N_i), and phase 2, our reading of
// what the text leaves open, water-fills r in equal increments over the
// headroom N_i − p_i (a job at its cap takes no more; the excess goes to
// the others; what no job can take stays idle).
type workEff struct{ f string }

func (r workEff) repartition(c *ctx, act []*Share) {
	c.grow(len(act))
	left := c.P
	for _, i := range byWork(c, act, false) {
		s := act[i]
		s.p = min(left, r.target(c.P, s), s.cap)
		left -= s.p
	}
	if left <= 1e-12*c.P {
		return
	}
	for i, s := range act {
		c.w[i] = 1
		c.lim[i] = s.cap - s.p
	}
	fill(c, act, left, c.w, c.lim, c.out)
	for i, s := range act {
		s.p += c.out[i]
	}
}

// target is f_i.
func (r workEff) target(P float64, s *Share) float64 {
	switch r.f {
	case FKnee:
		return min(s.beta, P)
	case FEff:
		return s.eps * P / 100
	}
	return F(s.eps) * P / 100
}

// F is the W&F(ε) allocation of Guha 1995 §7.4, in percent of P (the
// thesis defines it for P = 100 and says "a similar function could be
// used when P ≠ 100": we scale it by P/100): ε on [1, 20] and [80, 99],
// joined linearly through F(50) = 30: (ε + 40)/3 on (20, 50], (ε − 32)·5/3
// on (50, 80). Values outside [1, 99] follow the end pieces (F = ε: ε = 100
// gives all P, as perfect efficiency should).
func F(eps float64) float64 {
	switch {
	case eps <= 20:
		return eps
	case eps <= 50:
		return (eps-20)*10/30 + 20
	case eps < 80:
		return (eps-50)*50/30 + 30
	}
	return math.Min(eps, 100)
}
