package policy

// Optional capabilities. The engine checks for each with a type assertion
// (as io.Copy checks for io.WriterTo), so a policy that needs none of them
// implements none, and adding one never touches the policies that exist.

// Clocked is implemented by allocators that need the current time (e.g.
// estimated-completion strategies, which compare neighbours' expected
// ends with a new job's). The engine calls SetNow at every event instant,
// before any Allocate or Release at that instant.
type Clocked interface {
	SetNow(t float64)
}

// Feasibility is implemented by allocators that can tell a job that could
// never be placed, even on the empty machine (a 40×2 request on a 32×32
// mesh without rotation). The engine rejects such a job on arrival, with
// Feasible's error as the reason, instead of letting it wait forever.
type Feasibility interface {
	Feasible(j *Job) error
}

// Sharer is implemented by allocations holding a fractional share of the
// machine (malleable modes). Without it an allocation holds Procs()
// processors.
type Sharer interface {
	Share() float64
}

// ProgressModel sets the rate at which each running job's remaining work
// drains: 1 is full speed (a job of run time r then ends r after its
// start), 1/2 stretches its residence twice, 0 stalls it. Network
// contention and malleable speed-ups are progress models. The engine calls
// Rates once per event instant, after scheduling, with the running jobs in
// start order and their current rates; the model overwrites the rates that
// change. The engine re-keys the completions of the jobs whose rate
// changed.
type ProgressModel interface {
	Rates(now float64, running []*Job, rate []float64)
}

// Handoff is implemented by schedulers that may keep a completing job's
// allocation for a waiting job (lazy scheduling: a released subcube goes
// straight to a waiting job of the same size). The engine calls Handoff
// when done completes, before its allocation is released; a non-nil
// result, a waiting job whose request fits in done's allocation (Procs),
// starts at once on that allocation, which the allocator never sees
// released. Finished(done) is called afterwards, as always.
type Handoff interface {
	Handoff(done *Job, sys System) (next *Job)
}

// Preemptor is implemented by the engine's System: schedulers that
// preempt or migrate jobs type-assert sys to it.
//
// Suspend stops a running job: its processors are released, its remaining
// work is kept, and it is waiting again. The engine does not call Submit:
// the scheduler that suspends a job queues it itself. Starting it again
// (System.Start) resumes it with its remaining work.
//
// Migrate moves a running job to a fresh allocation from the allocator
// (taken while the old one is still held, so the job moves into processors
// free now), then releases the old one; the job makes no progress for
// delay time units. It returns false, changing nothing, when the job is not
// running or no allocation is free.
//
// Job.Start stays the first start; the engine counts each job's
// suspensions and migrations and logs every one (engine.Result).
type Preemptor interface {
	Suspend(j *Job) bool
	Migrate(j *Job, delay float64) bool
}
