package backfill

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// row is (id, submit, procs, run, estimate).
type row [5]float64

func jobsOf(rows []row) []policy.Job {
	jobs := make([]policy.Job, len(rows))
	for i, r := range rows {
		jobs[i] = policy.Job{Index: int32(i), ID: int64(r[0]), Submit: r[1], Procs: int(r[2]), Run: r[3], Estimate: r[4], User: -1}
	}
	return jobs
}

func replay(t *testing.T, s policy.Scheduler, procs int, rows []row) string {
	t.Helper()
	jobs := jobsOf(rows)
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	res, err := engine.Run(jobs, m, flat.NewCount(procs), s, engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	out := ""
	for _, j := range res.Jobs {
		out += fmt.Sprintf("J%d@%g ", j.ID, j.Start)
	}
	return out
}

// The golden workloads run on flat:10 with the count allocator. Rows are
// (id, submit, procs, run, estimate). Worked out by hand:
var golden = []struct {
	name               string
	rows               []row
	easy, conservative string
}{
	{
		// EASY and conservative differ.
		//
		// EASY. t=0: J1 (6) starts, 4 free. t=1: J2 (8) is the head and
		// cannot start; shadow = J1's end 10, extra = 10-8 = 2. t=2: J3 (9)
		// does not fit. t=3: J4 (2 procs, ends 23 > 10) fits and uses ≤ 2
		// extra: backfilled at 3. t=10: J1 ends, 8 free: J2 starts (till
		// 15). t=15: J2 ends, 8 free, J3 (9) waits for J4. t=23: J3 starts.
		//
		// Conservative. Reservations: J2 at 10 on [10,15) (8 procs); J3 at
		// 15 on [15,25) (9 procs, 1 free left); J4 needs 2 for 20 s: [3,10)
		// has 4 and [10,15) 2 but [15,25) only 1, so J4 is reserved at 25.
		// J2 starts 10, J3 15, J4 25: the backfilled J4 of EASY delayed J3,
		// which conservative forbids.
		name: "easy-vs-conservative",
		rows: []row{
			{1, 0, 6, 10, 10},
			{2, 1, 8, 5, 5},
			{3, 2, 9, 10, 10},
			{4, 3, 2, 20, 20},
		},
		easy:         "J1@0 J2@10 J3@23 J4@3 ",
		conservative: "J1@0 J2@10 J3@15 J4@25 ",
	},
	{
		// J1 ends well before its estimate (5 < 20).
		//
		// EASY. t=1: head J2 (8) blocked; shadow = J1's estimated end 20,
		// extra 2. t=2: J3 (4 procs, ends 12 ≤ 20) backfilled. t=3: J4 (2)
		// nothing free. t=5: J1 ends early, 6 free; J2 still blocked; new
		// shadow = J3's end 12 (4+6 = 10 ≥ 8), extra 2; J4 (ends 8 ≤ 12)
		// backfilled at 5. t=12: J3 ends, J2 starts.
		//
		// Conservative. t=1: J2 reserved at 20. t=2: J3 fits on [2,12)
		// before it: starts. t=3: J4 reserved at 12 (free 4 on [12,20)).
		// t=5: J1 ends early: compression moves J2 to 12 (6 free on [5,12)
		// is not enough) and J4 to now (6 free on [5,8)): J4 starts at 5,
		// J2 at 12, as with EASY.
		name: "shorter-than-estimate",
		rows: []row{
			{1, 0, 6, 5, 20},
			{2, 1, 8, 10, 10},
			{3, 2, 4, 10, 10},
			{4, 3, 2, 3, 3},
		},
		easy:         "J1@0 J2@12 J3@2 J4@5 ",
		conservative: "J1@0 J2@12 J3@2 J4@5 ",
	},
	{
		// J1 outruns its estimate (runs 10, estimated 5); at t=8 J3 ends
		// and J5 arrives at the same instant; at t=10 J1 and J4 end together.
		//
		// EASY. t=1: head J2 (8) blocked; shadow = max(5, 1) = 5, extra 2.
		// t=2: J3 (2 procs, ends 8 > 5) uses the 2 extra: backfilled at 2.
		// t=6: J4 arrives; J1 is overdue, its estimated end is taken as now
		// = 6, so shadow 6, extra 8-8 = 0: J4 (ends 8 > 6) not backfilled.
		// t=8: J3 ends, J5 arrives (completion first). 4 free. Shadow
		// = max(5, 8) = 8 with 10 free, extra 2: J4 (2) backfilled at 8;
		// J5 (4) does not fit in the 2 left. t=10: J1 and J4 end; J2 starts
		// (8 procs, till 15); J5 (4) waits. t=15: J5 starts.
		//
		// Conservative. t=1: J2 reserved at 5. t=2: J3 fits on [2,8) with J2's
		// reservation (2 free on [5,8)): starts. t=6: J1 overdue counts as
		// ending now: J2 is reserved at 6 but only 2 processors are really
		// free, so it does not start; J4 cannot get a slot now. t=8: J2
		// reserved at 8, cannot start (4 free); J4 fits at 8 in the
		// remaining 2 for [8,10): starts; J5 (4 procs) is reserved at 13,
		// after J2's [8,13). t=10: J1 really ends; J2's slot has slid to
		// [10,15) and now overlaps J5's reservation: J2, ahead in the
		// queue, keeps priority and starts; J5 gives way, to 15.
		name: "outrun-and-simultaneous",
		rows: []row{
			{1, 0, 6, 10, 5},
			{2, 1, 8, 5, 5},
			{3, 2, 2, 6, 6},
			{4, 6, 2, 2, 2},
			{5, 8, 4, 1, 1},
		},
		easy:         "J1@0 J2@10 J3@2 J4@8 J5@15 ",
		conservative: "J1@0 J2@10 J3@2 J4@8 J5@15 ",
	},
	{
		// A job that would end exactly at the shadow time may backfill, and
		// a zero-length job starts and ends at its arrival.
		//
		// EASY. t=0: J1 (10 procs) till 4. t=1: J2 (10) head, shadow 4,
		// extra 0. t=1: J3 (0 procs free) cannot start. t=4: J1 ends, J2
		// starts (till 9); J3 (5 procs, 0 s) waits: nothing free. t=9: J2
		// ends, J3 starts and ends at 9, and J4 (10 procs, arrived at 5)
		// starts at 9 on the processors J3 freed at that instant.
		// Conservative: the same reservations; J4 reserved at 9.
		name: "zero-length",
		rows: []row{
			{1, 0, 10, 4, 4},
			{2, 1, 10, 5, 5},
			{3, 1, 5, 0, 0},
			{4, 5, 10, 1, 1},
		},
		easy:         "J1@0 J2@4 J3@9 J4@9 ",
		conservative: "J1@0 J2@4 J3@9 J4@9 ",
	},
	{
		// Backfilling a job that ends exactly at the shadow time.
		//
		// EASY. t=0: J1 (5 procs) till 10. t=1: J2 (10) blocked, shadow 10,
		// extra 0. t=2: J3 (5 procs, est 8: ends 10 ≤ 10) backfilled at 2.
		// J4 (1 proc) finds nothing free. t=10: J1 and J3 end, J2 starts (till 13),
		// t=13: J4 starts.
		// Conservative: J2 reserved at 10; J3 on [2,10) fits before it;
		// J4 reserved at 13.
		name: "ends-at-shadow",
		rows: []row{
			{1, 0, 5, 10, 10},
			{2, 1, 10, 3, 3},
			{3, 2, 5, 8, 8},
			{4, 2, 1, 9, 9},
		},
		easy:         "J1@0 J2@10 J3@2 J4@13 ",
		conservative: "J1@0 J2@10 J3@2 J4@13 ",
	},
	{
		// Several running jobs end at the shadow time: all of them count
		// toward the extra processors.
		//
		// EASY. t=0: J1 (3), J2 (3), J3 (2) start, all ending at 10; 2 free.
		// t=1: J4 (8) blocked; walking releases, 8 are free at 10 after J2,
		// but J3 also ends at 10: shadow 10, extra 10-8 = 2. t=2: J5 (2
		// procs, ends 22 > 10) uses the 2 extra: backfilled at 2. t=10: J4
		// starts on the 8 freed.
		// Conservative: J4 reserved at 10 on [10,15) leaving 2; J5 fits on
		// [2,22) throughout: starts at 2.
		name: "batch-at-shadow",
		rows: []row{
			{1, 0, 3, 10, 10},
			{2, 0, 3, 10, 10},
			{3, 0, 2, 10, 10},
			{4, 1, 8, 5, 5},
			{5, 2, 2, 20, 20},
		},
		easy:         "J1@0 J2@0 J3@0 J4@10 J5@2 ",
		conservative: "J1@0 J2@0 J3@0 J4@10 J5@2 ",
	},
	{
		// Compression never delays a job beyond its reservation.
		//
		// Conservative. t=0: J1 (6, estimated 10, runs 1) and J2 (4, till
		// 4) start. t=0.5: J3 (8 procs, 5 s) is reserved at 10 on [10,15);
		// J4 (4 procs, 6 s) fits in [4,10) before it: reserved at 4. t=1:
		// J1 ends 9 s early; compression in queue order, each job moving to
		// its earliest slot among the others' reservations: J3 finds 6
		// free on [1,4) and 10-4 = 6 on [4,10) (J4's reservation), so it
		// stays at 10; J4 fits now on [1,7): starts at 1. t=4: J2 ends,
		// compression again: J3 needs 8, 6 free until J4 ends at 7: J3
		// starts at 7. (Recomputing every reservation from scratch instead
		// would put J3 at 4, ahead of J4's reservation, and push J4 to 9,
		// beyond the reservation it was given at 0.5.)
		//
		// EASY. t=0.5: head J3, shadow 10, extra 2: J4 (4) nothing free.
		// t=1: 6 free, shadow 4 (J2's end), extra 2: J4 (ends 7 > 4, 4 > 2)
		// may not backfill. t=4: J3 starts (till 9); t=9: J4.
		name: "compression-keeps-reservations",
		rows: []row{
			{1, 0, 6, 1, 10},
			{2, 0, 4, 4, 4},
			{3, 0.5, 8, 5, 5},
			{4, 0.5, 4, 6, 6},
		},
		easy:         "J1@0 J2@0 J3@4 J4@9 ",
		conservative: "J1@0 J2@0 J3@7 J4@1 ",
	},
}

func TestGolden(t *testing.T) {
	for _, g := range golden {
		t.Run(g.name, func(t *testing.T) {
			if got := replay(t, NewEASY(), 10, g.rows); got != g.easy {
				t.Errorf("easy:\n got %s\nwant %s", got, g.easy)
			}
			if got := replay(t, NewConservative(), 10, g.rows); got != g.conservative {
				t.Errorf("conservative:\n got %s\nwant %s", got, g.conservative)
			}
		})
	}
}

// randomJobs is a small random workload with estimates that may be too
// long or too short.
func randomJobs(n, procs int, seed uint64, exact bool) []policy.Job {
	r := rand.New(rand.NewPCG(seed, 3))
	jobs := make([]policy.Job, n)
	t := 0.0
	for i := range jobs {
		t += float64(r.IntN(20))
		run := float64(r.IntN(100))
		est := run
		if !exact {
			est = float64(r.IntN(150))
		}
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: t, Run: run, Estimate: est, Procs: 1 + r.IntN(procs)}
	}
	return jobs
}

// TestAgainstFCFS replays random workloads under the invariant checker with
// both allocators, and checks that with exact estimates no job starts later
// under conservative backfilling than under strict FCFS.
func TestAgainstFCFS(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		for _, alloc := range []string{"count", "contig"} {
			jobs := randomJobs(300, 16, seed, true)
			fcfs := append([]policy.Job(nil), jobs...)
			cons := append([]policy.Job(nil), jobs...)
			easy := append([]policy.Job(nil), randomJobs(300, 16, seed, false)...)
			m := policy.Machine{Kind: policy.Flat, Procs: 16}
			newAlloc := func() policy.Allocator {
				if alloc == "count" {
					return flat.NewCount(16)
				}
				return flat.NewContig(16)
			}
			if _, err := engine.Run(fcfs, m, newAlloc(), &strictFCFS{}, engine.Options{Check: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := engine.Run(cons, m, newAlloc(), NewConservative(), engine.Options{Check: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := engine.Run(easy, m, newAlloc(), NewEASY(), engine.Options{Check: true}); err != nil {
				t.Fatal(err)
			}
			if alloc != "count" {
				continue // fragmentation voids the guarantee on contig
			}
			for i := range fcfs {
				if cons[i].Start > fcfs[i].Start {
					t.Fatalf("seed %d: job %d starts at %g under conservative, %g under FCFS", seed, cons[i].ID, cons[i].Start, fcfs[i].Start)
				}
			}
		}
	}
}

type strictFCFS struct{ q []*policy.Job }

func (s *strictFCFS) Submit(j *policy.Job) { s.q = append(s.q, j) }
func (s *strictFCFS) Finished(*policy.Job) {}
func (s *strictFCFS) Waiting() int         { return len(s.q) }
func (s *strictFCFS) Schedule(sys policy.System) {
	for len(s.q) > 0 && sys.Start(s.q[0]) {
		s.q = s.q[1:]
	}
}

// TestContigFragmentation: on flat:10 with the contig allocator, J1..J5
// take 0-1, 2-3, 4-5, 6-7, 8-9; J2 and J4 end at 3, leaving 4 free
// processors in two holes (2-3, 6-7). The head J6 (4 procs) fits by count
// but cannot be placed, so its reservation moves to the next release (10,
// when J1, J3, J5 end; EASY: shadow 10, extra 10-4 = 6). J7 (2 procs,
// 3..7) backfills into 2-3 under both schedulers; J6 starts at 10.
func TestContigFragmentation(t *testing.T) {
	rows := []row{{1, 0, 2, 10, 10}, {2, 0, 2, 3, 3}, {3, 0, 2, 10, 10}, {4, 0, 2, 3, 3}, {5, 0, 2, 10, 10}, {6, 1, 4, 5, 5}, {7, 1, 2, 4, 4}}
	want := "J1@0 J2@0 J3@0 J4@0 J5@0 J6@10 J7@3 "
	m := policy.Machine{Kind: policy.Flat, Procs: 10}
	for name, s := range map[string]policy.Scheduler{"easy": NewEASY(), "conservative": NewConservative()} {
		jobs := jobsOf(rows)
		res, err := engine.Run(jobs, m, flat.NewContig(10), s, engine.Options{Check: true, Placement: true})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, j := range res.Jobs {
			got += fmt.Sprintf("J%d@%g ", j.ID, j.Start)
		}
		p6, p7 := res.Placement(5), res.Placement(6)
		if got != want || fmt.Sprint(p6) != fmt.Sprint([]policy.Piece{policy.Range(0, 4)}) || fmt.Sprint(p7) != fmt.Sprint([]policy.Piece{policy.Range(2, 2)}) {
			t.Errorf("%s: %s placement J6 %v J7 %v, want %s 0-3 2-3", name, got, p6, p7, want)
		}
	}
}
