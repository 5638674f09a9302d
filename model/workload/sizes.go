package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/model/policy"
)

// Job-size distributions (flag --size). Which ones apply depends on how
// jobs ask for processors on the machine (policy.Family.Request); see
// SizeNames.
const (
	SizeUniform          = "uniform"
	SizeIncreasing       = "increasing"        // mesh: Zhu's increasing sides (Chu §3)
	SizeDecreasing       = "decreasing"        // mesh: Zhu's decreasing sides (Chu §3)
	SizeSquareUniform    = "square-uniform"    // mesh: w = h, one uniform draw (Chu Ch. 4)
	SizeSquareIncreasing = "square-increasing" // mesh: w = h, one increasing draw
	SizeSquareDecreasing = "square-decreasing" // mesh: w = h, one decreasing draw
	SizeExponential      = "exponential"       // mesh sides or flat sizes: discretised truncated exponential
	SizeNormal           = "normal"            // cube: Mohapatra, Yu & Das 1995's truncated normal dimension table
	SizeLog2             = "log2"              // flat: 2^k with k uniform on 0..⌊log2 max⌋
)

// SizeNames lists the size distributions valid for each form of request
// (policy.Family.Request): w×h submeshes, subcubes, processor counts.
var SizeNames = map[string][]string{
	policy.RequestRect:    {SizeUniform, SizeIncreasing, SizeDecreasing, SizeSquareUniform, SizeSquareIncreasing, SizeSquareDecreasing, SizeExponential},
	policy.RequestSubcube: {SizeUniform, SizeNormal},
	policy.RequestCount:   {SizeUniform, SizeExponential, SizeLog2},
}

// Zhu's interval distributions for mesh sides, as given for a 32-wide mesh
// (Chu 1995 §3, after Zhu [57]): upper bounds of the intervals and their
// probabilities; the value is uniform inside the chosen interval.
var (
	increasingBounds = []int{16, 24, 28, 32}
	increasingProbs  = []float64{0.2, 0.2, 0.2, 0.4}
	decreasingBounds = []int{4, 8, 16, 32}
	decreasingProbs  = []float64{0.4, 0.2, 0.2, 0.2}
)

// discrete is a distribution on the integers lo..lo+len(pmf)-1.
type discrete struct {
	lo  int
	pmf []float64
	cdf []float64
}

func newDiscrete(lo int, pmf []float64) *discrete {
	d := &discrete{lo: lo, pmf: pmf, cdf: make([]float64, len(pmf))}
	var s float64
	for _, p := range pmf {
		s += p
	}
	var c float64
	for i, p := range pmf {
		d.pmf[i] = p / s
		c += p / s
		d.cdf[i] = c
	}
	d.cdf[len(pmf)-1] = 1
	return d
}

func (d *discrete) sample(r *rand.Rand) int {
	u := r.Float64()
	return d.lo + sort.SearchFloat64s(d.cdf, u)
}

// mean returns E[f(X)].
func (d *discrete) mean(f func(int) float64) float64 {
	var m float64
	for i, p := range d.pmf {
		m += p * f(d.lo+i)
	}
	return m
}

// IntervalPMF returns the probabilities of 1..side under Zhu's increasing or
// decreasing distribution scaled to a mesh side: the interval upper bounds
// 16, 24, 28, 32 (increasing) or 4, 8, 16, 32 (decreasing) of a 32-wide mesh
// become round(b·side/32), and each interval's probability is spread evenly
// over its integers. Sides too small to keep every interval non-empty are
// an error.
func IntervalPMF(kind string, side int) ([]float64, error) {
	bounds, probs := increasingBounds, increasingProbs
	if kind == SizeDecreasing {
		bounds, probs = decreasingBounds, decreasingProbs
	}
	pmf := make([]float64, side)
	prev := 0
	for i, b := range bounds {
		hi := int(math.Round(float64(b) * float64(side) / 32))
		if hi <= prev {
			return nil, fmt.Errorf("size %s: mesh side %d too small to scale the interval [%d,%d] of a 32-wide mesh", kind, side, prevBound(bounds, i)+1, b)
		}
		for v := prev + 1; v <= hi; v++ {
			pmf[v-1] = probs[i] / float64(hi-prev)
		}
		prev = hi
	}
	return pmf, nil
}

func prevBound(b []int, i int) int {
	if i == 0 {
		return 0
	}
	return b[i-1]
}

// expPMF is the exponential with the given mean discretised to 1..max:
// P[k] ∝ e^{−(k−1)/m} − e^{−k/m} = e^{−(k−1)/m}(1 − e^{−1/m}), i.e. ⌈X⌉ for
// X ~ Exp(m) conditioned on ⌈X⌉ ≤ max (values above max are redrawn). The
// constant factor 1 − e^{−1/m} cancels in the normalisation and is left
// out, so that a huge m gives the uniform limit instead of 0/0.
func expPMF(max int, mean float64) []float64 {
	pmf := make([]float64, max)
	for k := 1; k <= max; k++ {
		pmf[k-1] = math.Exp(-float64(k-1) / mean)
	}
	return pmf
}

// NormalDimPMF returns Mohapatra, Yu & Das 1995's "normal" dimension distribution
// generalised to n dimensions 0..n−1: the standard normal density on
// [−2.5σ, 2.5σ] is split into n equal-width intervals, and p_i is the area
// of interval i renormalised by the area inside ±2.5σ. For n = 10 this is
// the paper's table .017 .044 .093 .152 .194 .194 .152 .093 .044 .017.
func NormalDimPMF(n int) []float64 {
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	pmf := make([]float64, n)
	w := 5.0 / float64(n)
	tot := phi(2.5) - phi(-2.5)
	for i := range pmf {
		a := -2.5 + float64(i)*w
		pmf[i] = (phi(a+w) - phi(a)) / tot
	}
	return pmf
}

// sizeModel draws job sizes for one machine.
type sizeModel struct {
	req    string // the form of request (policy.Family.Request)
	square bool
	w, h   *discrete // mesh sides (w only when square); flat: w = processors
	dim    *discrete // cube dimension
	log2   bool      // flat: w is the exponent k, size 2^k
	meanP  float64   // exact E[processors]
}

// SizeSpec selects a job-size distribution.
type SizeSpec struct {
	Dist string  // distribution name (see SizeNames)
	Mean float64 // exponential: mean of the untruncated exponential (0: a quarter of the maximum)
	Max  int     // largest request (mesh side, flat processors, cube dimension); 0: the machine's limit
}

// MaxSizes bounds the sizes a size distribution draws from (its table
// is sized by them): 2^24, above the cores of any machine built so far.
const MaxSizes = 1 << 24

func newSizeModel(m policy.Machine, s SizeSpec) (*sizeModel, error) {
	req := policy.RequestOf(m.Kind)
	ok := false
	for _, n := range SizeNames[req] {
		if n == s.Dist {
			ok = true
		}
	}
	if !ok {
		return nil, fmt.Errorf("size %q is not defined on %s machines (want one of %v)", s.Dist, m.Kind, SizeNames[req])
	}
	if s.Max < 0 {
		return nil, fmt.Errorf("size-max %d must be positive", s.Max)
	}
	if s.Mean < 0 || math.IsNaN(s.Mean) || math.IsInf(s.Mean, 0) {
		return nil, fmt.Errorf("size-mean %g must be positive and finite", s.Mean)
	}
	sm := &sizeModel{req: req}
	side := func(limit int, what string) (int, error) {
		if s.Max == 0 {
			return limit, nil
		}
		if s.Max > limit {
			return 0, fmt.Errorf("size-max %d: a request larger than the machine's %s %d (%s)", s.Max, what, limit, m)
		}
		return s.Max, nil
	}
	sidePMF := func(max int) ([]float64, error) {
		if max > MaxSizes {
			return nil, fmt.Errorf("size %q over 1..%d: its table holds at most %d sizes (give --size-max)", s.Dist, max, MaxSizes)
		}
		switch s.Dist {
		case SizeUniform, SizeSquareUniform:
			pmf := make([]float64, max)
			for i := range pmf {
				pmf[i] = 1
			}
			return pmf, nil
		case SizeIncreasing, SizeSquareIncreasing:
			return IntervalPMF(SizeIncreasing, max)
		case SizeDecreasing, SizeSquareDecreasing:
			return IntervalPMF(SizeDecreasing, max)
		case SizeExponential:
			mean := s.Mean
			if mean == 0 {
				mean = float64(max) / 4
			}
			return expPMF(max, mean), nil
		}
		return nil, fmt.Errorf("size %q: internal error", s.Dist)
	}
	id := func(v int) float64 { return float64(v) }
	switch req {
	case policy.RequestRect:
		switch s.Dist {
		case SizeSquareUniform, SizeSquareIncreasing, SizeSquareDecreasing:
			sm.square = true
			l, err := side(min(m.Width, m.Height), "shorter side")
			if err != nil {
				return nil, err
			}
			pmf, err := sidePMF(l)
			if err != nil {
				return nil, err
			}
			sm.w = newDiscrete(1, pmf)
			sm.meanP = sm.w.mean(func(v int) float64 { return float64(v * v) })
		default:
			lw, err := side(m.Width, "width")
			if err != nil {
				return nil, err
			}
			lh, err := side(m.Height, "height")
			if err != nil {
				return nil, err
			}
			pw, err := sidePMF(lw)
			if err != nil {
				return nil, err
			}
			ph, err := sidePMF(lh)
			if err != nil {
				return nil, err
			}
			sm.w, sm.h = newDiscrete(1, pw), newDiscrete(1, ph)
			sm.meanP = sm.w.mean(id) * sm.h.mean(id)
		}
	case policy.RequestSubcube:
		if m.Dim < 1 {
			return nil, fmt.Errorf("machine %s: dimension must be ≥ 1 (job dimensions are 0..n−1)", m)
		}
		maxDim := m.Dim - 1
		if s.Max != 0 {
			if s.Max > maxDim {
				return nil, fmt.Errorf("size-max %d: a request larger than the machine's largest job dimension %d (%s; dimensions are 0..n−1)", s.Max, maxDim, m)
			}
			maxDim = s.Max
		}
		n := maxDim + 1
		var pmf []float64
		if s.Dist == SizeNormal {
			pmf = NormalDimPMF(n)
		} else {
			pmf = make([]float64, n)
			for i := range pmf {
				pmf[i] = 1
			}
		}
		sm.dim = newDiscrete(0, pmf)
		sm.meanP = sm.dim.mean(func(k int) float64 { return math.Ldexp(1, k) })
	default:
		l, err := side(m.Procs, "processor count")
		if err != nil {
			return nil, err
		}
		if s.Dist == SizeLog2 {
			kmax := 0
			for 1<<(kmax+1) <= l {
				kmax++
			}
			pmf := make([]float64, kmax+1)
			for i := range pmf {
				pmf[i] = 1
			}
			sm.log2 = true
			sm.w = newDiscrete(0, pmf)
			sm.meanP = sm.w.mean(func(k int) float64 { return math.Ldexp(1, k) })
		} else {
			pmf, err := sidePMF(l)
			if err != nil {
				return nil, err
			}
			sm.w = newDiscrete(1, pmf)
			sm.meanP = sm.w.mean(id)
		}
	}
	return sm, nil
}

// draw returns the processors, width and height (mesh only, else −1) of
// one request.
func (sm *sizeModel) draw(r *rand.Rand) (procs, w, h int64) {
	switch sm.req {
	case policy.RequestRect:
		a := int64(sm.w.sample(r))
		if sm.square {
			return a * a, a, a
		}
		b := int64(sm.h.sample(r))
		return a * b, a, b
	case policy.RequestSubcube:
		return int64(1) << sm.dim.sample(r), -1, -1
	}
	v := sm.w.sample(r)
	if sm.log2 {
		return int64(1) << v, -1, -1
	}
	return int64(v), -1, -1
}

func (s SizeSpec) params(p map[string]string) {
	p["size"] = s.Dist
	if s.Dist == SizeExponential {
		p["size_mean"] = ftoa(s.Mean)
	}
	p["size_max"] = strconv.Itoa(s.Max)
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
