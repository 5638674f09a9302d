package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestTQuantileTable(t *testing.T) {
	// Values from standard t tables (two-sided 95% and 90%).
	cases := []struct {
		p, df, want float64
	}{
		{0.975, 1, 12.7062},
		{0.975, 4, 2.7764},
		{0.975, 9, 2.2622},
		{0.975, 29, 2.0452},
		{0.95, 9, 1.8331},
		{0.95, 19, 1.7291},
		{0.995, 10, 3.1693},
	}
	for _, c := range cases {
		got := TQuantile(c.p, c.df)
		if math.Abs(got-c.want) > 5e-4 {
			t.Errorf("TQuantile(%v, %v) = %v, want %v", c.p, c.df, got, c.want)
		}
		// Round trip through the distribution function.
		if cdf := (distuv.StudentsT{Mu: 0, Sigma: 1, Nu: c.df}).CDF(got); math.Abs(cdf-c.p) > 1e-9 {
			t.Errorf("CDF(Quantile(%v)) = %v", c.p, cdf)
		}
	}
}

func TestMeanCIHandWorked(t *testing.T) {
	// 1..5: mean 3, s = sqrt(2.5), hw = t_{.975,4} * s / sqrt(5) = 2.776445 * 0.707107.
	ci := MeanCI([]float64{1, 2, 3, 4, 5}, 0.95)
	if ci.Mean != 3 || ci.N != 5 {
		t.Fatalf("mean %v n %d", ci.Mean, ci.N)
	}
	if want := 2.7764451 * math.Sqrt(2.5) / math.Sqrt(5); math.Abs(ci.HalfWidth-want) > 1e-6 {
		t.Errorf("half-width %v, want %v", ci.HalfWidth, want)
	}
	if one := MeanCI([]float64{7}, 0.95); one.Mean != 7 || one.Defined() {
		t.Errorf("single observation: %+v", one)
	}
	if none := MeanCI(nil, 0.95); !math.IsNaN(none.Mean) {
		t.Errorf("empty: %+v", none)
	}
}

// Coverage of the true mean by Student-t intervals from normal samples with
// known mean and variance must be close to nominal.
func TestMeanCICoverageNormal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		n     int
		level float64
	}{{3, 0.95}, {10, 0.90}, {10, 0.95}, {30, 0.99}} {
		const trials = 4000
		mu, sigma := 5.0, 2.0
		hit := 0
		xs := make([]float64, tc.n)
		hwSum := 0.0
		for range trials {
			for i := range xs {
				xs[i] = mu + sigma*rng.NormFloat64()
			}
			ci := MeanCI(xs, tc.level)
			hwSum += ci.HalfWidth
			if ci.Contains(mu) {
				hit++
			}
		}
		cov := float64(hit) / trials
		// 4 binomial standard errors.
		se := math.Sqrt(tc.level * (1 - tc.level) / trials)
		if math.Abs(cov-tc.level) > 4*se {
			t.Errorf("n=%d level=%v: coverage %v", tc.n, tc.level, cov)
		}
		// Mean half-width: E[s] = sigma*c4(n); hw = t*E[s]/sqrt(n).
		n := float64(tc.n)
		c4 := math.Sqrt(2/(n-1)) * math.Exp(lgamma(n/2)-lgamma((n-1)/2))
		want := TQuantile(1-(1-tc.level)/2, n-1) * sigma * c4 / math.Sqrt(n)
		if got := hwSum / trials; math.Abs(got-want)/want > 0.03 {
			t.Errorf("n=%d: mean half-width %v, want %v", tc.n, got, want)
		}
	}
}

func lgamma(x float64) float64 { v, _ := math.Lgamma(x); return v }

func ar1(rng *rand.Rand, n int, phi float64) []float64 {
	xs := make([]float64, n)
	x := 0.0
	for i := range xs {
		x = phi*x + rng.NormFloat64()
		xs[i] = x
	}
	return xs
}

// Batch means on AR(1) data (true mean 0, strong positive correlation) keep
// close to nominal coverage where the naive i.i.d. interval fails badly.
func TestBatchMeansAR1(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const trials = 300
	bmHit, naiveHit := 0, 0
	for range trials {
		xs := ar1(rng, 20000, 0.9)
		ci, err := BatchMeans(xs, 20, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if ci.N != 20 {
			t.Fatalf("N = %d", ci.N)
		}
		if ci.Contains(0) {
			bmHit++
		}
		if MeanCI(xs, 0.95).Contains(0) {
			naiveHit++
		}
	}
	bm, naive := float64(bmHit)/trials, float64(naiveHit)/trials
	if bm < 0.90 || bm > 0.99 {
		t.Errorf("batch-means coverage %v, want ≈ 0.95", bm)
	}
	if naive > 0.6 {
		t.Errorf("naive coverage %v: the AR(1) test data is not correlated enough", naive)
	}
}

func TestBatchMeansExact(t *testing.T) {
	// 11 observations in 2 batches of 5: the first one is dropped.
	xs := []float64{100, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3}
	ci, err := BatchMeans(xs, 2, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	// Batch means 1 and 3: mean 2, s = sqrt(2), hw = 12.7062*sqrt(2)/sqrt(2).
	if ci.Mean != 2 || math.Abs(ci.HalfWidth-12.7062047) > 1e-5 {
		t.Errorf("%+v", ci)
	}
	if _, err := BatchMeans(xs, 1, 0.95); err == nil {
		t.Error("1 batch accepted")
	}
	if _, err := BatchMeans(xs[:3], 5, 0.95); err == nil {
		t.Error("3 observations in 5 batches accepted")
	}
}

func TestMSER5Transient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// Exponentially decaying transient from 20 over ~100 observations,
	// then stationary N(0,1).
	xs := make([]float64, 2000)
	for i := range xs {
		xs[i] = 20*math.Exp(-float64(i)/30) + rng.NormFloat64()
	}
	d := MSER5(xs)
	if d < 60 || d > 300 {
		t.Errorf("MSER-5 truncation %d, want the end of the transient (≈100–200)", d)
	}
	if d%5 != 0 {
		t.Errorf("truncation %d not a multiple of 5", d)
	}
	rest, k := Warmup{MSER5: true}.Apply(xs)
	if k != d || len(rest) != len(xs)-d {
		t.Errorf("Apply: %d %d", k, len(rest))
	}
	// A stationary series needs no (or very little) deletion.
	flat := make([]float64, 2000)
	for i := range flat {
		flat[i] = rng.NormFloat64()
	}
	if d := MSER5(flat); d > 500 {
		t.Errorf("stationary series truncated at %d", d)
	}
	// Fixed counts.
	if rest, k := (Warmup{Count: 10}).Apply(xs[:5]); k != 5 || len(rest) != 0 {
		t.Errorf("fixed count beyond length: %d %d", k, len(rest))
	}
}

func TestPairedRelDiff(t *testing.T) {
	// Policy is exactly 10% worse in every replication: ratio 0.1, hw 0.
	base := []float64{10, 20, 40}
	x := []float64{11, 22, 44}
	ci, err := PairedRelDiff(x, base, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ci.Mean-0.1) > 1e-12 || math.Abs(ci.HalfWidth) > 1e-12 {
		t.Errorf("%+v", ci)
	}
	d, err := PairedDiff(x, base, 0.95)
	if err != nil || math.Abs(d.Mean-(1+2+4)/3.0) > 1e-12 {
		t.Errorf("PairedDiff %+v %v", d, err)
	}
	if _, err := PairedRelDiff(x, base[:2], 0.95); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := PairedRelDiff([]float64{1}, []float64{0}, 0.95); err == nil {
		t.Error("zero baseline accepted")
	}
}

func TestSteadyState(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	// Transient of 300 observations from 50, then AR(1) around 10.
	xs := ar1(rng, 30000, 0.8)
	for i := range xs {
		xs[i] += 10
		if i < 300 {
			xs[i] += 50 * (1 - float64(i)/300)
		}
	}
	ci, d, err := SteadyState(xs, 20, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if d < 200 || d > 1000 {
		t.Errorf("deleted %d, want the transient (~300)", d)
	}
	if !ci.Contains(10) && math.Abs(ci.Mean-10) > 3*ci.HalfWidth {
		t.Errorf("steady-state mean %v, want ≈ 10", ci)
	}
	// Without deletion the transient biases the mean upwards.
	if all := MeanCI(xs, 0.95).Mean; all-10 < 0.2 {
		t.Errorf("test transient too weak: %v", all)
	}
}

// TestPairedRelDiffRatioOfMeans: the relative difference is Guha's
// (B.6) ratio of mean values, x̄/b̄ − 1, not the mean of per-replication
// ratios (which here would be +50%: one replication doubles a tiny value).
// Half-width by the delta method: t_{n−1} · s_d / (√n · |b̄|) with
// d_i = x_i − R̂·b_i (hand-worked: R̂ = 1020/1010, d = ±9.90099,
// s_d = 14.0021, t_{0.975,1} = 12.7062).
func TestPairedRelDiffRatioOfMeans(t *testing.T) {
	ci, err := PairedRelDiff([]float64{20, 1000}, []float64{10, 1000}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ci.Mean-0.00990099009900991) > 1e-12 || math.Abs(ci.HalfWidth-0.24911684611655216) > 1e-9 || ci.N != 2 {
		t.Errorf("got %+v, want mean 0.0099 ± 0.2491 (n=2)", ci)
	}
	// A single zero baseline value is fine when the baseline mean is not 0.
	if ci, err := PairedRelDiff([]float64{1, 3}, []float64{0, 2}, 0.95); err != nil || math.Abs(ci.Mean-1) > 1e-12 {
		t.Errorf("zero in one replication: %+v %v", ci, err)
	}
	// Non-finite pairs (power with no wait) are left out and counted out of N.
	if ci, err := PairedRelDiff([]float64{math.Inf(1), 11, 22}, []float64{5, 10, 20}, 0.95); err != nil || ci.N != 2 || math.Abs(ci.Mean-0.1) > 1e-12 {
		t.Errorf("infinite value: %+v %v", ci, err)
	}
}
