package sched

import "github.com/schedlab/schedlab/model/policy"

// Schedulers lists the scheduling family's schedulers for the registry.
func Schedulers() []policy.SchedulerSpec {
	return []policy.SchedulerSpec{
		{
			Name: "fcfs",
			Doc:  "strict first-come first-served with head-of-line blocking (Chu Ch. 1, 5; seed 001 §A.2.1)",
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check(); err != nil {
					return nil, err
				}
				return &FCFS{}, nil
			},
		},
	}
}
