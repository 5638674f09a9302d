package reproduce

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/model/sweep"
)

// Decode decodes a suite document read from path: the sweep plan
// (sweep.File: name, description, [[workload]], [replay]) and the suite's
// own keys (Suite), strictly (an unknown key is an error naming its line),
// and validates the suite. The plan itself is validated by Plan.
func Decode(path string, data []byte) (*sweep.File, *Suite, error) {
	s := &Suite{}
	f, err := sweep.Decode(path, data, s)
	if err != nil {
		return nil, nil, err
	}
	if err := s.Validate(f.Where, WorkloadNames(f)); err != nil {
		return nil, nil, err
	}
	return f, s, nil
}

// WorkloadNames returns the names of f's workloads as the plan names their
// traces: the name key, else the plan's name (numbered from 1 when the
// plan has several workloads).
func WorkloadNames(f *sweep.File) []string {
	out := make([]string, len(f.Workloads))
	for i, w := range f.Workloads {
		switch {
		case w.Name != "":
			out[i] = w.Name
		case len(f.Workloads) == 1:
			out[i] = f.Name
		default:
			out[i] = fmt.Sprintf("%s%d", f.Name, i+1)
		}
	}
	return out
}

// Plan applies the sizes of mode m to a copy of f (jobs, reps and
// warm-up; a workload's own [MODE.workload.NAME] entry before the mode's
// defaults) and, when seed is not nil, the base seeds *seed, *seed+1, ...
// to the workloads in order, then validates and expands it. f itself is
// left unchanged.
func (s *Suite) Plan(f *sweep.File, m Mode, seed *int64) (*sweep.Plan, error) {
	g := *f
	g.Workloads = slices.Clone(f.Workloads)
	z := s.Sizes(m)
	names := WorkloadNames(f)
	for i := range g.Workloads {
		w := &g.Workloads[i]
		if len(w.Traces) > 0 {
			continue // trace files: nothing to size
		}
		if z.Jobs > 0 {
			w.Jobs, w.Horizon = z.Jobs, 0
		}
		if z.Until > 0 {
			w.Jobs, w.Horizon = 0, z.Until
		}
		if z.Reps > 0 {
			w.Reps = z.Reps
		}
		if o, ok := z.Workload[names[i]]; ok {
			if o.Jobs > 0 {
				w.Jobs, w.Horizon = o.Jobs, 0
			}
			if o.Reps > 0 {
				w.Reps = o.Reps
			}
		}
		if seed != nil {
			v := *seed + int64(i) // independent workloads, as distinct seeds in the file make them
			w.Seed = &v
		}
	}
	if z.Warmup > 0 {
		g.Replay.Warmup = z.Warmup
	}
	if z.Until > 0 {
		g.Replay.Until = z.Until
	}
	return g.Plan()
}

// CheckPlan checks, before anything runs, that every expectation's cells
// are in the plan: each of its selections picks exactly one configuration
// of the plan's cells (a glob with a typo, or one matching two loads, is
// found here rather than after a long run). where names keys as in
// Validate.
func (s *Suite) CheckPlan(p *sweep.Plan, where func(...string) string) error {
	rows := make([]schema.Summary, len(p.Cells))
	for i, c := range p.Cells {
		rows[i] = schema.Summary{Trace: c.Trace, Machine: c.Machine, Alloc: c.Alloc, Sched: c.Sched, Rep: int64(c.Rep), Load: c.Load, Comm: c.Comm}
	}
	for i := range s.Expect {
		e := &s.Expect[i]
		for _, sel := range kinds[e.kind()].selectors(e) {
			if c, why := cellOf(rows, sel.sel...); c == nil {
				return fmt.Errorf("%s: %s, in the plan", where(append([]string{"expect", strconv.Itoa(i)}, sel.key...)...), why)
			}
		}
	}
	return nil
}
