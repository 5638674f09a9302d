package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// Normalised returns Guha's normalised mean response R̄(policy)/R̄(base)
// (K. Guha, "Using Parallel Program Characteristics in Dynamic
// Multiprocessor Allocation Policies", York University CS-95-03, 1995,
// Figs. 6.3, 7.x: R/R_EQ with base = Equipartition) from paired
// replications, as a ratio of means with PairedRelDiff's delta-method
// confidence interval.
func Normalised(x, base []float64, level float64) (CI, error) {
	rd, err := PairedRelDiff(x, base, level)
	if err != nil {
		return CI{}, err
	}
	rd.Mean++
	return rd, nil
}

// Improvement returns Guha's %Impr = (R̄(base) − R̄(policy))/R̄(base) × 100
// (Guha 1995, Table 5.1, base α = 0): positive when the policy is better,
// from paired replications, with PairedRelDiff's interval in percent.
func Improvement(x, base []float64, level float64) (CI, error) {
	rd, err := PairedRelDiff(x, base, level)
	if err != nil {
		return CI{}, err
	}
	rd.Mean, rd.HalfWidth = -100*rd.Mean, 100*rd.HalfWidth
	return rd, nil
}

// ControlVariateCI returns the control-variate estimate of the mean of x
// and its confidence interval, from independent replications (x_i, y_i)
// where the control y has known mean mu (Law, "Simulation Modeling and
// Analysis", §11.4; Lavenberg & Welch 1981): x̄ − b̂(ȳ − mu), b̂ the least-
// squares slope of x on y, with the regression's standard error of the
// intercept at mu and k − 2 degrees of freedom. A replication's mean
// response against its mean work narrows the interval 2–3 times for
// Guha's C_W = 5; at C_W = 30 the response is far from linear in the mean
// work and the adjusted mean can mislead (model/malleable's queue tests).
// At least three replications are needed.
func ControlVariateCI(x, y []float64, mu, level float64) (CI, error) {
	k := len(x)
	if len(y) != k {
		return CI{}, fmt.Errorf("control variate: %d observations against %d controls", k, len(y))
	}
	if k < 3 {
		return CI{}, fmt.Errorf("control variate: %d replications: %w", k, ErrTooFew)
	}
	ym := stat.Mean(y, nil)
	sxy, syy := 0.0, 0.0
	xm := stat.Mean(x, nil)
	for i := range x {
		sxy += (x[i] - xm) * (y[i] - ym)
		syy += (y[i] - ym) * (y[i] - ym)
	}
	if syy == 0 {
		return MeanCI(x, level), nil
	}
	b := sxy / syy
	rss := 0.0
	for i := range x {
		r := x[i] - xm - b*(y[i]-ym)
		rss += r * r
	}
	s2 := rss / float64(k-2)
	se := math.Sqrt(s2 * (1/float64(k) + (ym-mu)*(ym-mu)/syy))
	return CI{Mean: xm - b*(ym-mu), HalfWidth: TQuantile(1-(1-level)/2, float64(k-2)) * se, N: k, Level: level}, nil
}
