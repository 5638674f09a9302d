package experiment

import (
	"fmt"
	"unsafe"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// Bytes the estimate counts per processor of a machine (allocator state,
// its planning clones, the invariant checker's owner table) and per job of
// a run (the engine's job record, its bookkeeping, series samples and a
// placement).
const (
	bytesPerProc = 24
	bytesPerJob  = int64(unsafe.Sizeof(policy.Job{})) + 160
)

// EstimateMemory returns the memory, in bytes, a run of the planned tasks
// needs at most: the prepared traces, plus as many concurrent runs as the
// pool holds (3 × workers: running, and waiting to be written in order),
// each sized by the largest machine and trace.
func EstimateMemory(tasks []task, preps []*prepared, workers int) int64 {
	var prepared, biggest int64
	for _, p := range preps {
		prepared += int64(p.n) * int64(unsafe.Sizeof(policy.Job{}))
	}
	for _, tk := range tasks {
		biggest = max(biggest, int64(tk.tr.m.Procs)*bytesPerProc+int64(tk.tr.n)*bytesPerJob)
	}
	return prepared + int64(min(len(tasks), 3*workers))*biggest
}

// MemAvailable returns the memory available to a new process
// (trace.MemAvailable).
func MemAvailable() (n int64, ok bool) { return trace.MemAvailable() }

func gib(n int64) string { return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30)) }

// checkMemory refuses a plan that needs more than limit bytes (0: no limit).
func checkMemory(tasks []task, preps []*prepared, opt Options) error {
	if opt.MemoryLimit <= 0 {
		return nil
	}
	need := EstimateMemory(tasks, preps, opt.Workers)
	if need > opt.MemoryLimit {
		big := tasks[0]
		for _, tk := range tasks {
			if tk.tr.m.Procs > big.tr.m.Procs || tk.tr.n > big.tr.n {
				big = tk
			}
		}
		return fmt.Errorf("this replay needs about %s (largest run: %d jobs on %s, %d at once with -j %d) and %s is available: use fewer workers (-j), a smaller machine, or --force-memory to run anyway",
			gib(need), big.tr.n, big.tr.m, min(len(tasks), 3*opt.Workers), opt.Workers, gib(opt.MemoryLimit))
	}
	return nil
}
