// Package malleable is schedlab's dynamic space-sharing mode: the
// processor-allocation policies of Guha's thesis (K. Guha, "Using Parallel
// Program Characteristics in Dynamic Multiprocessor Allocation Policies",
// M.Sc. thesis, Technical Report CS-95-03, York University, 1995), run on
// the ordinary event engine (model/engine) as a sibling of the rigid
// schedulers: the same trace → engine → results path and the same results
// schema.
//
// # Model (Guha 1995 §3.2, §3.4, §4.3)
//
// A malleable job i has work W_i (its sequential time T_i(1)), an effective
// efficiency ε_i = 100·E_i(P) (hence β_i = (P·ε_i − 100)/(100 − ε_i), ∞ at
// ε_i = 100) and optionally a parallelism cap N_i (§7.5), from the trace's
// work, efficiency and max_parallelism columns. On p_i processors (a real
// number) its remaining work drains at the execution rate of Dowdy's model,
// γ(p_i, β_i) = (1 + β_i)·p_i/(β_i + p_i) (γ = p_i when β_i = ∞).
//
// Jobs enter an active list of at most P jobs; the others wait in a FIFO
// queue, and the first of them enters the list when a job leaves it. The
// policy repartitions the P processors among the active jobs at every
// arrival and departure, and only then (§4.3); an active job may get 0.
//
// # On the engine
//
//   - The allocator is Share ("share"): an active-list slot holding a
//     fractional share (policy.Sharer); the engine integrates the shares
//     over time, so utilization is the time average of Σp_i/P and a job's
//     alloc_procs its time-averaged allocation.
//   - The scheduler (Scheduler, one per policy) admits jobs to the active
//     list with System.Start, sets the shares, and is the run's
//     policy.ProgressModel: a job's rate is γ(p_i, β_i)/γ(P, β_i).
//   - Prepare sets each job's Run to T_i(P) = W_i/γ(P, β_i), its time alone
//     on the whole machine, so that the engine's rate 1 ("full speed") is
//     the whole machine and the job ends exactly when W_i/γ integrated over
//     its allocations reaches W_i. The trace's run_time column (the rigid
//     replay's T(ReqProcs)) is not used.
//
// # Cost per event
//
// With n active jobs, the scheduler's pass is O(n) for eq and alpha without
// caps, O(n log n) for eq and alpha with caps (water-filling sorts by
// N_i/weight), lrwf, mrwf, wk, we and wf (they sort by remaining work).
// Every active job's rate changes at an event, so the engine re-keys n
// completions, O(n log n).
package malleable
