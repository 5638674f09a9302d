package results

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/sched"
)

// Stats aggregates jobs, in the order given, with the contract's
// definitions (metrics.Accumulator at the bounded-slowdown threshold tau,
// the run's bsld_tau): the job-level statistics of summary.parquet, NaN
// when there are no jobs.
func Stats(jobs []Job, tau float64) metrics.JobStats {
	a := metrics.NewAccumulator(tau)
	for i := range jobs {
		j := &jobs[i]
		a.Add(j.Submit, j.Start, j.End, j.Run)
	}
	return a.Stats()
}

// Group is a set of jobs sharing a key.
type Group struct {
	Key  string
	Jobs []Job
}

// GroupBy partitions jobs by key, groups sorted by key (numeric keys in
// numeric order), jobs within a group in input order.
func GroupBy(jobs []Job, key func(*Job) string) []Group {
	idx := map[string]int{}
	var out []Group
	for i := range jobs {
		k := key(&jobs[i])
		g, ok := idx[k]
		if !ok {
			g = len(out)
			idx[k] = g
			out = append(out, Group{Key: k})
		}
		out[g].Jobs = append(out[g].Jobs, jobs[i])
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, ex := strconv.ParseFloat(out[a].Key, 64)
		y, ey := strconv.ParseFloat(out[b].Key, 64)
		if ex == nil && ey == nil {
			return x < y
		}
		return out[a].Key < out[b].Key
	})
	return out
}

// Group keys.
var (
	// ByPair groups by "alloc / sched".
	ByPair = func(j *Job) string { return Pair{j.Alloc, j.Sched}.String() }
	// ByTrace groups by trace.
	ByTrace = func(j *Job) string { return j.Trace }
	// ByMachine groups by machine spec.
	ByMachine = func(j *Job) string { return j.Machine }
	// ByLoad groups by offered load.
	ByLoad = func(j *Job) string { return FormatLoad(j.Load) }
	// ByUser groups by user id.
	ByUser = func(j *Job) string { return strconv.FormatInt(j.User, 10) }
	// BySizeClass groups by power-of-two class of requested processors
	// (allocated when unknown), keyed by the class index (see JobSizeClass;
	// "-1" when unknown).
	BySizeClass = func(j *Job) string { return strconv.Itoa(JobSizeClass(j)) }
)

// SizeClass is the power-of-two size class of a job of p processors,
// ⌈log2 p⌉ (model/sched.SizeClass, the classes of Krueger, Lai & Radiya's
// Scan): class k holds sizes in (2^(k−1), 2^k], so class 0 is 1 processor,
// 1 is 2, 2 is 3–4, 3 is 5–8. p < 1 (unknown) gives −1.
func SizeClass(p int64) int {
	if p < 1 {
		return -1
	}
	return sched.SizeClass(int(p))
}

// JobSizeClass is the SizeClass of a job's requested processors, or of its
// allocated processors (rounded up) when the request is unknown.
func JobSizeClass(j *Job) int {
	p := j.ReqProcs
	if p <= 0 {
		p = int64(math.Ceil(j.AllocProcs))
	}
	return SizeClass(p)
}

// SizeClassLabel is the processor range of a size class, e.g. "5-8".
func SizeClassLabel(k int) string {
	switch {
	case k < 0:
		return "unknown"
	case k == 0:
		return "1"
	case k == 1:
		return "2"
	}
	return fmt.Sprintf("%d-%d", int64(1)<<(k-1)+1, int64(1)<<k)
}
