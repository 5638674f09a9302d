package reproduce

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/stats"
	"github.com/schedlab/schedlab/model/schema"
)

// rowsOf makes the summary rows of one configuration: trace
// NAME-repRR, one row per value (rep 1, 2, ...), mean_wait = value.
func rowsOf(name, machine, sched string, load float64, waits ...float64) []schema.Summary {
	var out []schema.Summary
	for i, w := range waits {
		rep := int64(i + 1)
		out = append(out, schema.Summary{Trace: fmt.Sprintf("%s-rep%02d", name, rep), Machine: machine, Alloc: "count", Sched: sched,
			Rep: rep, Jobs: 100, MeanWait: w, MeanResponse: w + 1, Load: load, Utilization: load})
	}
	return out
}

func f64(x float64) *float64 { return &x }

func TestJudge(t *testing.T) {
	ci := func(mean, hw float64) stats.CI { return stats.CI{Mean: mean, HalfWidth: hw, N: 10, Level: 0.95} }
	for _, tc := range []struct {
		name   string
		ours   stats.CI
		p      float64
		tol    Tolerance
		want   Verdict
		reason string
	}{
		{"rel holds", ci(10.4, 0.1), 10, Tolerance{Rel: 0.05}, Agrees, "within ±5%"},
		{"rel fails", ci(10.6, 0.1), 10, Tolerance{Rel: 0.05}, Disagrees, "+6% beyond ±5%"},
		{"negative rel", ci(9.4, 0.1), 10, Tolerance{Rel: 0.05}, Disagrees, "-6% beyond ±5%"},
		{"ci holds", ci(10.6, 0.3), 10, Tolerance{CI: 2}, Agrees, "within ±2 CI"},
		{"ci fails", ci(10.6, 0.2), 10, Tolerance{CI: 2}, Disagrees, "3 CI half-widths off > 2"},
		{"either rule: only the CI's, wide", ci(10.6, 0.3), 10, Tolerance{Rel: 0.05, CI: 2}, NotSignificant, "within ±2 CI only, CI ±3%: +6% beyond ±5%"},
		{"either rule: the relative one", ci(10.4, 0.01), 10, Tolerance{Rel: 0.05, CI: 2}, Agrees, "within ±5%"},
		{"either rule: the absolute one", ci(10.6, 0.3), 10, Tolerance{Abs: 1, CI: 2}, Agrees, "within ±2 CI, ±1"},
		{"both rules", ci(10.4, 0.3), 10, Tolerance{Rel: 0.05, CI: 2}, Agrees, "within ±5%, ±2 CI"},
		{"neither rule", ci(11, 0.1), 10, Tolerance{Rel: 0.05, CI: 2}, Disagrees, "+10% beyond ±5%; 10 CI half-widths off > 2"},
		{"all: one fails", ci(10.6, 0.3), 10, Tolerance{Rel: 0.05, CI: 2, All: true}, Disagrees, "+6% beyond ±5%"},
		{"all: both hold", ci(10.4, 0.3), 10, Tolerance{Rel: 0.05, CI: 2, All: true}, Agrees, "within ±5%, ±2 CI"},
		{"abs near zero", ci(0, 0), 2e-14, Tolerance{Abs: 1e-6}, Agrees, "within ±1e-06"},
		{"abs fails", ci(0.01, 0), 2e-14, Tolerance{Abs: 1e-6}, Disagrees, "off by 0.01 > 1e-06"},
		{"rel to zero", ci(0, 0), 0, Tolerance{Rel: 0.05}, Disagrees, "no relative difference to 0"},
		{"zero-width CI, exact", ci(3, 0), 3, Tolerance{CI: 1}, Agrees, "within ±1 CI"},
		{"zero-width CI, off", ci(3.001, 0), 3, Tolerance{CI: 100}, Disagrees, "+Inf CI half-widths off > 100"},
		{"max_ci", ci(10, 2), 10, Tolerance{Rel: 0.05, MaxCI: 0.1}, NotComparable, "CI ±20% wider than the ±10% required"},
		{"max_ci met", ci(10, 0.5), 10, Tolerance{Rel: 0.05, MaxCI: 0.1}, Agrees, "within ±5%"},
	} {
		v, why := judge(tc.ours, tc.p, &tc.tol)
		if v != tc.want || why != tc.reason {
			t.Errorf("%s: %s (%s), want %s (%s)", tc.name, v, why, tc.want, tc.reason)
		}
	}
}

func TestEvaluate(t *testing.T) {
	var rows []schema.Summary
	rows = append(rows, rowsOf("a-load0.50", "flat:4", "fcfs", 0.5, 9.8, 10.1, 10.3, 9.9)...)
	rows = append(rows, rowsOf("a-load0.50", "flat:4", "easy", 0.5, 5, 5.2, 4.9, 5.1)...)
	rows = append(rows, rowsOf("a-load0.80", "flat:4", "fcfs", 0.8, 40, 41, 39, 40)...)
	rows = append(rows, rowsOf("one-load0.50", "flat:4", "fcfs", 0.5, 3)...)
	rows = append(rows, rowsOf("nan-load0.50", "flat:4", "fcfs", 0.5, 3, math.NaN())...)
	rows = append(rows, rowsOf("b-load0.50", "flat:4", "fcfs", 0.5, 14, 30)...)
	rel := &Tolerance{Rel: 0.05}
	s := &Suite{Tolerance: rel, Expect: []Expect{
		{Claim: "value agrees", Metric: "mean_wait", Select: Selector{Trace: "a-load0.50-*", Sched: "fcfs"}, Published: f64(10)},
		{Claim: "value disagrees", Metric: "mean_wait", Select: Selector{Trace: "a-load0.50-*", Sched: "fcfs"}, Published: f64(12)},
		{Claim: "metric response", Metric: "mean_response", Select: Selector{Trace: "a-*", Load: f64(0.5), Sched: "fcfs"}, Published: f64(11)},
		{Claim: "theory", Metric: "mean_wait", Select: Selector{Trace: "a-load0.80-*"}, Theory: &Theory{Model: ModelMMc, Servers: 1, Rho: 0.8, Mean: 10}},
		{Claim: "no cells", Metric: "mean_wait", Select: Selector{Trace: "zzz-*"}, Published: f64(1)},
		{Claim: "ambiguous", Metric: "mean_wait", Select: Selector{Trace: "a-load0.50-*"}, Published: f64(1)},
		{Claim: "one rep", Metric: "mean_wait", Select: Selector{Trace: "one-*"}, Published: f64(3)},
		{Claim: "nan", Metric: "mean_wait", Select: Selector{Trace: "nan-*"}, Published: f64(3)},
		{Claim: "ratio", Kind: "ratio", Metric: "mean_wait", Select: Selector{Trace: "a-load0.50-*"}, Num: &Selector{Sched: "fcfs"}, Den: &Selector{Sched: "easy"}, Published: f64(2)},
		{Claim: "ratio unpaired", Kind: "ratio", Metric: "mean_wait", Num: &Selector{Trace: "a-load0.50-*", Sched: "fcfs"}, Den: &Selector{Trace: "b-*"}, Published: f64(0.5)},
		{Claim: "ranking", Kind: "ranking", Metric: "mean_wait", Select: Selector{Trace: "a-load0.50-*"}, Rank: []Selector{{Label: "EASY", Sched: "easy"}, {Label: "FCFS", Sched: "fcfs"}}},
		{Claim: "ranking wrong", Kind: "ranking", Metric: "mean_wait", Order: "descending", Select: Selector{Trace: "a-load0.50-*"}, Rank: []Selector{{Sched: "easy"}, {Sched: "fcfs"}}},
		{Claim: "ranking overlap", Kind: "ranking", Metric: "mean_wait", Rank: []Selector{{Label: "a", Trace: "a-load0.50-*", Sched: "fcfs"}, {Label: "b", Trace: "b-*"}}},
	}}
	for i := range s.Expect {
		s.Expect[i].Source = "test"
	}
	if err := s.Validate(func(k ...string) string { return strings.Join(k, ".") }, nil); err != nil {
		t.Fatal(err)
	}
	got := Evaluate(s, rows, Quick, 0)
	want := []struct {
		v      Verdict
		reason string
		n      int
	}{
		{Agrees, "within ±5%", 4},
		{Disagrees, "-16.5% beyond ±5%", 4},
		{Agrees, "within ±5%", 4},
		{Agrees, "within ±5%", 4}, // M/M/1, ρ = 0.8, mean 10: 40
		{NotComparable, "no matching cells (trace=zzz-*)", 0},
		{NotComparable, "2 configurations match (a-load0.50 flat:4 count/easy, a-load0.50 flat:4 count/fcfs): narrow the selector", 0},
		{NotComparable, "1 replication: no CI", 1},
		{NotComparable, "mean_wait is not finite in 1 of 2 replications of nan-load0.50 flat:4 count/fcfs", 0},
		{Agrees, "within ±5%", 4},
		{NotComparable, "numerator and denominator have different replications (reps 1–4 and reps 1, 2): cannot pair them", 0},
		{Agrees, "CIs apart", 4},
		{Disagrees, "sched=easy (5.05) is not > sched=fcfs (10.03)", 4},
		{NotSignificant, "CIs of a and b overlap", 2},
	}
	for i, r := range got {
		w := want[i]
		if r.Verdict != w.v || r.Reason != w.reason || r.Ours.N != w.n {
			t.Errorf("%s: %s (%s), n = %d; want %s (%s), n = %d", r.Claim, r.Verdict, r.Reason, r.Ours.N, w.v, w.reason, w.n)
		}
	}
	if r := got[3]; !close(r.Value, 40, 1e-12) || r.Published != "40" {
		t.Errorf("theory: published %q (%g), want 40", r.Published, r.Value)
	}
	if r := got[0]; !close(r.Ours.Mean, 10.025, 1e-12) || !close(r.RelDiff, 0.0025, 1e-9) || r.Rule != "±5%" {
		t.Errorf("value: ours %v, rel %g, rule %q", r.Ours, r.RelDiff, r.Rule)
	}
	if r := got[8]; !close(r.Ours.Mean, 10.025/5.05, 1e-12) || !(r.Ours.HalfWidth > 0) {
		t.Errorf("ratio: ours %v, want ratio of the means with a CI", r.Ours)
	}
	if r := got[10]; r.Published != "EASY < FCFS" || r.OursText != "5.05 < 10.03" || r.Rule != "" {
		t.Errorf("ranking: published %q, ours %q, rule %q", r.Published, r.OursText, r.Rule)
	}
	if r := got[11]; r.Published != "sched=easy > sched=fcfs" || r.OursText != "5.05 < 10.03" {
		t.Errorf("descending ranking: published %q, ours %q", r.Published, r.OursText)
	}
	if c := Counts(got); c != (Count{Agree: 5, NotSignificant: 1, Disagree: 2, NotComparable: 5}) {
		t.Errorf("counts %+v", c)
	}
}

// The most specific tolerance wins: the claim's mode tolerance, the
// claim's, the suite's mode default, the suite's default.
func TestTolerancePrecedence(t *testing.T) {
	tl := func(r float64) *Tolerance { return &Tolerance{Rel: r} }
	for _, tc := range []struct {
		name        string
		s           Suite
		quick, full float64
	}{
		{"suite default", Suite{Tolerance: tl(0.1), Expect: []Expect{{}}}, 0.1, 0.1},
		{"mode defaults", Suite{Tolerance: tl(0.1), Quick: Sizes{Tolerance: tl(0.2)}, Expect: []Expect{{}}}, 0.2, 0.1},
		{"claim", Suite{Tolerance: tl(0.1), Quick: Sizes{Tolerance: tl(0.2)}, Expect: []Expect{{Tolerance: tl(0.3)}}}, 0.3, 0.3},
		{"claim's mode", Suite{Tolerance: tl(0.1), Expect: []Expect{{Tolerance: tl(0.3), FullTolerance: tl(0.4)}}}, 0.3, 0.4},
		{"claim's quick", Suite{Full: Sizes{Tolerance: tl(0.2)}, Expect: []Expect{{QuickTolerance: tl(0.5)}}}, 0.5, 0.2},
	} {
		e := &tc.s.Expect[0]
		if q, f := tc.s.tolerance(e, Quick), tc.s.tolerance(e, Full); q.Rel != tc.quick || f.Rel != tc.full {
			t.Errorf("%s: quick %g, full %g; want %g, %g", tc.name, q.Rel, f.Rel, tc.quick, tc.full)
		}
	}
	if (&Suite{}).tolerance(&Expect{}, Quick) != nil {
		t.Error("no tolerance anywhere should be nil")
	}
}

func TestSelector(t *testing.T) {
	r := &rowsOf("mm16-load0.80", "flat:16", "fcfs", 0.8, 1)[0]
	for _, tc := range []struct {
		s    Selector
		want bool
	}{
		{Selector{}, true},
		{Selector{Trace: "mm16-load0.80-*"}, true},
		{Selector{Trace: "mm16-*", Load: f64(0.8)}, true},
		{Selector{Trace: "mm16-*", Load: f64(0.5)}, false},
		{Selector{Trace: "mm1-*"}, false},
		{Selector{Trace: "mm16-load0.80-rep0[1-3]"}, true},
		{Selector{Machine: "flat:16", Alloc: "count", Sched: "fcfs"}, true},
		{Selector{Machine: "flat:128"}, false},
		{Selector{Alloc: "contig"}, false},
		{Selector{Sched: "easy"}, false},
		{Selector{Trace: "["}, false}, // malformed: matches nothing
	} {
		if got := tc.s.Match(r); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.s.String(), got, tc.want)
		}
	}
}

// at_most: a value or a ratio at most the published number; above it, the
// tolerance judges the distance; max_ci still applies.
func TestAtMost(t *testing.T) {
	var rows []schema.Summary
	rows = append(rows, rowsOf("a-load0.50", "flat:4", "fcfs", 0.5, 9.8, 10.1, 10.3, 9.9)...)
	rows = append(rows, rowsOf("a-load0.50", "flat:4", "easy", 0.5, 5, 5.2, 4.9, 5.1)...)
	rows = append(rows, rowsOf("wide-load0.50", "flat:4", "fcfs", 0.5, 1, 19, 3, 17)...)
	fcfs := Selector{Trace: "a-load0.50-*", Sched: "fcfs"}
	s := &Suite{Tolerance: &Tolerance{Rel: 0.05}, Expect: []Expect{
		{Claim: "below", Kind: "at_most", Metric: "mean_wait", Select: fcfs, Published: f64(12)},
		{Claim: "above within", Kind: "at_most", Metric: "mean_wait", Select: fcfs, Published: f64(9.6)},
		{Claim: "above beyond", Kind: "at_most", Metric: "mean_wait", Select: fcfs, Published: f64(9)},
		{Claim: "ratio below", Kind: "at_most", Metric: "mean_wait", Select: Selector{Trace: "a-load0.50-*"}, Num: &Selector{Sched: "easy"}, Den: &Selector{Sched: "fcfs"}, Published: f64(0.52)},
		{Claim: "ratio above", Kind: "at_most", Metric: "mean_wait", Select: Selector{Trace: "a-load0.50-*"}, Num: &Selector{Sched: "easy"}, Den: &Selector{Sched: "fcfs"}, Published: f64(0.4)},
		{Claim: "too wide", Kind: "at_most", Metric: "mean_wait", Select: Selector{Trace: "wide-*"}, Published: f64(20), Tolerance: &Tolerance{Rel: 0.05, MaxCI: 0.1}},
	}}
	for i := range s.Expect {
		s.Expect[i].Source = "test"
	}
	if err := s.Validate(func(k ...string) string { return strings.Join(k, ".") }, nil); err != nil {
		t.Fatal(err)
	}
	got := Evaluate(s, rows, Quick, 0)
	want := []struct {
		v         Verdict
		reason    string
		published string
	}{
		{Agrees, "at most 12", "≤ 12"},
		{Agrees, "within ±5%", "≤ 9.6"},
		{Disagrees, "+11.4% beyond ±5%", "≤ 9"},
		{Agrees, "at most 0.52", "≤ 0.52"},
		{Disagrees, "+25.9% beyond ±5%", "≤ 0.4"},
		{NotComparable, "CI ±74.1% wider than the ±10% required", "≤ 20"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i, r := range got {
		w := want[i]
		if r.Verdict != w.v || r.Reason != w.reason || r.Published != w.published || r.Rule == "" {
			t.Errorf("%s: %s (%s), published %q, rule %q; want %s (%s), %q", r.Claim, r.Verdict, r.Reason, r.Published, r.Rule, w.v, w.reason, w.published)
		}
	}
	for _, bad := range []Expect{
		{Claim: "no value", Kind: "at_most", Metric: "mean_wait", Select: fcfs},
		{Claim: "theory", Kind: "at_most", Metric: "mean_wait", Select: fcfs, Theory: &Theory{Model: ModelMMc, Servers: 1, Rho: 0.5, Mean: 1}},
		{Claim: "half a ratio", Kind: "at_most", Metric: "mean_wait", Num: &Selector{Sched: "easy"}, Published: f64(1)},
		{Claim: "rank", Kind: "at_most", Metric: "mean_wait", Rank: []Selector{{}, {}}, Published: f64(1)},
	} {
		bad.Source = "test"
		b := &Suite{Tolerance: &Tolerance{Rel: 0.05}, Expect: []Expect{bad}}
		if err := b.Validate(func(k ...string) string { return strings.Join(k, ".") }, nil); err == nil {
			t.Errorf("%s: no error", bad.Claim)
		}
	}
}

// A "/full" kind is judged in the full run only: the quick run leaves it
// out; every kind has its /full form.
func TestFullOnly(t *testing.T) {
	rows := rowsOf("a-load0.50", "flat:4", "fcfs", 0.5, 9.8, 10.1, 10.3, 9.9)
	rows = append(rows, rowsOf("a-load0.50", "flat:4", "easy", 0.5, 5, 5.2, 4.9, 5.1)...)
	sel := Selector{Trace: "a-load0.50-*", Sched: "fcfs"}
	s := &Suite{Tolerance: &Tolerance{Rel: 0.05}, Expect: []Expect{
		{Claim: "both", Metric: "mean_wait", Select: sel, Published: f64(10)},
		{Claim: "full value", Kind: "value/full", Metric: "mean_wait", Select: sel, Published: f64(12)},
		{Claim: "full ranking", Kind: "ranking/full", Metric: "mean_wait", Select: Selector{Trace: "a-load0.50-*"}, Rank: []Selector{{Sched: "fcfs"}, {Sched: "easy"}}},
		{Claim: "full at_most", Kind: "at_most/full", Metric: "mean_wait", Select: sel, Published: f64(11)},
	}}
	for i := range s.Expect {
		s.Expect[i].Source = "test"
	}
	if err := s.Validate(func(k ...string) string { return strings.Join(k, ".") }, nil); err != nil {
		t.Fatal(err)
	}
	if q := Evaluate(s, rows, Quick, 0); len(q) != 1 || q[0].Claim != "both" || q[0].Verdict != Agrees {
		t.Errorf("quick: %+v, want the one claim judged in both modes", q)
	}
	f := Evaluate(s, rows, Full, 0)
	if len(f) != 4 {
		t.Fatalf("full: %d rows, want 4", len(f))
	}
	for i, want := range []Verdict{Agrees, Disagrees, Disagrees, Agrees} {
		if f[i].Verdict != want || f[i].Kind != s.Expect[i].kind() {
			t.Errorf("full %s: %s (%s), kind %q; want %s", f[i].Claim, f[i].Verdict, f[i].Reason, f[i].Kind, want)
		}
	}
	for _, k := range []string{"value", "ratio", "ranking", "at_most"} {
		if _, ok := kinds[k+"/full"].(fullOnly); !ok {
			t.Errorf("no kind %s/full", k)
		}
	}
	if _, ok := kinds["value/full/full"]; ok {
		t.Error("kinds nest /full")
	}
}

// A ranking with num and den ranks ratios (paired per replication), one
// per element of rank; a comm selector matches the canonical form, and
// configurations that differ only in comm are told apart.
func TestRankingOfRatios(t *testing.T) {
	var rows []schema.Summary
	for _, c := range []struct {
		comm  string
		sched string
		waits []float64
	}{
		{"wormhole:ts=3,plen=8,msgs=5", "fcfs", []float64{10, 12, 11}},
		{"wormhole:ts=3,plen=8,msgs=5", "easy", []float64{9, 11, 10}},
		{"wormhole:ts=3,plen=16,msgs=5", "fcfs", []float64{10, 12, 11}},
		{"wormhole:ts=3,plen=16,msgs=5", "easy", []float64{8, 9.5, 9}},
		{"wormhole:ts=3,plen=32,msgs=5", "fcfs", []float64{10, 12, 11}},
		{"wormhole:ts=3,plen=32,msgs=5", "easy", []float64{7, 8, 7.5}},
	} {
		rs := rowsOf("m-load0.50", "mesh:4x4", c.sched, 0.5, c.waits...)
		for i := range rs {
			rs[i].Comm = c.comm
		}
		rows = append(rows, rs...)
	}
	rank := []Selector{{Label: "8", Comm: "wormhole:plen=8"}, {Label: "16", Comm: "wormhole:plen=16"}, {Label: "32", Comm: "wormhole:plen=32"}}
	e := Expect{Claim: "easy's advantage grows", Source: "s", Kind: "ranking", Metric: "mean_wait", Select: Selector{Trace: "m-*"},
		Num: &Selector{Sched: "easy"}, Den: &Selector{Sched: "fcfs"}, Order: "descending", Rank: rank}
	s := &Suite{Expect: []Expect{e}}
	got := Evaluate(s, rows, Full, 0)
	if len(got) != 1 || got[0].Verdict != Agrees || got[0].OursText != "0.9091 > 0.803 > 0.6818" {
		t.Fatalf("%+v", got)
	}
	if !strings.HasPrefix(got[0].Published, "(sched=easy) / (sched=fcfs): 8 > 16 > 32") {
		t.Errorf("published %q", got[0].Published)
	}
	s.Expect[0].Order = "ascending"
	if got := Evaluate(s, rows, Full, 0); got[0].Verdict != Disagrees {
		t.Errorf("ascending: %+v", got[0])
	}
	// Without the comm selector, a ratio's cells are ambiguous: three
	// configurations differ only in comm.
	one := Expect{Claim: "r", Source: "s", Kind: "ratio", Metric: "mean_wait", Select: Selector{Trace: "m-*"},
		Num: &Selector{Sched: "easy"}, Den: &Selector{Sched: "fcfs"}, Published: f64(1), Tolerance: &Tolerance{Rel: 0.5}}
	got = Evaluate(&Suite{Expect: []Expect{one}}, rows, Full, 0)
	if got[0].Verdict != NotComparable || !strings.Contains(got[0].Reason, "3 configurations match") || !strings.Contains(got[0].Reason, "wormhole:ts=3,plen=16,msgs=5") {
		t.Errorf("ambiguous comm: %+v", got[0])
	}
}
