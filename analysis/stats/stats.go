// Package stats holds the output-analysis statistics of simulation studies:
// Student-t confidence intervals across independent replications, batch
// means for a single long run, warm-up (initial transient) deletion by a
// fixed count or by MSER-5, and relative differences to a baseline.
//
// References: Law, "Simulation Modeling and Analysis" (replication/deletion
// and batch means); White (1997) and Spratt (1998) for MSER and MSER-5.
package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// CI is a two-sided confidence interval for a mean: Mean ± HalfWidth.
// HalfWidth is NaN when the interval is undefined (fewer than two
// observations or batches).
type CI struct {
	Mean      float64 // point estimate
	HalfWidth float64 // half-width of the interval; NaN when undefined
	N         int     // number of observations (replications or batches) behind it
	Level     float64 // confidence level, e.g. 0.95
}

// Lo is the lower end of the interval.
func (c CI) Lo() float64 { return c.Mean - c.HalfWidth }

// Hi is the upper end of the interval.
func (c CI) Hi() float64 { return c.Mean + c.HalfWidth }

// Defined reports whether the interval has a finite half-width.
func (c CI) Defined() bool { return !math.IsNaN(c.HalfWidth) && !math.IsInf(c.HalfWidth, 0) }

// Contains reports whether x lies in the closed interval.
func (c CI) Contains(x float64) bool { return c.Defined() && c.Lo() <= x && x <= c.Hi() }

// String formats the interval as "mean ± half-width" (or just the mean).
func (c CI) String() string {
	if !c.Defined() {
		return fmt.Sprintf("%.4g", c.Mean)
	}
	return fmt.Sprintf("%.4g ± %.3g", c.Mean, c.HalfWidth)
}

// TQuantile returns the p-quantile of Student's t distribution with df
// degrees of freedom.
func TQuantile(p, df float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}

// MeanCI returns the Student-t confidence interval at the given level for
// the mean of independent, identically distributed observations xs (e.g.
// one value per independent replication): mean ± t_{1-α/2, n-1} s/√n.
// With fewer than two observations the half-width is NaN.
func MeanCI(xs []float64, level float64) CI {
	n := len(xs)
	ci := CI{N: n, Level: level, HalfWidth: math.NaN(), Mean: math.NaN()}
	if n == 0 {
		return ci
	}
	ci.Mean = stat.Mean(xs, nil)
	if n < 2 {
		return ci
	}
	s := stat.StdDev(xs, nil)
	ci.HalfWidth = TQuantile(1-(1-level)/2, float64(n-1)) * s / math.Sqrt(float64(n))
	return ci
}

// ErrTooFew is returned when a series is too short for the method.
var ErrTooFew = errors.New("too few observations")

// BatchMeans returns the batch-means confidence interval for the steady-state
// mean of one long, autocorrelated output series xs: the series is cut into
// k contiguous batches of equal size b = ⌊n/k⌋ (the first n − k·b
// observations, the oldest, are dropped), and the k batch means are treated
// as independent observations with a t_{k−1} quantile. k must be ≥ 2 and
// n ≥ k. Batches must be long compared with the correlation time for the
// interval to be valid; 10 to 30 batches is the usual choice.
func BatchMeans(xs []float64, k int, level float64) (CI, error) {
	if k < 2 {
		return CI{}, fmt.Errorf("batch means: %d batches, need at least 2", k)
	}
	if len(xs) < k {
		return CI{}, fmt.Errorf("batch means: %d observations for %d batches: %w", len(xs), k, ErrTooFew)
	}
	b := len(xs) / k
	off := len(xs) - k*b
	means := make([]float64, k)
	for i := range means {
		means[i] = stat.Mean(xs[off+i*b:off+(i+1)*b], nil)
	}
	ci := MeanCI(means, level)
	// The point estimate is the grand mean of the kept observations, which
	// equals the mean of the equal-size batch means.
	return ci, nil
}

// MSER5 returns the MSER-5 truncation point of the series xs: the number of
// leading observations to delete as warm-up. The series is averaged in
// non-overlapping batches of 5 (a trailing partial batch is ignored); for
// each candidate d (in batches) from 0 to m/2 the statistic
//
//	MSER(d) = Σ_{j>d} (z_j − z̄_d)² / (m − d)²
//
// is computed, and the d minimising it (the smallest on ties) gives a
// truncation of 5·d observations. The search is limited to the first half
// of the series, as usual, because the statistic becomes unstable at the end.
func MSER5(xs []float64) int {
	const b = 5
	m := len(xs) / b
	if m < 2 {
		return 0
	}
	z := make([]float64, m)
	for j := range z {
		z[j] = stat.Mean(xs[j*b:(j+1)*b], nil)
	}
	// Suffix sums for O(m) evaluation.
	sum := make([]float64, m+1)
	sq := make([]float64, m+1)
	for j := m - 1; j >= 0; j-- {
		sum[j] = sum[j+1] + z[j]
		sq[j] = sq[j+1] + z[j]*z[j]
	}
	best, bestD := math.Inf(1), 0
	for d := 0; d <= m/2; d++ {
		n := float64(m - d)
		mean := sum[d] / n
		ss := sq[d] - n*mean*mean
		if ss < 0 {
			ss = 0
		}
		v := ss / (n * n)
		if v < best {
			best, bestD = v, d
		}
	}
	return bestD * b
}

// Warmup says how many leading observations of a series to delete.
type Warmup struct {
	Count int  // fixed number of observations to delete (used when MSER5 is false)
	MSER5 bool // choose the count with MSER-5 instead
}

// Apply returns xs without its warm-up and the number of deleted
// observations. A fixed count larger than the series deletes everything.
func (w Warmup) Apply(xs []float64) ([]float64, int) {
	d := w.Count
	if w.MSER5 {
		d = MSER5(xs)
	}
	if d < 0 {
		d = 0
	}
	if d > len(xs) {
		d = len(xs)
	}
	return xs[d:], d
}

// RelDiff is the relative difference of a policy to a baseline,
// (policy − baseline) / baseline, as a confidence interval.
type RelDiff = CI

// PairedRelDiff returns the confidence interval of the relative difference
// of a policy to a baseline from paired observations: x[i] and base[i] come
// from the same replication (common random numbers: the same trace under
// both policies). The point estimate is the ratio of the means minus one,
// x̄/b̄ − 1, Guha's %Impr/100 with the sign reversed (Guha 1995 B.6 defines
// it on mean response times), not the mean of per-replication ratios,
// which estimates a different (and upward-biased) quantity. The half-width
// is the delta-method (ratio-estimator) interval of Law, "Simulation
// Modeling and Analysis": t_{1−α/2, n−1} · s_d / (√n · |b̄|), where s_d is
// the sample standard deviation of d_i = x_i − R̂·b_i and R̂ = x̄/b̄; it is
// 0 when x is exactly proportional to base. Pairs with a NaN or infinite
// value are left out (N counts the pairs used); a baseline mean of 0 is an
// error. With one pair the half-width is NaN.
func PairedRelDiff(x, base []float64, level float64) (RelDiff, error) {
	if len(x) != len(base) {
		return CI{}, fmt.Errorf("paired relative difference: %d observations against %d baseline observations", len(x), len(base))
	}
	var xs, bs []float64
	for i := range x {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) || math.IsNaN(base[i]) || math.IsInf(base[i], 0) {
			continue
		}
		xs, bs = append(xs, x[i]), append(bs, base[i])
	}
	if len(xs) == 0 {
		return CI{}, fmt.Errorf("paired relative difference: no usable pair: %w", ErrTooFew)
	}
	xm, bm := stat.Mean(xs, nil), stat.Mean(bs, nil)
	if bm == 0 {
		return CI{}, errors.New("paired relative difference: baseline mean is 0")
	}
	r := xm / bm
	n := len(xs)
	ci := CI{Mean: r - 1, HalfWidth: math.NaN(), N: n, Level: level}
	if n < 2 {
		return ci, nil
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = xs[i] - r*bs[i]
	}
	sd := stat.StdDev(d, nil)
	ci.HalfWidth = TQuantile(1-(1-level)/2, float64(n-1)) * sd / (math.Sqrt(float64(n)) * math.Abs(bm))
	return ci, nil
}

// PairedDiff returns the confidence interval of the mean difference x − y
// from paired observations (same replication under both settings).
func PairedDiff(x, y []float64, level float64) (CI, error) {
	if len(x) != len(y) {
		return CI{}, fmt.Errorf("paired difference: %d observations against %d", len(x), len(y))
	}
	if len(x) == 0 {
		return CI{}, fmt.Errorf("paired difference: %w", ErrTooFew)
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	return MeanCI(d, level), nil
}

// SteadyState estimates the steady-state mean of one long output series
// (e.g. response times in arrival order): the warm-up is deleted with
// MSER-5, and the remaining observations give a batch-means interval with
// the given number of batches. It returns the interval and the number of
// deleted observations.
func SteadyState(xs []float64, batches int, level float64) (CI, int, error) {
	rest, d := Warmup{MSER5: true}.Apply(xs)
	ci, err := BatchMeans(rest, batches, level)
	return ci, d, err
}
