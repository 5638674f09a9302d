package metrics

import "math"

// JobStats are the per-job metrics aggregated over a set of jobs: the
// job-level columns of summary.parquet. Every tool computes them through
// Accumulator, so that the replay, the test fixtures and the report agree to
// the last bit.
type JobStats struct {
	N            int64   // jobs counted
	MeanResponse float64 // mean of end − submit (Chu 1995 §3.3)
	SDResponse   float64 // sample standard deviation of response (n − 1 divisor); NaN below 2 jobs
	MeanWait     float64 // mean of start − submit
	MaxWait      float64
	MeanSlowdown float64 // mean of Slowdown
	MeanBSLD     float64 // mean of BoundedSlowdown at τ
	MeanRun      float64 // mean run time
	// The Percentiles (Percentile's definition) of wait (start − submit),
	// response (end − submit) and bounded slowdown at τ; NaN with no job.
	Wait, Response, BSLD Quantiles
}

// Accumulator accumulates JobStats one job at a time, in a fixed order (the
// sums are order-dependent in floating point: callers add jobs in trace
// order). The zero value is ready with τ = 0; use NewAccumulator.
type Accumulator struct {
	tau                     float64
	n                       int64
	meanResp, m2            float64 // Welford
	sumResp, sumWait, sumSd float64
	sumBsld, sumRun         float64
	maxWait                 float64
	waits, resps, bslds     []float64 // for the percentiles
}

// NewAccumulator returns an accumulator for the bounded-slowdown threshold τ.
func NewAccumulator(tau float64) *Accumulator { return &Accumulator{tau: tau} }

// Add counts one job.
func (a *Accumulator) Add(submit, start, end, run float64) {
	wait := start - submit
	resp := end - submit
	a.n++
	d := resp - a.meanResp
	a.meanResp += d / float64(a.n)
	a.m2 += d * (resp - a.meanResp)
	a.sumResp += resp
	a.sumWait += wait
	a.sumSd += Slowdown(resp, run)
	bsld := BoundedSlowdown(resp, run, a.tau)
	a.sumBsld += bsld
	a.waits = append(a.waits, wait)
	a.resps = append(a.resps, resp)
	a.bslds = append(a.bslds, bsld)
	a.maxWait = math.Max(a.maxWait, wait)
	a.sumRun += run
}

// N is the number of jobs added.
func (a *Accumulator) N() int64 { return a.n }

// Stats returns the aggregated metrics; every mean is NaN when no job was
// added (undefined, never a perfect score), and SDResponse is NaN below two
// jobs.
func (a *Accumulator) Stats() JobStats {
	nan := math.NaN()
	if a.n == 0 {
		q := NaNQuantiles()
		return JobStats{MeanResponse: nan, SDResponse: nan, MeanWait: nan, MaxWait: nan, MeanSlowdown: nan, MeanBSLD: nan, MeanRun: nan,
			Wait: q, Response: q, BSLD: q}
	}
	n := float64(a.n)
	s := JobStats{
		N: a.n, MeanResponse: a.sumResp / n, MeanWait: a.sumWait / n, MaxWait: a.maxWait,
		MeanSlowdown: a.sumSd / n, MeanBSLD: a.sumBsld / n, MeanRun: a.sumRun / n, SDResponse: nan,
		Wait: QuantilesOf(a.waits), Response: QuantilesOf(a.resps), BSLD: QuantilesOf(a.bslds),
	}
	if a.n > 1 {
		s.SDResponse = math.Sqrt(a.m2 / (n - 1))
	}
	return s
}

// SystemStats are the system-level columns of summary.parquet, over
// [first arrival, last completion] of a whole run.
type SystemStats struct {
	Makespan    float64 // last completion − first arrival
	Utilization float64 // busy processor-time / (procs × makespan): Chu 1995 Def 3.2 averaged over time
	Throughput  float64 // jobs counted / makespan (Mohapatra, Yu & Das 1995 §4.2: X = C/T)
	MeanQueue   float64 // time-averaged number of waiting jobs
	Power       float64 // Throughput / mean wait (Power)
}

// System computes the system-level metrics of a run from its span, the
// integrals of busy processors and waiting jobs over it, the machine size,
// the number of jobs counted and their mean wait. With a zero makespan the
// rates are 0 (nothing elapsed); with no job counted, power is NaN.
func System(first, last, busyArea, queueArea float64, procs int, counted int64, meanWait float64) SystemStats {
	s := SystemStats{Makespan: last - first}
	if s.Makespan > 0 {
		s.Utilization = busyArea / (float64(procs) * s.Makespan)
		s.MeanQueue = queueArea / s.Makespan
		s.Throughput = float64(counted) / s.Makespan
	}
	if counted == 0 {
		s.Power = math.NaN()
	} else {
		s.Power = Power(s.Throughput, meanWait)
	}
	return s
}

// InternalFragmentation is the share of the allocated processor-time that
// jobs did not request: (Σ allocated·residence − Σ requested·residence) /
// Σ allocated·residence, over the jobs that ran. Chu 1995 §1 calls
// allocated but unrequested processors internal fragmentation (2-D
// buddy's power-of-two squares, a mesh shape rounding a count up). 0 when
// nothing was allocated.
func InternalFragmentation(allocArea, reqArea float64) float64 {
	if allocArea <= 0 {
		return 0
	}
	return (allocArea - reqArea) / allocArea
}

// ExternalFragmentation is the fraction of the makespan during which the
// earliest waiting job waited although as many processors as it needs were
// free (Chu 1995 §1: free processors that do not form a large enough
// submesh; with a scheduler that holds processors back, such as a
// reservation, that too). 0 with a zero makespan.
func ExternalFragmentation(fragTime, makespan float64) float64 {
	if makespan <= 0 {
		return 0
	}
	return fragTime / makespan
}

// SizeQuarters returns the size classes of an n-processor machine by
// processors requested: the quarters 1..⌊n/4⌋, ..., ⌊3n/4⌋+1..n (Chu 1995
// §5.3's groups 1–256, 257–512, 513–768 and 769–1024 on 32×32), leaving
// out empty ones (n < 4).
func SizeQuarters(n int) [][2]int {
	var out [][2]int
	lo := 1
	for k := 1; k <= 4; k++ {
		hi := k * n / 4
		if hi >= lo {
			out = append(out, [2]int{lo, hi})
			lo = hi + 1
		}
	}
	return out
}

// ClassStats accumulates the response times of jobs by size class.
type ClassStats struct {
	Bounds [][2]int // lo..hi processors of each class
	N      []int64
	mean   []float64
	m2     []float64
}

// NewClassStats returns an empty accumulator over the classes bounds.
func NewClassStats(bounds [][2]int) *ClassStats {
	k := len(bounds)
	return &ClassStats{Bounds: bounds, N: make([]int64, k), mean: make([]float64, k), m2: make([]float64, k)}
}

// Add counts a job requesting procs processors with response time r
// (Welford's update). A request outside every class is not counted.
func (c *ClassStats) Add(procs int, r float64) {
	for i, b := range c.Bounds {
		if procs >= b[0] && procs <= b[1] {
			c.N[i]++
			d := r - c.mean[i]
			c.mean[i] += d / float64(c.N[i])
			c.m2[i] += d * (r - c.mean[i])
			return
		}
	}
}

// Mean and SD return class i's mean response (NaN with no job) and its
// standard deviation (n − 1 divisor, NaN below two jobs), as JobStats.
func (c *ClassStats) Mean(i int) float64 {
	if c.N[i] == 0 {
		return math.NaN()
	}
	return c.mean[i]
}

// SD is class i's standard deviation of response.
func (c *ClassStats) SD(i int) float64 {
	if c.N[i] < 2 {
		return math.NaN()
	}
	return math.Sqrt(c.m2[i] / float64(c.N[i]-1))
}
