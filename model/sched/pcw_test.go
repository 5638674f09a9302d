package sched

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/policy"
)

// pjob is a hand-made job with a priority and a deadline (-1: none).
type pjob struct {
	submit, run float64
	procs, prio int
	deadline    float64
}

func mkPJobs(rows []pjob) []policy.Job {
	jobs := make([]policy.Job, len(rows))
	for i, r := range rows {
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: r.submit, Run: r.run, Estimate: r.run,
			Procs: r.procs, User: -1, Window: &policy.Window{Priority: r.prio, Deadline: r.deadline}, Start: -1, End: -1}
	}
	return jobs
}

// runCube replays jobs under spec on cube:n with the test buddy allocator
// and the invariant checker.
func runCube(t *testing.T, spec string, n int, jobs []policy.Job) *engine.Result {
	t.Helper()
	m := policy.Machine{Kind: policy.Cube, Procs: 1 << n, Dim: n}
	res, err := engine.Run(slices.Clone(jobs), m, newBuddy(n), newSched(t, spec, m), engine.Options{Check: true, Placement: true})
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	return res
}

// fourPairs is the hand-made state of the golden tests on cube:3 (nodes
// 0-7), with latency=0.5 and data=1. Jobs 1-4 (2 processors, a 1-cube
// each, priority 0) arrive at 0 and the buddy allocator places them at 0,
// 2, 4 and 6; jobs 2 and 4 end at 1, leaving job 1 on 0-1, job 3 on 4-5
// and 2-3, 6-7 free: four free nodes but no free 2-cube. Job 5, x (4
// processors, a 2-cube), arrives at 2. The candidates (Group2, when x has
// priority 1):
//
//   - preempt job 1 (0-1 freed merges with 2-3: x on 0-3), or job 3 (x on
//     4-7);
//   - compact job 3 only: it moves to 2-3 (the lowest free 1-cube, taken
//     while 4-5 is still held), 4-5 merges with 6-7; hops = |4 ⊕ 2| = 2,
//     one disjoint path (a 1-cube): δ = 0.5·2 + 1/1 = 2. Job 1 would move
//     to 2-3 too, leaving 0-1 and 6-7: no 2-cube;
//   - wait until job 1 or job 3 ends.
//
// Against waiting, preempting costs c R_x of laxity, compacting costs δ
// = 2 of each of x and c, and waiting costs x t_w − 2.
func fourPairs(r1, r3, d1, d3, rx float64, px int, dx float64) []policy.Job {
	return mkPJobs([]pjob{
		{0, r1, 2, 0, d1}, {0, 1, 2, 0, -1}, {0, r3, 2, 0, d3}, {0, 1, 2, 0, -1},
		{2, rx, 4, px, dx},
	})
}

type span struct{ start, end float64 }

func spans(res *engine.Result) []span {
	s := make([]span, len(res.Jobs))
	for i, j := range res.Jobs {
		s[i] = span{j.Start, j.End}
	}
	return s
}

func TestPCWGolden(t *testing.T) {
	for _, c := range []struct {
		name, spec string
		jobs       []policy.Job
		want       []span
		susp, migr []int32 // per job; nil: none
		migTime    float64
		placeX     policy.Piece
	}{
		{
			// R_x = 1 < 2δ = 4 < t_w − 2 = 18. Waiting would also make x
			// miss (L_x = 10 − 21 < 0). Scores (base: L_1 + L_3 = 80 + 80):
			// wait −11 + 160 = 149; preempt 1 or 3: 7 + 160 − 80 + 79 = 166;
			// compact 3: 5 + 160 − 80 + 78 = 163. Preempt job 1 (ties with
			// job 3, same priority and start: trace order). x runs 2..3 on
			// 0-3; job 1 (18 left) resumes when x ends, at 3 on 6-7, and
			// ends at 21.
			name: "preempt", spec: "pcw:latency=0.5,data=1",
			jobs: fourPairs(20, 20, 100, 100, 1, 1, 10),
			want: []span{{0, 21}, {0, 1}, {0, 20}, {0, 1}, {2, 3}},
			susp: []int32{1, 0, 0, 0, 0}, placeX: policy.Subcube(0, 3),
		},
		{
			// R_x = 10 > 2δ = 4, t_w − 2 = 18. Scores: wait 70 + 160 = 230;
			// preempt 88 + 160 − 80 + 70 = 238; compact 3: 86 + 160 − 80 +
			// 78 = 244. Job 3 moves at 2 to 2-3 and makes no progress until
			// 4 (18 left: ends at 22); x starts at 4 on 4-7, ends at 14.
			name: "compact", spec: "pcw:latency=0.5,data=1",
			jobs: fourPairs(20, 20, 100, 100, 10, 1, 100),
			want: []span{{0, 20}, {0, 1}, {0, 22}, {0, 1}, {4, 14}},
			migr: []int32{0, 0, 1, 0, 0}, migTime: 2, placeX: policy.Subcube(4, 3),
		},
		{
			// Job 1, of higher priority than x (Group1 = {1}: waiting for
			// it is allowed), is about to end (at 3); it is placed first,
			// on 0-1, the others as in fourPairs. Group2 = {3}. Scores
			// (base L_3 = 80): wait (x on 0-3 at 3) L_x = 100 − 13 = 87,
			// 87 + 80 = 167; preempt 3: 88 + 80 − 80 + 70 = 158; compact 3
			// (to 2-3, δ = 2): 86 + 80 − 80 + 78 = 164. x waits.
			name: "wait", spec: "pcw:latency=0.5,data=1",
			jobs: mkPJobs([]pjob{
				{0, 3, 2, 2, 100}, {0, 1, 2, 0, -1}, {0, 20, 2, 0, 100}, {0, 1, 2, 0, -1},
				{2, 10, 4, 1, 100},
			}),
			want:   []span{{0, 3}, {0, 1}, {0, 20}, {0, 1}, {3, 13}},
			placeX: policy.Subcube(0, 3),
		},
		{
			// The same scores with job 3 of priority 0 (Group1 empty):
			// waiting is only a fallback, and the best feasible, safe
			// action among preempting 1 or 3 (255) and compacting 3 (261)
			// is taken: job 3 moves to 2-3 at 2 (δ = 2) and ends at 5; x
			// runs 4..14 on 4-7.
			name: "lower priority only: no waiting", spec: "pcw:latency=0.5,data=1",
			jobs: fourPairs(20, 3, 100, 100, 10, 1, 100),
			want: []span{{0, 20}, {0, 1}, {0, 5}, {0, 1}, {4, 14}},
			migr: []int32{0, 0, 1, 0, 0}, migTime: 2, placeX: policy.Subcube(4, 3),
		},
		{
			// The preempt case with x of priority 0, as the running jobs:
			// Group2 is empty, x waits (it would miss its deadline 10)
			// until jobs 1 and 3 end at 20, and runs 20..21 on 0-3.
			name: "no lower priority", spec: "pcw:latency=0.5,data=1",
			jobs:   fourPairs(20, 20, 100, 100, 1, 0, 10),
			want:   []span{{0, 20}, {0, 1}, {0, 20}, {0, 1}, {20, 21}},
			placeX: policy.Subcube(0, 3),
		},
		{
			// The preempt case with tight deadlines for jobs 1 and 3
			// (20.5: laxity 0.5) and a late one for x (30). Preempting
			// scores best (27 + 1 − 0.5 − 0.5 = 27 against waiting's 9 +
			// 1 = 10) but would make job 1 miss (L_1 = 20.5 − 21 < 0), as
			// compacting job 3 would (20.5 − 22); waiting keeps every
			// laxity ≥ 0 (L_x = 30 − 21 = 9) and wins.
			name: "safe wait", spec: "pcw:latency=0.5,data=1",
			jobs:   fourPairs(20, 20, 20.5, 20.5, 1, 1, 30),
			want:   []span{{0, 20}, {0, 1}, {0, 20}, {0, 1}, {20, 21}},
			placeX: policy.Subcube(0, 3),
		},
		{
			// The compact case, preempt-only: job 1 is preempted at 2 (x on
			// 0-3, 2..12) and resumes when x ends, at 12 on 6-7: 12 + 18 = 30.
			name: "compact case, action=preempt", spec: "pcw:action=preempt,latency=0.5,data=1",
			jobs: fourPairs(20, 20, 100, 100, 10, 1, 100),
			want: []span{{0, 30}, {0, 1}, {0, 20}, {0, 1}, {2, 12}},
			susp: []int32{1, 0, 0, 0, 0}, placeX: policy.Subcube(0, 3),
		},
		{
			// The preempt case, compact-only: job 3 moves (δ = 2), x runs
			// 4..5 on 4-7, job 3 ends at 4 + 18 = 22.
			name: "preempt case, action=compact", spec: "pcw:action=compact,latency=0.5,data=1",
			jobs: fourPairs(20, 20, 100, 100, 1, 1, 10),
			want: []span{{0, 20}, {0, 1}, {0, 22}, {0, 1}, {4, 5}},
			migr: []int32{0, 0, 1, 0, 0}, migTime: 2, placeX: policy.Subcube(4, 3),
		},
		{
			// The compact case, wait-only: x waits until 20.
			name: "compact case, action=wait", spec: "pcw:action=wait,latency=0.5,data=1",
			jobs:   fourPairs(20, 20, 100, 100, 10, 1, 100),
			want:   []span{{0, 20}, {0, 1}, {0, 20}, {0, 1}, {20, 30}},
			placeX: policy.Subcube(0, 3),
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := runCube(t, c.spec, 3, c.jobs)
			if got := spans(res); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("start..end %v, want %v", got, c.want)
			}
			if fmt.Sprint(res.Suspensions) != fmt.Sprint(c.susp) || fmt.Sprint(res.Migrations) != fmt.Sprint(c.migr) {
				t.Errorf("suspensions %v, migrations %v; want %v, %v", res.Suspensions, res.Migrations, c.susp, c.migr)
			}
			if res.MigrationTime != c.migTime {
				t.Errorf("migration time %g, want %g", res.MigrationTime, c.migTime)
			}
			if p := res.Placement(4); len(p) != 1 || p[0] != c.placeX {
				t.Errorf("x placed on %v, want %v", p, c.placeX)
			}
			if c.migr != nil {
				// Job 3 is where Decide's clone said: 2-3.
				if p := res.Placement(2); len(p) != 1 || p[0] != policy.Subcube(2, 1) {
					t.Errorf("job 3 migrated to %v, want 2-3", p)
				}
			}
		})
	}
}

// Decide's options in the compact case, at t = 2, as the comment of
// TestPCWGolden works them out.
func TestDecideOptions(t *testing.T) {
	b := newBuddy(3)
	jobs := fourPairs(20, 20, 100, 100, 10, 1, 100)
	j1, j3, x := &jobs[0], &jobs[2], &jobs[4]
	j1.Alloc, j3.Alloc = b.take(0, 1), b.take(4, 1)
	j1.Start, j3.Start = 0, 0
	sit := Situation{Now: 2, Head: x, HeadRem: 10, Alloc: b,
		Running: []Running{{Job: j1, Rem: 18, End: 20}, {Job: j3, Rem: 18, End: 20}}}
	free := b.Free()
	d := Decide(sit, PCWConfig{Action: ActionAuto, Compaction: true, Latency: 0.5, Data: 1})
	var sb strings.Builder
	if err := d.WriteTable(&sb); err != nil {
		t.Fatal(err)
	}
	want := `action   job   start  hops  delay      L_x      L_c   L_c(0)    score  note
wait     -        20     -      -       70        -        -      230  fallback (Group1 empty)
preempt  1         2     -      -       88       70       80      238
compact  1         -     -      -        -        -       80        -  infeasible
preempt  3         2     -      -       88       70       80      238
compact  3         4     2      2       86       78       80      244  chosen
`
	if sb.String() != want {
		t.Errorf("options:\n%s\nwant:\n%s", sb.String(), want)
	}
	if d.Action != ActionCompact || d.Job != j3 || d.Delay != 2 {
		t.Errorf("decision %s job %v delay %g", d.Action, d.Job, d.Delay)
	}
	if b.Free() != free || len(b.free[1]) != 2 {
		t.Error("Decide changed the live allocator")
	}
	// Without compaction (a flat or mesh machine), preemption wins.
	d = Decide(sit, PCWConfig{Action: ActionAuto, Latency: 0.5, Data: 1})
	if d.Action != ActionPreempt || d.Job != j1 || len(d.Options) != 3 {
		t.Errorf("without compaction: %s job %v, %d options", d.Action, d.Job, len(d.Options))
	}
	// Jobs without a deadline count 0: preempting job 1 costs nothing
	// then, and wins (88 + 80 against compaction's 86 + 80).
	j1.Window = &policy.Window{Priority: 0, Deadline: -1}
	d = Decide(sit, PCWConfig{Action: ActionAuto, Compaction: true, Latency: 0.5, Data: 1})
	if d.Action != ActionPreempt || d.Job != j1 || d.Options[d.Chosen].Score != 168 {
		t.Errorf("job 1 without deadline: %s job %v score %g", d.Action, d.Job, d.Options[d.Chosen].Score)
	}
}

// The clone replays the live allocator: Decide's prediction of a
// migration target is where the engine's Migrate puts the job.
func TestBuddyCloneDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	b := newBuddy(6)
	var held []policy.Allocation
	for step := 0; step < 5000; step++ {
		if len(held) > 0 && r.IntN(2) == 0 {
			k := r.IntN(len(held))
			b.Release(held[k])
			held = slices.Delete(held, k, k+1)
			continue
		}
		j := &policy.Job{Procs: 1 + r.IntN(40)}
		c := b.Clone()
		x, okx := c.Allocate(j)
		y, oky := b.Allocate(j)
		if okx != oky || x != y {
			t.Fatalf("step %d: clone gave %v %v, live %v %v", step, x, okx, y, oky)
		}
		if oky {
			held = append(held, y)
		}
		if used := 64 - b.Free(); used != sumProcs(held) {
			t.Fatalf("step %d: %d used, %d held", step, used, sumProcs(held))
		}
	}
}

func sumProcs(as []policy.Allocation) int {
	n := 0
	for _, a := range as {
		n += a.Procs()
	}
	return n
}

// cubeJobs is a random workload for cube:n with priorities 0..2 and
// deadlines submit + run × U(1, 4), estimates exact.
func cubeJobs(seed uint64, count, n int, load float64) []policy.Job {
	r := rand.New(rand.NewPCG(seed, 0xc0be))
	jobs := make([]policy.Job, count)
	t := 0.0
	meanProcs := float64(int(1)<<n-1) / float64(n) // dimensions 0..n−1 uniform
	iat := meanProcs * 10 / (float64(int(1)<<n) * load)
	for i := range jobs {
		t += r.ExpFloat64() * iat
		run := math.Round(r.ExpFloat64()*10*4) / 4
		sub := math.Round(t*4) / 4
		w := &policy.Window{Priority: r.IntN(3), Deadline: -1}
		if r.IntN(4) > 0 {
			w.Deadline = sub + run*(1+3*r.Float64())
		}
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: sub, Run: run, Estimate: run,
			Procs: 1 << r.IntN(n), User: -1, Window: w, Start: -1, End: -1}
	}
	return jobs
}

// Every variant replays random workloads under the invariant checker; the
// single-action variants use only their action; every job runs its run
// time (plus its migration delays); with equal priorities pcw is FCFS.
func TestPCWProperties(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		jobs := cubeJobs(seed, 600, 5, 0.9)
		for _, spec := range []string{"pcw", "pcw:action=preempt", "pcw:action=compact", "pcw:action=wait", "pcw:latency=0,data=0"} {
			res := runCube(t, spec, 5, jobs)
			nsusp, nmigr := 0, 0
			for i := range res.Jobs {
				if res.Suspensions != nil {
					nsusp += int(res.Suspensions[i])
				}
				if res.Migrations != nil {
					nmigr += int(res.Migrations[i])
				}
			}
			switch {
			case spec == "pcw:action=wait" && nsusp+nmigr > 0,
				spec == "pcw:action=preempt" && (nmigr > 0 || nsusp == 0),
				spec == "pcw:action=compact" && (nsusp > 0 || nmigr == 0),
				spec == "pcw" && nsusp+nmigr == 0:
				t.Errorf("seed %d %s: %d suspensions, %d migrations", seed, spec, nsusp, nmigr)
			}
			// Busy time: every job ran exactly its run time, so the
			// residences add up to the run times plus the waits
			// between a suspension and the resumption, plus delays.
			ran := make([]float64, len(res.Jobs))
			from := make([]float64, len(res.Jobs))
			for i, j := range res.Jobs {
				from[i] = j.Start
			}
			for _, ev := range res.Events {
				switch ev.Kind {
				case engine.Suspended:
					ran[ev.Index] += ev.Time - from[ev.Index]
				case engine.Resumed:
					from[ev.Index] = ev.Time
				}
			}
			total := 0.0
			for i, j := range res.Jobs {
				ran[i] += j.End - from[i]
				total += ran[i] - j.Run
				if ran[i] < j.Run-1e-9 {
					t.Fatalf("seed %d %s: job %d ran %g < %g", seed, spec, j.ID, ran[i], j.Run)
				}
			}
			if math.Abs(total-res.MigrationTime) > 1e-6 {
				t.Errorf("seed %d %s: residence beyond run times %g, migration time %g", seed, spec, total, res.MigrationTime)
			}
		}
		// Equal priorities: no Group2 ever, pcw is strict FCFS.
		flatJobs := slices.Clone(jobs)
		for i := range flatJobs {
			flatJobs[i].Window = nil
		}
		a, b := spans(runCube(t, "pcw", 5, flatJobs)), spans(runCube(t, "fcfs", 5, flatJobs))
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("seed %d: pcw with equal priorities differs from fcfs", seed)
		}
	}
}

// pcw works on flat machines (preempt or wait) and refuses action=compact
// there; parameters are checked.
func TestPCWSpecs(t *testing.T) {
	jobs := randomJobs(3, 800, 64, 0.9, true)
	r := rand.New(rand.NewPCG(3, 3))
	for i := range jobs {
		jobs[i].Window = &policy.Window{Priority: r.IntN(3), Deadline: jobs[i].Submit + jobs[i].Run*(1+2*r.Float64())}
	}
	m := policy.Machine{Kind: policy.Flat, Procs: 64}
	for _, alloc := range []string{"count", "contig"} {
		res, err := engine.Run(slices.Clone(jobs), m, newAlloc(alloc, 64), newSched(t, "pcw", m), engine.Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Suspensions == nil || res.Migrations != nil {
			t.Errorf("%s: suspensions %v, migrations %v", alloc, res.Suspensions != nil, res.Migrations != nil)
		}
	}
	spec := pcwSpec()
	for p, want := range map[string]string{
		"action=compact": "pcw: parameter action=compact: compaction needs a hypercube (machine flat:64)",
		"action=later":   `pcw: parameter action="later": want one of auto, preempt, compact, wait`,
		"latency=-1":     `pcw: parameter latency="-1": want a finite number ≥ 0`,
		"data=inf":       `pcw: parameter data="inf": want a finite number ≥ 0`,
		"delta=1":        `pcw: unknown parameter "delta" (known: action, latency, data)`,
	} {
		_, ps, _ := policy.ParseSpec("pcw:" + p)
		if _, err := spec.New(m, ps); err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", p, err, want)
		}
	}
	if _, err := spec.New(policy.Machine{Kind: policy.Cube, Procs: 8, Dim: 3}, policy.Params{"action": "compact"}); err != nil {
		t.Error(err)
	}
}
