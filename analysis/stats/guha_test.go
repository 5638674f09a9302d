package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNormalisedImprovement: hand-worked. Policy 30, 50 against base 60,
// 100: ratio of means 40/80 = 0.5, %Impr 50. The pairs are exactly
// proportional, so the half-width is 0.
func TestNormalisedImprovement(t *testing.T) {
	x, base := []float64{30, 50}, []float64{60, 100}
	n, err := Normalised(x, base, 0.9)
	if err != nil || n.Mean != 0.5 || n.HalfWidth != 0 {
		t.Errorf("Normalised = %v, %v; want 0.5 ± 0", n, err)
	}
	im, err := Improvement(x, base, 0.9)
	if err != nil || im.Mean != 50 || im.HalfWidth != 0 {
		t.Errorf("Improvement = %v, %v; want 50 ± 0", im, err)
	}
	// Guha's Table 5.1, 90% load, C_W = 1: α = −10 gives 36.5 against
	// 100.1: %Impr 64.
	im, _ = Improvement([]float64{36.5}, []float64{100.1}, 0.9)
	if math.Round(im.Mean) != 64 {
		t.Errorf("Table 5.1's %%Impr: %v, want 64", im.Mean)
	}
}

// TestControlVariate: x = 5 + 2y + small noise, E[y] = 0. The controlled
// mean is near 5 with a far narrower interval than the plain mean, and
// exactly 5 with no noise.
func TestControlVariate(t *testing.T) {
	y := []float64{-1, 1, 2, -2}
	x := make([]float64, len(y))
	for i := range y {
		x[i] = 5 + 2*y[i]
	}
	ci, err := ControlVariateCI(x, []float64{-1, 1, 2, -2}, 0, 0.9)
	if err != nil || math.Abs(ci.Mean-5) > 1e-12 || ci.HalfWidth > 1e-12 {
		t.Errorf("exact line: %v, %v", ci, err)
	}
	// Ȳ ≠ μ: y = 1, 2, 3 (mean 2) with μ = 0: the estimate moves the
	// mean of x (9) back by b·2 = 4.
	ci, _ = ControlVariateCI([]float64{7, 9, 11}, []float64{1, 2, 3}, 0, 0.9)
	if math.Abs(ci.Mean-5) > 1e-12 {
		t.Errorf("shifted control: %v, want 5", ci)
	}
	r := rand.New(rand.NewPCG(1, 2))
	xs, ys := make([]float64, 30), make([]float64, 30)
	for i := range xs {
		ys[i] = r.NormFloat64() * 3
		xs[i] = 5 + 2*ys[i] + 0.1*r.NormFloat64()
	}
	cv, _ := ControlVariateCI(xs, ys, 0, 0.9)
	plain := MeanCI(xs, 0.9)
	if !cv.Contains(5) || cv.HalfWidth > plain.HalfWidth/10 {
		t.Errorf("controlled %v, plain %v", cv, plain)
	}
	if _, err := ControlVariateCI(xs[:2], ys[:2], 0, 0.9); err == nil {
		t.Error("two replications accepted")
	}
}
