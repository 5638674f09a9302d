package catalog

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

var flat128 = policy.Machine{Kind: policy.Flat, Procs: 128}

func TestNamesAreTheContract(t *testing.T) {
	builtinOnly(t)
	var got []string
	for _, s := range Allocators() {
		got = append(got, s.Name)
	}
	if g := strings.Join(got, " "); !strings.HasPrefix(g, "count contig") {
		t.Errorf("allocators %s", g)
	}
	got = got[:0]
	for _, s := range Schedulers() {
		got = append(got, s.Name)
	}
	want := "fcfs sjf smallest largest ssd if sa mq scan static lazy prio-res pcw easy conservative depth eq alpha lrwf mrwf wk we wf ext"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("schedulers %q, want %q", g, want)
	}
}

func TestPairs(t *testing.T) {
	builtinOnly(t)
	all, err := Pairs(flat128, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2*12 || all[0].Alloc != "count" || all[0].Sched != "fcfs" || all[23].Alloc != "contig" || all[23].Sched != "conservative" {
		t.Errorf("%d pairs, first %v last %v", len(all), all[0], all[len(all)-1])
	}
	ps, err := Pairs(flat128, []string{"contig"}, []string{"mq:q=32,order=down", "easy", "mq:order=down,q=32"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Sched != "mq:order=down,q=32" || ps[1].Sched != "easy" {
		t.Fatalf("pairs %+v", ps)
	}
	a, err := ps[0].NewAllocator(flat128)
	if err != nil || a.Size() != 128 {
		t.Fatalf("allocator %v %v", a, err)
	}
	s1, _ := ps[1].NewScheduler(flat128)
	s2, _ := ps[1].NewScheduler(flat128)
	if s1 == s2 {
		t.Errorf("NewScheduler returned the same instance twice")
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		allocs, scheds []string
		want           string
	}{
		{[]string{"best"}, nil, `unknown allocator "best" (known: count, contig`},
		{nil, []string{"lifo"}, `unknown scheduler "lifo" (known: fcfs,`},
		{nil, []string{"easy:depth=2"}, `unknown parameter "depth"`},
		{[]string{"count:x=1"}, nil, `unknown parameter "x"`},
		{nil, []string{"mq:q=x"}, `mq`},
		{nil, []string{"mq:q"}, `not key=value`},
	} {
		_, err := Pairs(flat128, c.allocs, c.scheds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Pairs(%v, %v): err %v, want %q", c.allocs, c.scheds, err, c.want)
		}
	}
	if _, err := Pairs(policy.Machine{Kind: policy.Cube, Procs: 16, Dim: 4}, []string{"count"}, nil); err == nil {
		t.Errorf("cube machine: no error for a flat allocator")
	}
	// 2dbs is offered on square power-of-two meshes only.
	mesh32x16 := policy.Machine{Kind: policy.Mesh, Procs: 512, Width: 32, Height: 16}
	if _, err := Pairs(mesh32x16, []string{"2dbs"}, nil); err == nil || !strings.Contains(err.Error(), "not offered on machine mesh:32x16") {
		t.Errorf("2dbs on mesh:32x16: %v", err)
	}
	for _, m := range []policy.Machine{mesh32x16, {Kind: policy.Mesh, Procs: 1024, Width: 32, Height: 32}} {
		pairs, err := Pairs(m, nil, []string{"fcfs"})
		if err != nil {
			t.Fatal(err)
		}
		has := false
		for _, p := range pairs {
			has = has || p.Alloc == "2dbs"
		}
		if has != (m.Width == m.Height) {
			t.Errorf("%s: 2dbs among the default pairs: %v", m, has)
		}
	}
}

func TestList(t *testing.T) {
	l := List()
	// Every machine kind has allocators, so every one is listed.
	if len(l) != len(policy.Families())+len(Allocators())+len(Schedulers()) {
		t.Errorf("%d lines", len(l))
	}
	joined := strings.Join(l, "\n")
	for _, w := range []string{"machine    flat:N", "machine    mesh:WxH", "machine    cube:n", "allocator  buddy", "allocator  count", "allocator  bdi", "scheduler  easy", "wtl=", "machine    malleable:P", "scheduler  wf             [malleable]"} {
		if !strings.Contains(joined, w) {
			t.Errorf("list lacks %q:\n%s", w, joined)
		}
	}
}

// The default pairs on a hypercube are every cube allocator offered on it
// times every scheduler that supports cubes; allocators of other kinds
// are left out.
func TestCubePairs(t *testing.T) {
	m := policy.Machine{Kind: policy.Cube, Dim: 7, Procs: 128}
	ps, err := Pairs(m, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var allocs, scheds []string
	for _, a := range Allocators() {
		if policy.Supports(a.Kinds, policy.Cube) {
			allocs = append(allocs, a.Name)
		}
	}
	for _, s := range Schedulers() {
		if policy.Supports(s.Kinds, policy.Cube) && !s.Named {
			scheds = append(scheds, s.Name)
		}
	}
	if len(allocs) < 6 || len(ps) != len(allocs)*len(scheds) {
		t.Fatalf("%d pairs for %d cube allocators × %d schedulers", len(ps), len(allocs), len(scheds))
	}
	for i, p := range ps {
		if p.Alloc != allocs[i/len(scheds)] || p.Sched != scheds[i%len(scheds)] {
			t.Errorf("pair %d = %s/%s", i, p.Alloc, p.Sched)
		}
	}
	// multigray is not offered above cube:12.
	big := policy.Machine{Kind: policy.Cube, Dim: 13, Procs: 1 << 13}
	if _, err := Pairs(big, []string{"multigray"}, []string{"fcfs"}); err == nil {
		t.Error("multigray offered on cube:13")
	}
}

// ext runs only when named: no default pair on any machine starts a
// process, and a named ext spec keeps its quoted command whole.
func TestExtOnlyWhenNamed(t *testing.T) {
	for _, m := range []string{"flat:128", "mesh:32x32", "cube:7", "malleable:100"} {
		pm, err := policy.ParseMachine(m)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := Pairs(pm, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if strings.HasPrefix(p.Sched, "ext") {
				t.Fatalf("%s: default pair %s/%s", m, p.Alloc, p.Sched)
			}
		}
	}
	ps, err := Pairs(flat128, []string{"count"}, []string{"ext:timeout=5,cmd='python3 my sched.py --a=1,2'"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "ext:cmd='python3 my sched.py --a=1,2',timeout=5"; len(ps) != 1 || ps[0].Sched != want {
		t.Fatalf("pairs %v, want one with scheduler %s", ps, want)
	}
	if _, err := Pairs(flat128, []string{"count"}, []string{"ext"}); err == nil || !strings.Contains(err.Error(), "parameter cmd is required") {
		t.Fatalf("ext without cmd: %v", err)
	}
}
