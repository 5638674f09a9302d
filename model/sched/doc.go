// Package sched implements the topology-blind scheduling family of schedlab:
// strict FCFS; the single-queue orderings SJF, SmallestJF, LargestJF and
// SmallestSDJF with their "(SA)" variants; Chu's Immediate Fit, Scan All and
// Multiple Queues; Krueger, Lai and Radiya's Scan (with the starvation-free
// variants); and Das Sharma and Pradhan's priority + reservation scheme.
// Every scheduler works with any allocator: it only asks the engine to
// start a job (policy.System.Start), which fails when the allocator cannot
// place it. Schedulers returns their registry entries.
//
// # From the papers' event rules to Schedule calls
//
// The papers state each policy as two rules: what happens "when a job
// arrives" and "when a job completes". The engine (model/engine) instead
// completes every job ending at an instant (Finished), then admits every
// job arriving at it (Submit), then calls Schedule once. The schedulers
// therefore only record events in Finished and Submit: Submit appends the
// job to a list of arrivals not yet handled, Finished sets a flag (and
// updates policy state, e.g. reservations). Schedule then replays the
// instant in the papers' order:
//
//  1. if any job finished since the last call, the completion rule runs
//     once, after all of the instant's releases (the engine's contract:
//     jobs started at an instant see every processor freed at it, so k
//     simultaneous completions count as one release of their union);
//  2. then the arrival rule runs for each arriving job in arrival order,
//     each seeing the jobs started for the arrivals before it.
//
// Arriving jobs are not in any queue while the completion rule runs, as in
// the papers, where they have not arrived yet. A Schedule call with neither
// (a timer) changes nothing.
//
// # Common conventions
//
//   - Waiting-time limit (WTL, Chu §5.1): a waiting job "has exceeded" the
//     limit when now − submit ≥ wtl. The limit is inclusive so that wtl=0
//     reproduces FCFS exactly, as Chu states for Fig. 5.12, even for jobs
//     arriving at the same instant; wtl=inf (the default) never triggers.
//   - Ties in ordered queues are broken by arrival order.
//   - A job asking for more processors than are free is not offered to the
//     allocator (it cannot fit); this is only a shortcut.
//
// # References
//
// Comments and registry entries cite these by author and year.
//
//   - Chu 1995: Y.-K. Chu, "Processor Allocation and Job Scheduling in
//     Two-Dimensional Mesh Systems", PhD dissertation, Michigan State
//     University, 1995.
//   - Mohapatra, Yu & Das 1995: P. Mohapatra, C. Yu and C. R. Das, "A Lazy
//     Scheduling Scheme for Hypercube Computers", J. Parallel Distrib.
//     Comput. 27(1):26–37, 1995.
//   - Krueger, Lai & Radiya 1994: P. Krueger, T.-H. Lai and V. A.
//     Dixit-Radiya, "Job scheduling is more important than processor
//     allocation for hypercube computers", IEEE Trans. Parallel Distrib.
//     Syst. 5(5):488–497, 1994.
//   - Das Sharma & Pradhan 1994: D. Das Sharma and D. K. Pradhan, "Job
//     scheduling in mesh multicomputers", ICPP 1994, vol. II, pp. 251–258.
package sched
