// Package catalog is schedlab's name → constructor registry: it gathers the
// allocators and schedulers of every machine family (policy.Families:
// model/flat, model/mesh, model/cube, model/malleable) and of the
// scheduling families (model/sched, model/backfill), and turns the
// command line's policy specs ("mq:q=32,order=down") into (allocator,
// scheduler) pairs that can build fresh instances for each run.
//
// Policies defined outside this repository join the catalog with
// RegisterAllocator and RegisterScheduler, from their package's init.
//
// Canonical names: a policy is written name, or name:key=value,... with the
// parameters in key order ("mq:order=down,q=32"). The canonical name is
// what results files record in their alloc and sched columns.
package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/model/backfill"
	"github.com/schedlab/schedlab/model/ext"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"

	// The machine families, registered (policy.RegisterFamily) with
	// their allocators and schedulers.
	_ "github.com/schedlab/schedlab/model/cube"
	_ "github.com/schedlab/schedlab/model/dragonfly"
	_ "github.com/schedlab/schedlab/model/fattree"
	_ "github.com/schedlab/schedlab/model/flat"
	_ "github.com/schedlab/schedlab/model/malleable"
	_ "github.com/schedlab/schedlab/model/mesh"
	_ "github.com/schedlab/schedlab/model/torus"
)

// Allocators returns every allocator, by machine family (in the
// families' listing order, policy.Families), then those registered with
// RegisterAllocator.
func Allocators() []policy.AllocatorSpec {
	var out []policy.AllocatorSpec
	for _, f := range policy.Families() {
		if f.Allocators != nil {
			out = append(out, f.Allocators()...)
		}
	}
	as, _ := registered()
	return append(out, as...)
}

// Schedulers returns every scheduler: the scheduling family, backfilling,
// then the schedulers of machine families that have their own (the
// malleable policies), the external scheduler (ext, run only when named),
// then those registered with RegisterScheduler.
func Schedulers() []policy.SchedulerSpec {
	out := append(sched.Schedulers(), backfill.Schedulers()...)
	for _, f := range policy.Families() {
		if f.Schedulers != nil {
			out = append(out, f.Schedulers()...)
		}
	}
	out = append(out, ext.Spec())
	_, ss := registered()
	return append(out, ss...)
}

// Allocator returns the allocator named name.
func Allocator(name string) (policy.AllocatorSpec, error) {
	return find(allocators, name)
}

// Scheduler returns the scheduler named name.
func Scheduler(name string) (policy.SchedulerSpec, error) {
	return find(schedulers, name)
}

// Canonical returns the canonical spelling of a policy: name, or
// name:k=v,... in key order.
func Canonical(name string, p policy.Params) string {
	if len(p) == 0 {
		return name
	}
	return name + ":" + p.String()
}

// Pair is one (allocator, scheduler) combination, able to build fresh
// instances for each run.
type Pair struct {
	Alloc string // canonical allocator spec
	Sched string // canonical scheduler spec

	alloc       policy.AllocatorSpec
	allocParams policy.Params
	sched       policy.SchedulerSpec
	schedParams policy.Params
}

// NewPair makes a pair from specs that need not be in the registry: a
// policy under development can be run through the experiment runner without
// a registry line. The names recorded in results are the specs' names with
// their parameters, as for registered policies.
func NewPair(alloc policy.AllocatorSpec, allocParams policy.Params, sched policy.SchedulerSpec, schedParams policy.Params) Pair {
	return Pair{
		Alloc: Canonical(alloc.Name, allocParams), Sched: Canonical(sched.Name, schedParams),
		alloc: alloc, allocParams: allocParams, sched: sched, schedParams: schedParams,
	}
}

// NewAllocator builds a fresh allocator for machine m.
func (p Pair) NewAllocator(m policy.Machine) (policy.Allocator, error) {
	a, err := p.alloc.New(m, p.allocParams)
	if err != nil {
		return nil, fmt.Errorf("allocator %s: %w", p.Alloc, err)
	}
	return a, nil
}

// NewScheduler builds a fresh scheduler for machine m.
func (p Pair) NewScheduler(m policy.Machine) (policy.Scheduler, error) {
	s, err := p.sched.New(m, p.schedParams)
	if err != nil {
		return nil, fmt.Errorf("scheduler %s: %w", p.Sched, err)
	}
	return s, nil
}

// registry is what Pairs and the lookups need of one kind of policy
// (allocators or schedulers), whose specs are of type S.
type registry[S any] struct {
	what string     // "allocator" or "scheduler"
	all  func() []S // every spec, in the catalog's order
	info func(S) (name string, kinds []string)
	try  func(S, policy.Machine, policy.Params) error // build one, to check the parameters
	// offered says whether a policy of m's kind is offered on m (nil: yes).
	offered func(S, policy.Machine) error
	// named says a policy runs only when named, never by default (nil: none).
	named func(S) bool
}

var allocators = registry[policy.AllocatorSpec]{
	what: "allocator",
	all:  Allocators,
	info: func(s policy.AllocatorSpec) (string, []string) { return s.Name, s.Kinds },
	try: func(s policy.AllocatorSpec, m policy.Machine, p policy.Params) error {
		_, err := s.New(m, p)
		return err
	},
	offered: func(s policy.AllocatorSpec, m policy.Machine) error {
		if s.Machines == nil {
			return nil
		}
		return s.Machines(m)
	},
}

var schedulers = registry[policy.SchedulerSpec]{
	what: "scheduler",
	all:  Schedulers,
	info: func(s policy.SchedulerSpec) (string, []string) { return s.Name, s.Kinds },
	try: func(s policy.SchedulerSpec, m policy.Machine, p policy.Params) error {
		_, err := s.New(m, p)
		return err
	},
	named: func(s policy.SchedulerSpec) bool { return s.Named },
}

// find returns the spec named name.
func find[S any](r registry[S], name string) (S, error) {
	var names []string
	for _, s := range r.all() {
		n, _ := r.info(s)
		if n == name {
			return s, nil
		}
		names = append(names, n)
	}
	var zero S
	return zero, fmt.Errorf("unknown %s %q (known: %s)", r.what, name, strings.Join(names, ", "))
}

// choice is one policy chosen for Pairs: its canonical spec, its registry
// entry and its parameters.
type choice[S any] struct {
	canon string
	spec  S
	p     policy.Params
}

// choose resolves the spec strings of one kind of policy for machine m (see
// Pairs); nil chooses every one that supports m's kind, with default
// parameters.
func choose[S any](r registry[S], m policy.Machine, strs []string) ([]choice[S], error) {
	var cs []choice[S]
	if strs == nil {
		for _, s := range r.all() {
			if name, kinds := r.info(s); policy.Fits(kinds, m.Kind) && (r.offered == nil || r.offered(s, m) == nil) && (r.named == nil || !r.named(s)) {
				cs = append(cs, choice[S]{name, s, policy.Params{}})
			}
		}
	}
	seen := map[string]bool{}
	for _, str := range strs {
		name, p, err := policy.ParseSpec(str)
		if err != nil {
			return nil, err
		}
		s, err := find(r, name)
		if err != nil {
			return nil, err
		}
		if _, kinds := r.info(s); !policy.Fits(kinds, m.Kind) {
			return nil, fmt.Errorf("%s %s does not support machine %s (kinds: %s)", r.what, name, m, strings.Join(kinds, ", "))
		}
		if r.offered != nil {
			if err := r.offered(s, m); err != nil {
				return nil, fmt.Errorf("%s %s is not offered on machine %s: %w", r.what, name, m, err)
			}
		}
		canon := Canonical(name, p)
		if seen[canon] {
			continue
		}
		seen[canon] = true
		if err := r.try(s, m, p); err != nil {
			return nil, fmt.Errorf("%s %s: %w", r.what, str, err)
		}
		cs = append(cs, choice[S]{canon, s, p})
	}
	return cs, nil
}

// Pairs returns every (allocator, scheduler) pair for machine m, allocators
// outer, schedulers inner, each in the order given (or the catalog's order
// when nil, keeping those that support m's kind with default parameters).
// Each arg is a spec string such as "mq:q=32,order=down". A named policy
// that does not support m, an unknown name or an unknown or invalid
// parameter is an error. Duplicate specs (same canonical name) count once.
func Pairs(m policy.Machine, allocs, scheds []string) ([]Pair, error) {
	as, err := choose(allocators, m, allocs)
	if err != nil {
		return nil, err
	}
	ss, err := choose(schedulers, m, scheds)
	if err != nil {
		return nil, err
	}
	if len(as) == 0 {
		return nil, fmt.Errorf("no allocator supports machine %s", m)
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("no scheduler supports machine %s", m)
	}
	pairs := make([]Pair, 0, len(as)*len(ss))
	for _, a := range as {
		for _, s := range ss {
			pairs = append(pairs, Pair{Alloc: a.canon, Sched: s.canon, alloc: a.spec, allocParams: a.p, sched: s.spec, schedParams: s.p})
		}
	}
	return pairs, nil
}

// List writes one line per machine kind, allocator and scheduler, with
// parameters, defaults and supported machine kinds (for `replay list`).
func List() []string {
	var out []string
	for _, f := range policy.Families() {
		// A machine kind with no allocator cannot run anything.
		has := false
		for _, a := range Allocators() {
			has = has || policy.Supports(a.Kinds, f.Kind)
		}
		if has {
			out = append(out, fmt.Sprintf("machine    %-14s %s", f.Syntax, f.Doc))
		}
	}
	kinds := func(k []string) string {
		if len(k) == 0 {
			return "any"
		}
		k = append([]string(nil), k...)
		sort.Strings(k)
		return strings.Join(k, ",")
	}
	params := func(ps []policy.Param) string {
		if len(ps) == 0 {
			return ""
		}
		var b []string
		for _, p := range ps {
			b = append(b, fmt.Sprintf("%s=%s (%s)", p.Name, p.Default, p.Doc))
		}
		return "; params: " + strings.Join(b, "; ")
	}
	for _, s := range Allocators() {
		out = append(out, fmt.Sprintf("allocator  %-14s [%s] %s%s", s.Name, kinds(s.Kinds), s.Doc, params(s.Params)))
	}
	for _, s := range Schedulers() {
		out = append(out, fmt.Sprintf("scheduler  %-14s [%s] %s%s", s.Name, kinds(s.Kinds), s.Doc, params(s.Params)))
	}
	return out
}
