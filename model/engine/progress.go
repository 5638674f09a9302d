package engine

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// dynamics is each job's remaining work, rate and the time from which it
// drains: allocated only when a progress model, a suspension or a
// migration needs them (dyn); a rigid run ends every job at Start + Run
// exactly.
type dynamics struct {
	dyn     bool
	rem     []float64
	rate    []float64
	since   []float64
	rateBuf []float64
}

// startDyn allocates the per-job remaining work and rates, for the jobs
// running now (which have run at rate 1 since their start).
func (e *sim) startDyn() {
	if e.dyn {
		return
	}
	e.dyn = true
	n := len(e.jobs)
	e.rem = make([]float64, n)
	e.rate = make([]float64, n)
	e.since = make([]float64, n)
	for i := range e.jobs {
		j := &e.jobs[i]
		e.rem[i], e.rate[i], e.since[i] = j.Run, 1, j.Start
	}
}

// settle brings job i's remaining work up to now.
func (e *sim) settle(i int32) {
	if d := e.now - e.since[i]; d > 0 {
		e.rem[i] = max(0, e.rem[i]-d*e.rate[i])
		e.since[i] = e.now
	}
}

// rekey sets job i's end from its remaining work and rate, and restores the
// completion heap.
func (e *sim) rekey(i int32) {
	j := &e.jobs[i]
	switch {
	case e.rem[i] == 0:
		j.End = max(e.now, e.since[i])
	case e.rate[i] > 0:
		j.End = e.since[i] + e.rem[i]/e.rate[i]
	default:
		j.End = math.Inf(1)
	}
	e.comp.update(i, j.End)
}

// Remaining implements policy.Progress: it brings running job j's
// remaining work up to now.
func (e *sim) Remaining(j *policy.Job) float64 {
	i := j.Index
	if d := e.now - e.since[i]; d > 0 {
		return max(0, e.rem[i]-d*e.rate[i])
	}
	return e.rem[i]
}

// applyRates asks the progress model for the running jobs' rates and
// re-keys the completions of the jobs whose rate changed.
func (e *sim) applyRates() {
	if e.err != nil {
		return
	}
	run := e.Running()
	e.rateBuf = e.rateBuf[:0]
	for _, j := range run {
		e.rateBuf = append(e.rateBuf, e.rate[j.Index])
	}
	e.progress.Rates(e, run, e.rateBuf)
	for k, j := range run {
		i := j.Index
		r := e.rateBuf[k]
		if r == e.rate[i] {
			continue
		}
		if !(r >= 0) || math.IsInf(r, 1) {
			e.fail(fmt.Errorf("engine: t=%g: progress model gave job %d rate %g (want a finite rate ≥ 0)", e.now, j.ID, r))
			return
		}
		e.settle(i)
		e.rate[i] = r
		e.rekey(i)
	}
}
