package cube

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/backfill"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/trace"
)

// churn does n allocations of uniformly random dimensions 0..d−1 on al
// (the size distribution of Mohapatra, Yu & Das's 10-cube experiments),
// releasing random held subcubes whenever a request is refused, so that
// every allocation is eventually matched by a release: n iterations are n
// allocate + release operations.
func churn(n, d int, al policy.Allocator) {
	r := rand.New(rand.NewPCG(1, 2))
	dims := make([]int, 4096)
	for i := range dims {
		dims[i] = r.IntN(d)
	}
	var held []policy.Allocation
	jb := &policy.Job{}
	for i := 0; i < n; i++ {
		jb.Procs = 1 << dims[i&4095]
		for {
			if a, ok := al.Allocate(jb); ok {
				held = append(held, a)
				break
			}
			k := r.IntN(len(held))
			al.Release(held[k])
			held[k] = held[len(held)-1]
			held = held[:len(held)-1]
		}
	}
}

// BenchmarkAllocRelease is one allocation and one release of a random
// k-cube, k uniform on 0..9, on a 10-cube, for every allocator; it
// reports operations (allocate + release) per second.
func BenchmarkAllocRelease(b *testing.B) {
	for _, s := range Allocators() {
		b.Run(s.Name, func(b *testing.B) {
			a := newByName(b, s.Name, 10)
			b.ResetTimer()
			churn(b.N, 10, a)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}

// nasa is the NASA iPSC/860 log, if present.
func nasa(tb testing.TB) *trace.Trace {
	p := filepath.Join("..", "..", "..", "shared", "traces", "NASA-iPSC-1993-3.1-cln.swf.gz")
	if _, err := os.Stat(p); err != nil {
		tb.Skip("NASA log absent:", p)
	}
	t, err := trace.ReadFile(p, trace.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// BenchmarkReplayNASA replays the NASA iPSC/860 log on cube:7 under every
// cube allocator × scheduler pair (the engine alone, no metrics or
// output), and reports the replayed jobs per second.
func BenchmarkReplayNASA(b *testing.B) {
	t := nasa(b)
	m := policy.Machine{Kind: policy.Cube, Dim: 7, Procs: 128}
	src, _ := admit.Jobs(t, m, admit.EstimatesRequested)
	var scheds []policy.SchedulerSpec
	for _, s := range append(sched.Schedulers(), backfill.Schedulers()...) {
		if policy.Supports(s.Kinds, policy.Cube) {
			scheds = append(scheds, s)
		}
	}
	b.ResetTimer()
	jobs := 0
	for i := 0; i < b.N; i++ {
		for _, as := range Allocators() {
			for _, ss := range scheds {
				a, err := as.New(m, policy.Params{})
				if err != nil {
					b.Fatal(err)
				}
				s, err := ss.New(m, policy.Params{})
				if err != nil {
					b.Fatal(err)
				}
				js := append([]policy.Job(nil), src...)
				if _, err := engine.Run(js, m, a, s, engine.Options{}); err != nil {
					b.Fatalf("%s/%s: %v", as.Name, ss.Name, err)
				}
				jobs += len(js)
			}
		}
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// TestNASAEveryPair replays the NASA iPSC/860 log on cube:7 under every
// cube allocator × scheduler pair with the engine's invariant checker
// (skipped with -short or when the log is absent).
func TestNASAEveryPair(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	tr := nasa(t)
	m := policy.Machine{Kind: policy.Cube, Dim: 7, Procs: 128}
	src, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
	for _, as := range Allocators() {
		for _, ss := range append(sched.Schedulers(), backfill.Schedulers()...) {
			if !policy.Supports(ss.Kinds, policy.Cube) {
				continue
			}
			a, _ := as.New(m, policy.Params{})
			s, _ := ss.New(m, policy.Params{})
			js := append([]policy.Job(nil), src...)
			if _, err := engine.Run(js, m, a, s, engine.Options{Check: true}); err != nil {
				t.Errorf("%s/%s: %v", as.Name, ss.Name, err)
			}
		}
	}
}
