package policy

// Optional capabilities. The engine checks for each with a type assertion
// (as io.Copy checks for io.WriterTo), once per run, so a policy that
// needs none of them implements none.

// Contextual is implemented by allocators that look at the run they
// serve: estimated-completion strategies compare their neighbours'
// expected ends with a new job's (Now), k-lookahead places a job so that
// the largest waiting jobs still fit (Largest). The engine calls
// SetContext once, before the run; the context stays valid for the run.
// An allocator that is not Contextual costs the engine nothing per event.
type Contextual interface {
	SetContext(c RunContext)
}

// RunContext is an allocator's read-only view of the run.
type RunContext interface {
	// Now is the current simulated time: that of the Allocate or Release
	// being served.
	Now() float64
	// Largest appends to dst the k waiting jobs (arrived and not running:
	// not started, or suspended) requesting the most processors (ties:
	// earlier arrival first), leaving out skip (the job being allocated,
	// which is still waiting), and returns dst. The engine keeps the
	// waiting jobs in that order from the first call on.
	Largest(k int, skip *Job, dst []*Job) []*Job
}

// Sharer is implemented by allocations holding a fractional share of the
// machine (malleable machines). Without it an allocation holds Procs()
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
// contention and malleable speed-ups are progress models.
//
// The engine tells the model when a job starts running (Started: at its
// start and at every resumption, with j.Alloc set) and when it stops
// (Left: at its completion, before its allocation is released, and at a
// suspension); a migrating job keeps running. After every scheduling pass
// (so at every event instant, and again after zero-length jobs complete)
// it calls Rates with the running jobs in start order and their current
// rates (1 for a job just started or resumed); the model overwrites the
// rates that change. The engine re-keys the completions of the jobs whose
// rate changed; rates left as they were cost nothing, and with every rate
// 1 a job ends at exactly Start + Run.
//
// A model is given in engine.Options.Progress, or implemented by the
// scheduler itself (a malleable scheduler that sets its jobs' speed-ups).
type ProgressModel interface {
	Started(j *Job, p Progress)
	Left(j *Job, p Progress)
	Rates(p Progress, running []*Job, rate []float64)
}

// Progress is what a progress model may ask the engine.
type Progress interface {
	// Now is the current simulated time.
	Now() float64
	// Remaining is running job j's remaining work now, in time units at
	// rate 1 (Run at its start).
	Remaining(j *Job) float64
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

// Failing is implemented by schedulers that can fail (an external
// process that crashed or gave an invalid decision): after each Schedule
// call, a non-nil Err stops the run with that error.
type Failing interface {
	Err() error
}
