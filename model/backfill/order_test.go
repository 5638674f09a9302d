package backfill

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// TestOrdersGolden: queue orders, SJBF and predictions on flat:10 (count
// allocator), worked out by hand.
func TestOrdersGolden(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 10}
	// J1 (6 procs, 10 s) starts at 0, 4 free. J2 (8, 5 s) arrives at 1:
	// the head, shadow 10, 2 extra. J3 (4, 8 s) and J4 (4, 3 s) arrive at
	// 2; both end by the shadow time and fit the 4 free, but only one can
	// start.
	//   easy: J3 first (arrival order) at 2; J2 at 10; J4 at 15.
	//   easy:backfill=sjf (SJBF): J4 (3 s) first at 2; at 5, J3 would end
	//   at 13 > 10 with 4 > 2 extra: it waits; J2 at 10, J3 at 15.
	//   easy:order=sjf: the queue at 2 is J4, J2, J3: the head J4 starts;
	//   the same schedule as SJBF here.
	//   easy:order=ljf: J3, J2, J4: J3 starts at 2, then as easy.
	//   conservative: J2 reserved [10,15); J3 fits [2,10) before it and
	//   starts at 2; J4 gets 15.
	//   conservative:order=sjf: J4 is placed first (3 s in [2,5)), J2
	//   keeps 10, J3 finds no 8 s with 4 free before 15.
	//   easy:order=saf: areas J4 12, J3 32, J2 40: J4 starts at 2, then
	//   J3 is the head and starts at 5 (J4's end); J2 at 13 (J3's end).
	//   depth:k=0,order=sjf: no reservation: J4 at 2, J3 fits at 5 and
	//   starts; J2 at 13.
	rows := []row{{1, 0, 6, 10, 10}, {2, 1, 8, 5, 5}, {3, 2, 4, 8, 8}, {4, 2, 4, 3, 3}}
	fcfs := "J1@0 J2@10 J3@2 J4@15 "
	sjbf := "J1@0 J2@10 J3@15 J4@2 "
	for _, c := range []struct{ spec, want string }{
		{"easy", fcfs},
		{"easy:backfill=sjf", sjbf},
		{"easy:order=sjf", sjbf},
		{"easy:order=ljf", fcfs},
		{"easy:order=saf", "J1@0 J2@13 J3@5 J4@2 "},
		{"conservative", fcfs},
		{"conservative:order=sjf", sjbf},
		{"depth:k=0,order=sjf", "J1@0 J2@13 J3@5 J4@2 "},
		{"depth:k=2", fcfs},
	} {
		if got := replay(t, mustSched(t, c.spec, m), 10, rows); got != c.want {
			t.Errorf("%s: %s, want %s", c.spec, got, c.want)
		}
	}
	// Sizes: J1 (6 procs, 10 s) runs, 4 free; J2 (5 procs, 4 s), J3 (2, 4
	// s) and J4 (4, 20 s) arrive at 1.
	//   smallest: J3, J4, J2. J3 starts at 1 (2 free); the head J4 gets
	//   the shadow 5 (J3's end), 0 extra; J2 (5 > 2) waits. J4 starts at
	//   5; J2 at 10 (J1's end).
	//   largest: J2, J4, J3. The head J2 gets the shadow 10, 5 extra; J4
	//   (4 ≤ 4 free, ends 21 > 10, 4 ≤ 5 extra) is backfilled at 1, and
	//   J3 finds 0 free. J2 starts at 10 (1 free left), J3 at 14.
	rows = []row{{1, 0, 6, 10, 10}, {2, 1, 5, 4, 4}, {3, 1, 2, 4, 4}, {4, 1, 4, 20, 20}}
	for _, c := range []struct{ spec, want string }{
		{"easy:order=smallest", "J1@0 J2@10 J3@1 J4@5 "},
		{"easy:order=largest", "J1@0 J2@10 J3@14 J4@1 "},
	} {
		if got := replay(t, mustSched(t, c.spec, m), 10, rows); got != c.want {
			t.Errorf("%s: %s, want %s", c.spec, got, c.want)
		}
	}
}

// TestXFactorOrder: the expansion factor order is recomputed at every
// pass: a long job that has waited long passes a short one that has not.
func TestXFactorOrder(t *testing.T) {
	o, err := parseOrder(policy.Params{"order": "xf"}, "order", "fcfs")
	if err != nil {
		t.Fatal(err)
	}
	a := &policy.Job{ID: 1, Submit: 0, Estimate: 100}
	b := &policy.Job{ID: 2, Submit: 50, Estimate: 10}
	q := queue{ord: o, est: func(j *policy.Job) float64 { return j.Estimate }}
	q.Push(a, 0)
	q.Push(b, 50)
	// At 50: a's factor (50+100)/100 = 1.5, b's (0+10)/10 = 1.
	if got := q.Jobs(); got[0] != a {
		t.Fatalf("at 50: %d first, want 1", got[0].ID)
	}
	// At 60: a 1.6, b (10+10)/10 = 2.
	q.resort(60)
	if got := q.Jobs(); got[0] != b {
		t.Fatalf("at 60: %d first, want 2", got[0].ID)
	}
	if x := xfactor(&policy.Job{Submit: 0}, 0, 5); x != 5 {
		t.Fatalf("zero estimate: factor %g, want 5 (estimate bounded by 1 s)", x)
	}
}

// TestPredictGolden: EASY with Tsafrir, Etsion & Feitelson's user-based
// predictions on flat:10. User 7's J1 (10 s) and J2 (20 s), each on all
// 10 processors, complete by 30; at 40 user 7's J3 (6 procs, request 100
// s) is predicted (10+20)/2 = 15 s. J4 (8 procs, 5 s, another user) at 41
// is the head: shadow 55 with predictions (140 with the request), 2
// extra. J5 (4 procs, request 20 s, run 10) at 42 ends at 62 > 55 with 4
// > 2 extra: not backfilled with predictions (at 60, after J4), backfilled
// at 42 without. When J3 runs 100 s it outlives its prediction at 55: a
// pass then (a wake-up) corrects it to 15 + 60 = 75 s (end 115), the
// shadow moves to 115, and J5 (ends 75) is backfilled at 55; J4 starts
// at J3's end, 140.
func TestPredictGolden(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 10}
	users := []int64{7, 7, 7, 8, 9}
	run := func(spec string, j3run float64) string {
		rows := []row{{1, 0, 10, 10, 100}, {2, 0, 10, 20, 100}, {3, 40, 6, j3run, 100}, {4, 41, 8, 5, 5}, {5, 42, 4, 10, 20}}
		jobs := jobsOf(rows)
		for i := range jobs {
			jobs[i].User = users[i]
		}
		res, err := engine.Run(jobs, m, flat.NewCount(10), mustSched(t, spec, m), engine.Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, j := range res.Jobs {
			out += fmt.Sprintf("J%d@%g ", j.ID, j.Start)
		}
		return out
	}
	for _, c := range []struct {
		spec  string
		j3run float64
		want  string
	}{
		{"easy:predict=user2", 15, "J1@0 J2@10 J3@40 J4@55 J5@60 "},
		{"easy", 15, "J1@0 J2@10 J3@40 J4@55 J5@42 "},
		{"easy:predict=user2", 100, "J1@0 J2@10 J3@40 J4@140 J5@55 "},
		{"easy", 100, "J1@0 J2@10 J3@40 J4@140 J5@42 "},
	} {
		if got := run(c.spec, c.j3run); got != c.want {
			t.Errorf("%s, J3 runs %g: %s, want %s", c.spec, c.j3run, got, c.want)
		}
	}
}

// TestPredictionCorrections: a prediction grows by Tsafrir et al.'s
// increments, never beyond the request, and is the request with fewer
// than two completed jobs of the user.
func TestPredictionCorrections(t *testing.T) {
	e := newEstimates(predictUser2)
	j := &policy.Job{Index: 0, User: 3, Estimate: 4000}
	e.submit(j)
	if e.of(j) != 4000 {
		t.Fatalf("no history: %g, want the request", e.of(j))
	}
	for i, r := range []float64{10, 30} {
		h := &policy.Job{User: 3, Start: 0, End: r, Index: int32(i + 1), Estimate: 100}
		e.submit(h)
		e.finished(h)
	}
	j.Index = 3
	e.submit(j)
	if e.of(j) != 20 {
		t.Fatalf("history 10, 30: %g, want 20", e.of(j))
	}
	j.Start = 0
	for _, c := range []struct{ now, want float64 }{
		{20, 80}, {80, 320}, {400, 920}, {1000, 1820}, {1900, 3620}, {3700, 4000},
	} {
		e.correct(j, c.now)
		if e.of(j) != c.want {
			t.Fatalf("at %g: prediction %g, want %g", c.now, e.of(j), c.want)
		}
	}
}

// TestBadParams: every bad value of a new parameter is one line naming it.
func TestBadParams(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 10}
	for _, c := range []struct{ spec, name string }{
		{"easy:order=oldest", "order"},
		{"easy:backfill=random", "backfill"},
		{"easy:predict=user3", "predict"},
		{"easy:depth=2", "depth"},
		{"conservative:order=", "order"},
		{"conservative:backfill=sjf", "backfill"},
		{"conservative:predict=user2", "predict"},
		{"depth:k=-1", "k"},
		{"depth:k=two", "k"},
		{"depth:k=1.5", "k"},
		{"depth:order=xx", "order"},
	} {
		name, p, err := policy.ParseSpec(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		var got error
		for _, s := range Schedulers() {
			if s.Name == name {
				_, got = s.New(m, p)
			}
		}
		if got == nil {
			t.Errorf("%s: no error", c.spec)
			continue
		}
		if msg := got.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, c.name) || !strings.HasPrefix(msg, name+": ") {
			t.Errorf("%s: error %q: want one line naming %s", c.spec, msg, c.name)
		}
	}
}
