package catalog

import (
	"fmt"
	"sync"

	"github.com/schedlab/schedlab/model/policy"
)

// The policies registered from outside the catalog (RegisterAllocator,
// RegisterScheduler), in registration order.
var (
	regMu       sync.RWMutex
	extraAllocs []policy.AllocatorSpec
	extraScheds []policy.SchedulerSpec
)

// RegisterAllocator adds an allocator to the catalog, after the built-in
// ones: it is then listed by `replay list`, named in --alloc, plans and
// sweeps, and part of the default pairs of the machines its Kinds support,
// exactly like a built-in allocator. Call it from an init function of the
// package that defines the allocator. It panics when the spec has no name
// or no constructor, or when its name is already taken.
func RegisterAllocator(s policy.AllocatorSpec) {
	if s.Name == "" || s.New == nil {
		panic("catalog: RegisterAllocator: an allocator needs a name and a constructor (New)")
	}
	if _, err := Allocator(s.Name); err == nil {
		panic(fmt.Sprintf("catalog: RegisterAllocator: allocator %q registered twice", s.Name))
	}
	regMu.Lock()
	defer regMu.Unlock()
	extraAllocs = append(extraAllocs, s)
}

// RegisterScheduler adds a scheduler to the catalog, after the built-in
// ones, with the same effects and rules as RegisterAllocator.
func RegisterScheduler(s policy.SchedulerSpec) {
	if s.Name == "" || s.New == nil {
		panic("catalog: RegisterScheduler: a scheduler needs a name and a constructor (New)")
	}
	if _, err := Scheduler(s.Name); err == nil {
		panic(fmt.Sprintf("catalog: RegisterScheduler: scheduler %q registered twice", s.Name))
	}
	regMu.Lock()
	defer regMu.Unlock()
	extraScheds = append(extraScheds, s)
}

// registered returns copies of the registered lists.
func registered() ([]policy.AllocatorSpec, []policy.SchedulerSpec) {
	regMu.RLock()
	defer regMu.RUnlock()
	return append([]policy.AllocatorSpec(nil), extraAllocs...), append([]policy.SchedulerSpec(nil), extraScheds...)
}
