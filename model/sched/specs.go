package sched

import (
	"fmt"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/model/policy"
)

// Schedulers returns the registry entries of the scheduling family, in the
// order `replay list` shows them. Every one works on any machine kind except
// mq with by=larger or by=smaller (meshes only), static and lazy (hypercube
// schemes: cubes only) and prio-res (flat machines and meshes).
func Schedulers() []policy.SchedulerSpec {
	orderP := func(def string) policy.Param {
		return policy.Param{Name: "order", Default: def, Doc: "up: ScanUp (small sizes first); down: ScanDown (large sizes first)"}
	}
	return []policy.SchedulerSpec{
		{
			Name: "fcfs",
			Doc:  "strict first-come first-served, head-of-line blocking (Chu 1995 Ch. 1, 5; Mohapatra, Yu & Das, \"A Lazy Scheduling Scheme for Hypercube Computers\", 1995, §1, §2.3)",
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check(); err != nil {
					return nil, fmt.Errorf("fcfs: %w", err)
				}
				return NewFCFS(), nil
			},
		},
		orderedSpec("sjf", "shortest job (runtime estimate) first, one ordered queue (Chu 1995 §6.1)", keySJF),
		orderedSpec("smallest", "fewest processors first, one ordered queue (Chu 1995 §6.1)", keySmallest),
		orderedSpec("largest", "most processors first, one ordered queue (Chu 1995 §6.1)", keyLargest),
		orderedSpec("ssd", "smallest service demand (estimate × processors) first, one ordered queue (Chu 1995 §6.1)", keySSD),
		wtlSpec("if", "Immediate Fit: arrivals start at once if they fit, unless the head exceeded the WTL (Chu 1995 §5.1)",
			func(wtl float64, head bool) policy.Scheduler {
				return &ImmediateFit{fitQueue{wtl: wtl, fromHead: head}}
			}),
		wtlSpec("sa", "Scan All: Immediate Fit on arrival, scan the whole queue on completion (Chu 1995 §5.2)",
			func(wtl float64, head bool) policy.Scheduler { return &ScanAll{fitQueue{wtl: wtl, fromHead: head}} }),
		{
			Name: "mq",
			Doc:  "Multiple Queues: Q size classes, Scan All across queues in order (Chu 1995 §6.2, Fig. 6.1)",
			Params: []policy.Param{
				{Name: "q", Default: "mesh: larger side; else min(32, N)", Doc: "number of queues"},
				orderP("down"),
				{Name: "by", Default: ByProcs, Doc: "classify by procs, or (meshes only) by the larger or smaller side"},
				wtlParam,
			},
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				s, err := newMQ(m, p)
				if err != nil {
					return nil, fmt.Errorf("mq: %w", err)
				}
				return s, nil
			},
		},
		{
			Name: "scan",
			Doc:  "Scan: one FCFS queue per size class ⌈log2 procs⌉, served C-SCAN (Krueger, Lai & Radiya, \"Job scheduling is more important than processor allocation for hypercube computers\", 1994, as described by Mohapatra, Yu & Das, \"A Lazy Scheduling Scheme for Hypercube Computers\", 1995, §2.3)",
			Params: []policy.Param{
				orderP("up"),
				{Name: "sf", Default: "false", Doc: "true: starvation-free ScanUpSF/ScanDownSF (arrivals to the queue in service wait for the next visit)"},
			},
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check("order", "sf"); err != nil {
					return nil, fmt.Errorf("scan: %w", err)
				}
				order, err := p.Choice("order", "up", "up", "down")
				if err != nil {
					return nil, fmt.Errorf("scan: %w", err)
				}
				sf, err := p.Choice("sf", "false", "false", "true")
				if err != nil {
					return nil, fmt.Errorf("scan: %w", err)
				}
				return NewScan(m.Procs, order == "down", sf == "true"), nil
			},
		},
		{
			Name:  "static",
			Doc:   "static partitioning: one (n−1)-cube, …, one 1-cube and two 0-cubes, an FCFS queue per dimension (Mohapatra, Yu & Das, \"A Lazy Scheduling Scheme for Hypercube Computers\", 1995, §3.1)",
			Kinds: []string{policy.Cube},
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check(); err != nil {
					return nil, fmt.Errorf("static: %w", err)
				}
				return NewStatic(m.Procs), nil
			},
		},
		{
			Name:  "lazy",
			Doc:   "lazy scheduling: a queue per dimension, threshold N_k = allocated k-cubes, a released k-cube handed to the head of Q_k, a maximum queueing delay (Mohapatra, Yu & Das, \"A Lazy Scheduling Scheme for Hypercube Computers\", 1995, §3.2)",
			Kinds: []string{policy.Cube},
			Params: []policy.Param{
				{Name: "wait", Default: "dynamic", Doc: "maximum queueing delay: dynamic (d_t²·λ), a number T, or inf (no starvation rule)"},
				{Name: "warmup", Default: "100", Doc: "wait=dynamic: jobs allocated before the rule applies (start-up guard)"},
				{Name: "retry", Default: "false", Doc: "true: after every release, retry the head of every queue with |Q_j| > N_j (an extension)"},
			},
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				s, err := newLazy(m, p)
				if err != nil {
					return nil, fmt.Errorf("lazy: %w", err)
				}
				return s, nil
			},
		},
		{
			Name: "prio-res",
			Doc:  "priority (starvation counter MAX_PRI) + reservation: a submesh on meshes (every candidate, fewest free processors, then fewest overlapped allocations), a processor count on flat machines (Das Sharma & Pradhan ICPP'94; Chu 1995 §2.5.4); on hypercubes a count of 2^k nodes",
			// Meshes reserve a submesh through policy.Reserver
			// (model/mesh/reserve.go); flat machines a count.
			Kinds: []string{policy.Flat, policy.Mesh, policy.Cube},
			Params: []policy.Param{
				{Name: "max_pri", Default: "inf", Doc: "later jobs started ahead of the waiting head before it gets top priority (integer ≥ 0, or inf)"},
				{Name: "reserve", Default: "true", Doc: "false: the priority technique alone"},
			},
			New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
				if err := p.Check("max_pri", "reserve"); err != nil {
					return nil, fmt.Errorf("prio-res: %w", err)
				}
				mp, err := p.Float("max_pri", math.Inf(1))
				if err == nil && (mp < 0 || !math.IsInf(mp, 1) && mp != math.Trunc(mp)) {
					err = fmt.Errorf("parameter max_pri=%q: want an integer ≥ 0 or inf", p["max_pri"])
				}
				if err != nil {
					return nil, fmt.Errorf("prio-res: %w", err)
				}
				res, err := p.Choice("reserve", "true", "true", "false")
				if err != nil {
					return nil, fmt.Errorf("prio-res: %w", err)
				}
				return NewPrioRes(mp, res == "true"), nil
			},
		},
		pcwSpec(),
	}
}

// newMQ parses mq's parameters.
func newMQ(m policy.Machine, p policy.Params) (*MultipleQueues, error) {
	if err := p.Check("q", "order", "by", "wtl"); err != nil {
		return nil, err
	}
	def := min(32, m.Procs)
	if policy.RequestOf(m.Kind) == policy.RequestRect { // jobs ask for w×h submeshes
		def = max(m.Width, m.Height)
	}
	q, err := p.Int("q", def)
	if err != nil {
		return nil, err
	}
	order, err := p.Choice("order", "down", "up", "down")
	if err != nil {
		return nil, err
	}
	by, err := p.Choice("by", ByProcs, ByProcs, ByLarger, BySmaller)
	if err != nil {
		return nil, err
	}
	wtl, err := parseWTL(p)
	if err != nil {
		return nil, err
	}
	if q < 1 {
		return nil, fmt.Errorf("parameter q=%s: must be ≥ 1", strconv.Itoa(q))
	}
	if q > m.Procs { // each queue is sized: more queues than processors is a typo
		return nil, fmt.Errorf("parameter q=%s: at most %d (the machine's processors)", strconv.Itoa(q), m.Procs)
	}
	return NewMultipleQueues(m, q, order == "down", by, wtl)
}

// newLazy parses lazy's parameters.
func newLazy(m policy.Machine, p policy.Params) (*Lazy, error) {
	if err := p.Check("wait", "warmup", "retry"); err != nil {
		return nil, err
	}
	dynamic := p["wait"] == "" || p["wait"] == "dynamic"
	wait := math.Inf(1)
	if !dynamic {
		w, err := p.Float("wait", math.Inf(1))
		if err != nil {
			return nil, err
		}
		if w < 0 {
			return nil, fmt.Errorf("parameter wait=%q: must be ≥ 0, inf or dynamic", p["wait"])
		}
		wait = w
	}
	warmup, err := p.Int("warmup", 100)
	if err != nil {
		return nil, err
	}
	if warmup < 0 {
		return nil, fmt.Errorf("parameter warmup=%d: must be ≥ 0", warmup)
	}
	retry, err := p.Choice("retry", "false", "false", "true")
	if err != nil {
		return nil, err
	}
	return NewLazy(m.Procs, wait, dynamic, warmup, retry == "true"), nil
}
