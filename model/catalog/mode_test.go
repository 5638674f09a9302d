package catalog

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

var malleable128 = policy.Machine{Kind: "malleable", Procs: 128}

// TestMalleableMachines: the malleable policies are offered only on
// malleable machines, with the share allocator, and the rigid ones never
// there.
func TestMalleableMachines(t *testing.T) {
	all, err := Pairs(malleable128, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range all {
		if p.Alloc != "share" {
			t.Errorf("malleable pair %s/%s: alloc is not share", p.Alloc, p.Sched)
		}
		names = append(names, p.Sched)
	}
	if g := strings.Join(names, " "); g != "eq alpha lrwf mrwf wk we wf" {
		t.Errorf("malleable schedulers %q", g)
	}
	rigid, err := Pairs(flat128, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rigid {
		if p.Alloc == "share" || p.Sched == "eq" || p.Sched == "lrwf" {
			t.Errorf("malleable policy among the rigid pairs: %s/%s", p.Alloc, p.Sched)
		}
	}
	for _, c := range []struct {
		m              policy.Machine
		allocs, scheds []string
		want           string
	}{
		{flat128, nil, []string{"eq"}, `scheduler eq does not support machine flat:128 (kinds: malleable)`},
		{malleable128, nil, []string{"fcfs"}, `scheduler fcfs does not support machine malleable:128`},
		{malleable128, []string{"count"}, nil, `allocator count does not support machine malleable:128 (kinds: flat)`},
		{malleable128, nil, []string{"alpha:x=size"}, `parameter x="size": want one of work, acc, time, beta`},
		{malleable128, nil, []string{"alpha:a=-inf"}, `want a finite α`},
		{malleable128, nil, []string{"eq:cap=maybe"}, `parameter cap="maybe"`},
	} {
		_, err := Pairs(c.m, c.allocs, c.scheds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v %v: %v, want %q", c.m, c.allocs, c.scheds, err, c.want)
		}
	}
	ps, err := Pairs(malleable128, []string{"share"}, []string{"alpha:x=acc,a=-1", "wf:cap=false"})
	if err != nil || len(ps) != 2 || ps[0].Sched != "alpha:a=-1,x=acc" || ps[1].Sched != "wf:cap=false" {
		t.Fatalf("%v %v", ps, err)
	}
}

// The malleable mode is an alias: flat:P in mode malleable is
// malleable:P, recorded as flat:P in mode malleable; other kinds are
// refused, naming the kind the mode needs.
func TestMalleableMode(t *testing.T) {
	m, err := policy.InMode(flat128, "malleable")
	if err != nil || m != malleable128 {
		t.Fatalf("flat:128 in mode malleable: %v, %v", m, err)
	}
	if m, err := policy.ParseMachine("malleable:128"); err != nil || m != malleable128 {
		t.Fatalf("malleable:128: %v, %v", m, err)
	}
	if rec, mode := policy.Recorded(malleable128); rec != "flat:128" || mode != "malleable" {
		t.Errorf("recorded as %q in mode %q", rec, mode)
	}
	if rec, mode := policy.Recorded(flat128); rec != "flat:128" || mode != "" {
		t.Errorf("flat:128 recorded as %q in mode %q", rec, mode)
	}
	if m, err := policy.FromRecord("flat:128", "malleable"); err != nil || m != malleable128 {
		t.Errorf("from the record: %v, %v", m, err)
	}
	for _, rigid := range []string{"", "rigid"} {
		if m, err := policy.InMode(flat128, rigid); err != nil || m != flat128 {
			t.Errorf("mode %q: %v, %v", rigid, m, err)
		}
	}
	cube5, _ := policy.ParseMachine("cube:5")
	if _, err := policy.InMode(cube5, "malleable"); err == nil || !strings.Contains(err.Error(), "flat machines only") {
		t.Errorf("malleable on cube:5: %v", err)
	}
	if err := policy.CheckMode("elastic"); err == nil || err.Error() != `mode "elastic": want rigid or malleable` {
		t.Errorf("mode elastic: %v", err)
	}
}
