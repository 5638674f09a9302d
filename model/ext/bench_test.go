package ext

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// BenchmarkPipe replays b.N one-processor jobs, one arrival and one
// completion instant each, through a child: instants/s is the rate of
// simulated instants, replies/s the rate of round trips through the pipe
// (instants answered: every instant, or with ask=fit only those where a
// job may fit: the arrivals), and go-cpu-ns/instant the CPU time (user +
// system) of the engine's process per instant, the Go side's overhead.
// The children: trivial, the cheapest Go scheduler (it starts each job on
// arrival without decoding the JSON), fcfs the Go FCFS (encoding/json),
// py-trivial testdata/trivial.py (reading the ids as the Go trivial does),
// py-json the same decoding each message with json.loads, py-client the
// schedlab_ext client with its trivial example (ask=fit, its default);
// each with the process pinned to the engine's CPU (the default) and not.
// EXT_BENCH_CMD adds a child of one's own ("env").
func BenchmarkPipe(b *testing.B) {
	children := [][2]string{
		{"trivial", childCmd("trivial")},
		{"trivial-fit", childCmd("trivial-fit")},
		{"fcfs", childCmd("fcfs")},
	}
	if py, err := exec.LookPath("python3"); err == nil {
		children = append(children,
			[2]string{"py-trivial", "exec '" + py + "' testdata/trivial.py"},
			[2]string{"py-trivial-fit", "exec '" + py + "' testdata/trivial.py fit"},
			[2]string{"py-json", "exec '" + py + "' testdata/trivial.py json"},
			[2]string{"py-json-fit", "exec '" + py + "' testdata/trivial.py json fit"},
			[2]string{"py-client", "exec '" + py + "' ../../notebooks/schedlab_ext/examples/trivial.py"},
		)
	}
	if cmd := os.Getenv("EXT_BENCH_CMD"); cmd != "" {
		children = append(children, [2]string{"env", cmd})
	}
	for _, c := range children {
		for _, pin := range []string{"true", "false"} {
			b.Run(c[0]+"/pin="+pin, func(b *testing.B) { benchPipe(b, c[1], pin) })
		}
	}
}

func benchPipe(b *testing.B, cmd, pin string) {
	jobs := make([]policy.Job, b.N)
	for i := range jobs {
		jobs[i] = policy.Job{ID: int64(i + 1), Submit: float64(i), Run: 0.5, Estimate: 1, Procs: 1, User: 1}
	}
	m := policy.Machine{Kind: policy.Flat, Procs: 1}
	s, err := New(m, policy.Params{"cmd": cmd, "pin": pin})
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
	sec := time.Since(start).Seconds()
	instants := 2 * float64(b.N)
	b.ReportMetric(instants/sec, "instants/s")
	b.ReportMetric(float64(s.asked)/sec, "replies/s")
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
		if _, err := parseReply(reply); err != nil {
			b.Fatal(err)
		}
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
