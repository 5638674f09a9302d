package malleable

import (
	"fmt"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/model/policy"
)

// AllocatorName is the allocator of every malleable pair: the alloc
// column of a malleable run's results reads "share".
const AllocatorName = "share"

// Allocators returns the malleable family's one allocator.
func Allocators() []policy.AllocatorSpec {
	return []policy.AllocatorSpec{{
		Name:  AllocatorName,
		Doc:   "malleable mode: an active-list slot (at most P) holding a fractional share of the machine that the scheduler sets (Guha 1995 §3.4, §4.3)",
		Kinds: []string{Kind},
		New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
			if err := p.Check(); err != nil {
				return nil, err
			}
			return NewAllocator(m), nil
		},
	}}
}

// The Generalized Allocation policy's defaults (alpha with no
// parameters): X = remaining work, α = −10, the thesis's LRWF proxy.
const (
	DefaultX     = XWork
	DefaultAlpha = -10.0
)

// defaultAlphaText is DefaultAlpha as `replay list` shows it.
var defaultAlphaText = strconv.FormatFloat(DefaultAlpha, 'g', -1, 64)

var capParam = policy.Param{Name: "cap", Default: "true", Doc: "bound p_i by the job's N_i (max_parallelism; Guha 1995 §7.5); false ignores N_i"}

// Schedulers returns the malleable policies, in the order `replay list`
// shows them.
func Schedulers() []policy.SchedulerSpec {
	return []policy.SchedulerSpec{
		spec("eq", "Equipartition: p_i = P/n, water-filling under caps N_i (Guha 1995 §4.2, §7.5)", nil,
			func(p policy.Params) (rule, needs, error) { return eq{}, needs{}, nil }),
		spec("alpha", "Generalized Allocation: p_i = P·X_i^α/ΣX_j^α, X = remaining work, Acc, Time or β (Brecht; Guha 1995 §4.3, §5, §6)",
			[]policy.Param{
				{Name: "x", Default: DefaultX, Doc: "X_i: work (remaining), acc (processor-time received), time (since arrival) or beta (β_i, the knee)"},
				{Name: "a", Default: defaultAlphaText, Doc: "α, any finite real (0: Equipartition; −10: the thesis's LRWF proxy)"},
			},
			func(p policy.Params) (rule, needs, error) {
				x, err := p.Choice("x", DefaultX, XWork, XAcc, XTime, XBeta)
				if err != nil {
					return nil, needs{}, err
				}
				a, err := p.Float("a", DefaultAlpha)
				if err != nil {
					return nil, needs{}, err
				}
				if math.IsInf(a, 0) {
					return nil, needs{}, fmt.Errorf("parameter a=%g: want a finite α (lrwf and mrwf are the limits α → ∓∞ with x=work)", a)
				}
				return alpha{x: x, a: a}, needs{work: x == XWork, acc: x == XAcc}, nil
			}),
		spec("lrwf", "Least Remaining Work First, exact: all P to the job with the least remaining work (Brecht; Guha 1995 §2.6.2, §5.2)", nil,
			func(p policy.Params) (rule, needs, error) { return lrwf{}, needs{work: true}, nil }),
		spec("mrwf", "Most Remaining Work First: all P to the job with the most remaining work (Guha 1995 §4.3, α → +∞)", nil,
			func(p policy.Params) (rule, needs, error) { return lrwf{desc: true}, needs{work: true}, nil }),
		spec(FKnee, "W&k_i: by increasing remaining work, f_i = min(β_i, P), the rest shared equally (Guha 1995 §4.4, §7.2)", nil,
			func(p policy.Params) (rule, needs, error) { return workEff{FKnee}, needs{work: true}, nil }),
		spec(FEff, "W&ε_i: by increasing remaining work, f_i = ε_i·P/100, the rest shared equally (Guha 1995 §4.4, §7.3)", nil,
			func(p policy.Params) (rule, needs, error) { return workEff{FEff}, needs{work: true}, nil }),
		spec(FF, "W&F(ε_i): by increasing remaining work, f_i = F(ε_i)·P/100 (piecewise linear), the rest shared equally (Guha 1995 §4.4, §7.4)", nil,
			func(p policy.Params) (rule, needs, error) { return workEff{FF}, needs{work: true}, nil }),
	}
}

// spec makes the registry entry of a policy: its own parameters plus cap.
func spec(name, doc string, params []policy.Param, make func(policy.Params) (rule, needs, error)) policy.SchedulerSpec {
	known := []string{"cap"}
	for _, p := range params {
		known = append(known, p.Name)
	}
	return policy.SchedulerSpec{
		Name: name, Doc: doc, Kinds: []string{Kind}, Params: append(params, capParam),
		New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
			s, err := build(m, p, make, known)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return s, nil
		},
	}
}

// build makes a malleable scheduler from a rule constructor.
func build(m policy.Machine, p policy.Params, make func(policy.Params) (rule, needs, error), known []string) (*Scheduler, error) {
	if err := p.Check(known...); err != nil {
		return nil, err
	}
	if m.Kind != Kind {
		return nil, fmt.Errorf("machine %s: the malleable policies run on malleable machines (malleable:P)", m)
	}
	capOn, err := p.Choice("cap", "true", "true", "false")
	if err != nil {
		return nil, err
	}
	r, nd, err := make(p)
	if err != nil {
		return nil, err
	}
	return newScheduler(m, r, nd, capOn == "true"), nil
}
