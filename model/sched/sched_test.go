package sched

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// row is a hand-made job: submit time, run time, processors, and runtime
// estimate (0: the run time).
type row struct {
	submit, run float64
	procs       int
	est         float64
}

// mkJobs builds engine jobs; job IDs are 1, 2, ...
func mkJobs(rows []row) []policy.Job {
	jobs := make([]policy.Job, len(rows))
	for i, r := range rows {
		est := r.est
		if est == 0 {
			est = r.run
		}
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: r.submit, Run: r.run, Estimate: est,
			Procs: r.procs, User: -1, Start: -1, End: -1}
	}
	return jobs
}

// newSched builds a scheduler from a spec string through Schedulers().
func newSched(t testing.TB, spec string, m policy.Machine) policy.Scheduler {
	t.Helper()
	name, p, err := policy.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Schedulers() {
		if s.Name == name {
			sc, err := s.New(m, p)
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			return sc
		}
	}
	t.Fatalf("no scheduler %q", name)
	return nil
}

// newAlloc returns a flat allocator by name.
func newAlloc(name string, n int) policy.Allocator {
	if name == "contig" {
		return flat.NewContig(n)
	}
	return flat.NewCount(n)
}

// replay runs jobs under spec on flat:n with the count allocator and the
// invariant checker, and returns the start times.
func replay(t testing.TB, spec string, n int, jobs []policy.Job) []float64 {
	t.Helper()
	m := policy.Machine{Kind: policy.Flat, Procs: n}
	res, err := engine.Run(jobs, m, flat.NewCount(n), newSched(t, spec, m), engine.Options{Check: true})
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	starts := make([]float64, len(res.Jobs))
	for i, j := range res.Jobs {
		starts[i] = j.Start
	}
	return starts
}

type golden struct {
	spec string
	want string // start times, fmt.Sprint([]float64)
}

func checkGolden(t *testing.T, n int, rows []row, cases []golden) {
	t.Helper()
	for _, c := range cases {
		got := fmt.Sprint(replay(t, c.spec, n, mkJobs(rows)))
		if got != c.want {
			t.Errorf("%s: starts %s, want %s", c.spec, got, c.want)
		}
	}
}

// TestGoldenFCFSIfSA works one workload by hand under FCFS, Immediate Fit
// and Scan All, with and without a waiting-time limit.
//
// flat:4. J1 (t=0, run 10, 3 procs) starts at 0, leaving 1 free.
// J2 (t=1, run 5, 2 procs) does not fit. J3 (t=2, run 2, 1 proc) and
// J4 (t=3, run 1, 1 proc) fit in what is free at their arrival only if they
// may pass J2.
//
//   - FCFS: J3 and J4 wait behind J2; at 10 J2, J3 and J4 start. [0 10 10 10]
//   - IF (wtl=inf): J3 jumps at 2 (free 0 after). J4 arrives at 3, nothing
//     free, queues. At 4 J3 ends: the head J2 (2 procs, 1 free) blocks, so J4
//     waits until 10. [0 10 2 10]
//   - SA (wtl=inf): at 4 the scan passes J2 and starts J4. [0 10 2 4]
//   - IF wtl=0.5: at 2 J2 has waited 1 ≥ 0.5, so J3 queues: FCFS.
//   - IF wtl=1.5: J2 has waited 1 < 1.5 at J3's arrival: J3 jumps. [0 10 2 10]
//   - SA wtl=2.5: at 4 J2 (waited 3 ≥ 2.5) does not fit: the scan stops,
//     J4 waits until 10. [0 10 2 10]
//   - SA wtl=3.5: at 4 J2 has waited 3 < 3.5: the scan goes on to J4.
//     [0 10 2 4]
//   - wtl=0 under IF and SA is FCFS.
func TestGoldenFCFSIfSA(t *testing.T) {
	rows := []row{{0, 10, 3, 0}, {1, 5, 2, 0}, {2, 2, 1, 0}, {3, 1, 1, 0}}
	checkGolden(t, 4, rows, []golden{
		{"fcfs", "[0 10 10 10]"},
		{"if", "[0 10 2 10]"},
		{"sa", "[0 10 2 4]"},
		{"if:wtl=0.5", "[0 10 10 10]"},
		{"if:wtl=1.5", "[0 10 2 10]"},
		{"sa:wtl=2.5", "[0 10 2 10]"},
		{"sa:wtl=3.5", "[0 10 2 4]"},
		{"if:wtl=0", "[0 10 10 10]"},
		{"sa:wtl=0", "[0 10 10 10]"},
		{"mq:q=1", "[0 10 2 4]"},
		{"mq:q=1,wtl=2.5", "[0 10 2 10]"},
	})
}

// TestWTLInclusive: a job arriving at the same instant as a blocked head
// has waited 0 ≥ wtl=0, so with wtl=0 nothing passes it, even then (FCFS).
// flat:4: J1 (t=0, run 10, 3 procs); J2 (t=5, 2 procs) blocks; J3 (t=5,
// 1 proc) would fit. IF/SA with wtl=0 and FCFS: [0 10 10]; IF: [0 10 5].
func TestWTLInclusive(t *testing.T) {
	rows := []row{{0, 10, 3, 0}, {5, 1, 2, 0}, {5, 1, 1, 0}}
	checkGolden(t, 4, rows, []golden{
		{"fcfs", "[0 10 10]"},
		{"if:wtl=0", "[0 10 10]"},
		{"sa:wtl=0", "[0 10 10]"},
		{"mq:q=1,wtl=0", "[0 10 10]"},
		{"if", "[0 10 5]"},
	})
}

// TestGoldenOrderings works the single-queue orderings by hand.
//
// flat:4. J1 (t=0, run 10, 4 procs) fills the machine; while it runs arrive
// J2 (t=1, run 8, 2 procs), J3 (t=2, run 3, 3 procs), J4 (t=3, run 5,
// 1 proc), J5 (t=4, run 1, 2 procs). Estimates are exact. At 10, 4 free.
//
//   - sjf, order J5 J3 J4 J2: J5 starts (2 free); J3 (3) blocks. At 11 J5
//     ends: J3 and J4 start (0 free). At 14 J3 ends: J2 starts.
//     [0 14 11 11 10]
//   - smallest, order J4 J2 J5 J3 (J2 before J5 by arrival): J4, J2 start
//     (1 free); J5 blocks. At 15 J4 ends: J5 starts (0 free). At 16 J5 ends
//     (2 free, J3 blocks); at 18 J2 ends: J3 starts. [0 10 18 10 15]
//   - largest, order J3 J2 J5 J4: J3 starts (1 free), J2 blocks. At 13 J3
//     ends: J2, J5 start (0 free). At 14 J5 ends: J4 starts.
//     [0 13 10 14 13]
//   - ssd, demands J2 16, J3 9, J4 5, J5 2, order J5 J4 J3 J2: J5, J4
//     start (1 free); J3 blocks. At 11 J5 ends: J3 starts (0 free). At 14 J3
//     ends: J2 starts. [0 14 11 10 10]
//   - sjf:scan=all: at 10 the scan starts J5 and J4 (1 free), passing J3.
//     At 11 J5 ends (3 free): J3 starts, J2 does not fit. At 14 J3 ends:
//     J2 starts. [0 14 11 10 10] (the same starts as sjf, reached
//     differently: J4 passes J3 at 10)
//   - fcfs: J2 starts at 10 (2 free), J3 blocks. At 18 J2 ends: J3, J4
//     start (0 free). At 21 J3 ends: J5 starts. [0 10 18 18 21]
//   - largest:scan=all: at 10 J3 starts (1 free), J2 and J5 do not fit, J4
//     starts. At 13 J3 ends (3 free): J2 starts, J5 does not fit. At 15 J4
//     ends (2 free): J5 starts. [0 13 10 10 15]
func TestGoldenOrderings(t *testing.T) {
	rows := []row{{0, 10, 4, 0}, {1, 8, 2, 0}, {2, 3, 3, 0}, {3, 5, 1, 0}, {4, 1, 2, 0}}
	checkGolden(t, 4, rows, []golden{
		{"fcfs", "[0 10 18 18 21]"},
		{"sjf", "[0 14 11 11 10]"},
		{"smallest", "[0 10 18 10 15]"},
		{"largest", "[0 13 10 14 13]"},
		{"ssd", "[0 14 11 10 10]"},
		{"sjf:scan=all", "[0 14 11 10 10]"},
		{"largest:scan=all", "[0 13 10 10 15]"},
	})
}

// TestGoldenOrderingArrival shows the two disciplines on arrival.
//
// flat:4. J1 (t=0, run 10, 3 procs) leaves 1 free. J2 (t=1, est 2,
// 2 procs) waits. J3 (t=2, est 5, 1 proc) and J4 (t=3, est 1, 1 proc).
//
//   - sjf (head): J3 sorts behind J2, which blocks: J3 waits. J4 sorts to
//     the head and fits: it starts at 3 (ends 4). At 10 J2 and J3 start.
//     [0 10 10 3]
//   - sjf:scan=all: J3 fits on arrival and starts at 2 (Immediate Fit); J4
//     finds nothing free and queues. At 7 J3 ends: the scan starts J4 (J2
//     does not fit). [0 10 2 7]
func TestGoldenOrderingArrival(t *testing.T) {
	rows := []row{{0, 10, 3, 0}, {1, 2, 2, 0}, {2, 5, 1, 0}, {3, 1, 1, 0}}
	checkGolden(t, 4, rows, []golden{
		{"sjf", "[0 10 10 3]"},
		{"sjf:scan=all", "[0 10 2 7]"},
	})
}

// TestQueueIndex checks Chu's MQ queue-index formulas at the class
// boundaries.
func TestQueueIndex(t *testing.T) {
	cases := []struct {
		x, limit, q int
		down        bool
		want        int
	}{
		{1, 1024, 32, false, 1},
		{32, 1024, 32, false, 1},
		{33, 1024, 32, false, 2},
		{64, 1024, 32, false, 2},
		{65, 1024, 32, false, 3},
		{1024, 1024, 32, false, 32},
		{1, 1024, 32, true, 32},
		{32, 1024, 32, true, 32},
		{33, 1024, 32, true, 31},
		{1024, 1024, 32, true, 1},
		// N/Q not an integer: ⌈x/(100/32)⌉ = ⌈32x/100⌉.
		{3, 100, 32, false, 1},
		{4, 100, 32, false, 2},
		{100, 100, 32, false, 32},
		// Larger side on a 32×32 mesh, Q = 32: queue 1 holds only 1×1 jobs,
		// queue 32 holds 1×32 … 32×32.
		{1, 32, 32, false, 1},
		{2, 32, 32, false, 2},
		{32, 32, 32, false, 32},
		{32, 32, 32, true, 1},
		// One queue.
		{1, 64, 1, false, 1},
		{64, 64, 1, true, 1},
		// More queues than sizes: some queues stay empty.
		{1, 4, 8, false, 2},
		{4, 4, 8, false, 8},
		// Out of range sizes are clamped.
		{0, 64, 4, false, 1},
		{99, 64, 4, false, 4},
	}
	for _, c := range cases {
		if got := QueueIndex(c.x, c.limit, c.q, c.down); got != c.want {
			t.Errorf("QueueIndex(%d, %d, %d, down=%v) = %d, want %d", c.x, c.limit, c.q, c.down, got, c.want)
		}
	}
}

// TestMQBySide checks the side criteria on a mesh (0-based queue indices).
func TestMQBySide(t *testing.T) {
	m, _ := policy.ParseMachine("mesh:32x16")
	cases := []struct {
		by        string
		down      bool
		w, h, p   int
		wantQueue int
	}{
		{ByLarger, false, 1, 32, 32, 31}, // larger side 32 of L=32 → queue 32
		{ByLarger, false, 2, 1, 2, 1},    // larger side 2 → queue 2
		{BySmaller, false, 1, 32, 32, 1}, // smaller side 1 of L=16, Q=32 → ⌈32/16⌉ = 2
		{BySmaller, false, 16, 32, 512, 31},
		{BySmaller, true, 16, 32, 512, 0},
		{ByLarger, false, 0, 0, 9, 2}, // no shape: 3×3 square → queue 3
		{ByProcs, false, 0, 0, 16, 0}, // ⌈16·32/512⌉ = 1
		{ByProcs, true, 0, 0, 17, 30}, // ⌈17·32/512⌉ = 2 → 32−2+1 = 31
	}
	for _, c := range cases {
		s, err := NewMultipleQueues(m, 32, c.down, c.by, 0)
		if err != nil {
			t.Fatal(err)
		}
		j := &policy.Job{Procs: c.p, Width: int32(c.w), Height: int32(c.h)}
		if got := s.index(j); got != c.wantQueue {
			t.Errorf("by=%s down=%v job %dx%d (%d procs): queue %d, want %d", c.by, c.down, c.w, c.h, c.p, got, c.wantQueue)
		}
	}
}

// TestParams checks parameter validation through the registry.
func TestParams(t *testing.T) {
	flat64 := policy.Machine{Kind: policy.Flat, Procs: 64}
	bad := []string{
		"fcfs:wtl=1", "sjf:scan=some", "if:wtl=-1", "sa:wtl=x", "sa:q=2",
		"mq:q=0", "mq:q=1000000000", "mq:by=larger", "mq:by=smaller", "mq:order=sideways", "mq:by=area", // q beyond the processors: F5 of issue 25
		"scan:order=left", "scan:sf=yes", "scan:q=3",
		"prio-res:max_pri=-1", "prio-res:max_pri=1.5", "prio-res:reserve=maybe", "prio-res:wtl=5",
	}
	specs := map[string]policy.SchedulerSpec{}
	for _, s := range Schedulers() {
		specs[s.Name] = s
	}
	for _, b := range bad {
		name, p, err := policy.ParseSpec(b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := specs[name].New(flat64, p); err == nil {
			t.Errorf("%s: accepted, want an error", b)
		} else if !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("%s: error %q does not name the scheduler", b, err)
		}
	}
	mesh, _ := policy.ParseMachine("mesh:32x32")
	for _, ok := range []string{"mq:by=larger", "mq:by=smaller,order=up,q=8,wtl=500", "prio-res:max_pri=inf,reserve=false", "prio-res:max_pri=0", "scan:order=down,sf=true"} {
		name, p, _ := policy.ParseSpec(ok)
		if _, err := specs[name].New(mesh, p); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	want := []string{"fcfs", "sjf", "smallest", "largest", "ssd", "if", "sa", "mq", "scan", "static", "lazy", "prio-res", "pcw"}
	var got []string
	for _, s := range Schedulers() {
		got = append(got, s.Name)
		if s.Doc == "" {
			t.Errorf("%s: no doc", s.Name)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("names %v, want %v", got, want)
	}
}

// TestGoldenMQ works a small MQ schedule.
//
// flat:4, q=2: jobs of 1–2 procs are in class ⌈2x/4⌉ = 1, of 3–4 procs in
// class 2. J1 (t=0, run 10, 4 procs) fills the machine; J2 (t=1, run 5,
// 2 procs) and J3 (t=2, run 5, 3 procs) wait. At 10, 4 free:
//
//   - order=down: queue 1 holds the large jobs: J3 starts (1 free), J2 does
//     not fit; at 15 J2 starts. [0 15 10]
//   - order=up: queue 1 holds the small jobs: J2 starts (2 free), J3 does not
//     fit; at 15 J3 starts. [0 10 15], as SA (arrival order).
func TestGoldenMQ(t *testing.T) {
	rows := []row{{0, 10, 4, 0}, {1, 5, 2, 0}, {2, 5, 3, 0}}
	checkGolden(t, 4, rows, []golden{
		{"mq:q=2", "[0 15 10]"},
		{"mq:q=2,order=down", "[0 15 10]"},
		{"mq:q=2,order=up", "[0 10 15]"},
		{"sa", "[0 10 15]"},
	})
}

// TestGoldenScan works Krueger's Scan by hand; all four variants differ.
//
// flat:8: classes ⌈log2 p⌉ = 0..3. J1 (t=0, run 10, 8 procs, class 3)
// starts at once. While it runs arrive J2 (t=1, 1 proc, class 0), J3 (t=2,
// 4 procs, class 2), J4 (t=3, 2 procs, class 1), J5 (t=4, 4 procs, class 2);
// then J6 (t=11, 4 procs, class 2) and J7 (t=12, 1 proc, class 0). All
// except J1 run 5.
//
//   - up: at J2's arrival queue 3 is empty, so the scan moves on to queue 0
//     and waits there. At 10: J2 (7 free), queue 1: J4 (5 free), queue 2:
//     J3 (1 free), J5 does not fit. J6 joins queue 2 behind J5, J7 queue 0.
//     At 15: J5, J6 (0 free); queue 2 empty, queue 3 empty, queue 0: J7
//     does not fit until 20. [0 10 10 10 15 15 20]
//   - down: at 10: J2 (7 free), then queue 3 (empty), queue 2: J3 (3 free),
//     J5 waits. At 15: J5, J6 (0 free); queue 1: J4 waits until 20, then
//     queue 0: J7 at 20 too. [0 10 10 20 15 15 20]
//   - up, sf: the visit of queue 2 took J3 and J5 only; J6 waits for the
//     next visit. At 15: J5 (4 free), queues 3, 0: J7 (3 free), queue 1
//     empty, queue 2: J6 does not fit until 20. [0 10 10 10 15 20 15]
//   - down, sf: at 15: J5 (4 free); queue 1: J4 (2 free); queue 0: J7
//     (1 free); queue 3 empty; queue 2: J6 waits until 20.
//     [0 10 10 15 15 20 15]
func TestGoldenScan(t *testing.T) {
	rows := []row{{0, 10, 8, 0}, {1, 5, 1, 0}, {2, 5, 4, 0}, {3, 5, 2, 0}, {4, 5, 4, 0}, {11, 5, 4, 0}, {12, 5, 1, 0}}
	checkGolden(t, 8, rows, []golden{
		{"scan", "[0 10 10 10 15 15 20]"},
		{"scan:order=up,sf=false", "[0 10 10 10 15 15 20]"},
		{"scan:order=down", "[0 10 10 20 15 15 20]"},
		{"scan:sf=true", "[0 10 10 10 15 20 15]"},
		{"scan:order=down,sf=true", "[0 10 10 15 15 20 15]"},
	})
}

// TestSizeClass checks ⌈log2 p⌉.
func TestSizeClass(t *testing.T) {
	for p, want := range map[int]int{1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 1024: 10, 1025: 11} {
		if got := SizeClass(p); got != want {
			t.Errorf("SizeClass(%d) = %d, want %d", p, got, want)
		}
	}
	if n := len(NewScan(100, false, false).qs); n != 8 {
		t.Errorf("flat:100 has %d classes, want ⌈log2 100⌉+1 = 8", n)
	}
	if n := len(NewScan(128, false, false).qs); n != 8 {
		t.Errorf("cube:7 has %d classes, want 8", n)
	}
}

// TestGoldenPrioResReservation: a reservation changes the outcome.
//
// flat:4. J1 (t=0, run 10, 2 procs) starts (2 free). J2 (t=1, run 10,
// 4 procs) does not fit. J3 (t=2, run 20, 2 procs).
//
//   - reserve=true: J2 reserves J1's 2 busy processors plus the 2 free ones
//     (held idle). J3 finds no unreserved free processor and nothing left
//     to reserve: it waits. At 10 J1 ends: J2's reservation is all free,
//     phase 1 starts J2; phase 3 reserves 2 of J2's processors for J3, which
//     starts when J2 ends at 20. [0 10 20]
//   - reserve=false: J3 starts at 2 on the free processors; J2 must wait for
//     J3 (ends 22). [0 22 2]
func TestGoldenPrioResReservation(t *testing.T) {
	rows := []row{{0, 10, 2, 0}, {1, 10, 4, 0}, {2, 20, 2, 0}}
	checkGolden(t, 4, rows, []golden{
		{"prio-res", "[0 10 20]"},
		{"prio-res:reserve=true,max_pri=inf", "[0 10 20]"},
		{"prio-res:reserve=false", "[0 22 2]"},
		{"sa", "[0 22 2]"},
	})
}

// TestGoldenPrioResMaxPri: the starvation counter gives the head top
// priority.
//
// flat:4, reserve=false. J1 (t=0, run 10, 3 procs) leaves 1 free. J2 (t=1,
// run 10, 4 procs) waits at the head. J3 (t=2), J4 (t=4), J5 (t=6): 1 proc,
// run 1 each.
//
//   - max_pri=inf: J3, J4, J5 all pass J2. [0 10 2 4 6]
//   - max_pri=1: J3 passes (J2's counter 0 → 1), J4 passes (1 → 2); J5
//     finds the counter at 2 > 1: J2 has top priority, J5 waits for J2 to
//     start (10) and end (20). [0 10 2 4 20]
//   - max_pri=0: J3 passes (counter 0); J4 finds 1 > 0 and waits; at 10 J2
//     starts, at 20 J4 and J5. [0 10 2 20 20]
//   - with reservations (max_pri=1), J2 reserves J1's 3 processors plus
//     the free one at 1: nothing passes. [0 10 20 20 20]
func TestGoldenPrioResMaxPri(t *testing.T) {
	rows := []row{{0, 10, 3, 0}, {1, 10, 4, 0}, {2, 1, 1, 0}, {4, 1, 1, 0}, {6, 1, 1, 0}}
	checkGolden(t, 4, rows, []golden{
		{"prio-res:reserve=false", "[0 10 2 4 6]"},
		{"prio-res:reserve=false,max_pri=1", "[0 10 2 4 20]"},
		{"prio-res:reserve=false,max_pri=0", "[0 10 2 20 20]"},
		{"prio-res:max_pri=1", "[0 10 20 20 20]"},
	})
}

// TestGoldenMQMesh classifies by side on a mesh:4x4 machine (the count
// allocator stands in for a mesh allocator: MQ only uses the shapes to
// classify). q=4, ScanDown: by side x the queue is 5 − x; by processors
// 5 − ⌈x/4⌉.
//
// J1 (t=0, 4×4) fills the machine; J2 (t=1, 1×2), J3 (t=2, 1×4), J4 (t=3,
// 3×4) wait; all run 10. At 10, 16 free:
//
//   - by=larger: J3 and J4 (larger side 4) are in queue 1, J2 in queue 3:
//     J3 (12 free), J4 (0 free) start; J2 waits until 20. [0 20 10 10]
//   - by=smaller: J2, J3 (smaller side 1) in queue 4, J4 (3) in queue 2:
//     J4 (4 free), then J2 (2 free); J3 (4) waits until 20. [0 10 20 10]
//   - by=procs: J2 (2), J3 (4) in queue 4, J4 (12) in queue 2: as smaller.
func TestGoldenMQMesh(t *testing.T) {
	m, _ := policy.ParseMachine("mesh:4x4")
	shapes := [][2]int{{4, 4}, {1, 2}, {1, 4}, {3, 4}}
	for _, c := range []golden{
		{"mq:q=4,by=larger", "[0 20 10 10]"},
		{"mq:q=4,by=smaller", "[0 10 20 10]"},
		{"mq:q=4,by=procs", "[0 10 20 10]"},
	} {
		jobs := make([]policy.Job, len(shapes))
		for i, s := range shapes {
			jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: float64(i), Run: 10, Estimate: 10,
				Procs: s[0] * s[1], Width: int32(s[0]), Height: int32(s[1]), User: -1}
		}
		res, err := engine.Run(jobs, m, flat.NewCount(16), newSched(t, c.spec, m), engine.Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		var st []float64
		for _, j := range res.Jobs {
			st = append(st, j.Start)
		}
		if got := fmt.Sprint(st); got != c.want {
			t.Errorf("%s: starts %s, want %s", c.spec, got, c.want)
		}
	}
}

// TestGoldenMQWTL: under MQ a job past the waiting-time limit that does
// not fit stops the whole scan, across queues, and gates arrivals whatever
// queue it sits in (Chu 1995, Fig. 6.1).
//
// flat:8, q=2, by=procs: ⌈x·2/8⌉ is 1 for 1–4 processors and 2 for 5–8;
// ScanDown puts the large jobs in queue 1, ScanUp in queue 2. J1 (t=0, run
// 10, 4 procs) starts. J2 (t=1, run 10, 6 procs) waits. J3 (t=2, run 6,
// 2 procs) starts (2 free). J4 (t=3, run 1, 4 procs) waits. J5 (t=9, run 1,
// 1 proc).
//
//   - down, wtl=5: at 8 J3 ends (4 free); the scan starts at queue 1: J2
//     does not fit and has waited 7 ≥ 5: the whole scan stops, so J4 (which
//     fits) waits. At 9 J5 arrives; J2 is past the limit: J5 queues. At 10
//     J1 ends: J2 starts (2 free); J4 does not fit and has waited 7: stop,
//     J5 waits. At 20 J4 and J5. [0 10 2 20 20]; SA with wtl=5 is the same.
//   - up, wtl=5: at 8 queue 1 (small jobs) comes first: J4 starts (ends 9);
//     J2 stops the scan. At 9 J5 finds J2, in the other queue, past the
//     limit: it queues. At 10: J5 (queue 1), then J2. [0 10 2 8 10]
//   - down, wtl=inf: J4 starts at 8, J5 at 9, J2 at 10. [0 10 2 8 9]
//   - down, wtl=7.5: at 8 J2 has waited 7 < 7.5: J4 starts; at 9 J2 has
//     waited 8: J5 queues, and starts at 10 behind J2. [0 10 2 8 10]
//   - down, wtl=8.5: as wtl=inf. [0 10 2 8 9]
func TestGoldenMQWTL(t *testing.T) {
	rows := []row{{0, 10, 4, 0}, {1, 10, 6, 0}, {2, 6, 2, 0}, {3, 1, 4, 0}, {9, 1, 1, 0}}
	checkGolden(t, 8, rows, []golden{
		{"mq:q=2,wtl=5", "[0 10 2 20 20]"},
		{"sa:wtl=5", "[0 10 2 20 20]"},
		{"mq:q=2,order=up,wtl=5", "[0 10 2 8 10]"},
		{"mq:q=2", "[0 10 2 8 9]"},
		{"mq:q=2,wtl=7.5", "[0 10 2 8 10]"},
		{"mq:q=2,wtl=8.5", "[0 10 2 8 9]"},
	})
}

// TestGoldenPrioResPhase2: a reserved job whose claimed processors are not
// all free yet starts in phase 2 with its held processors plus unreserved
// free ones.
//
// flat:8. J1 (t=0, 4 procs, run 10) and J2 (t=0, 2 procs, run 20) start;
// 2 free. J3 (t=1, 6 procs, run 5) does not fit: it reserves J1's 4 and
// J2's 2 busy processors (most unclaimed first), holding no free one. J4
// (t=2, 1 proc, run 3) starts on an unreserved free processor. J5 (t=3,
// 3 procs, run 1): 1 unreserved free, 1 unclaimed busy (J4): it can
// neither start nor reserve, and waits. At 5 J4 ends: nothing changes. At
// 10 J1 ends: its 4 processors become J3's held ones; phase 1 does not
// apply (J3 still claims J2's), phase 2 starts J3 on its 4 held plus the 2
// unreserved free processors (without phase 2 it would wait for J2 until
// 20); phase 3 reserves 3 of J3's processors for J5, which starts when J3
// ends at 15. [0 0 10 2 15]
func TestGoldenPrioResPhase2(t *testing.T) {
	rows := []row{{0, 10, 4, 0}, {0, 20, 2, 0}, {1, 5, 6, 0}, {2, 3, 1, 0}, {3, 1, 3, 0}}
	checkGolden(t, 8, rows, []golden{
		{"prio-res", "[0 0 10 2 15]"},
	})
}
