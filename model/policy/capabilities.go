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
// processors. The share may change while the job runs (a malleable job
// grown or shrunk): the engine reads it when the job starts and again
// after every scheduling pass and progress-model call, and integrates it
// over time (busy area, series, and AllocProcs as a time average).
type Sharer interface {
	Share() float64
}

// ProgressModel sets the rate at which each running job's remaining work
// drains: 1 is full speed (a job of run time r then ends r after its
// start), 1/2 stretches its residence twice, 0 stalls it. Network
// contention and malleable speed-ups are progress models. The engine calls
// Rates after every scheduling pass (so at every event instant, and again
// after zero-length jobs complete), with the running jobs in start order
// and their current rates (1 for a job just started or resumed); the model
// overwrites the rates that change. The engine re-keys the completions of
// the jobs whose rate changed; rates left as they were cost nothing, and
// with every rate 1 a job ends at exactly Start + Run.
//
// A model is given in engine.Options.Progress, or implemented by the
// scheduler itself (a malleable scheduler that sets its jobs' speed-ups).
type ProgressModel interface {
	Rates(now float64, running []*Job, rate []float64)
}

// Handoff is implemented by schedulers that may keep a completing job's
// allocation for a waiting job (lazy scheduling: a released subcube goes
// straight to a waiting job of the same size). The engine calls Handoff
// when done completes, with done.Alloc still set, before the allocation
// is released; a non-nil result, a waiting job whose request fits in
// done's allocation (Procs), leaves the scheduler's queue (the scheduler
// removes it) and starts at once on that allocation, which the allocator
// never sees released. Finished(done) is called afterwards, as always.
// Handoff may query sys but must not Start, Suspend or Migrate jobs.
type Handoff interface {
	Handoff(done *Job, sys System) (next *Job)
}

// Preemptor is implemented by the engine's System: schedulers that
// preempt or migrate jobs type-assert sys to it.
//
// Suspend stops a running job: its processors are released, its remaining
// work is kept, and it is waiting again (it counts in Waiting). The engine
// does not call Submit: the scheduler that suspends a job queues it
// itself. Starting it again (System.Start) resumes it with its remaining
// work, on whatever allocation the allocator gives then. A job suspended
// during a migration delay forfeits the rest of the delay.
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

// WaitingAware is implemented by allocators that look at the jobs waiting
// to start (k-lookahead, Bhattacharya & Tsai: place a job so that the
// largest waiting jobs still fit). The engine calls SetWaiting once,
// before the run, with a view it keeps up to date.
type WaitingAware interface {
	SetWaiting(v Waiting)
}

// Waiting is the engine's view of the jobs that have arrived and are not
// running (not started, or suspended).
type Waiting interface {
	// Largest appends to dst the k waiting jobs requesting the most
	// processors (ties: earlier arrival first), leaving out skip (the job
	// being allocated, which is still waiting), and returns dst.
	Largest(k int, skip *Job, dst []*Job) []*Job
}
