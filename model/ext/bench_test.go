package ext

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// BenchmarkPipe replays b.N one-processor jobs, one arrival and one
// completion instant each, through a child: instants/s is the rate of
// round trips through the pipe, and go-cpu-ns/instant the CPU time (user +
// system) of the engine's process per instant, the Go side's overhead.
// Trivial is the cheapest child (it starts each job on arrival without
// decoding the JSON), fcfs the Go FCFS child (encoding/json).
func BenchmarkPipe(b *testing.B) {
	for _, mode := range []string{"trivial", "fcfs"} {
		b.Run(mode, func(b *testing.B) { benchPipe(b, childCmd(mode)) })
	}
	if cmd := os.Getenv("EXT_BENCH_CMD"); cmd != "" {
		b.Run("env", func(b *testing.B) { benchPipe(b, cmd) })
	}
}

func benchPipe(b *testing.B, cmd string) {
	jobs := make([]policy.Job, b.N)
	for i := range jobs {
		jobs[i] = policy.Job{ID: int64(i + 1), Submit: float64(i), Run: 0.5, Estimate: 1, Procs: 1, User: 1}
	}
	m := policy.Machine{Kind: policy.Flat, Procs: 1}
	s, err := New(m, policy.Params{"cmd": cmd})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	cpu0 := cpuTime()
	start := time.Now()
	b.ResetTimer()
	if _, err := engine.Run(jobs, m, flat.NewCount(1), s, engine.Options{}); err != nil {
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	instants := 2 * float64(b.N)
	b.ReportMetric(instants/time.Since(start).Seconds(), "instants/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/instants, "go-cpu-ns/instant")
}

// BenchmarkMessage is the Go side's work per instant without the pipe:
// one arrival and one completion encoded, a one-start reply parsed.
func BenchmarkMessage(b *testing.B) {
	s := &Scheduler{m: policy.Machine{Kind: policy.Flat, Procs: 128}}
	j := &policy.Job{ID: 12345, Submit: 86400, Estimate: 3600, Procs: 16, User: 7}
	reply := []byte(`{"start":[12344]}` + "\n")
	for i := 0; i < b.N; i++ {
		s.arrived = append(s.arrived[:0], j)
		s.ended = append(s.ended[:0], 12)
		s.now = float64(i)
		s.buf = s.instant(s.buf[:0], 100)
		if _, _, _, err := parseReply(reply); err != nil {
			b.Fatal(err)
		}
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
