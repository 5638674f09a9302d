package metrics

import (
	"math"
	"slices"
)

// Percentiles are the percentiles of wait, response and bounded slowdown
// that the summary reports (JobStats.Wait, Response and BSLD; columns
// p50_wait ... p99_bsld).
var Percentiles = [4]float64{50, 90, 95, 99}

// Quantiles holds a distribution's Percentiles, in their order.
type Quantiles [4]float64

// NaNQuantiles are the Quantiles of no value.
func NaNQuantiles() Quantiles {
	nan := math.NaN()
	return Quantiles{nan, nan, nan, nan}
}

// Percentile returns the p-th percentile (0 ≤ p ≤ 100) of sorted, which
// is in increasing order without NaN, by linear interpolation between the
// closest ranks: Hyndman & Fan's type 7 ("Sample quantiles in statistical
// packages", The American Statistician 50(4), 1996), the default of R's
// quantile and of NumPy's and pandas' percentile/quantile. With n values
// and h = (n − 1)·p/100, it is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])
// (0-based): the median of an even count is the mean of the middle two,
// p = 0 the minimum, p = 100 the maximum. NaN when sorted is empty. Every
// percentile of schedlab is this one.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := float64(n-1) * p / 100
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	if lo < 0 {
		return sorted[0]
	}
	f := h - float64(lo)
	if f == 0 {
		return sorted[lo]
	}
	return sorted[lo] + f*(sorted[lo+1]-sorted[lo])
}

// QuantilesOf sorts xs in place and returns its Percentiles.
func QuantilesOf(xs []float64) Quantiles {
	if len(xs) == 0 {
		return NaNQuantiles()
	}
	slices.Sort(xs)
	var q Quantiles
	for i, p := range Percentiles {
		q[i] = Percentile(xs, p)
	}
	return q
}
