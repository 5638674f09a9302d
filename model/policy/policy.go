// Package policy defines the small interfaces through which the event engine
// speaks to a machine's processor allocator and to a job scheduler, and the
// descriptors by which policy families offer their constructors to the
// registry (model/catalog).
//
// It is a leaf package: the engine, every policy family (model/flat,
// model/sched, ...) and the catalog import it, and it imports none of them.
//
// The engine is topology-blind. It knows a job's processor count and
// residence time; where those processors are is the allocator's business,
// and which waiting job goes next is the scheduler's.
package policy

// Job is the engine's view of one job of a trace. The engine fills the
// request fields from the trace record and maintains Start, End and Alloc.
// Policies keep their own per-job state (indexed by Index), never in Job.
type Job struct {
	Index    int32   // position of the job in the run, 0..n−1 (set by engine.Run)
	Record   int32   // position of the job's record in the trace (0-based)
	ID       int64   // SWF job number
	Submit   float64 // arrival time
	Run      float64 // residence time when run at full speed (actual run time)
	Estimate float64 // runtime estimate, used only by policies that need one
	Procs    int     // processors requested
	Width    int32   // requested mesh width, 0 when the trace gives none
	Height   int32   // requested mesh height, 0 when the trace gives none
	User     int64   // SWF user id, -1 when unknown
	// NeedProcs is the number of processors the job occupies when placed,
	// when its machine family sets it (e.g. a hypercube's 2^k-node
	// subcube); 0 leaves it to Need's rule.
	NeedProcs int

	// Malleable characteristics, nil when the trace gives none for this
	// job (rigid traces). Held by pointer to keep Job small (every run
	// copies and scans the job array); read-only, shared by copies of the
	// job.
	Malleable *Malleable
	// Window is the job's priority and deadline (pcw), nil when the trace
	// gives neither; read it through Priority and Deadline. A pointer, as
	// Malleable, to keep Job small.
	Window *Window

	Start float64    // start time; -1 until started
	End   float64    // completion time; -1 until known
	Alloc Allocation // processors held while running; nil otherwise
}

// Need is the number of processors j occupies when placed: NeedProcs when
// set, else its w×h request on a mesh (which may exceed Procs: internal
// fragmentation; on a hypercube the experiment writes a job's 2^k-node
// subcube as a 2^k×1 request), else Procs.
func (j *Job) Need() int {
	if j.NeedProcs > 0 {
		return j.NeedProcs
	}
	if j.Width > 0 && j.Height > 0 {
		return max(int(j.Width)*int(j.Height), j.Procs)
	}
	return j.Procs
}

// Window is a job's priority and execution window (Ghoneim & Fahmy 2003),
// from the priority and deadline columns.
type Window struct {
	Priority int     // class ≥ 0, higher is more urgent; -1 when unknown
	Deadline float64 // absolute deadline; -1 when unknown
}

// Priority is j's priority class (higher is more urgent), -1 when unknown.
func (j *Job) Priority() int {
	if j.Window == nil {
		return -1
	}
	return j.Window.Priority
}

// Deadline is j's absolute deadline, -1 when unknown.
func (j *Job) Deadline() float64 {
	if j.Window == nil {
		return -1
	}
	return j.Window.Deadline
}

// Malleable is what a malleable job's trace record says of it (Guha 1995),
// from the work, efficiency and max_parallelism columns.
type Malleable struct {
	Work       float64 // total work W; -1 when unknown
	Efficiency float64 // effective efficiency ε, percent; -1 when unknown
	MaxPar     int     // parallelism cap N_i; -1 (or ≤ 0) when none
}

// Allocation is the set of processors an allocator gave to one job.
type Allocation interface {
	// Procs is the number of processors held. It may exceed the request
	// when the allocator rounds up (internal fragmentation).
	Procs() int
}

// NodeLister is implemented by allocations that know their processor
// numbers (0..Size()-1). The engine's invariant checker uses it to prove that
// no processor is held twice, and reports use it for occupancy charts.
type NodeLister interface {
	// Nodes appends the processor numbers held to dst and returns it.
	Nodes(dst []int) []int
}

// Allocator owns a machine's processors.
type Allocator interface {
	// Allocate finds processors for j; ok is false when j does not fit now.
	Allocate(j *Job) (a Allocation, ok bool)
	// Release returns the processors of a to the free pool.
	Release(a Allocation)
	// Free is the number of free processors.
	Free() int
	// Size is the number of processors of the machine.
	Size() int
	// Clone returns an independent deep copy, for what-if planning
	// (e.g. finding when a backfilling reservation could start).
	Clone() Allocator
}

// System is what a scheduler sees of the running simulation during a
// Schedule call.
type System interface {
	// Now is the current simulated time.
	Now() float64
	// Machine is the machine being simulated.
	Machine() Machine
	// Allocator answers queries (Free, Size) and can be cloned for planning.
	// Schedulers must not Allocate or Release through it: use Start.
	Allocator() Allocator
	// Start allocates processors to j and starts it now. It returns false,
	// and changes nothing, when j does not fit.
	Start(j *Job) bool
	// Running lists the running jobs in the order they started. The slice
	// is owned by the engine and valid until the next Start, Suspend,
	// Migrate or event.
	Running() []*Job
	// Wake asks the engine for a Schedule call at time t (> Now), for
	// policies that act on timers rather than on arrivals and completions.
	Wake(t float64)
}

// Scheduler decides which waiting job starts when.
//
// At each instant the engine first completes every job that ends then
// (releasing its processors and calling Finished, in job order), then admits
// every job that arrives then (calling Submit, in trace order), and only then
// calls Schedule once. Jobs are started only from Schedule, so a decision
// always sees every processor freed at that instant.
type Scheduler interface {
	// Submit takes an arriving job into the scheduler's queues.
	Submit(j *Job)
	// Finished tells the scheduler that j has completed and released its
	// processors.
	Finished(j *Job)
	// Schedule starts, through sys.Start, the jobs the policy starts now.
	Schedule(sys System)
	// Waiting is the number of jobs waiting to start.
	Waiting() int
}

// Rejection is a job refused before it could run: by job conversion (no
// processor count, unknown run time, larger than the machine...) or by the
// allocator's feasibility check on arrival.
type Rejection struct {
	Index  int    // position of the job's record in the trace
	ID     int64  // SWF job number
	Reason string // one line
}
