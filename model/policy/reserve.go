package policy

// Reserver is implemented by allocators that can set processors aside for
// a waiting job, so that no other job is given them even while they are
// free, and later allocate the job there (the submesh reservation of D.
// Das Sharma and D. K. Pradhan, "Job scheduling in mesh multicomputers",
// ICPP 1994). A reservation belongs to one job (by Job.Index) and lasts
// until the job is allocated or the reservation is cancelled.
//
// The reservation is honoured by Allocate, so that a scheduler still
// starts the job through System.Start: Allocate(j) of a job holding a
// reservation places it exactly there when the reservation is Ready;
// otherwise wherever the allocator's own rule finds room among the
// processors that are free and not reserved for another job (its own
// reserved processors count as free). Either way, once j is allocated its
// reservation ends. Allocate never gives a job a processor reserved for
// another. Free still counts the reserved free processors (they are not
// busy); Held says how many there are.
type Reserver interface {
	// Reserve sets processors aside for j, where the allocator chooses;
	// false when none can be reserved or j already holds a reservation.
	Reserve(j *Job) bool
	// Ready reports whether j holds a reservation whose processors are
	// all free.
	Ready(j *Job) bool
	// Cancel ends j's reservation, if any, without allocating.
	Cancel(j *Job)
	// Held is the number of free processors set aside by reservations.
	Held() int
}
