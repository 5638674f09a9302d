package metrics

import (
	"math"
	"math/bits"
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

// QuantilesOf returns the Percentiles of xs (no NaN), reordering xs in
// place: the order statistics Percentile needs are selected
// (introselect, O(n) expected), not the whole slice sorted; the values are
// those of Percentile on sorted xs, bit for bit.
func QuantilesOf(xs []float64) Quantiles {
	n := len(xs)
	if n == 0 {
		return NaNQuantiles()
	}
	var ks []int
	for _, p := range Percentiles {
		lo := min(int(math.Floor(float64(n-1)*p/100)), n-1)
		for _, k := range []int{lo, lo + 1} {
			if k < n && !slices.Contains(ks, k) {
				ks = append(ks, k)
			}
		}
	}
	slices.Sort(ks)
	depth := 2 * (bits.Len(uint(n)) + 1)
	selectOrder(xs, ks, 0, depth)
	var q Quantiles
	for i, p := range Percentiles {
		q[i] = Percentile(xs, p) // reads only the selected places
	}
	return q
}

// selectOrder reorders xs (positions off.. of the whole slice) so that
// xs[k−off] is the k-th smallest value for every k of ks (ascending,
// within range): quickselect on every side that holds a wanted k, with a
// three-way partition (wait times have many ties) around a median of
// three, sorting small slices, and any slice once depth is spent (so
// that no input is quadratic).
func selectOrder(xs []float64, ks []int, off, depth int) {
	for len(ks) > 0 {
		if len(xs) <= 16 || depth == 0 {
			slices.Sort(xs)
			return
		}
		depth--
		a, b, c := xs[0], xs[len(xs)/2], xs[len(xs)-1]
		pivot := max(min(a, b), min(max(a, b), c))
		// xs[:lt] < pivot, xs[lt:gt] == pivot, xs[gt:] > pivot
		lt, i, gt := 0, 0, len(xs)
		for i < gt {
			switch v := xs[i]; {
			case v < pivot:
				xs[lt], xs[i] = xs[i], xs[lt]
				lt++
				i++
			case v > pivot:
				gt--
				xs[gt], xs[i] = xs[i], xs[gt]
			default:
				i++
			}
		}
		l, _ := slices.BinarySearch(ks, off+lt)
		r, _ := slices.BinarySearch(ks, off+gt)
		selectOrder(xs[:lt], ks[:l], off, depth)
		xs, ks, off = xs[gt:], ks[r:], off+gt
	}
}
