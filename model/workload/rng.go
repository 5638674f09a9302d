package workload

import (
	"math"
	"math/rand/v2"
)

// Stream identifiers: every random quantity draws from its own stream.
const (
	streamArrivals uint64 = iota + 1
	streamSizes
	streamService
	streamEstimates
	streamEfficiency
	streamCap
	streamBatch       // Lublin: batch arrivals
	streamInteractive // Lublin: interactive arrivals
	streamPriority    // Windows: priority classes
	streamLaxity      // Windows: deadlines
)

// splitmix64 is the SplitMix64 mixing function (Steele, Lea and Flood,
// 2014), used to derive well-separated seeds from one user seed.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// newStream returns the PCG generator of stream id for seed.
func newStream(seed int64, id uint64) *rand.Rand {
	a := splitmix64(uint64(seed) ^ splitmix64(id))
	b := splitmix64(a ^ 0x5851f42d4c957f2d)
	return rand.New(rand.NewPCG(a, b))
}

// SweepSeed derives the seed of replication rep at offered load load of a
// sweep started from seed. It depends on the load's value (rounded to 1e-9),
// not on its position in the sweep, so that adding a load to a sweep does
// not change the traces of the other loads.
func SweepSeed(seed int64, load float64, rep int) int64 {
	l := uint64(int64(math.Round(load * 1e9)))
	x := splitmix64(uint64(seed) ^ 0x243f6a8885a308d3)
	x = splitmix64(x ^ l)
	x = splitmix64(x ^ uint64(rep))
	return int64(x >> 1) // non-negative
}

// exp1 returns an exponential variate with mean 1.
func exp1(r *rand.Rand) float64 { return r.ExpFloat64() }

// gammaRand returns a Gamma(shape, scale) variate (mean shape·scale), by
// Marsaglia and Tsang (2000), with the usual boost for shape < 1.
func gammaRand(r *rand.Rand, shape, scale float64) float64 {
	if shape < 1 {
		u := r.Float64()
		for u == 0 {
			u = r.Float64()
		}
		return gammaRand(r, shape+1, scale) * math.Pow(u, 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x {
			return d * v * scale
		}
		if u > 0 && math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * scale
		}
	}
}

// betaRand returns a Beta(p, q) variate.
func betaRand(r *rand.Rand, p, q float64) float64 {
	x := gammaRand(r, p, 1)
	y := gammaRand(r, q, 1)
	return x / (x + y)
}
