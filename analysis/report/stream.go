package report

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/stats"
)

// The pages that need a run's jobs get them from one pass over the jobs
// (results.Set.EachJobRun: run by run, the rows of each run dropped after
// it), which keeps per run only what the pages draw from it: allocation
// metrics for every run, the steady-state row of single-replication
// cells, the few job columns the pooled figures need for the focus runs,
// and whole runs only for the occupancy and mesh-map runs. Memory is
// bounded by the largest run plus what the pages keep, not by the file.

// pooledJob is what the pooled figures (CDFs, size classes, mesh size
// groups) use of a job.
type pooledJob struct {
	Response, Wait, AllocProcs float64
	ReqProcs                   int64
}

// job returns the fields of p as a job row.
func (p *pooledJob) job() results.Job {
	return results.Job{Response: p.Response, Wait: p.Wait, AllocProcs: p.AllocProcs, ReqProcs: p.ReqProcs}
}

// runDigest is what the pages keep of one run.
type runDigest struct {
	placed        bool // some job has a placement
	alloc         map[string]float64
	allocErr      error
	pooled        []pooledJob   // focus runs
	steady        []string      // single-replication cells: jobs, deleted, resp, wait, bsld
	steadyLimited bool          // MSER-5 hit its search limit
	jobs          []results.Job // occupancy and mesh-map runs: every row
	series        *seriesDigest // time-series runs
}

// runNeeds says what to keep of a run.
type runNeeds struct {
	procs                     int64
	pooled, steady, whole, ts bool
}

// digest is the result of the pass.
type digest struct {
	runs map[results.Key]*runDigest
}

func keyOf(r *results.Summary) results.Key {
	return results.Key{Trace: r.Trace, Pair: results.PairOf(r), Rep: r.Rep, Machine: r.Machine, Comm: r.Comm}
}

// needs returns what the pages use of each run of the summary.
func (c *Context) needs() map[results.Key]*runNeeds {
	out := map[results.Key]*runNeeds{}
	get := func(k results.Key) *runNeeds {
		n := out[k]
		if n == nil {
			n = &runNeeds{}
			out[k] = n
		}
		return n
	}
	for i := range c.Set.Summary {
		r := &c.Set.Summary[i]
		if n := get(keyOf(r)); n.procs == 0 {
			n.procs = r.Procs
		}
	}
	for ei := range c.Experiments {
		e := &c.Experiments[ei]
		fs := focuses(e)
		for _, f := range fs {
			for i := range e.Rows {
				r := &e.Rows[i]
				if slices.Contains(f.Traces, r.Trace) {
					get(keyOf(r)).pooled = true
				}
			}
			get(results.Key{Trace: f.Traces[0], Pair: occupancyPair(c, e), Rep: f.Rep, Machine: e.Machine, Comm: e.Comm}).whole = true
			for _, pair := range e.Pairs() {
				get(results.Key{Trace: f.Traces[0], Pair: pair, Rep: f.Rep, Machine: e.Machine, Comm: e.Comm}).ts = true
			}
		}
		if _, ok := meshOf(e); ok && len(fs) > 0 {
			for i := range e.Rows {
				if r := &e.Rows[i]; r.Trace == fs[0].Traces[0] && r.Rep == fs[0].Rep {
					get(keyOf(r)).whole = true
				}
			}
		}
		for _, cell := range e.Cells() {
			if len(cell.Rows) == 1 && steadyApplies(c, e) {
				r := cell.Rows[0]
				get(results.Key{Trace: r.Trace, Pair: cell.Pair, Rep: r.Rep, Machine: r.Machine, Comm: r.Comm}).steady = true
			}
		}
	}
	return out
}

// prepare makes the pass over the jobs and series once.
func (c *Context) prepare() error {
	if c.dig != nil {
		return nil
	}
	needs := c.needs()
	var d *digest
	run := func() error {
		d = &digest{runs: map[results.Key]*runDigest{}}
		return c.Set.EachJobRun(func(k results.Key, js []results.Job) error {
			rd := &runDigest{}
			d.runs[k] = rd
			n := needs[k]
			if n == nil {
				n = &runNeeds{}
			}
			c.digestRun(rd, n, js)
			for _, b := range builders {
				if b.Run != nil {
					if err := b.Run(c, k, js); err != nil {
						return fmt.Errorf("%s: %w", b.Name, err)
					}
				}
			}
			return nil
		})
	}
	err := run()
	if errors.Is(err, results.ErrUnsorted) {
		err = run() // the jobs are loaded now: each run once
	}
	if err != nil {
		return err
	}
	// The series, in two passes: the first finds each run's time span
	// (which fixes the windows of its figure, shared by the pairs), the
	// second keeps only the lines drawn (window averages), not the rows.
	ser := func(fn func(k results.Key, rows []results.Series, rd *runDigest)) error {
		return c.Set.EachSeriesRun(func(k results.Key, rows []results.Series) error {
			if n := needs[k]; n != nil && n.ts && len(rows) > 0 {
				rd := d.runs[k]
				if rd == nil {
					rd = &runDigest{}
					d.runs[k] = rd
				}
				fn(k, rows, rd)
			}
			return nil
		})
	}
	span := func(_ results.Key, rows []results.Series, rd *runDigest) {
		sd := &seriesDigest{first: rows[0].Time, last: rows[len(rows)-1].Time, lines: map[seriesFrame][2]seriesLine{}}
		for i := range rows {
			sd.peak[0] = max(sd.peak[0], float64(rows[i].Busy))
			sd.peak[1] = max(sd.peak[1], float64(rows[i].Queue))
		}
		rd.series = sd
	}
	err = ser(span)
	if errors.Is(err, results.ErrUnsorted) {
		for _, rd := range d.runs {
			rd.series = nil
		}
		err = ser(span)
	}
	if err != nil {
		return err
	}
	frames := map[results.Key][]seriesFrame{}
	for ei := range c.Experiments {
		e := &c.Experiments[ei]
		for _, f := range focuses(e) {
			fr, ok := c.seriesFrameOf(d, e, f)
			if !ok {
				continue
			}
			for _, pair := range e.Pairs() {
				k := results.Key{Trace: f.Traces[0], Pair: pair, Rep: f.Rep, Machine: e.Machine, Comm: e.Comm}
				frames[k] = append(frames[k], fr)
			}
		}
	}
	if err := ser(func(k results.Key, rows []results.Series, rd *runDigest) {
		for _, fr := range frames[k] {
			rd.series.lines[fr] = drawnLines(fr, rows)
		}
	}); err != nil {
		return err
	}
	c.dig = d
	return nil
}

// digestRun keeps what the pages need of one run's jobs.
func (c *Context) digestRun(rd *runDigest, n *runNeeds, js []results.Job) {
	for i := range js {
		if len(js[i].Placement) > 0 {
			rd.placed = true
			break
		}
	}
	rd.alloc, rd.allocErr = allocValues(js, n.procs)
	if n.pooled {
		rd.pooled = make([]pooledJob, len(js))
		for i := range js {
			j := &js[i]
			rd.pooled[i] = pooledJob{Response: j.Response, Wait: j.Wait, AllocProcs: j.AllocProcs, ReqProcs: j.ReqProcs}
		}
	}
	if n.whole {
		rd.jobs = results.CloneJobs(js)
	}
	if n.steady && len(js) > 0 {
		rd.steady, rd.steadyLimited = steadyCells(c, js)
	}
}

// steadyCells computes the steady-state row of one run (buildSteady):
// jobs, deleted, and the resp, wait and bsld intervals.
func steadyCells(c *Context, js []results.Job) ([]string, bool) {
	resp := make([]float64, len(js))
	wait := make([]float64, len(js))
	bsld := make([]float64, len(js))
	for i := range js {
		resp[i], wait[i], bsld[i] = js[i].Response, js[i].Wait, js[i].BoundedSlowdown
	}
	d := stats.MSER5(resp)
	limited := false
	del := strconv.Itoa(d)
	if d > 0 && d >= (len(resp)/5/2)*5 {
		del += "*" // MSER-5 hit its search limit: no steady state found
		limited = true
	}
	row := []string{strconv.Itoa(len(js)), del}
	for _, xs := range [][]float64{resp, wait, bsld} {
		if len(xs)-d < minSteadyJobs {
			row = append(row, "too few jobs")
			continue
		}
		ci, err := stats.BatchMeans(xs[d:], SteadyBatches, c.Level)
		if err != nil {
			row = append(row, "n/a")
			continue
		}
		row = append(row, fmtCI(ci, ci.Mean, ci.HalfWidth))
	}
	return row, limited
}

// run returns the digest of a run (nil when it has no job rows).
func (c *Context) run(k results.Key) *runDigest {
	if err := c.prepare(); err != nil {
		panic(err) // Pages prepares first and returns the error
	}
	return c.dig.runs[k]
}

// runJobs returns every job row of an occupancy or mesh-map run.
func (c *Context) runJobs(k results.Key) []results.Job {
	if rd := c.run(k); rd != nil {
		return rd.jobs
	}
	return nil
}

// pooledFor returns the pooled jobs of a pair over the focus traces (every
// rep of each trace present in the experiment rows), in the order of the
// experiment rows.
func pooledFor(c *Context, e *results.Experiment, f focus, pair results.Pair) []pooledJob {
	var runs [][]pooledJob
	for i := range e.Rows {
		r := &e.Rows[i]
		if results.PairOf(r) == pair && slices.Contains(f.Traces, r.Trace) {
			if rd := c.run(results.Key{Trace: r.Trace, Pair: pair, Rep: r.Rep, Machine: r.Machine, Comm: r.Comm}); rd != nil {
				runs = append(runs, rd.pooled)
			}
		}
	}
	if len(runs) == 1 { // no copy (callers only read; the cap stops an append from writing into the run's jobs)
		return runs[0][:len(runs[0]):len(runs[0])]
	}
	return slices.Concat(runs...)
}
