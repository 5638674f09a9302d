package policy

// Job is the engine's view of one job of a trace. Job conversion
// (model/admit) fills the request fields from the trace record; the
// engine numbers the jobs (Index) and maintains Start, End and Alloc.
// Policies keep their own per-job state (indexed by Index), never in Job;
// what is seeded per job (a random placement, a job's messages) is seeded
// by Record, so that it does not depend on which other jobs are replayed.
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
// its family set it (a hypercube job's 2^k-node subcube), else its w×h
// request on a mesh (which may exceed Procs: internal fragmentation),
// else Procs.
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
	// Placement appends the pieces held, in the machine's node numbering
	// (Piece), to dst and returns it: O(pieces), not O(nodes). A
	// fractional share (Sharer) holds no particular node and appends
	// none.
	Placement(dst []Piece) []Piece
}

// Capacity is what a scheduler sees of the allocator: how many
// processors are free and in all, and a copy for what-if planning.
type Capacity interface {
	// Free is the number of free processors.
	Free() int
	// Size is the number of processors of the machine.
	Size() int
	// Clone returns an independent deep copy, for what-if planning
	// (e.g. finding when a backfilling reservation could start).
	Clone() Allocator
}

// Allocator owns a machine's processors.
type Allocator interface {
	Capacity
	// Allocate finds processors for j; ok is false when j does not fit now.
	Allocate(j *Job) (a Allocation, ok bool)
	// Release returns the processors of a to the free pool.
	Release(a Allocation)
	// Feasible returns nil when j could be placed on the empty machine,
	// else why it never can (a 40×2 request on a 32×32 mesh without
	// rotation): the engine rejects such a job on arrival, with the
	// error as the reason, instead of letting it wait forever.
	Feasible(j *Job) error
}

// System is what a scheduler sees of the running simulation during a
// Schedule call.
type System interface {
	// Now is the current simulated time.
	Now() float64
	// Machine is the machine being simulated.
	Machine() Machine
	// Capacity is a read-only view of the allocator.
	Capacity() Capacity
	// Reservations is the allocator's Reserver, nil when it has none.
	Reservations() Reserver
	// Start allocates processors to j and starts it now. It returns false,
	// and changes nothing, when j does not fit. Starting a suspended job
	// resumes it with its remaining work.
	Start(j *Job) bool
	// Suspend stops a running job: its processors are released, its
	// remaining work is kept, and it is waiting again (it counts in
	// Waiting; the scheduler queues it itself: the engine does not call
	// Submit). A job suspended during a migration delay forfeits the
	// rest of the delay. It returns false when j is not running.
	Suspend(j *Job) bool
	// Migrate moves a running job to a fresh allocation (taken while the
	// old one is still held, so the job moves into processors free now),
	// then releases the old one; the job makes no progress for delay
	// time units. It returns false, changing nothing, when the job is not
	// running or no allocation is free.
	Migrate(j *Job, delay float64) bool
	// Running lists the running jobs in the order they started. The slice
	// is owned by the engine and valid until the next Start, Suspend,
	// Migrate or event.
	Running() []*Job
	// Wake asks the engine for a Schedule call at time t (> Now), for
	// policies that act on timers rather than on arrivals and completions.
	Wake(t float64)
}

// Scheduler decides which waiting job starts when. Jobs are started only
// from Schedule (the instant rule, in the package doc).
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
