package results

import (
	"math"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/model/metrics"
)

// JobStats are per-job metrics aggregated over a group of jobs.
type JobStats struct {
	N            int
	MeanResponse float64
	SDResponse   float64 // sample standard deviation (n − 1)
	MeanWait     float64
	MaxWait      float64
	MeanSlowdown float64
	MeanBSLD     float64
	MeanRun      float64
}

// Stats aggregates jobs (NaN means when empty).
func Stats(jobs []Job) JobStats {
	s := JobStats{N: len(jobs)}
	if len(jobs) == 0 {
		nan := math.NaN()
		return JobStats{MeanResponse: nan, SDResponse: nan, MeanWait: nan, MaxWait: nan, MeanSlowdown: nan, MeanBSLD: nan, MeanRun: nan}
	}
	var sr, sw, ssd, sb, srun float64
	for i := range jobs {
		j := &jobs[i]
		sr += j.Response
		sw += j.Wait
		ssd += j.Slowdown
		sb += j.BoundedSlowdown
		srun += j.Run
		s.MaxWait = math.Max(s.MaxWait, j.Wait)
	}
	n := float64(len(jobs))
	s.MeanResponse, s.MeanWait, s.MeanSlowdown, s.MeanBSLD, s.MeanRun = sr/n, sw/n, ssd/n, sb/n, srun/n
	if len(jobs) > 1 {
		var ss float64
		for i := range jobs {
			d := jobs[i].Response - s.MeanResponse
			ss += d * d
		}
		s.SDResponse = math.Sqrt(ss / (n - 1))
	} else {
		s.SDResponse = math.NaN()
	}
	return s
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
	// (allocated when unknown), keyed by the class index (see
	// metrics.SizeClass; "-1" when unknown).
	BySizeClass = func(j *Job) string {
		p := j.ReqProcs
		if p <= 0 {
			p = j.AllocProcs
		}
		return strconv.Itoa(metrics.SizeClass(p))
	}
)
