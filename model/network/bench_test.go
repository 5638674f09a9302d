package network

import (
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/mesh"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
)

// gabl06Setup returns the gabl06 workload (16×16, sides uniform 1..16,
// exponential service mean 1, Poisson arrivals at mean inter-arrival time
// iat) of n jobs from seed, and the specs of allocator alloc and FCFS.
func gabl06Setup(tb testing.TB, alloc string, n int, iat float64, seed int64) (policy.Machine, *trace.Trace, policy.AllocatorSpec, policy.SchedulerSpec) {
	tb.Helper()
	m := policy.Machine{Kind: policy.Mesh, Width: 16, Height: 16, Procs: 256}
	tr, err := workload.Generate(workload.WorkloadSpec{Machine: "mesh:16x16", Size: workload.SizeSpec{Dist: "uniform"},
		Service: workload.Service{Kind: "exp", Mean: 1}, Arrivals: workload.Arrivals{Kind: "poisson", IAT: iat, Jobs: n}, Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	var aspec policy.AllocatorSpec
	for _, s := range mesh.Allocators() {
		if s.Name == alloc {
			aspec = s
		}
	}
	var sspec policy.SchedulerSpec
	for _, s := range sched.Schedulers() {
		if s.Name == "fcfs" {
			sspec = s
		}
	}
	if aspec.New == nil || sspec.New == nil {
		tb.Fatalf("no allocator %q or no fcfs", alloc)
	}
	return m, tr, aspec, sspec
}

// benchRun replays the gabl06 workload (16×16, sides uniform 1..16,
// exponential service mean 1, 1,000 jobs, FCFS) at mean inter-arrival
// time iat under allocator alloc and the given communication mode, and
// reports jobs/s and packets/s.
func benchRun(b *testing.B, mode, unit, alloc string, iat float64) {
	m, tr, aspec, sspec := gabl06Setup(b, alloc, benchJobs, iat, 1)
	var packets int64
	var comm float64
	for i := 0; i < b.N; i++ {
		a, _ := aspec.New(m, nil)
		s, _ := sspec.New(m, nil)
		p := Defaults
		p.Unit = unit
		mdl, _ := New(Spec{Mode: mode, Params: p}, 16, 16)
		jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
		res, err := engine.Run(jobs, m, a, s, engine.Options{Progress: mdl})
		if err != nil {
			b.Fatal(err)
		}
		for k := range res.Jobs {
			st := mdl.Stats(int(res.Jobs[k].Record))
			packets += st.Packets
			comm += st.Comm
		}
		if i == 0 {
			b.ReportMetric(res.Last-res.First, "finish")
			if w, ok := mdl.(*WormholeModel); ok {
				var pk int64
				for k := range res.Jobs {
					pk += mdl.Stats(int(res.Jobs[k].Record)).Packets
				}
				// Packet events processed per packet delivered (a packet's own
				// events: one request per hop, one at its destination, one
				// delivery), and the forecasts and returns to a saved state.
				b.ReportMetric(float64(w.Events)/float64(pk), "events/packet")
				b.ReportMetric(float64(w.Forecasts), "forecasts")
				b.ReportMetric(float64(w.Rewinds), "rewinds")
			}
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(benchJobs*b.N)/sec, "jobs/s")
	b.ReportMetric(float64(packets)/sec, "packets/s")
	b.ReportMetric(comm/float64(benchJobs*b.N), "comm/job")
}

var benchJobs = 1000

// num_mes as messages per processor (the gabl06 suite's reading) near
// saturation, and as all-to-all rounds on 100 jobs (1,000 take minutes).
func BenchmarkWormholeMsg(b *testing.B)   { benchRun(b, Wormhole, UnitMsg, "gabl", 60) }
func BenchmarkAnalyticMsg(b *testing.B)   { benchRun(b, Analytic, UnitMsg, "gabl", 60) }
func BenchmarkAnalyticRound(b *testing.B) { benchRun(b, Analytic, UnitRound, "gabl", 2000) }

// BenchmarkWormholeRound is a whole gabl06 run (1,000 jobs) with num_mes
// counting all-to-all rounds, at our medium load 0.0002 (IAT 1411).
func BenchmarkWormholeRound(b *testing.B) { benchRun(b, Wormhole, UnitRound, "gabl", 1411) }
func BenchmarkAnalyticRound1411(b *testing.B) {
	benchRun(b, Analytic, UnitRound, "gabl", 1411)
}
func BenchmarkWormholeRound100(b *testing.B) {
	benchJobs = 100
	defer func() { benchJobs = 1000 }()
	benchRun(b, Wormhole, UnitRound, "gabl", 2000)
}
