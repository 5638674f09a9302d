package catalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
)

// withRegistry runs f and then restores the registered lists, so that a
// test's registrations do not leak into the others.
func withRegistry(f func()) {
	regMu.RLock()
	as, ss := extraAllocs, extraScheds
	regMu.RUnlock()
	defer func() {
		regMu.Lock()
		extraAllocs, extraScheds = as, ss
		regMu.Unlock()
	}()
	f()
}

// builtinOnly hides the policies registered from outside (the examples')
// for the rest of test t.
func builtinOnly(t *testing.T) {
	regMu.Lock()
	as, ss := extraAllocs, extraScheds
	extraAllocs, extraScheds = nil, nil
	regMu.Unlock()
	t.Cleanup(func() {
		regMu.Lock()
		extraAllocs, extraScheds = as, ss
		regMu.Unlock()
	})
}

// panics returns the message f panics with ("" if none).
func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestRegister: a registered allocator and scheduler are listed after the
// built-in ones, found by name, chosen with parameters and part of the
// default pairs; a taken name or an incomplete spec panics.
func TestRegister(t *testing.T) {
	withRegistry(func() {
		RegisterScheduler(policy.SchedulerSpec{
			Name: "my-fcfs", Doc: "test scheduler", Params: []policy.Param{{Name: "x", Default: "1", Doc: "unused"}},
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check("x"); err != nil {
					return nil, err
				}
				return sched.NewFCFS(), nil
			},
		})
		a, err := Allocator("count")
		if err != nil {
			t.Fatal(err)
		}
		a.Name, a.Doc = "my-count", "test allocator"
		RegisterAllocator(a)

		ss := Schedulers()
		if last := ss[len(ss)-1].Name; last != "my-fcfs" {
			t.Errorf("last scheduler %q, want my-fcfs", last)
		}
		as := Allocators()
		if last := as[len(as)-1].Name; last != "my-count" {
			t.Errorf("last allocator %q, want my-count", last)
		}
		list := strings.Join(List(), "\n")
		for _, want := range []string{"scheduler  my-fcfs        [any] test scheduler; params: x=1 (unused)", "allocator  my-count       [flat] test allocator"} {
			if !strings.Contains(list, want) {
				t.Errorf("List lacks %q:\n%s", want, list)
			}
		}
		ps, err := Pairs(flat128, []string{"my-count"}, []string{"my-fcfs:x=2"})
		if err != nil || len(ps) != 1 || ps[0].Alloc != "my-count" || ps[0].Sched != "my-fcfs:x=2" {
			t.Fatalf("pairs %+v, %v", ps, err)
		}
		if _, err := Pairs(flat128, nil, []string{"my-fcfs:y=2"}); err == nil || !strings.Contains(err.Error(), "scheduler my-fcfs:y=2") {
			t.Errorf("bad parameter: %v", err)
		}
		all, err := Pairs(flat128, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if last := all[len(all)-1]; last.Alloc != "my-count" || last.Sched != "my-fcfs" {
			t.Errorf("last default pair %s/%s, want my-count/my-fcfs", last.Alloc, last.Sched)
		}

		for _, c := range []struct {
			f    func()
			want string
		}{
			{func() { RegisterScheduler(ss[0]) }, `catalog: RegisterScheduler: scheduler "fcfs" registered twice`},
			{func() { RegisterScheduler(ss[len(ss)-1]) }, `catalog: RegisterScheduler: scheduler "my-fcfs" registered twice`},
			{func() { RegisterAllocator(as[0]) }, `catalog: RegisterAllocator: allocator "count" registered twice`},
			{func() { RegisterScheduler(policy.SchedulerSpec{Name: "x"}) }, "catalog: RegisterScheduler: a scheduler needs a name and a constructor (New)"},
			{func() { RegisterAllocator(policy.AllocatorSpec{New: a.New}) }, "catalog: RegisterAllocator: an allocator needs a name and a constructor (New)"},
		} {
			if got := panics(c.f); got != c.want {
				t.Errorf("panic %q, want %q", got, c.want)
			}
		}
	})
	if _, err := Scheduler("my-fcfs"); err == nil {
		t.Errorf("withRegistry did not restore the registry")
	}
}

// Every allocator and scheduler name is unique across the catalog: the
// families' lists do not pass through RegisterAllocator's check, and a
// second spec of one name would be unreachable (names resolve to the
// first).
func TestNamesUnique(t *testing.T) {
	seen := map[string]string{}
	for _, a := range Allocators() {
		if k, dup := seen["alloc "+a.Name]; dup {
			t.Errorf("allocator %q listed twice (kinds %s and %v)", a.Name, k, a.Kinds)
		}
		seen["alloc "+a.Name] = fmt.Sprint(a.Kinds)
	}
	for _, s := range Schedulers() {
		if _, dup := seen["sched "+s.Name]; dup {
			t.Errorf("scheduler %q listed twice", s.Name)
		}
		seen["sched "+s.Name] = ""
	}
}
