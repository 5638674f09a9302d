// Package greedy is a scheduler written outside schedlab: at every instant
// it starts each waiting job that fits, in arrival order, up to limit jobs.
package greedy

import (
	"fmt"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

type greedy struct {
	q     fifo.Queue
	limit int // jobs started per instant at most; 0: no limit
}

func (s *greedy) Submit(j *policy.Job) { s.q.Push(j) }
func (s *greedy) Finished(*policy.Job) {}
func (s *greedy) Waiting() int         { return s.q.Len() }

func (s *greedy) Schedule(sys policy.System) {
	started := 0
	s.q.Scan(func(j *policy.Job) (remove, stop bool) {
		ok := sys.Start(j)
		if ok {
			started++
		}
		return ok, s.limit > 0 && started == s.limit
	})
}

func init() {
	catalog.RegisterScheduler(policy.SchedulerSpec{
		Name: "greedy", Doc: "every waiting job that fits, in arrival order",
		Params: []policy.Param{{Name: "limit", Default: "0", Doc: "jobs started per instant at most (0: no limit)"}},
		New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
			if err := p.Check("limit"); err != nil {
				return nil, err
			}
			limit, err := p.Int("limit", 0)
			if err != nil {
				return nil, err
			}
			if limit < 0 {
				return nil, fmt.Errorf("parameter limit=%d: want 0 or more", limit)
			}
			return &greedy{limit: limit}, nil
		},
	})
}
