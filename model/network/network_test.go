package network

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/mesh"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
)

// placed is an allocation of fixed pieces.
type placed []policy.Piece

func (p placed) Procs() int {
	n := 0
	for _, q := range p {
		n += q.Size()
	}
	return n
}
func (p placed) Placement(dst []policy.Piece) []policy.Piece { return append(dst, p...) }

// fixed is an allocator that gives job i the pieces at[i].
type fixed struct {
	at   map[int32]placed
	size int
}

func (f *fixed) Allocate(j *policy.Job) (policy.Allocation, bool) { return f.at[j.Index], true }
func (f *fixed) Release(policy.Allocation)                        {}
func (f *fixed) Free() int                                        { return f.size }
func (f *fixed) Size() int                                        { return f.size }
func (f *fixed) Clone() policy.Allocator                          { return f }
func (f *fixed) Feasible(*policy.Job) error                       { return nil }

func fcfs(t *testing.T, m policy.Machine) policy.Scheduler {
	for _, s := range sched.Schedulers() {
		if s.Name == "fcfs" {
			sc, err := s.New(m, policy.Params{})
			if err != nil {
				t.Fatal(err)
			}
			return sc
		}
	}
	t.Fatal("no fcfs")
	return nil
}

// one is the single node (x, y).
func one(x, y int) policy.Piece { return policy.Rect(x, y, 1, 1) }

// run replays jobs on a W×H mesh with the given placements and model.
func run(t *testing.T, W, H int, jobs []policy.Job, at map[int32]placed, mdl Model) *engine.Result {
	t.Helper()
	m := policy.Machine{Kind: policy.Mesh, Width: W, Height: H, Procs: W * H}
	res, err := engine.Run(jobs, m, &fixed{at: at, size: W * H}, fcfs(t, m), engine.Options{Progress: mdl})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A 2-node job, one round (msgs=1): each packet on the empty mesh takes
// exactly the zero-load latency D·(t_s+1) + P_len − 1 = 5·4 + 7 = 27, and
// the job ends at 27 + its service time.
func TestZeroLoadLatency(t *testing.T) {
	p := Params{Ts: 3, Plen: 8, Msgs: 1}
	if ZeroLoad(5, p) != 27 {
		t.Fatalf("ZeroLoad(5) = %g", ZeroLoad(5, p))
	}
	for _, mode := range []string{Wormhole, Analytic} {
		mdl, _ := New(Spec{Mode: mode, Params: p}, 8, 8)
		jobs := []policy.Job{{Index: 0, Record: 0, ID: 1, Run: 2.5, Estimate: 2.5, Procs: 2}}
		res := run(t, 8, 8, jobs, map[int32]placed{0: {one(0, 0), one(3, 2)}}, mdl)
		st := mdl.Stats(0)
		want := Stats{Rounds: 1, Comm: 27, Packets: 2, Hops: 10, Latency: 54}
		if st != want {
			t.Errorf("%s: stats %+v, want %+v", mode, st, want)
		}
		if e := res.Jobs[0].End; e != 29.5 {
			t.Errorf("%s: end %g, want 27 + 2.5", mode, e)
		}
	}
}

// Two jobs whose packets cross the same links: job B = {(1,0), (2,0)}
// takes links (1,0)→(2,0) and (2,0)→(1,0) at t = 3 and holds them until
// its tails are delivered at 3 + 1 + 7 = 11; job A = {(0,0), (3,0)},
// whose headers want those links at 7, waits 4 time units: its packets
// take 19 + 4 = 23 instead of 19. The analytic model sees no contention.
func TestSharedLinkSerialised(t *testing.T) {
	p := Params{Ts: 3, Plen: 8, Msgs: 1}
	jobs := []policy.Job{
		{Index: 0, Record: 0, ID: 1, Run: 1, Estimate: 1, Procs: 2},
		{Index: 1, Record: 1, ID: 2, Run: 1, Estimate: 1, Procs: 2},
	}
	at := map[int32]placed{0: {one(0, 0), one(3, 0)}, 1: {policy.Rect(1, 0, 2, 1)}}
	w := NewWormhole(4, 1, p)
	res := run(t, 4, 1, jobs, at, w)
	if a := w.Stats(0); a.Comm != 23 || a.Blocked != 8 || a.Latency != 46 {
		t.Errorf("job A: %+v, want comm 23, blocked 2·4, latency 2·23", a)
	}
	if b := w.Stats(1); b.Comm != 11 || b.Blocked != 0 {
		t.Errorf("job B: %+v, want comm 11, no blocking", b)
	}
	if res.Jobs[0].End != 24 || res.Jobs[1].End != 12 {
		t.Errorf("ends %g, %g; want 24, 12", res.Jobs[0].End, res.Jobs[1].End)
	}
	a := NewAnalytic(4, 1, p)
	run(t, 4, 1, jobs, at, a)
	if st := a.Stats(0); st.Comm != 19 {
		t.Errorf("analytic job A: comm %g, want 19", st.Comm)
	}
	// Started apart, they do not meet: B is done (at 11) before A starts.
	jobs[1].Submit, jobs[0].Submit = 0, 20
	jobs[0], jobs[1] = jobs[1], jobs[0]
	jobs[0].Record, jobs[1].Record = 0, 1
	at = map[int32]placed{1: {one(0, 0), one(3, 0)}, 0: {policy.Rect(1, 0, 2, 1)}}
	w = NewWormhole(4, 1, p)
	run(t, 4, 1, jobs, at, w)
	if a := w.Stats(1); a.Comm != 19 || a.Blocked != 0 {
		t.Errorf("job A alone: %+v", a)
	}
}

// atStart is the engine's progress at time 0, when no job has run yet.
type atStart struct{}

func (atStart) Now() float64                    { return 0 }
func (atStart) Remaining(j *policy.Job) float64 { return j.Run }

// The rates the model sets: the job whose completion comes first gets the
// rate that ends it then; a job still communicating at that instant,
// rate 0.
func TestRates(t *testing.T) {
	p := Params{Ts: 3, Plen: 8, Msgs: 1}
	w := NewWormhole(4, 1, p)
	a := &policy.Job{Index: 0, Record: 0, Run: 1, Alloc: placed{one(0, 0), one(3, 0)}}
	b := &policy.Job{Index: 1, Record: 1, Run: 1, Alloc: placed{policy.Rect(1, 0, 2, 1)}}
	rate := []float64{1, 1}
	var pr atStart
	w.Started(a, pr)
	w.Started(b, pr)
	w.Rates(pr, []*policy.Job{a, b}, rate)
	if rate[0] != 0 || rate[1] != 1.0/12 {
		t.Errorf("rates %v, want [0 1/12]", rate)
	}
}

// A job on one processor does not communicate: it ends at start + run.
func TestOneProcessor(t *testing.T) {
	for _, mode := range []string{Wormhole, Analytic} {
		mdl, _ := New(Spec{Mode: mode, Params: Defaults}, 4, 4)
		jobs := []policy.Job{{Index: 0, Record: 0, ID: 1, Submit: 1, Run: 3, Estimate: 3, Procs: 1}}
		res := run(t, 4, 4, jobs, map[int32]placed{0: {one(2, 2)}}, mdl)
		if res.Jobs[0].End != 4 || mdl.Stats(0) != (Stats{}) {
			t.Errorf("%s: end %g, stats %+v", mode, res.Jobs[0].End, mdl.Stats(0))
		}
	}
}

// gabl06-like workload under gabl and ff: every job's residence is its
// communication plus its service; each job sends Rounds·n(n−1) packets;
// the wormhole model's hops equal the analytic model's (same XY routes),
// its latency is the zero-load latency plus the blocking time, exactly,
// and its communication time is at least the analytic one; two runs give
// the same results.
func TestConservation(t *testing.T) {
	W, H := 8, 8
	m := policy.Machine{Kind: policy.Mesh, Width: W, Height: H, Procs: W * H}
	tr, err := workload.Generate(workload.WorkloadSpec{Machine: "mesh:8x8", Size: workload.SizeSpec{Dist: "uniform"},
		Service: workload.Service{Kind: "exp", Mean: 1}, Arrivals: workload.Arrivals{Kind: "poisson", IAT: 150, Jobs: 120}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, unit := range []string{UnitRound, UnitMsg} {
		conserve(t, m, tr, Params{Ts: 3, Plen: 8, Msgs: 2, Unit: unit, Seed: 1})
	}
}

func conserve(t *testing.T, m policy.Machine, tr *trace.Trace, p Params) {
	W, H := m.Width, m.Height
	for _, alloc := range []string{"gabl", "ff", "random"} {
		var spec policy.AllocatorSpec
		for _, s := range mesh.Allocators() {
			if s.Name == alloc {
				spec = s
			}
		}
		replay := func(mdl Model) *engine.Result {
			a, err := spec.New(m, nil)
			if err != nil {
				t.Fatal(err)
			}
			jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
			res, err := engine.Run(jobs, m, a, fcfs(t, m), engine.Options{Progress: mdl, Check: true, Placement: true})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		w := NewWormhole(W, H, p)
		res := replay(w)
		blocked := 0.0
		for i := range res.Jobs {
			j := &res.Jobs[i]
			st := w.Stats(int(j.Record))
			n := int64(j.Procs)
			want := int64(st.Rounds) * n * (n - 1)
			if p.Unit == UnitMsg {
				want = int64(st.Rounds) * n
			}
			if n > 1 && st.Packets != want {
				t.Fatalf("%s %s job %d: %d packets, R = %d on %d nodes", alloc, p.Unit, i, st.Packets, st.Rounds, n)
			}
			if d := j.End - j.Start - (st.Comm + j.Run); math.Abs(d) > 1e-9*j.End {
				t.Fatalf("%s job %d: residence %g, comm %g + run %g", alloc, i, j.End-j.Start, st.Comm, j.Run)
			}
			// The analytic cost of the same placement.
			an := NewAnalytic(W, H, p)
			var nodes []int32
			for _, pc := range res.Placement(i) {
				for y := pc.Y; y < pc.Y+pc.H; y++ {
					for x := pc.X; x < pc.X+pc.W; x++ {
						nodes = append(nodes, y*int32(W)+x)
					}
				}
			}
			zero := an.cost(int(j.Record), nodes)
			if zero.Hops != st.Hops || zero.Packets != st.Packets {
				t.Fatalf("%s job %d: hops %d/%d packets %d/%d (wormhole/analytic)", alloc, i, st.Hops, zero.Hops, st.Packets, zero.Packets)
			}
			if d := st.Latency - zero.Latency - st.Blocked; math.Abs(d) > 1e-6*st.Latency+1e-9 {
				t.Fatalf("%s job %d: latency %g ≠ zero-load %g + blocked %g", alloc, i, st.Latency, zero.Latency, st.Blocked)
			}
			if st.Comm < zero.Comm-1e-9 {
				t.Fatalf("%s job %d: comm %g below the contention-free %g", alloc, i, st.Comm, zero.Comm)
			}
			blocked += st.Blocked
		}
		if blocked == 0 {
			t.Errorf("%s: no packet was ever blocked", alloc)
		}
		again := replay(NewWormhole(W, H, p))
		for i := range res.Jobs {
			if res.Jobs[i].End != again.Jobs[i].End {
				t.Fatalf("%s: job %d ends at %g, then %g", alloc, i, res.Jobs[i].End, again.Jobs[i].End)
			}
		}
		t.Logf("%s %s: %d events, %d forecasts, %d rewinds", alloc, p.Unit, w.Events, w.Forecasts, w.Rewinds)
	}
}

// Rounds: at least 1, mean msgs, independent of other jobs.
func TestRounds(t *testing.T) {
	sum := 0
	for i := 0; i < 20000; i++ {
		r := Rounds(0, i, 5)
		if r < 1 {
			t.Fatalf("job %d: %d rounds", i, r)
		}
		sum += r
	}
	if m := float64(sum) / 20000; math.Abs(m-5) > 0.15 {
		t.Errorf("mean rounds %g, want 5", m)
	}
	if Rounds(0, 7, 5) != Rounds(0, 7, 5) {
		t.Error("not deterministic")
	}
}

func TestParse(t *testing.T) {
	s, err := Parse("wormhole:ts=3,plen=16,msgs=5")
	if err != nil || s.Mode != Wormhole || s.Plen != 16 || s.Ts != 3 || s.Msgs != 5 {
		t.Fatalf("%+v %v", s, err)
	}
	if s.String() != "wormhole:ts=3,plen=16,msgs=5" {
		t.Errorf("String %q", s.String())
	}
	for _, bad := range []string{"wormhole:plen=0", "analytic:foo=1", "bogus", "off:ts=1", "wormhole:msgs=0.5"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if s, _ := Parse("analytic"); s.Params != Defaults {
		t.Errorf("analytic defaults %+v", s.Params)
	}
}
