package catalog

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// TestModes: the malleable policies are offered only in malleable mode,
// with the share allocator, and the rigid ones only in rigid mode.
func TestModes(t *testing.T) {
	m := flat128
	all, err := PairsIn(ModeMalleable, m, nil, nil)
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
	rigid, err := PairsIn("", m, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rigid {
		if p.Alloc == "share" || p.Sched == "eq" || p.Sched == "lrwf" {
			t.Errorf("malleable policy among the rigid pairs: %s/%s", p.Alloc, p.Sched)
		}
	}
	for _, c := range []struct {
		mode           string
		allocs, scheds []string
		want           string
	}{
		{ModeRigid, nil, []string{"eq"}, `unknown scheduler "eq"`},
		{ModeMalleable, nil, []string{"fcfs"}, `unknown malleable-mode scheduler "fcfs" (known: eq, alpha, lrwf, mrwf, wk, we, wf)`},
		{ModeMalleable, []string{"count"}, nil, `unknown malleable-mode allocator "count" (known: share)`},
		{ModeMalleable, nil, []string{"alpha:x=size"}, `parameter x="size": want one of work, acc, time, beta`},
		{ModeMalleable, nil, []string{"alpha:a=-inf"}, `want a finite α`},
		{ModeMalleable, nil, []string{"eq:cap=maybe"}, `parameter cap="maybe"`},
		{"elastic", nil, nil, `mode "elastic": want rigid or malleable`},
	} {
		_, err := PairsIn(c.mode, m, c.allocs, c.scheds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v %v: %v, want %q", c.mode, c.allocs, c.scheds, err, c.want)
		}
	}
	ps, err := PairsIn(ModeMalleable, m, []string{"share"}, []string{"alpha:x=acc,a=-1", "wf:cap=false"})
	if err != nil || len(ps) != 2 || ps[0].Sched != "alpha:a=-1,x=acc" || ps[1].Sched != "wf:cap=false" {
		t.Fatalf("%v %v", ps, err)
	}
	if _, err := PairsIn(ModeMalleable, policy.Machine{Kind: policy.Mesh, Procs: 64, Width: 8, Height: 8}, nil, nil); err == nil {
		t.Error("malleable mode accepted a mesh")
	}
}

// Malleable mode names the machine kind it needs.
func TestMalleableNeedsFlat(t *testing.T) {
	m, _ := policy.ParseMachine("cube:5")
	if _, err := PairsIn(ModeMalleable, m, nil, nil); err == nil || !strings.Contains(err.Error(), "flat machines only") {
		t.Errorf("malleable on cube:5: %v", err)
	}
}
