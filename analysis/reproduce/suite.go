// Package reproduce checks the toolkit against published results: a suite
// (traces/suites/NAME.toml) is a sweep plan (model/sweep) plus
// expectations, each naming its source (a paper's table or figure, or
// exact queueing theory), the published value or claim, the summary metric,
// the cells it compares and a tolerance rule. Evaluate turns the summary
// rows of the plan's run into one verdict per expectation (agrees,
// disagrees, not comparable, with the reason), and the table and PDF
// writers of this package present them.
//
// The expectation kinds are a registry (see Kinds): "value" compares one
// cell's metric with a number, "ratio" the ratio of two cells' metrics,
// "ranking" the order of several cells on a metric. A new kind (a crossover
// load, say) is one more implementation of the kind interface and one line
// in the registry.
package reproduce

import (
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/model/network"
	"github.com/schedlab/schedlab/model/schema"
)

// Suite is the part of a suite file that is not the sweep plan: the
// expectations, the default tolerance, and the sizes of the quick and full
// runs. It is decoded from the same TOML document as the plan (the ext
// argument of sweep.Decode).
type Suite struct {
	Expect    []Expect   `toml:"expect"`    // [[expect]]: the claims, in table order
	Tolerance *Tolerance `toml:"tolerance"` // default tolerance of every claim in both modes
	Quick     Sizes      `toml:"quick"`     // [quick]: the CI-sized run (the default)
	Full      Sizes      `toml:"full"`      // [full]: the paper-sized run
	// Level is the confidence level of ours' intervals and of the ci
	// rule (0: 0.95); a paper's own level, such as Guha 1995's 90%.
	Level float64 `toml:"level"`
}

// ConfidenceLevel returns the suite's confidence level (Level, 0.95 when
// not given).
func (s *Suite) ConfidenceLevel() float64 {
	if s.Level == 0 {
		return 0.95
	}
	return s.Level
}

// Sizes overrides the plan's sizes for one mode (quick or full): zero
// fields leave the plan's values alone. They are applied to the plan
// before it is expanded into cells.
type Sizes struct {
	Jobs      int                      `toml:"jobs"`      // jobs per trace, every workload
	Reps      int                      `toml:"reps"`      // replications, every workload
	Warmup    int                      `toml:"warmup"`    // the replay's warm-up (jobs left out of the statistics)
	Until     float64                  `toml:"until"`     // the observation window [0, until]: every generated workload's horizon, and the replay's --until
	Tolerance *Tolerance               `toml:"tolerance"` // default tolerance in this mode
	Workload  map[string]WorkloadSizes `toml:"workload"`  // [quick.workload.NAME]: per-workload jobs and reps
}

// WorkloadSizes overrides one workload's sizes in one mode.
type WorkloadSizes struct {
	Jobs int `toml:"jobs"`
	Reps int `toml:"reps"`
}

// Mode is the size of a reproduction run.
type Mode int

// Modes.
const (
	Quick Mode = iota // the suite's quick sizes: seconds, run in CI
	Full              // the suite's full sizes: the papers' sizes, tight CIs
)

// String is "quick" or "full".
func (m Mode) String() string {
	if m == Full {
		return "full"
	}
	return "quick"
}

// Sizes returns the sizes of mode m.
func (s *Suite) Sizes(m Mode) Sizes {
	if m == Full {
		return s.Full
	}
	return s.Quick
}

// Expect is one expectation ([[expect]]): a published value or claim and
// how to compare the replay's results with it.
type Expect struct {
	Claim  string `toml:"claim"`  // what is claimed, one line (the table's first column)
	Source string `toml:"source"` // where: "Chu 1995, Table 6.2", "exact queueing theory (Erlang C)"
	Kind   string `toml:"kind"`   // "value" (default), "ratio", "ranking"; see Kinds
	Metric string `toml:"metric"` // a numeric summary column: mean_wait, mean_response, mean_bsld, utilization, ...

	// Select picks the cells (summary rows) of the claim; the kind's own
	// selectors (Num, Den, Rank) are combined with it (a row must match
	// both).
	Select Selector   `toml:"select"`
	Num    *Selector  `toml:"num"`  // ratio: the numerator's cells
	Den    *Selector  `toml:"den"`  // ratio: the denominator's cells
	Rank   []Selector `toml:"rank"` // ranking: the cells in the claimed order
	Order  string     `toml:"order"`

	// The published value: a number, or an exact value computed from a
	// queueing model (value kind only). One of the two.
	Published *float64 `toml:"published"`
	Theory    *Theory  `toml:"theory"`

	// Tolerances, most specific first: the mode's own, then this claim's,
	// then the suite's mode default ([quick] / [full] tolerance), then the
	// suite's default. The first one given is used whole (rules are not
	// merged across levels).
	Tolerance      *Tolerance `toml:"tolerance"`
	QuickTolerance *Tolerance `toml:"quick_tolerance"`
	FullTolerance  *Tolerance `toml:"full_tolerance"`
}

// Selector picks summary rows. Empty fields match everything; a row must
// match every field given.
type Selector struct {
	Label   string   `toml:"label"`   // how the cells are named in the table (rankings); not matched
	Trace   string   `toml:"trace"`   // trace name, a path.Match pattern: "mm16-load0.80-*"
	Machine string   `toml:"machine"` // exact: "flat:16"
	Alloc   string   `toml:"alloc"`   // exact allocator spec as recorded: "count"
	Sched   string   `toml:"sched"`   // exact scheduler spec as recorded: "fcfs", "mq:q=32"
	Load    *float64 `toml:"load"`    // the trace's offered load (to 1e-9)
	// Comm is the communication model (model/network's syntax, compared
	// in canonical form: "wormhole:plen=16,msgs=5,unit=msg" matches the
	// summary's "wormhole:ts=3,plen=16,msgs=5,unit=msg"): a plan that
	// sweeps comm.
	Comm string `toml:"comm"`
}

// commCanon returns the canonical form of s.Comm ("" when not given; the
// text itself when it does not parse, which validate reports).
func (s *Selector) commCanon() string {
	if s.Comm == "" {
		return ""
	}
	c, err := network.Parse(s.Comm)
	if err != nil {
		return s.Comm
	}
	return c.String()
}

// Match reports whether row r matches s. A malformed trace pattern
// matches nothing (Validate reports it).
func (s *Selector) Match(r *schema.Summary) bool {
	if s.Trace != "" {
		if ok, err := path.Match(s.Trace, r.Trace); !ok || err != nil {
			return false
		}
	}
	if s.Machine != "" && s.Machine != r.Machine {
		return false
	}
	if s.Alloc != "" && s.Alloc != r.Alloc {
		return false
	}
	if s.Sched != "" && s.Sched != r.Sched {
		return false
	}
	if s.Load != nil && math.Abs(*s.Load-r.Load) > 1e-9 {
		return false
	}
	if s.Comm != "" && s.commCanon() != r.Comm {
		return false
	}
	return true
}

// String describes s in selector syntax ("trace=mm1-*, sched=fcfs"), or
// "every row" when empty.
func (s *Selector) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("trace", s.Trace)
	add("machine", s.Machine)
	add("alloc", s.Alloc)
	add("sched", s.Sched)
	if s.Load != nil {
		add("load", fmt.Sprintf("%g", *s.Load))
	}
	add("comm", s.Comm)
	if len(parts) == 0 {
		return "every row"
	}
	return strings.Join(parts, ", ")
}

func (s *Selector) validate(where func(...string) string, key ...string) error {
	if s.Trace != "" {
		if _, err := path.Match(s.Trace, ""); err != nil {
			return fmt.Errorf("%s: pattern %q: %v", where(append(key, "trace")...), s.Trace, err)
		}
	}
	if s.Load != nil && (math.IsNaN(*s.Load) || *s.Load < 0) {
		return fmt.Errorf("%s: load %g must be ≥ 0", where(append(key, "load")...), *s.Load)
	}
	if s.Comm != "" {
		if _, err := network.Parse(s.Comm); err != nil {
			return fmt.Errorf("%s: %v", where(append(key, "comm")...), err)
		}
	}
	return nil
}

// Tolerance is when "ours" agrees with a published number. Each field
// given (non-zero) is a rule; by default the claim agrees when any rule
// holds, with All when every one does:
//
//   - rel: |ours/published − 1| ≤ rel (undefined, so failed, when the
//     published value is 0);
//   - ci: |ours − published| ≤ ci × the 95% half-width of ours, i.e. the
//     published value lies inside ours ± ci·CI;
//   - abs: |ours − published| ≤ abs, in the metric's unit (for values
//     too close to 0 for a relative rule: M/M/128 waits at ρ = 0.5 are
//     2·10⁻¹⁴).
//
// MaxCI is not a rule but a precision requirement: when the half-width is
// larger than MaxCI × |published|, the claim is not comparable (an
// agreement inside a ±80% interval says little).
type Tolerance struct {
	Rel   float64 `toml:"rel"`
	CI    float64 `toml:"ci"`
	Abs   float64 `toml:"abs"`
	All   bool    `toml:"all"`
	MaxCI float64 `toml:"max_ci"`
}

// String describes the rules: "±5% or ±3 CI".
func (t *Tolerance) String() string {
	var parts []string
	if t.Rel > 0 {
		parts = append(parts, "±"+pct(t.Rel))
	}
	if t.CI > 0 {
		parts = append(parts, fmt.Sprintf("±%g CI", t.CI))
	}
	if t.Abs > 0 {
		parts = append(parts, fmt.Sprintf("±%g", t.Abs))
	}
	sep := " or "
	if t.All {
		sep = " and "
	}
	s := strings.Join(parts, sep)
	if t.MaxCI > 0 {
		s += fmt.Sprintf(" (CI at most ±%s)", pct(t.MaxCI))
	}
	return s
}

func (t *Tolerance) validate(where func(...string) string, key ...string) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"rel", t.Rel}, {"ci", t.CI}, {"abs", t.Abs}, {"max_ci", t.MaxCI}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s: %g must be a finite number ≥ 0", where(append(key, f.name)...), f.v)
		}
	}
	if t.Rel == 0 && t.CI == 0 && t.Abs == 0 {
		return fmt.Errorf("%s: no rule (give rel, ci or abs)", where(key...))
	}
	return nil
}

// tolerance returns the tolerance of e in mode m (see Expect) and where it
// was given, or nil.
func (s *Suite) tolerance(e *Expect, m Mode) *Tolerance {
	own := e.QuickTolerance
	if m == Full {
		own = e.FullTolerance
	}
	for _, t := range []*Tolerance{own, e.Tolerance, s.Sizes(m).Tolerance, s.Tolerance} {
		if t != nil {
			return t
		}
	}
	return nil
}

// Validate checks the suite's expectations and sizes; where(key...)
// names a key's place in the file for the messages (sweep.File.Where),
// expectations by their 0-based index: where("expect", "2", "metric").
// workloads lists the plan's workload names, which [quick.workload.NAME]
// must name.
func (s *Suite) Validate(where func(...string) string, workloads []string) error {
	if len(s.Expect) == 0 {
		return fmt.Errorf("%s: no [[expect]]: a suite needs at least one expectation", where("expect"))
	}
	if s.Tolerance != nil {
		if err := s.Tolerance.validate(where, "tolerance"); err != nil {
			return err
		}
	}
	if s.Level != 0 && !(s.Level >= 0.5 && s.Level < 1) {
		return fmt.Errorf("%s: %g: want a confidence level in [0.5, 1), such as 0.9", where("level"), s.Level)
	}
	for _, m := range []Mode{Quick, Full} {
		z := s.Sizes(m)
		for _, f := range []struct {
			name string
			v    int
		}{{"jobs", z.Jobs}, {"reps", z.Reps}, {"warmup", z.Warmup}} {
			if f.v < 0 {
				return fmt.Errorf("%s: %d must be ≥ 0", where(m.String(), f.name), f.v)
			}
		}
		if z.Until < 0 || math.IsNaN(z.Until) || math.IsInf(z.Until, 0) {
			return fmt.Errorf("%s: %g must be a positive time", where(m.String(), "until"), z.Until)
		}
		if z.Tolerance != nil {
			if err := z.Tolerance.validate(where, m.String(), "tolerance"); err != nil {
				return err
			}
		}
		names := make([]string, 0, len(z.Workload))
		for n := range z.Workload {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if !slices.Contains(workloads, n) {
				return fmt.Errorf("%s: no workload named %q (have %s)", where(m.String(), "workload", n), n, strings.Join(workloads, ", "))
			}
			if w := z.Workload[n]; w.Jobs < 0 || w.Reps < 0 {
				return fmt.Errorf("%s: jobs and reps must be ≥ 0", where(m.String(), "workload", n))
			}
		}
	}
	for i := range s.Expect {
		if err := s.validateExpect(i, where); err != nil {
			return err
		}
	}
	return nil
}

func (s *Suite) validateExpect(i int, where func(...string) string) error {
	e := &s.Expect[i]
	idx := fmt.Sprint(i)
	at := func(key ...string) string { return where(append([]string{"expect", idx}, key...)...) }
	if strings.TrimSpace(e.Claim) == "" {
		return fmt.Errorf("%s: missing (what the expectation claims, one line)", at("claim"))
	}
	if strings.TrimSpace(e.Source) == "" {
		return fmt.Errorf("%s: missing (the paper and table/figure, or \"exact queueing theory\")", at("source"))
	}
	k, ok := kinds[e.kind()]
	if !ok {
		return fmt.Errorf("%s: unknown kind %q (want %s)", at("kind"), e.Kind, strings.Join(Kinds(), ", "))
	}
	if _, ok := (&schema.Summary{}).Metric(e.Metric); !ok {
		return fmt.Errorf("%s: %q is not a numeric summary column (want one of %s)", at("metric"), e.Metric, strings.Join(Metrics(), ", "))
	}
	if err := e.Select.validate(at, "select"); err != nil {
		return err
	}
	for _, t := range []struct {
		key string
		t   *Tolerance
	}{{"tolerance", e.Tolerance}, {"quick_tolerance", e.QuickTolerance}, {"full_tolerance", e.FullTolerance}} {
		if t.t != nil {
			if err := t.t.validate(at, t.key); err != nil {
				return err
			}
		}
	}
	return k.validate(s, e, at)
}

func (e *Expect) kind() string {
	if e.Kind == "" {
		return "value"
	}
	return e.Kind
}

// Metrics lists the numeric summary columns an expectation can name.
func Metrics() []string {
	var out []string
	for _, c := range schema.Columns(schema.Summary{}) {
		if c.Kind == schema.Int || c.Kind == schema.Double {
			out = append(out, c.Name)
		}
	}
	return out
}

// errNoTolerance is the message of a value or ratio claim without one.
var errNoTolerance = errors.New("no tolerance: give the claim a tolerance, or the suite a default ([quick] / [full] tolerance, or a top-level tolerance)")

func pct(x float64) string {
	return fmt.Sprintf("%.3g%%", 100*x)
}
