package catalog_test

import (
	"fmt"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
)

// top gives a job the highest-numbered free processors of a flat machine.
type top struct{ busy []bool }

// block is a range of processors held.
type block struct{ lo, n int }

func (b block) Procs() int { return b.n }
func (b block) Placement(dst []policy.Piece) []policy.Piece {
	return append(dst, policy.Range(b.lo, b.n))
}

func (a *top) Size() int { return len(a.busy) }
func (a *top) Free() int {
	free := 0
	for _, b := range a.busy {
		if !b {
			free++
		}
	}
	return free
}
func (a *top) Clone() policy.Allocator { return &top{append([]bool(nil), a.busy...)} }
func (a *top) Feasible(j *policy.Job) error {
	if j.Need() > len(a.busy) {
		return fmt.Errorf("needs %d processors, machine has %d", j.Need(), len(a.busy))
	}
	return nil
}

// Allocate takes the highest free range of j.Need() processors.
func (a *top) Allocate(j *policy.Job) (policy.Allocation, bool) {
	n, run := j.Need(), 0
	for i := len(a.busy) - 1; i >= 0; i-- {
		if run = run + 1; a.busy[i] {
			run = 0
		}
		if run == n {
			for k := i; k < i+n; k++ {
				a.busy[k] = true
			}
			return block{i, n}, true
		}
	}
	return nil, false
}

func (a *top) Release(al policy.Allocation) {
	b := al.(block)
	for k := b.lo; k < b.lo+b.n; k++ {
		a.busy[k] = false
	}
}

func init() {
	catalog.RegisterAllocator(policy.AllocatorSpec{
		Name: "top", Doc: "highest-numbered contiguous free range", Kinds: []string{policy.Flat},
		New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
			return &top{busy: make([]bool, m.Procs)}, p.Check()
		},
	})
}

// An allocator registered from init is named like a built-in one; here
// it is built from the catalog and run by the engine, which records where
// each job ran.
func ExampleRegisterAllocator() {
	m := policy.Machine{Kind: policy.Flat, Procs: 8}
	pairs, err := catalog.Pairs(m, []string{"top"}, []string{"fcfs"})
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := pairs[0].NewAllocator(m)
	s, _ := pairs[0].NewScheduler(m)
	jobs := []policy.Job{
		{ID: 1, Submit: 0, Run: 10, Procs: 3},
		{ID: 2, Submit: 1, Run: 5, Procs: 2},
		{ID: 3, Submit: 2, Run: 2, Procs: 4},
	}
	res, err := engine.Run(jobs, m, a, s, engine.Options{Check: true, Placement: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, j := range res.Jobs {
		p := res.Placement(i)[0]
		fmt.Printf("job %d: start %g on processors %d-%d\n", j.ID, j.Start, p.X, p.X+p.W-1)
	}
	// Output:
	// job 1: start 0 on processors 5-7
	// job 2: start 1 on processors 3-4
	// job 3: start 6 on processors 1-4
}
