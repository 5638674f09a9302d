package malleable

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
)

// mj is a hand-made malleable job: arrival, work, efficiency (percent) and
// cap (0: none).
type mj struct {
	at, w, eps float64
	cap        int
}

// jobsOf makes engine jobs of the hand-made jobs.
func jobsOf(ms []mj) []policy.Job {
	jobs := make([]policy.Job, len(ms))
	for i, m := range ms {
		capN := -1
		if m.cap > 0 {
			capN = m.cap
		}
		jobs[i] = policy.Job{Index: int32(i), Record: int32(i), ID: int64(i + 1), Submit: m.at, Run: 1, Procs: 1, User: -1,
			Malleable: &policy.Malleable{Work: m.w, Efficiency: m.eps, MaxPar: capN}}
	}
	return jobs
}

// schedulerSpec returns the registry entry of name.
func schedulerSpec(t testing.TB, name string) policy.SchedulerSpec {
	t.Helper()
	for _, s := range Schedulers() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no scheduler %q", name)
	return policy.SchedulerSpec{}
}

// replay runs jobs on flat:procs under the named policy with invariant
// checking, after Prepare.
func replay(t testing.TB, procs int, name string, p policy.Params, jobs []policy.Job) (*engine.Result, *Scheduler) {
	t.Helper()
	m := policy.Machine{Kind: Kind, Procs: procs}
	if err := Prepare(jobs, procs); err != nil {
		t.Fatal(err)
	}
	s, err := schedulerSpec(t, name).New(m, p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Run(jobs, m, NewAllocator(m), s, engine.Options{Check: true, Series: true})
	if err != nil {
		t.Fatal(err)
	}
	return res, s.(*Scheduler)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
