package experiment

import (
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/trace"
)

// The deadline and preemption columns, worked by hand. pcw on flat:4:
// J1 (0, run 10, 4 procs, priority 0, deadline 12) runs; J2 (2, run 3, 4
// procs, priority 1, deadline 6) does not fit. Waiting would start it at
// 10 (L_2 = 6 − 13 < 0); preempting J1 starts it now (L_2 = 1) and makes
// J1 miss (L_1 = 12 − (2 + 3 + 8) = −1, from 2). No option is safe: the
// scores are −7 + 2 = −5 (wait) and 1 + 2 − 2 − 1 = 0 (preempt): J1 is
// preempted, J2 runs 2..5, J1 resumes at 5 and ends at 13 (> 12, a miss);
// J3 (3, run 1, 2 procs, priority 0, no deadline) waits behind J1, runs
// 13..14. deadline_jobs 2, deadline_missed 1, preemptions 1, no migration.
func TestDeadlineColumns(t *testing.T) {
	tr := &trace.Trace{Name: "d", Header: trace.Header{{Key: "MaxProcs", Value: "4"}}}
	for _, r := range [][6]float64{{1, 0, 10, 4, 0, 12}, {2, 2, 3, 4, 1, 6}, {3, 3, 1, 2, 0, -1}} {
		j := trace.NewJob(int64(r[0]))
		j.Submit, j.Run, j.ReqProcs, j.Priority, j.Deadline, j.Status = r[1], r[2], int64(r[3]), int64(r[4]), r[5], 1
		tr.Jobs = append(tr.Jobs, j)
	}
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
	res, err := engine.Run(jobs, m, flat.NewCount(4), sched.NewPCW(sched.PCWConfig{Action: sched.ActionAuto}), engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]float64{{0, 13}, {2, 5}, {13, 14}} {
		if j := res.Jobs[i]; j.Start != want[0] || j.End != want[1] {
			t.Errorf("J%d: %g..%g, want %v", j.ID, j.Start, j.End, want)
		}
	}
	opt := Options{BsldTau: DefaultBsldTau}
	tk := task{tr: &prepared{t: tr, m: m}}
	r := summarize(tk, res, opt, nil, 0, nil, nil)
	if r.DeadlineMissRate != 0.5 {
		t.Errorf("deadline_miss_rate %g, want 0.5", r.DeadlineMissRate)
	}
	if r.DeadlineJobs != 2 || r.DeadlineMissed != 1 || r.Preemptions != 1 || r.Migrations != 0 || r.MigrationTime != 0 {
		t.Errorf("deadline_jobs %d deadline_missed %d preemptions %d migrations %d migration_time %g; want 2 1 1 0 0",
			r.DeadlineJobs, r.DeadlineMissed, r.Preemptions, r.Migrations, r.MigrationTime)
	}
	// Migrations and their time come from the engine's result; warm-up
	// leaves J1 out of the deadline counts, not out of the run's events.
	res.Migrations, res.MigrationTime = []int32{0, 2, 1}, 2.5
	r = summarize(tk, res, Options{BsldTau: DefaultBsldTau, Warmup: 1}, nil, 0, nil, nil)
	if r.DeadlineJobs != 1 || r.DeadlineMissed != 0 || r.Preemptions != 1 || r.Migrations != 3 || r.MigrationTime != 2.5 {
		t.Errorf("warm-up 1: deadline_jobs %d deadline_missed %d preemptions %d migrations %d migration_time %g; want 1 0 1 3 2.5",
			r.DeadlineJobs, r.DeadlineMissed, r.Preemptions, r.Migrations, r.MigrationTime)
	}
	for _, c := range []string{"deadline_jobs", "deadline_missed", "preemptions", "migrations", "migration_time"} {
		if _, ok := r.Metric(c); !ok {
			t.Errorf("column %s is not a metric", c)
		}
	}
}
