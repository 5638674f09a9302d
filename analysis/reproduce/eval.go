package reproduce

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/analysis/stats"
	"github.com/schedlab/schedlab/model/schema"
)

// Verdict is the outcome of one expectation.
type Verdict int

// Verdicts.
const (
	Agrees        Verdict = iota // ours agrees with the published value within the tolerance
	Disagrees                    // it does not
	NotComparable                // the results cannot decide (no cells, one replication, ...); Row.Reason says why
	// NotSignificant: consistent with the claim, but not significantly: a
	// ranking whose neighbours' confidence intervals overlap, or a value
	// within its tolerance only by the confidence-interval rule (its
	// relative or absolute rule failed), that is, because the interval is
	// wide. Counted apart from Agrees.
	NotSignificant
)

// String is "agrees", "disagrees", "not comparable" or "consistent, not
// significant".
func (v Verdict) String() string {
	return [...]string{"agrees", "disagrees", "not comparable", "consistent, not significant"}[v]
}

// Row is the evaluation of one expectation: one line of the table.
type Row struct {
	Claim  string
	Source string
	Kind   string
	Metric string
	// Published is the published value or claim as shown; Value is the
	// number (NaN for claims that are not one number, such as rankings).
	Published string
	Value     float64
	// Ours is our estimate with its confidence interval across
	// replications (Mean NaN when there is none); Ours.N counts the
	// replications (pairs for a ratio, the fewest for a ranking).
	Ours stats.CI
	// OursText is ours as shown: "mean ± half-width", or the ranking's
	// means.
	OursText  string
	RelDiff   float64    // ours/published − 1; NaN when undefined
	Rule      string     // the tolerance rule applied, as text ("" for rankings)
	Tolerance *Tolerance // the tolerance applied (nil for rankings)
	Verdict   Verdict
	Reason    string // why (the rules that held, or failed, or why not comparable)
}

// kind is one kind of expectation. validate checks the kind's own keys;
// evaluate compares the rows with the claim under tolerance tol (nil for
// kinds that need none) and fills the Row's published value, ours, the
// verdict and the reason; tolerant says whether the kind uses a tolerance.
type kind interface {
	validate(s *Suite, e *Expect, at func(...string) string) error
	tolerant() bool
	// selectors returns the groups of selectors (each group ANDed) that
	// must each pick exactly one configuration, with their keys.
	selectors(e *Expect) []selection
	evaluate(e *Expect, rows []schema.Summary, tol *Tolerance, level float64, r *Row)
}

// selection is a group of selectors that must pick one configuration, and
// the key that names it in messages ("select", "num", "rank.1").
type selection struct {
	key []string
	sel []*Selector
}

// kinds is the registry of expectation kinds. Every kind K also exists as
// "K/full" (fullOnly): the same claim judged in the full run only.
var kinds = map[string]kind{
	"value":   valueKind{},
	"ratio":   ratioKind{},
	"ranking": rankingKind{},
	"at_most": atMostKind{},
}

// fullSuffix marks a kind judged in the full run only: "ranking/full".
const fullSuffix = "/full"

// fullOnly is kind k judged in the full run only: a claim that the quick
// sizes cannot decide, or one that our model contradicts (a finding the
// full run reports). The quick run leaves it out of its rows.
type fullOnly struct{ kind }

func init() {
	for _, n := range Kinds() {
		kinds[n+fullSuffix] = fullOnly{kinds[n]}
	}
}

// Kinds lists the expectation kinds, sorted.
func Kinds() []string {
	out := make([]string, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Evaluate judges every expectation of s against the summary rows in mode
// m at the given confidence level (0 means 0.95), in order; the quick run
// leaves out the claims of a "/full" kind. The suite must have been
// validated.
func Evaluate(s *Suite, rows []schema.Summary, m Mode, level float64) []Row {
	if level == 0 {
		level = 0.95
	}
	out := make([]Row, 0, len(s.Expect))
	for i := range s.Expect {
		e := &s.Expect[i]
		if _, ok := kinds[e.kind()].(fullOnly); ok && m != Full {
			continue
		}
		out = append(out, Row{})
		r := &out[len(out)-1]
		*r = Row{Claim: e.Claim, Source: e.Source, Kind: e.kind(), Metric: e.Metric,
			Value: math.NaN(), Ours: stats.CI{Mean: math.NaN(), HalfWidth: math.NaN(), Level: level}, RelDiff: math.NaN()}
		tol := s.tolerance(e, m)
		if tol != nil && kinds[e.kind()].tolerant() {
			r.Rule, r.Tolerance = tol.String(), tol
		}
		kinds[e.kind()].evaluate(e, rows, tol, level, r)
	}
	return out
}

// Count is how many rows have each verdict.
type Count struct {
	Agree, NotSignificant, Disagree, NotComparable int
}

// Counts counts the rows' verdicts.
func Counts(rows []Row) Count {
	var c Count
	for _, r := range rows {
		switch r.Verdict {
		case Agrees:
			c.Agree++
		case NotSignificant:
			c.NotSignificant++
		case Disagrees:
			c.Disagree++
		default:
			c.NotComparable++
		}
	}
	return c
}

// cell is the replications of one configuration: the summary rows that
// differ only in rep (and in the rep's trace name).
type cell struct {
	name string            // "mm1-load0.50 flat:1 count/fcfs"
	rows []*schema.Summary // by rep
}

// config names the configuration of a row: its trace name without the
// replication suffix (-repRR, as synth sweep and model/sweep name them),
// the machine and the pair, and its communication model when withComm
// (the rows sweep comm).
func config(r *schema.Summary, withComm bool) string {
	t := strings.TrimSuffix(r.Trace, fmt.Sprintf("-rep%02d", r.Rep))
	if withComm {
		return fmt.Sprintf("%s %s %s %s/%s", t, r.Machine, r.Comm, r.Alloc, r.Sched)
	}
	return fmt.Sprintf("%s %s %s/%s", t, r.Machine, r.Alloc, r.Sched)
}

// commSwept reports whether rows hold more than one communication model.
func commSwept(rows []schema.Summary) bool {
	for i := range rows {
		if rows[i].Comm != rows[0].Comm {
			return true
		}
	}
	return false
}

// cellOf returns the one configuration whose rows match every selector,
// or the reason there is not exactly one.
func cellOf(rows []schema.Summary, sel ...*Selector) (*cell, string) {
	byName := map[string]*cell{}
	var names []string
	withComm := commSwept(rows)
	for i := range rows {
		r := &rows[i]
		ok := true
		for _, s := range sel {
			ok = ok && s.Match(r)
		}
		if !ok {
			continue
		}
		k := config(r, withComm)
		c := byName[k]
		if c == nil {
			c = &cell{name: k}
			byName[k] = c
			names = append(names, k)
		}
		c.rows = append(c.rows, r)
	}
	switch len(names) {
	case 0:
		var desc []string
		for _, s := range sel {
			if d := s.String(); d != "every row" {
				desc = append(desc, d)
			}
		}
		return nil, "no matching cells (" + strings.Join(desc, "; ") + ")"
	case 1:
		c := byName[names[0]]
		slices.SortFunc(c.rows, func(a, b *schema.Summary) int { return cmp.Compare(a.Rep, b.Rep) })
		return c, ""
	}
	sort.Strings(names)
	shown := names
	if len(shown) > 3 {
		shown = append(shown[:3:3], "…")
	}
	return nil, fmt.Sprintf("%d configurations match (%s): narrow the selector", len(names), strings.Join(shown, ", "))
}

// values returns the metric in each replication of c, or the reason it
// cannot be used (a NaN or infinite value: no job counted, or a power
// with no wait).
func (c *cell) values(metric string) ([]float64, string) {
	out := make([]float64, len(c.rows))
	bad := 0
	for i, r := range c.rows {
		out[i], _ = r.Metric(metric)
		if math.IsNaN(out[i]) || math.IsInf(out[i], 0) {
			bad++
		}
	}
	if bad > 0 {
		return nil, fmt.Sprintf("%s is not finite in %d of %d replications of %s", metric, bad, len(out), c.name)
	}
	return out, ""
}

// reps lists c's replications: "1–10", or "1, 3, 4".
func (c *cell) reps() string {
	contiguous := true
	for i, r := range c.rows {
		contiguous = contiguous && r.Rep == c.rows[0].Rep+int64(i)
	}
	if contiguous && len(c.rows) > 2 {
		return fmt.Sprintf("reps %d–%d", c.rows[0].Rep, c.rows[len(c.rows)-1].Rep)
	}
	parts := make([]string, len(c.rows))
	for i, r := range c.rows {
		parts[i] = strconv.FormatInt(r.Rep, 10)
	}
	return "reps " + strings.Join(parts, ", ")
}

// noCI is the reason given for a single replication.
func noCI(n int) string {
	return fmt.Sprintf("%d replication: no CI", n)
}

// judge compares ours with the published value p under t.
func judge(ours stats.CI, p float64, t *Tolerance) (Verdict, string) {
	d := math.Abs(ours.Mean - p)
	if t.MaxCI > 0 && !(ours.HalfWidth <= t.MaxCI*math.Abs(p)) {
		return NotComparable, fmt.Sprintf("CI ±%s wider than the ±%s required", relHW(ours.HalfWidth, p), pct(t.MaxCI))
	}
	type rule struct {
		ok        bool
		held, why string
		ci        bool // the confidence-interval rule
	}
	var rules []rule
	if t.Rel > 0 {
		rel := ours.Mean/p - 1
		ok := p != 0 && math.Abs(rel) <= t.Rel
		why := fmt.Sprintf("%s beyond ±%s", signedPct(rel), pct(t.Rel))
		if p == 0 {
			why = "no relative difference to 0"
		}
		rules = append(rules, rule{ok, "±" + pct(t.Rel), why, false})
	}
	if t.CI > 0 {
		k := math.Inf(1)
		if d == 0 {
			k = 0
		} else if ours.HalfWidth > 0 {
			k = d / ours.HalfWidth
		}
		rules = append(rules, rule{k <= t.CI, fmt.Sprintf("±%g CI", t.CI), fmt.Sprintf("%.3g CI half-widths off > %g", k, t.CI), true})
	}
	if t.Abs > 0 {
		rules = append(rules, rule{d <= t.Abs, fmt.Sprintf("±%g", t.Abs), fmt.Sprintf("off by %.3g > %g", d, t.Abs), false})
	}
	var held, failed []string
	byCIOnly := true // every rule that held is the CI rule
	for _, r := range rules {
		if r.ok {
			held = append(held, r.held)
			byCIOnly = byCIOnly && r.ci
		} else {
			failed = append(failed, r.why)
		}
	}
	if len(failed) == 0 || (!t.All && len(held) > 0) {
		if byCIOnly && len(failed) > 0 {
			// Within the tolerance only because the interval is wide.
			return NotSignificant, fmt.Sprintf("within %s only, CI ±%s: %s", strings.Join(held, ", "), relHW(ours.HalfWidth, p), strings.Join(failed, "; "))
		}
		return Agrees, "within " + strings.Join(held, ", ")
	}
	return Disagrees, strings.Join(failed, "; ")
}

// relHW formats a half-width relative to p ("∞" when p is 0).
func relHW(hw, p float64) string {
	if p == 0 {
		return "∞%"
	}
	return pct(hw / math.Abs(p))
}

// signedPct formats a relative difference with its sign: "+7.3%".
func signedPct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%+.3g%%", 100*x)
}

// num formats a published value or a mean: four significant digits.
func num(x float64) string {
	return fmt.Sprintf("%.4g", x)
}

// valueKind compares one cell's metric with a number (Published or
// Theory).
type valueKind struct{}

func (valueKind) tolerant() bool { return true }

func (valueKind) selectors(e *Expect) []selection {
	return []selection{{[]string{"select"}, []*Selector{&e.Select}}}
}

func (valueKind) validate(s *Suite, e *Expect, at func(...string) string) error {
	if e.Num != nil || e.Den != nil || e.Rank != nil || e.Order != "" {
		return fmt.Errorf("%s: num, den, rank and order belong to the ratio and ranking kinds", at())
	}
	switch {
	case e.Published == nil && e.Theory == nil:
		return fmt.Errorf("%s: give the published value (published = NUMBER) or a queueing model ([expect.theory])", at())
	case e.Published != nil && e.Theory != nil:
		return fmt.Errorf("%s: give published or theory, not both", at())
	case e.Published != nil && (math.IsNaN(*e.Published) || math.IsInf(*e.Published, 0)):
		return fmt.Errorf("%s: %g is not a finite number", at("published"), *e.Published)
	case e.Theory != nil:
		if _, err := e.Theory.Value(e.Metric); err != nil {
			return fmt.Errorf("%s: %v", at("theory"), err)
		}
	}
	return needTolerance(s, e, at)
}

func needTolerance(s *Suite, e *Expect, at func(...string) string) error {
	for _, m := range []Mode{Quick, Full} {
		if s.tolerance(e, m) == nil {
			return fmt.Errorf("%s: %v", at(), errNoTolerance)
		}
	}
	return nil
}

func (valueKind) evaluate(e *Expect, rows []schema.Summary, tol *Tolerance, level float64, r *Row) {
	if e.Theory != nil {
		r.Value, _ = e.Theory.Value(e.Metric)
	} else {
		r.Value = *e.Published
	}
	r.Published = num(r.Value)
	c, why := cellOf(rows, &e.Select)
	if c == nil {
		r.Verdict, r.Reason = NotComparable, why
		return
	}
	vs, why := c.values(e.Metric)
	if vs == nil {
		r.Verdict, r.Reason = NotComparable, why
		return
	}
	compare(r, stats.MeanCI(vs, level), tol)
}

// compare fills r from ours and judges it against r.Value.
func compare(r *Row, ours stats.CI, tol *Tolerance) {
	r.Ours = ours
	r.OursText = ours.String()
	if r.Value != 0 {
		r.RelDiff = ours.Mean/r.Value - 1
	}
	if ours.N < 2 {
		r.Verdict, r.Reason = NotComparable, noCI(ours.N)
		return
	}
	r.Verdict, r.Reason = judge(ours, r.Value, tol)
}

// ratioKind compares the ratio of two cells' metrics (Num over Den, both
// combined with Select) with a published ratio, paired on the replication
// (stats.PairedRelDiff: the ratio of the means, with a delta-method CI).
type ratioKind struct{}

func (ratioKind) tolerant() bool { return true }

func (ratioKind) selectors(e *Expect) []selection {
	return []selection{{[]string{"num"}, []*Selector{&e.Select, e.Num}}, {[]string{"den"}, []*Selector{&e.Select, e.Den}}}
}

func (ratioKind) validate(s *Suite, e *Expect, at func(...string) string) error {
	if e.Num == nil || e.Den == nil {
		return fmt.Errorf("%s: a ratio needs num and den (the cells of the numerator and the denominator)", at())
	}
	if e.Rank != nil || e.Order != "" {
		return fmt.Errorf("%s: rank and order belong to the ranking kind", at())
	}
	if e.Theory != nil {
		return fmt.Errorf("%s: a ratio takes a published number, not a queueing model", at("theory"))
	}
	if e.Published == nil || math.IsNaN(*e.Published) || math.IsInf(*e.Published, 0) {
		return fmt.Errorf("%s: a ratio needs its published value (a finite number)", at("published"))
	}
	if err := e.Num.validate(at, "num"); err != nil {
		return err
	}
	if err := e.Den.validate(at, "den"); err != nil {
		return err
	}
	return needTolerance(s, e, at)
}

func (ratioKind) evaluate(e *Expect, rows []schema.Summary, tol *Tolerance, level float64, r *Row) {
	r.Value = *e.Published
	r.Published = num(r.Value)
	ci, why := pairedRatio(rows, e.Metric, level, []*Selector{&e.Select, e.Num}, []*Selector{&e.Select, e.Den})
	if why != "" {
		r.Verdict, r.Reason = NotComparable, why
		return
	}
	compare(r, ci, tol)
}

// pairedRatio returns the ratio of the metric's means in the cells of
// num and den (each selector group must pick one configuration), paired
// on the replication (stats.PairedRelDiff: the ratio of the means, with a
// delta-method CI), or the reason it cannot be computed.
func pairedRatio(rows []schema.Summary, metric string, level float64, num, den []*Selector) (stats.CI, string) {
	var none stats.CI
	nc, why := cellOf(rows, num...)
	if nc == nil {
		return none, "numerator: " + why
	}
	dc, why := cellOf(rows, den...)
	if dc == nil {
		return none, "denominator: " + why
	}
	x, why := nc.values(metric)
	if x == nil {
		return none, why
	}
	y, why := dc.values(metric)
	if y == nil {
		return none, why
	}
	if !slices.EqualFunc(nc.rows, dc.rows, func(a, b *schema.Summary) bool { return a.Rep == b.Rep }) {
		return none, fmt.Sprintf("numerator and denominator have different replications (%s and %s): cannot pair them", nc.reps(), dc.reps())
	}
	rd, err := stats.PairedRelDiff(x, y, level)
	if err != nil {
		if errors.Is(err, stats.ErrTooFew) {
			return none, noCI(0)
		}
		return none, err.Error()
	}
	return stats.CI{Mean: 1 + rd.Mean, HalfWidth: rd.HalfWidth, N: rd.N, Level: level}, ""
}

// rankingKind checks the order of several cells' means on a metric: Rank
// lists the cells (each combined with Select) in the claimed order,
// lowest first (Order "ascending", the default) or highest first
// ("descending"). Only the order of the means is judged; the reason notes
// neighbours whose confidence intervals overlap.
//
// With num and den, each element of Rank stands for a ratio instead: its
// cells combined with Num over those combined with Den, paired on the
// replication as the ratio kind ("GABL's advantage over MBS grows with
// P_len": rank = the P_len settings, num = GABL, den = MBS, order =
// descending), and the ratios are ranked.
type rankingKind struct{}

func (rankingKind) tolerant() bool { return false }

func (rankingKind) selectors(e *Expect) []selection {
	var out []selection
	for i := range e.Rank {
		key := []string{"rank", strconv.Itoa(i)}
		if e.Num != nil {
			out = append(out, selection{append(key, "num"), []*Selector{&e.Select, &e.Rank[i], e.Num}},
				selection{append(key[:2:2], "den"), []*Selector{&e.Select, &e.Rank[i], e.Den}})
			continue
		}
		out = append(out, selection{key, []*Selector{&e.Select, &e.Rank[i]}})
	}
	return out
}

func (rankingKind) validate(s *Suite, e *Expect, at func(...string) string) error {
	if len(e.Rank) < 2 {
		return fmt.Errorf("%s: a ranking needs at least two cells", at("rank"))
	}
	if e.Published != nil || e.Theory != nil {
		return fmt.Errorf("%s: a ranking takes rank (and order, and num and den for a ranking of ratios), not published or theory", at())
	}
	if (e.Num == nil) != (e.Den == nil) {
		return fmt.Errorf("%s: a ranking of ratios needs both num and den", at())
	}
	for _, sel := range []struct {
		key string
		s   *Selector
	}{{"num", e.Num}, {"den", e.Den}} {
		if sel.s != nil {
			if err := sel.s.validate(at, sel.key); err != nil {
				return err
			}
		}
	}
	if e.Order != "" && e.Order != "ascending" && e.Order != "descending" {
		return fmt.Errorf("%s: %q: want ascending (the first cell lowest) or descending", at("order"), e.Order)
	}
	for i := range e.Rank {
		if err := e.Rank[i].validate(at, "rank", fmt.Sprint(i)); err != nil {
			return err
		}
	}
	return nil
}

func (rankingKind) evaluate(e *Expect, rows []schema.Summary, _ *Tolerance, level float64, r *Row) {
	desc := e.Order == "descending"
	rel := " < "
	if desc {
		rel = " > "
	}
	labels := make([]string, len(e.Rank))
	for i := range e.Rank {
		labels[i] = e.Rank[i].Label
		if labels[i] == "" {
			labels[i] = e.Rank[i].String()
		}
	}
	r.Published = strings.Join(labels, rel)
	if e.Num != nil {
		r.Published = "(" + e.Num.String() + ") / (" + e.Den.String() + "): " + r.Published
	}
	cis := make([]stats.CI, len(e.Rank))
	minN := math.MaxInt
	for i := range e.Rank {
		if e.Num != nil {
			ci, why := pairedRatio(rows, e.Metric, level, []*Selector{&e.Select, &e.Rank[i], e.Num}, []*Selector{&e.Select, &e.Rank[i], e.Den})
			if why != "" {
				r.Verdict, r.Reason = NotComparable, labels[i]+": "+why
				return
			}
			cis[i] = ci
			minN = min(minN, ci.N)
			continue
		}
		c, why := cellOf(rows, &e.Select, &e.Rank[i])
		if c == nil {
			r.Verdict, r.Reason = NotComparable, labels[i]+": "+why
			return
		}
		vs, why := c.values(e.Metric)
		if vs == nil {
			r.Verdict, r.Reason = NotComparable, why
			return
		}
		cis[i] = stats.MeanCI(vs, level)
		minN = min(minN, cis[i].N)
	}
	r.Ours.N = minN
	var wrong, overlap []string
	for i := 1; i < len(cis); i++ {
		prev, ci := cis[i-1], cis[i]
		ok := prev.Mean < ci.Mean
		if desc {
			ok = prev.Mean > ci.Mean
		}
		switch {
		case !ok:
			wrong = append(wrong, fmt.Sprintf("%s (%s) is not%s%s (%s)", labels[i-1], num(prev.Mean), rel, labels[i], num(ci.Mean)))
		case ci.Defined() && prev.Defined() && prev.Lo() <= ci.Hi() && ci.Lo() <= prev.Hi():
			overlap = append(overlap, labels[i-1]+" and "+labels[i])
		}
	}
	r.OursText = oursRanking(cis)
	switch {
	case len(wrong) > 0:
		r.Verdict, r.Reason = Disagrees, strings.Join(wrong, "; ")
	case len(overlap) > 0:
		r.Verdict, r.Reason = NotSignificant, "CIs of "+strings.Join(overlap, ", ")+" overlap"
	default:
		r.Verdict, r.Reason = Agrees, "CIs apart"
	}
}

// oursRanking shows the means in the claimed order with the relation that
// holds between neighbours: "0.0004 < 0.095 < 4".
func oursRanking(cis []stats.CI) string {
	var b strings.Builder
	for i, ci := range cis {
		if i > 0 {
			p := cis[i-1].Mean
			switch {
			case p < ci.Mean:
				b.WriteString(" < ")
			case p > ci.Mean:
				b.WriteString(" > ")
			default:
				b.WriteString(" = ")
			}
		}
		b.WriteString(num(ci.Mean))
	}
	return b.String()
}

// atMostKind is a one-sided claim: ours is at most the published value
// ("cuts the mean response time by more than 48%": a ratio at most 0.52).
// It is a value (select) or, with num and den, a ratio (paired as the
// ratio kind). Ours agrees when its mean is at most the published value,
// or above it within the tolerance (judged as a value is); max_ci applies
// as for a value.
type atMostKind struct{}

func (atMostKind) tolerant() bool { return true }

func (atMostKind) base(e *Expect) kind {
	if e.Num != nil || e.Den != nil {
		return ratioKind{}
	}
	return valueKind{}
}

func (k atMostKind) selectors(e *Expect) []selection { return k.base(e).selectors(e) }

func (k atMostKind) validate(s *Suite, e *Expect, at func(...string) string) error {
	if e.Theory != nil {
		return fmt.Errorf("%s: at_most takes a published number, not a queueing model", at("theory"))
	}
	return k.base(e).validate(s, e, at)
}

func (k atMostKind) evaluate(e *Expect, rows []schema.Summary, tol *Tolerance, level float64, r *Row) {
	k.base(e).evaluate(e, rows, tol, level, r)
	r.Published = "≤ " + r.Published
	if r.Verdict == NotComparable || !(r.Ours.Mean <= r.Value) {
		return // not comparable (max_ci included), or above the bound: judged by the tolerance
	}
	r.Verdict, r.Reason = Agrees, "at most "+num(r.Value)
}
