package sched

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// exceeded reports whether j, waiting at time now, has reached the
// waiting-time limit wtl (inclusive; see the package doc).
func exceeded(j *policy.Job, now, wtl float64) bool { return now-j.Submit >= wtl }

// wtlParam documents the waiting-time limit.
var wtlParam = policy.Param{Name: "wtl", Default: "inf", Doc: "waiting-time limit: a waiting job that has waited this long blocks the scheme (Chu uses 500; 0 gives FCFS)"}

// parseWTL reads the waiting-time limit, which must be ≥ 0.
func parseWTL(p policy.Params) (float64, error) {
	w, err := p.Float("wtl", math.Inf(1))
	if err != nil {
		return 0, err
	}
	if w < 0 {
		return 0, fmt.Errorf("parameter wtl=%q: must be ≥ 0", p["wtl"])
	}
	return w, nil
}

// fromParam says from when a job's wait counts against the limit.
var fromParam = policy.Param{Name: "from", Default: "arrival", Doc: "arrival: the wait since the job arrived (Chu 1995 Figs. 5.1, 5.2); head: since it reached the head of the queue (an alternative reading: only the head can block)"}

// wtlSpec is the registry entry of a scheduler whose parameters are the
// waiting-time limit and from when it counts.
func wtlSpec(name, doc string, newSched func(wtl float64, fromHead bool) policy.Scheduler) policy.SchedulerSpec {
	return policy.SchedulerSpec{
		Name:   name,
		Doc:    doc,
		Params: []policy.Param{wtlParam, fromParam},
		New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
			if err := p.Check("wtl", "from"); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			wtl, err := parseWTL(p)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			from, err := p.Choice("from", "arrival", "arrival", "head")
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return newSched(wtl, from == "head"), nil
		},
	}
}
