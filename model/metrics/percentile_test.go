package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Hand-worked values (R's quantile(x, p) and numpy.percentile(x, 100p)
// agree: type 7).
func TestPercentileHandWorked(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		p    float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, 90, 3.7},
		{[]float64{1, 2, 3, 4}, 50, 2.5},
		{[]float64{1, 2, 3, 4}, 0, 1},
		{[]float64{1, 2, 3, 4}, 100, 4},
		{[]float64{10, 20, 30, 40, 50}, 95, 48},
		{[]float64{10, 20, 30, 40, 50}, 25, 20},
		{[]float64{7}, 99, 7},
		{[]float64{0, 0, 0, 100}, 99, 97},
	} {
		if got := Percentile(c.xs, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Percentile(%v, %g) = %g, want %g", c.xs, c.p, got, c.want)
		}
	}
	if !math.IsNaN(Percentile(nil, 50)) {
		t.Error("empty: not NaN")
	}
}

// bruteQuantile is type 7 from the definition, on unsorted data: the
// order statistics x_(k) are found by counting (x_(k) is the value with
// fewer than k values below it and at least k+1 at or below it), then
// interpolated.
func bruteQuantile(xs []float64, p float64) float64 {
	order := func(k int) float64 {
		for _, v := range xs {
			below, atOrBelow := 0, 0
			for _, w := range xs {
				if w < v {
					below++
				}
				if w <= v {
					atOrBelow++
				}
			}
			if below <= k && k < atOrBelow {
				return v
			}
		}
		panic("no order statistic")
	}
	h := float64(len(xs)-1) * p / 100
	lo := int(h)
	if lo == len(xs)-1 {
		return order(lo)
	}
	return order(lo) + (h-float64(lo))*(order(lo+1)-order(lo))
}

// The accumulator's percentiles equal the brute-force definition on
// random samples with many ties, whatever the order of the jobs.
func TestQuantilesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 23))
	for rep := 0; rep < 200; rep++ {
		n := 1 + rng.IntN(60)
		a := NewAccumulator(10)
		var waits, resps, bslds []float64
		for i := 0; i < n; i++ {
			submit := float64(rng.IntN(100))
			start := submit + float64(rng.IntN(5)*rng.IntN(40)) // many zero waits
			run := float64(rng.IntN(30))
			a.Add(submit, start, start+run, run)
			waits = append(waits, start-submit)
			resps = append(resps, start+run-submit)
			bslds = append(bslds, BoundedSlowdown(start+run-submit, run, 10))
		}
		s := a.Stats()
		for k, p := range Percentiles {
			for _, c := range []struct {
				name string
				got  float64
				xs   []float64
			}{{"wait", s.Wait[k], waits}, {"response", s.Response[k], resps}, {"bsld", s.BSLD[k], bslds}} {
				if want := bruteQuantile(c.xs, p); math.Abs(c.got-want) > 1e-9*math.Max(1, want) {
					t.Fatalf("rep %d: p%g %s = %g, brute force %g", rep, p, c.name, c.got, want)
				}
			}
		}
	}
	if s := NewAccumulator(10).Stats(); !math.IsNaN(s.Wait[0]) || !math.IsNaN(s.BSLD[3]) {
		t.Error("no job: percentiles not NaN")
	}
}

// QuantilesOf selects rather than sorts: its values are Percentile's on
// the sorted slice, bit for bit, on random data with many ties and on the
// orders that defeat a naive quickselect (sorted, reversed, all equal,
// organ pipe), at every size around the small-slice cut-off.
func TestQuantilesOfSelectsLikeSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	gens := map[string]func(i, n int) float64{
		"random":   func(i, n int) float64 { return rng.Float64() * 1000 },
		"ties":     func(i, n int) float64 { return float64(rng.IntN(4)) },
		"sorted":   func(i, n int) float64 { return float64(i) },
		"reversed": func(i, n int) float64 { return float64(n - i) },
		"equal":    func(i, n int) float64 { return 3 },
		"pipe":     func(i, n int) float64 { return float64(min(i, n-i)) },
	}
	for name, g := range gens {
		for _, n := range []int{1, 2, 3, 15, 16, 17, 18, 33, 100, 101, 1000, 4099, 20000} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = g(i, n)
			}
			sorted := slices.Clone(xs)
			slices.Sort(sorted)
			q := QuantilesOf(xs)
			for k, p := range Percentiles {
				if want := Percentile(sorted, p); q[k] != want {
					t.Fatalf("%s n=%d: p%g = %v, sorted gives %v", name, n, p, q[k], want)
				}
			}
		}
	}
}

// BenchmarkQuantiles is the percentile cost of a 100,000-job run: the
// three distributions' selection.
func BenchmarkQuantiles(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]float64, 100000)
	for i := range src {
		src[i] = float64(rng.IntN(5) * rng.IntN(100000)) // many zero waits
	}
	xs := make([]float64, len(src))
	for i := 0; i < b.N; i++ {
		for r := 0; r < 3; r++ {
			copy(xs, src)
			QuantilesOf(xs)
		}
	}
}
