// Package engine is schedlab's discrete-event core: it replays a list of
// jobs on a machine through a processor allocator and a job scheduler
// (model/policy, whose package doc states the contract and the instant
// rule), and records when each job started and ended.
//
// The engine is topology-blind: it knows a job's processor count and
// residence time; the allocator decides where, the scheduler decides when.
// Jobs are known by their position in the run (policy.Job.Index).
//
// A rigid run (no progress model, suspension or migration) ends a job
// started at t at exactly t + Run. Otherwise the engine keeps each job's
// remaining work and rate, re-keys changed completions in the indexed
// completion heap, and takes the makespan from real completions; Job.Start
// stays the first start, and Result.Suspensions, Migrations and Events
// record the rest. Fractional shares (policy.Sharer) make the busy time,
// the series and AllocProcs float64 (AllocProcs a time average when the
// share changed).
//
// The files: the loop (run.go), the sequential event semantics
// (sequential.go), the System methods (system.go,
// preempt.go), remaining work and rates (progress.go), accounting
// (account.go), the invariant checker (check.go), the placement and event
// recorder (record.go), the indexed heap of completions and timers
// (heap.go), the waiting jobs in size order for RunContext.Largest
// (waiting.go).
package engine

import "github.com/schedlab/schedlab/model/policy"

// Options controls a run.
type Options struct {
	// Check verifies invariants while running: no processor held twice
	// (the nodes of each allocation's Placement), the
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
	// Sequential replaces the instant rule (policy's package doc) by the
	// classic one-event-at-a-time semantics of pyss (sequential.go): one
	// scheduling pass per event, not per instant.
	Sequential bool
	// Tick, when set, is called every TickInstants event instants with
	// the number of jobs done so far (completed or rejected) and the
	// simulated time, for progress reports on long runs.
	Tick func(done int, now float64)
}

// TickInstants is the number of event instants between Options.Tick
// calls; a variable so that tests can tick often.
var TickInstants = 1 << 10

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
	// (Allocator.Feasible), in arrival order, Index being Job.Record: they
	// were never submitted to the scheduler and have Start = End = -1.
	Rejected []policy.Rejection
	// Suspensions[i] and Migrations[i] count job i's suspensions and
	// migrations; nil when none happened in the run.
	Suspensions, Migrations []int32
	// MigrationTime is the time running jobs spent in migration delays
	// (policy.System.Migrate), summed over jobs: each delay counts in
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
