package sched

import "github.com/schedlab/schedlab/model/policy"

// inbox records what happened since the last Schedule call: the arrivals
// not yet handled (in arrival order) and whether any job finished.
type inbox struct {
	arrivals []*policy.Job
	freed    bool
}

// Submit records an arrival.
func (b *inbox) Submit(j *policy.Job) { b.arrivals = append(b.arrivals, j) }

// Finished records that processors were released.
func (b *inbox) Finished(*policy.Job) { b.freed = true }

// takeFreed reports whether a job finished since the last call, and resets
// the flag.
func (b *inbox) takeFreed() bool {
	f := b.freed
	b.freed = false
	return f
}

// done forgets the handled arrivals.
func (b *inbox) done() {
	clear(b.arrivals)
	b.arrivals = b.arrivals[:0]
}

// fits reports whether j can possibly fit, without asking the allocator.
func fits(sys policy.System, j *policy.Job) bool {
	return j.Procs <= sys.Capacity().Free()
}

// tryStart starts j if the allocator can place it.
func tryStart(sys policy.System, j *policy.Job) bool {
	return fits(sys, j) && sys.Start(j)
}
