package engine_test

import (
	"fmt"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// script runs FCFS and, at the given instants, migrates (delay ≥ 0) or
// suspends (delay < 0) job 1, resuming a suspended job at the next pass.
type script struct {
	fifo
	at        map[float64]float64
	suspended []*policy.Job
}

func (p *script) Schedule(s policy.System) {
	if s.Now() == 0 {
		for t := range p.at {
			s.Wake(t)
		}
	}
	for len(p.suspended) > 0 && s.Start(p.suspended[0]) {
		p.suspended = p.suspended[1:]
	}
	if d, ok := p.at[s.Now()]; ok {
		for _, j := range s.Running() {
			if j.ID != 1 {
				continue
			}
			if d < 0 {
				s.Suspend(j)
				p.suspended = append(p.suspended, j)
				s.Wake(s.Now() + 1)
			} else if !s.Migrate(j, d) {
				panic("migration failed")
			}
			break
		}
	}
	p.fifo.Schedule(s)
}
func (p *script) Waiting() int { return len(p.q) + len(p.suspended) }

// Result.MigrationTime sums the migration delays served. Job 1 (2 procs,
// run 10) on flat:4:
//   - migrated at 2 with delay 3: 3, ends at 2 + 3 + 8 = 13;
//   - migrated at 2 (delay 3), suspended at 4 (1 of the delay forfeited),
//     resumed at 5: 2, ends at 5 + 8 = 13;
//   - migrated at 2 (delay 3), again at 3 (delay 1): 1 + 1 = 2, ends at
//     3 + 1 + 8 = 12;
//   - migrated at 2 (delay 3), run observed until 4: 2 (Until).
func TestMigrationTime(t *testing.T) {
	for _, c := range []struct {
		at    map[float64]float64
		until float64
		want  float64
		end   float64
	}{
		{map[float64]float64{2: 3}, 0, 3, 13},
		{map[float64]float64{2: 3, 4: -1}, 0, 2, 13},
		{map[float64]float64{2: 3, 3: 1}, 0, 2, 12},
		{map[float64]float64{2: 3}, 4, 2, -1},
		{nil, 0, 0, 10},
	} {
		name := fmt.Sprint(c.at, c.until)
		res, err := engine.Run(mk([4]float64{1, 0, 10, 2}), policy.Machine{Kind: policy.Flat, Procs: 4}, flat.NewContig(4),
			&script{at: c.at}, engine.Options{Check: true, Until: c.until})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.MigrationTime != c.want || res.Jobs[0].End != c.end {
			t.Errorf("%s: migration time %g, end %g; want %g, %g", name, res.MigrationTime, res.Jobs[0].End, c.want, c.end)
		}
	}
}
