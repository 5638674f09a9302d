package malleable

import "math"

// What X_i the generalized allocation weighs (Guha 1995 §4.3, §5.3, §6.2).
const (
	XWork = "work" // remaining work W_i (§5.2, §5.4)
	XAcc  = "acc"  // Acc_i, processor-time received so far (§5.3)
	XTime = "time" // Time_i, time in the system since arrival (§5.3)
	XBeta = "beta" // β_i, the knee k_i of the execution time–efficiency profile (§6.2)
)

// alpha is the Generalized Allocation family (Brecht's, generalised by
// Guha 1995 §4.3): p_i = P·X_i^α / Σ_j X_j^α over the active jobs. α = 0 is
// Equipartition, α → −∞ with X = work is LRWF, α → +∞ MRWF.
//
// Readings (§4.3 leaves them open):
//   - X_i = 0 with α < 0 (Acc_i or Time_i of a job just arrived, β_i = 0 at
//     ε_i = 100/P) has an infinite weight: the jobs with X_i = 0 share P
//     equally and the others get 0 (the limit as X_i → 0). Symmetrically
//     X_i = ∞ (β_i at ε_i = 100) with α > 0 takes everything, with α < 0
//     nothing; α = 0 weighs every job 1 (0⁰ = ∞⁰ = 1).
//   - When every weight is 0 the jobs share P equally (the limit of equal X).
//   - Acc_i is processor-time, ∫p_i dt; work done, ∫γ dt, is the other
//     reading (identical under perfect efficiency, where §5.3 uses it).
//   - Weights are computed as exp(α·ln X_i − max_j α·ln X_j), which cannot
//     overflow at α = −10 and tiny remaining work.
//   - With caps, p_i = min(N_i, θ·X_i^α) (weighted water-filling): the
//     thesis applies N_i to Equipartition and W&E only (§7.5).
type alpha struct {
	x string
	a float64
}

func (r alpha) repartition(c *ctx, act []*Share) {
	c.grow(len(act))
	top := math.Inf(-1)
	for i, s := range act {
		l := 0.0
		if r.a != 0 {
			var x float64
			switch r.x {
			case XWork:
				x = s.w
			case XAcc:
				x = s.acc
			case XTime:
				x = c.now - s.job.Submit
			default:
				x = s.beta
			}
			l = r.a * math.Log(x)
		}
		c.w[i] = l
		top = max(top, l)
		c.lim[i] = s.cap
	}
	for i := range act {
		switch l := c.w[i]; {
		case math.IsInf(top, 1):
			c.w[i] = b2f(math.IsInf(l, 1))
		case math.IsInf(top, -1):
			c.w[i] = 1
		default:
			c.w[i] = math.Exp(l - top)
		}
	}
	fill(c, act, c.P, c.w, c.lim, c.out)
	for i, s := range act {
		s.p = c.out[i]
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
