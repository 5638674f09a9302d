package engine

import (
	"slices"
)

// Sequential event semantics (Options.Sequential): the classic
// one-event-at-a-time loop of pyss, the Python scheduler simulator of
// Feitelson's group (used, modified, by Gaussier et al., "Improving
// backfilling by using machine learning to predict running times",
// SC 2015), so that schedlab can be checked against the studies built on
// it. At one instant t the engine processes, in this order:
//
//   - (X) the jobs ending at t whose run time is at least their estimate
//     (Run ≥ Estimate; End − Start ≥ Estimate when a progress model,
//     suspension or migration changed residences) release their processors and are Finished
//     first, with no pass: their estimated end has come, so a scheduler
//     planning by estimates (pyss's CPU snapshot) already counts their
//     processors free at t, before any event of t;
//   - (S) the arrivals, one by one in arrival order; (Q) after each, a
//     scheduling pass runs only if the job fits now (its Need is at most
//     the free processors);
//   - the due timers (Wake), then one pass;
//   - (T) the completions at t in the order their jobs started (E) each
//     followed by its own pass: a job of the first step only triggers its
//     pass here;
//   - jobs started at t that end at t (zero run time): each completion,
//     in start order, followed by a pass, until none is left.
//
// The instant rule, by contrast, completes every job ending at t, admits
// every arrival and then runs a single pass: every decision at t sees
// every processor freed and every job arrived at t.

// sequential processes the events at time t one at a time.
func (e *sim) sequential(t float64) error {
	e.now = t
	startedBefore := e.started
	ends := e.seqEnds[:0]
	for len(e.comp.h) > 0 && e.comp.min() == t {
		ends = append(ends, e.comp.pop())
	}
	// Start order: the running list keeps it (compaction preserves it).
	slices.SortFunc(ends, func(a, b int32) int { return int(e.runPos[a]) - int(e.runPos[b]) })
	early := e.seqEarly[:0]
	for _, i := range ends {
		j := &e.jobs[i]
		x := j.Run >= j.Estimate // exact, where End − Start may round
		if e.dyn {
			x = j.End-j.Start >= j.Estimate // a residence stretched or suspended
		}
		early = append(early, x)
		if x {
			e.finish(i, t)
			e.done++
		}
	}
	for e.next < len(e.jobs) && e.jobs[e.next].Submit == t && e.err == nil {
		k := e.next
		e.arriveOne()
		if e.state[k] == stWaiting && e.jobs[k].Need() <= e.alloc.Free() {
			e.pass()
		}
	}
	due := false
	for len(e.timers.h) > 0 && e.timers.min() <= t {
		e.timers.pop()
		due = true
	}
	if due && e.err == nil {
		e.pass()
	}
	for k, i := range ends {
		if e.err != nil {
			break
		}
		if !early[k] {
			e.finish(i, t)
			e.done++
		}
		e.pass()
	}
	e.seqEnds, e.seqEarly = ends[:0], early[:0]
	for e.err == nil && len(e.comp.h) > 0 && e.comp.min() == t {
		e.finish(e.comp.pop(), t) // zero run time: started at t, so in start order
		e.done++
		e.pass()
	}
	return e.endInstant(t, startedBefore)
}
