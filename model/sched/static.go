package sched

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// Static is static partitioning (P. Mohapatra, C. Yu and C. R. Das, "A
// Lazy Scheduling Scheme for Hypercube Computers", 1995, §3.1): the n-cube
// is split once into one (n−1)-cube, one (n−2)-cube, …, one 1-cube and two
// 0-cubes (2^(n−1) + … + 2 + 1 + 1 = 2^n nodes); partition S_i serves the
// jobs of dimension i from its FCFS queue Q_i.
//
//   - Static_Request(I_k): if Q_k is empty (and S_k idle), S_k goes to
//     I_k; otherwise I_k joins Q_k.
//   - Static_Release(I_k): if Q_k is not empty, its head gets S_k.
//
// Readings:
//
//   - S_0 is two servers (the two 0-cubes): the only reading that uses all
//     2^n nodes.
//   - The partition is a number of servers per dimension: at most one job
//     of each dimension 1..n−1 runs, and two of dimension 0; where a job
//     runs is the allocator's choice (it is started through System.Start
//     like every job). Under those counts the running jobs always fit the
//     n-cube's partition; with buddy (the paper's allocator) a job whose
//     partition is idle is always placed (a test replays random workloads
//     against the independent-queues model), with an allocator that
//     cannot place it the job stays at the head of Q_k and is retried at
//     the next release.
//   - A job asking for the whole n-cube has no partition (the paper's
//     workloads have dimensions 0..n−1 only): it waits in Q_n, and while
//     Q_n is not empty no partition takes a new job; its head starts when
//     the machine is empty, so it cannot starve.
//   - Queues are served from the largest dimension down at each instant
//     (only the allocator's placement depends on it).
//   - On a machine that is not a hypercube, the partition is that of the
//     smallest 2^n ≥ N processors (a modelling choice; static is a
//     hypercube scheme and is registered for cubes only).
type Static struct {
	inbox
	qs      []fifo.Queue // Q_0..Q_n
	running []int        // jobs running in S_k
	n       int          // jobs in the queues
	run     int          // jobs running
}

// NewStatic returns static partitioning for a machine of procs processors
// (an n-cube when procs = 2^n).
func NewStatic(procs int) *Static {
	nq := bits.Len(uint(procs-1)) + 1
	return &Static{qs: make([]fifo.Queue, nq), running: make([]int, nq)}
}

// servers is the number of partitions of dimension k on the n-cube
// (n = len(qs)−1).
func (s *Static) servers(k int) int {
	switch {
	case k == len(s.qs)-1:
		return 1 // the whole machine, only when it is empty
	case k == 0:
		return 2
	}
	return 1
}

// Waiting is the number of jobs waiting.
func (s *Static) Waiting() int { return s.n + len(s.arrivals) }

// Finished frees j's partition.
func (s *Static) Finished(j *policy.Job) {
	s.freed = true
	s.running[s.dim(j)]--
	s.run--
}

func (s *Static) dim(j *policy.Job) int { return min(SizeClass(j.Procs), len(s.qs)-1) }

// Schedule queues the arrivals, then serves every queue whose partition
// is idle.
func (s *Static) Schedule(sys policy.System) {
	s.freed = false
	for _, j := range s.arrivals {
		s.qs[s.dim(j)].Push(j)
		s.n++
	}
	s.done()
	top := len(s.qs) - 1
	if s.qs[top].Len() > 0 {
		// No partition takes a job while a whole-machine job waits.
		if s.run == 0 {
			s.start(sys, top)
		}
		return
	}
	for k := top - 1; k >= 0; k-- {
		for s.running[k] < s.servers(k) && s.qs[k].Len() > 0 && s.start(sys, k) {
		}
	}
}

// start starts the head of Q_k; false if the allocator cannot place it.
func (s *Static) start(sys policy.System, k int) bool {
	if !tryStart(sys, s.qs[k].Front()) {
		return false
	}
	s.qs[k].Pop()
	s.n--
	s.running[k]++
	s.run++
	return true
}
