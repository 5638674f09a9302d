package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// User-estimate models (flag --estimates).
const (
	EstimatesExact  = "exact"  // estimate = actual run time
	EstimatesEET    = "eet"    // Chu §7.3: Normal(y, c·y) clipped at 0
	EstimatesFactor = "factor" // estimate = x · actual run time
)

// Estimates is a user runtime-estimate model.
type Estimates struct {
	Kind string  // EstimatesExact, EstimatesEET or EstimatesFactor
	C    float64 // EET: relative standard deviation c ≥ 0 (Chu uses 0, 0.5, 1)
	X    float64 // factor: multiplier x > 0
}

// ParseEstimates parses "exact", "eet:c=0.5" or "factor:x=2".
func ParseEstimates(s string) (Estimates, error) {
	kind, arg, _ := strings.Cut(strings.TrimSpace(s), ":")
	num := func(key string) (float64, error) {
		k, v, ok := strings.Cut(arg, "=")
		if !ok || k != key {
			return 0, fmt.Errorf("estimates %q: want %s:%s=VALUE", s, kind, key)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("estimates %q: %s is not a number", s, key)
		}
		return f, nil
	}
	switch kind {
	case EstimatesExact:
		if arg != "" {
			return Estimates{}, fmt.Errorf("estimates %q: exact takes no parameter", s)
		}
		return Estimates{Kind: kind}, nil
	case EstimatesEET:
		c, err := num("c")
		if err != nil {
			return Estimates{}, err
		}
		if c < 0 {
			return Estimates{}, fmt.Errorf("estimates %q: c must be ≥ 0", s)
		}
		return Estimates{Kind: kind, C: c}, nil
	case EstimatesFactor:
		x, err := num("x")
		if err != nil {
			return Estimates{}, err
		}
		if x <= 0 {
			return Estimates{}, fmt.Errorf("estimates %q: x must be > 0", s)
		}
		return Estimates{Kind: kind, X: x}, nil
	}
	return Estimates{}, fmt.Errorf("estimates %q: unknown model (want exact, eet:c=C or factor:x=X)", s)
}

// check validates e as ParseEstimates validates the flag (the zero Kind
// means exact).
func (e Estimates) check() error {
	switch e.Kind {
	case "", EstimatesExact:
		return nil
	case EstimatesEET:
		if !(e.C >= 0) || math.IsInf(e.C, 0) {
			return fmt.Errorf("estimates eet: c = %g must be ≥ 0 and finite", e.C)
		}
		return nil
	case EstimatesFactor:
		if !(e.X > 0) || math.IsInf(e.X, 0) {
			return fmt.Errorf("estimates factor: x = %g must be > 0 and finite", e.X)
		}
		return nil
	}
	return fmt.Errorf("estimates %q: unknown model (want exact, eet or factor)", e.Kind)
}

// String returns the canonical spelling of e.
func (e Estimates) String() string {
	switch e.Kind {
	case EstimatesEET:
		return "eet:c=" + ftoa(e.C)
	case EstimatesFactor:
		return "factor:x=" + ftoa(e.X)
	}
	return EstimatesExact
}

// estimate returns the user estimate of a job whose actual run time is y.
func (e Estimates) estimate(r *rand.Rand, y float64) float64 {
	switch e.Kind {
	case EstimatesEET:
		return max(0, y+e.C*y*r.NormFloat64())
	case EstimatesFactor:
		return e.X * y
	}
	return y
}
