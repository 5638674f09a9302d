// Package policy is the contract between the event engine (model/engine),
// a machine's processor allocator and a job scheduler, and the descriptors
// by which policy families offer their constructors to the registry
// (model/catalog). It is a leaf package: the engine, every policy family
// and the catalog import it, and it imports none of them.
//
// The engine is topology-blind. It knows a job's processor count and
// residence time; where those processors are is the allocator's business,
// and which waiting job goes next is the scheduler's.
//
// # The core
//
//   - Job: one job of the run, numbered by its position in the run
//     (Index, 0..n−1), with its trace record (Record) for whatever is
//     seeded by it. Policies keep per-job state by Index, never in Job.
//   - Allocator: Allocate, Release, Free, Size, Clone and Feasible. A job
//     Feasible refuses is rejected on arrival, never submitted.
//   - Allocation: Procs and Placement, the pieces held in the machine's
//     node numbering (Piece; placement.go); the engine records placements
//     and checks that no node is held twice through it.
//   - Scheduler: Submit, Finished, Schedule and Waiting.
//   - System, the scheduler's view of the run during Schedule: Now,
//     Machine, Capacity (Free, Size and a Clone for what-if planning: the
//     allocator itself is not exposed), Reservations, Start, Suspend,
//     Migrate, Running and Wake.
//
// # The instant rule
//
// At one instant the engine
//
//  1. completes every job that ends then, in (end, job ID) order: it
//     offers the job's allocation to a Handoff scheduler, releases it
//     unless handed off, and calls Finished;
//  2. admits every job that arrives then, in arrival order: it rejects
//     those Feasible refuses, and calls Submit for the others;
//  3. drops the timers (Wake) that are due, and calls Schedule once (then
//     the progress model's Rates, then reads the shares).
//
// Jobs start only inside Schedule, so a decision always sees every
// processor freed at that instant. A job started at t with run time 0
// ends at t: its completion is processed at once and followed by another
// Schedule call at t, until nothing more happens at t.
//
// # Machine families (family.go)
//
// A Machine is written kind:args ("mesh:32x32"). Each kind is a Family,
// registered by its package from init (RegisterFamily): its parser, how
// trace jobs become requests (a shape, a subcube's need: Job.NeedProcs),
// its allocators, what its runs record (placements, dispersion, the node
// numbering of pieces), its communication models, its extra summary
// columns and its replay mode. Nothing above the families switches on a
// kind: the runner, the catalog, the planner and the reports ask the
// registry (FamilyOf, Families).
//
// # Optional capabilities (capabilities.go, reserve.go)
//
// Each is found by a type assertion, once per run; what is not
// implemented costs nothing.
//
//   - Contextual allocators get, before the run, a RunContext: the time
//     and the largest waiting jobs (estimated-completion strategies,
//     k-lookahead).
//   - Reserver allocators set processors aside for a waiting job
//     (System.Reservations).
//   - Handoff schedulers give a completing job's allocation straight to a
//     waiting job (lazy scheduling).
//   - Sharer allocations hold a fractional share (malleable machines).
//   - A ProgressModel (engine.Options.Progress, or the scheduler) sets the
//     rate at which running jobs drain their remaining work: it is told
//     when jobs start and leave, and can ask a job's remaining work.
//   - Failing schedulers can stop the run with an error after a Schedule
//     call (model/ext: an external process that crashed or decided
//     something invalid).
package policy
