// Package engine is schedlab's discrete-event core: it replays a list of
// jobs on a machine through a processor allocator and a job scheduler
// (model/policy), and records when each job started and ended.
//
// # Event order (contract)
//
// At one instant the engine
//
//  1. completes every job that ends then, in (end, job ID) order: it
//     offers the job's allocation to a policy.Handoff scheduler, releases
//     it unless handed off, and calls Scheduler.Finished;
//  2. admits every job that arrives then, in trace order (Scheduler.Submit),
//     after rejecting those a policy.Feasibility allocator cannot place;
//  3. drops the timers (System.Wake) that are due, and calls
//     Scheduler.Schedule once (then the progress model, if any).
//
// A job started at time t with run time 0 ends at t: its completion is
// processed at once and followed by another Schedule call at t, until
// nothing more happens at t. Jobs started at an instant therefore see every
// processor freed at that instant (oar-team/batsim#14; the AccaSim mistake
// noted in the peers survey).
//
// The engine is topology-blind: it knows a job's processor count and
// residence time; the allocator decides where, the scheduler decides when.
//
// # Extension points (model/policy's optional interfaces)
//
// Each is an optional interface, found by type assertion (as io.Copy finds
// io.WriterTo): a policy that needs none implements none, and a rigid run
// is exactly what it was before they existed (a job started at t ends at
// exactly t + Run).
//
//   - Placements (Options.Placement): where each job ran, as pieces in the
//     machine's node numbering (policy.Piece), from policy.Placer, else
//     policy.NodeLister grouped into flat ranges; one arena for the run,
//     O(pieces) per job (Result.Placement, Result.EventPlacement).
//   - policy.Clocked allocators get SetNow(t) at every event instant,
//     before any Allocate or Release at that instant.
//   - policy.Feasibility allocators reject, on arrival, a job they could
//     never place (Result.Rejected; Start = End = -1; never submitted)
//     instead of a deadlock.
//   - policy.ProgressModel (Options.Progress, else the scheduler when it
//     implements it) sets, after every scheduling pass, the rate at which
//     each running job's remaining work drains (network contention,
//     malleable speed-up). The engine keeps each job's remaining work and
//     rate once a model, a suspension or a migration needs them, re-keys
//     changed completions in the indexed completion heap (indexHeap:
//     fix, remove in O(log n)), and takes the makespan from real completions.
//   - policy.Handoff schedulers may give a completing job's allocation
//     straight to a waiting job, before the allocator sees it released
//     (lazy scheduling).
//   - The System is a policy.Preemptor: Suspend (the job keeps its
//     remaining work and waits again; the scheduler requeues it, and Start
//     resumes it) and Migrate (a fresh allocation, no progress during a
//     delay). Job.Start stays the first start; Result.Suspensions,
//     Migrations and Events record the rest, and Options.Check follows
//     every transition.
//   - policy.Sharer allocations hold fractional shares, read at the start
//     and after every pass: busy time, the series and AllocProcs are
//     float64 (AllocProcs a time average when the share changed).
package engine

import "github.com/schedlab/schedlab/model/policy"

// Options controls a run.
type Options struct {
	// Check verifies invariants while running: no processor held twice
	// (through policy.NodeLister when the allocations implement it), the
	// machine's capacity never exceeded, the allocator's free count
	// consistent, an allocation at least as large as the request, every start
	// at or after its submit time, every job ending exactly once, and the
	// scheduler's waiting count agreeing with the engine's; through handoffs,
	// suspensions, resumptions and migrations too (a migrating job holds
	// both allocations for an instant). A violation makes Run return an
	// error naming the job and time.
	Check bool
	// Series records the (time, busy, running, queue) series, one sample per
	// distinct event time.
	Series bool
	// Placement records, for every job, where it ran last (Result.Placement)
	// and where it ran before each suspension or migration
	// (Result.EventPlacement).
	Placement bool
	// Progress, when set, sets the rate at which running jobs progress;
	// when nil, a scheduler that is a policy.ProgressModel does.
	Progress policy.ProgressModel
	// Until, when > 0, ends the run at time Until: the events of instants
	// up to Until are processed and nothing later. Jobs arriving after
	// Until are never submitted (Start = End = -1), jobs still waiting
	// then keep Start = -1, and jobs still running keep End = -1
	// (Result.Stopped). The areas (BusyArea, QueueArea, ExtFragTime) are
	// integrated up to Until, and Last is Until. This is the observation
	// window of Mohapatra, Yu & Das 1995 §4.2.
	Until float64
}

// Sample is the state of the machine after all events at one instant.
type Sample struct {
	Time    float64
	Busy    float64 // processors held
	Running int     // jobs running
	Queue   int     // jobs waiting
}

// Result holds the jobs with Start and End filled, plus statistics.
type Result struct {
	// Jobs is the slice given to Run, with Start and End set (Alloc is nil
	// again once a job has completed).
	Jobs []policy.Job
	// AllocProcs[i] is the number of processors Jobs[i] held: exactly its
	// allocation's Procs (which may exceed the request when the allocator
	// rounds up), or Share for a policy.Sharer; when that number changed
	// during the job's residence (a share changed, a resumption or a
	// migration onto another number), the time average over the intervals
	// in which the job held processors.
	AllocProcs []float64
	// Pieces holds every recorded placement (Options.Placement); job i's
	// is Pieces[pieceOff[i] : pieceOff[i]+pieceLen[i]] (see Placement).
	Pieces             []policy.Piece
	pieceOff, pieceLen []int32
	// Rejected lists the jobs the allocator declared infeasible
	// (policy.Feasibility), in arrival order, Index being Job.Record: they
	// were never submitted to the scheduler and have Start = End = -1.
	Rejected []policy.Rejection
	// Suspensions[i] and Migrations[i] count job i's suspensions and
	// migrations; nil when none happened in the run.
	Suspensions, Migrations []int32
	// MigrationTime is the time running jobs spent in migration delays
	// (policy.Preemptor.Migrate), summed over jobs: each delay counts in
	// full, except one cut short by a suspension, a further migration or
	// the end of the observation window (Options.Until), which counts up
	// to then.
	MigrationTime float64
	// Events logs every suspension, resumption and migration in order.
	Events      []Event
	eventPieces [][2]int32 // per event: offset and length in Pieces of the placement left
	// First is the first arrival time, Last the last completion time.
	First, Last float64
	// ExtFragTime is the time during which the earliest-arrived waiting job
	// waited although the machine had as many free processors as it needs
	// (policy.Job.Need): external fragmentation, or a scheduler holding
	// processors back. ExtFragInstants counts the event instants after
	// which that held.
	ExtFragTime     float64
	ExtFragInstants int
	// MaxQueue is the largest number of jobs waiting after any instant.
	MaxQueue int
	// QueueArea and BusyArea are the integrals over [First, Last] of the
	// number of waiting jobs and of busy processors.
	QueueArea, BusyArea float64
	// Instants is the number of distinct event times.
	Instants int
	// Series is the state after each instant (Options.Series).
	Series []Sample
	// Stopped reports that Options.Until ended the run with jobs not
	// completed (not arrived, waiting or running).
	Stopped bool
}

// Placement returns the pieces job i held last (Options.Placement), nil when
// not recorded. The slice aliases Pieces.
func (r *Result) Placement(i int) []policy.Piece {
	if r.pieceLen == nil || r.pieceLen[i] == 0 {
		return nil
	}
	o := r.pieceOff[i]
	return r.Pieces[o : o+r.pieceLen[i] : o+r.pieceLen[i]]
}

// EventPlacement returns the placement job Events[k].Index left at event k,
// a suspension or a migration (Options.Placement): where it ran until then.
// It is nil for a resumption, whose placement is the one the job held
// next (its next event's, or Placement's for the last). With Placement,
// every placement a job held is thus recorded. The slice aliases Pieces.
func (r *Result) EventPlacement(k int) []policy.Piece {
	if r.eventPieces == nil || r.eventPieces[k][1] == 0 {
		return nil
	}
	o, n := r.eventPieces[k][0], r.eventPieces[k][1]
	return r.Pieces[o : o+n : o+n]
}

// EventKind is the kind of a logged Event.
type EventKind uint8

// Logged event kinds.
const (
	Suspended EventKind = iota + 1
	Resumed
	Migrated
)

func (k EventKind) String() string {
	return [...]string{"", "suspend", "resume", "migrate"}[k]
}

// Event is one suspension, resumption or migration.
type Event struct {
	Time  float64
	Index int32 // position of the job in Result.Jobs
	Kind  EventKind
}

// MaxIdleWakes is the number of consecutive timer (System.Wake) instants at
// which Run lets jobs wait on an idle machine, with no arrival to come, before
// it reports a deadlock: a scheduler that keeps setting timers without ever
// starting a job would otherwise loop forever.
const MaxIdleWakes = 1 << 20
