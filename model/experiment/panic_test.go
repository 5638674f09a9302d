package experiment

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// panicky is a scheduler with a bug: it panics when asked to schedule.
type panicky struct{ n int }

func (p *panicky) Submit(*policy.Job)         { p.n++ }
func (p *panicky) Finished(*policy.Job)       {}
func (p *panicky) Schedule(sys policy.System) { panic("index out of range [3] with length 3") }
func (p *panicky) Waiting() int               { return p.n }

// A panicking policy fails its run with an error naming the trace and the
// pair; the process survives.
func TestPolicyPanicIsAnError(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	tr := &trace.Trace{Name: "tiny"}
	jobs := []policy.Job{{Index: 0, ID: 1, Submit: 0, Run: 5, Estimate: 5, Procs: 2, Start: -1, End: -1}}
	alloc := flat.Allocators()[0]
	sched := policy.SchedulerSpec{Name: "buggy", New: func(policy.Machine, policy.Params) (policy.Scheduler, error) { return &panicky{}, nil }}
	out := runTask(task{tr: &prepared{name: tr.Name, t: tr, m: m, jobs: jobs}, pair: catalog.NewPair(alloc, nil, sched, nil)}, Options{}, nil)
	if out.err == nil || !strings.Contains(out.err.Error(), "trace tiny, count/buggy on flat:4: panic: index out of range") {
		t.Fatalf("error %v", out.err)
	}
}
