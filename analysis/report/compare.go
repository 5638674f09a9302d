package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/stats"
	"github.com/schedlab/schedlab/analysis/table"
	"github.com/schedlab/schedlab/model/metrics"
)

// CompareMetrics are the summary columns compared by Compare.
var CompareMetrics = []string{"mean_response", "mean_wait", "mean_bsld", "utilization", "throughput", "mean_queue"}

// CompareOptions configures Compare.
type CompareOptions struct {
	A, B      string  // results directories: A is the reference ("before"), B the new one
	Out       string  // PDF path; "" writes none
	TablesDir string  // when set, tables as .md, .csv, .tex
	Level     float64 // confidence level (default 0.95)
	Quiet     bool
	Log       io.Writer
}

// Diff is the comparison of one metric at one point of one pair.
type Diff struct {
	Machine    string
	Experiment string // name of B's experiment holding the point (machine, generator, distinguishing parameters)
	Pair       results.Pair
	Load       float64 // -1 when the point is a trace
	Trace      string  // "" for load points
	N          int     // matched replications
	A, B       float64 // means over the matched replications
	Abs        stats.CI
	Rel        stats.CI // B̄/Ā − 1 over the matched replications, delta-method interval (stats.PairedRelDiff)
}

// Comparison is the result of comparing two result sets.
type Comparison struct {
	A, B         *results.Set
	Level        float64
	Diffs        map[string][]Diff // by metric column
	OnlyA, OnlyB int               // summary rows without a match
}

type matchKey struct {
	trace, machine, alloc, sched string
	rep                          int64
}

// CompareSets matches the summary rows of a and b on (trace, machine,
// alloc, sched, rep) and, per pair and point (load when known, else
// trace), computes paired differences B − A and relative differences
// (B − A)/A with Student-t intervals across the matched replications.
func CompareSets(a, b *results.Set, level float64) (*Comparison, error) {
	if level == 0 {
		level = 0.95
	}
	idx := map[matchKey]*results.Summary{}
	for i := range a.Summary {
		r := &a.Summary[i]
		idx[matchKey{r.Trace, r.Machine, r.Alloc, r.Sched, r.Rep}] = r
	}
	type pointKey struct {
		machine  string
		workload string // generator and model parameters: sweeps of different models are not pooled
		pair     results.Pair
		load     float64
		trace    string
	}
	type match struct{ a, b *results.Summary }
	groups := map[pointKey][]match{}
	var order []pointKey
	used := map[matchKey]bool{}
	cmp := &Comparison{A: a, B: b, Level: level, Diffs: map[string][]Diff{}}
	expOf := map[string]string{} // trace → experiment name in B
	for _, e := range b.Experiments() {
		for _, t := range e.Traces {
			expOf[t] = e.Name
		}
	}
	expName := map[pointKey]string{}
	for i := range b.Summary {
		r := &b.Summary[i]
		k := matchKey{r.Trace, r.Machine, r.Alloc, r.Sched, r.Rep}
		ar, ok := idx[k]
		if !ok {
			cmp.OnlyB++
			continue
		}
		used[k] = true
		pk := pointKey{machine: r.Machine, workload: b.WorkloadKey(r.Trace), pair: results.PairOf(r), load: r.Load}
		if r.Load < 0 {
			pk.trace = r.Trace
		}
		if _, ok := groups[pk]; !ok {
			order = append(order, pk)
			expName[pk] = expOf[r.Trace]
		}
		groups[pk] = append(groups[pk], match{ar, r})
	}
	cmp.OnlyA = len(a.Summary) - len(used)
	if len(order) == 0 {
		return nil, errors.New("compare: no (trace, machine, alloc, sched, rep) in common")
	}
	sort.Slice(order, func(i, j int) bool {
		x, y := order[i], order[j]
		if x.machine != y.machine {
			return x.machine < y.machine
		}
		if x.workload != y.workload {
			return x.workload < y.workload
		}
		if x.pair != y.pair {
			return x.pair.Less(y.pair)
		}
		if x.load != y.load {
			return x.load < y.load
		}
		return x.trace < y.trace
	})
	for _, col := range CompareMetrics {
		for _, pk := range order {
			ms := groups[pk]
			xa := make([]float64, len(ms))
			xb := make([]float64, len(ms))
			for i, m := range ms {
				xa[i], _ = m.a.Metric(col)
				xb[i], _ = m.b.Metric(col)
			}
			d := Diff{Machine: pk.machine, Experiment: expName[pk], Pair: pk.pair, Load: pk.load, Trace: pk.trace, N: len(ms),
				A: stats.MeanCI(xa, level).Mean, B: stats.MeanCI(xb, level).Mean}
			d.Abs, _ = stats.PairedDiff(xb, xa, level)
			if rel, err := stats.PairedRelDiff(xb, xa, level); err == nil {
				d.Rel = rel
			} else {
				d.Rel = stats.CI{Mean: math.NaN(), HalfWidth: math.NaN()}
			}
			cmp.Diffs[col] = append(cmp.Diffs[col], d)
		}
	}
	return cmp, nil
}

// Tables returns one table per compared metric.
func (cmp *Comparison) Tables() []*table.Table {
	var out []*table.Table
	unit := cmp.B.TimeUnit()
	for _, col := range CompareMetrics {
		m, _ := metrics.Lookup(col)
		t := &table.Table{Name: "compare-" + col, Title: "Comparison of " + m.Name + " (" + m.Unit.Label(unit) + "): B - A",
			Header: []string{"experiment", "alloc", "sched", "point", "n", "A", "B", "B - A", "rel. %"},
			Align:  []table.Align{table.Left, table.Left, table.Left, table.Right, table.Right, table.Right, table.Right, table.Right, table.Right},
			Notes:  fmt.Sprintf("A = %s, B = %s. Paired on (trace, rep); ± is the %g%% Student-t half-width across replications (none with one); rel. %% is 100 (B/A - 1) of the means, with a delta-method interval.", cmp.A.Dir, cmp.B.Dir, cmp.Level*100)}
		for _, d := range cmp.Diffs[col] {
			pt := d.Trace
			if d.Trace == "" {
				pt = "load " + results.FormatLoad(d.Load)
			}
			t.Add(d.Experiment, d.Pair.Alloc, d.Pair.Sched, pt, strconv.Itoa(d.N), fmtNum(d.A), fmtNum(d.B),
				fmtCI(d.Abs, d.Abs.Mean, d.Abs.HalfWidth), fmtCI(d.Rel, 100*d.Rel.Mean, 100*d.Rel.HalfWidth))
		}
		out = append(out, t)
	}
	return out
}

// Pages returns the comparison's pages: a title page, one relative-
// difference figure per metric when points are loads, and the tables.
func (cmp *Comparison) Pages() []Page {
	lines := [][2]string{
		{"A (reference)", cmp.A.Dir},
		{"A version", orNone(cmp.A.Version)},
		{"B (compared)", cmp.B.Dir},
		{"B version", orNone(cmp.B.Version)},
		{"Matched points", strconv.Itoa(len(cmp.Diffs[CompareMetrics[0]]))},
		{"Rows only in A", strconv.Itoa(cmp.OnlyA)},
		{"Rows only in B", strconv.Itoa(cmp.OnlyB)},
		{"Confidence level", fmt.Sprintf("%g%%", cmp.Level*100)},
	}
	lines = append(lines, optionDiff(cmp.A.Options, cmp.B.Options)...)
	pages := []Page{&TextPage{Title: "schedlab comparison", Subtitle: "Differences B - A, matched on trace, machine, alloc, sched and rep", Lines: lines}}
	var pairs []results.Pair
	seen := map[results.Pair]bool{}
	for _, d := range cmp.Diffs[CompareMetrics[0]] {
		if !seen[d.Pair] {
			seen[d.Pair] = true
			pairs = append(pairs, d.Pair)
		}
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].Less(pairs[j]) })
	var exps []string // experiments with load points, in point order
	for _, d := range cmp.Diffs[CompareMetrics[0]] {
		if d.Trace == "" && !slices.Contains(exps, d.Experiment) {
			exps = append(exps, d.Experiment)
		}
	}
	for _, col := range CompareMetrics {
		m, _ := metrics.Lookup(col)
		for ei, exp := range exps {
			byPair := map[results.Pair][]Diff{}
			for _, d := range cmp.Diffs[col] {
				if d.Trace == "" && d.Experiment == exp {
					byPair[d.Pair] = append(byPair[d.Pair], d)
				}
			}
			var expPairs []results.Pair
			for _, p := range pairs {
				if len(byPair[p]) > 0 {
					expPairs = append(expPairs, p)
				}
			}
			title := ""
			if len(exps) > 1 || exp != "" {
				title = ": " + exp
			}
			var loads []float64
			for _, ds := range byPair {
				for _, d := range ds {
					if !slices.Contains(loads, d.Load) {
						loads = append(loads, d.Load)
					}
				}
			}
			slices.Sort(loads)
			pseudo := &results.Experiment{Loads: loads}
			parts := chunks(expPairs, plot.MaxCurves)
			for pi, part := range parts {
				p := plot.New(fmt.Sprintf("Relative change in %s, B vs A%s%s", m.Name, title, partSuffix(pi, len(parts))), "offered load", "100 (B - A) / A (%)")
				name := fmt.Sprintf("compare-%s-%d", col, pi+1)
				if len(exps) > 1 {
					name = fmt.Sprintf("compare-exp%d-%s-%d", ei+1, col, pi+1)
				}
				fig := &plot.Figure{Name: name, Plot: p, Note: fmt.Sprintf("Ratio of the means over the replications both sets have, minus one; error bars: %g%% delta-method confidence intervals, paired on replication.", cmp.Level*100)}
				var allM, allH []float64
				for i, pair := range part {
					var xs, ys, hw []float64
					for _, d := range byPair[pair] {
						xs, ys, hw = append(xs, d.Load), append(ys, 100*d.Rel.Mean), append(hw, 100*d.Rel.HalfWidth)
					}
					allM, allH = append(allM, ys...), append(allH, hw...)
					fig.Legend = append(fig.Legend, plot.Curve(p, pair.String(), plot.StyleOf(i), xs, ys, hw, dodge(pseudo, i, len(part))))
				}
				setYRange(p, fig, allM, allH, false)
				loadTicks(p, pseudo)
				pages = append(pages, &FigurePage{Fig: fig})
			}
		}
	}
	for _, t := range cmp.Tables() {
		pages = append(pages, TablePages(t)...)
	}
	return pages
}

// optionDiff lists the replay options (schedlab.options) whose values
// differ between A and B, as "option: A → B" lines, or says they are the
// same: what changed between the runs, besides the code.
func optionDiff(a, b json.RawMessage) [][2]string {
	var ma, mb map[string]any
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		return [][2]string{{"Replay options", "not recorded in both sets"}}
	}
	var keys []string
	for k := range ma {
		keys = append(keys, k)
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out [][2]string
	for _, k := range keys {
		va, _ := json.Marshal(ma[k])
		vb, _ := json.Marshal(mb[k])
		if string(va) == string(vb) {
			continue
		}
		label := ""
		if len(out) == 0 {
			label = "Options A -> B"
		}
		out = append(out, [2]string{label, fmt.Sprintf("%s: %s -> %s", k, va, vb)})
	}
	if len(out) == 0 {
		return [][2]string{{"Replay options", "the same in A and B"}}
	}
	return out
}

func indexOf(ps []results.Pair, p results.Pair) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	return 0
}

func orNone(s string) string {
	if s == "" {
		return "(not recorded)"
	}
	return s
}

// Compare loads two result directories and writes their comparison.
func Compare(opts CompareOptions) error {
	a, err := results.Load(opts.A)
	if err != nil {
		return err
	}
	b, err := results.Load(opts.B)
	if err != nil {
		return err
	}
	for _, s := range []*results.Set{a, b} {
		if w := noJobWarning(s); w != "" && opts.Log != nil {
			fmt.Fprintf(opts.Log, "report compare: warning: %s: %s\n", s.Dir, w)
		}
	}
	cmp, err := CompareSets(a, b, opts.Level)
	if err != nil {
		return fmt.Errorf("%s vs %s: %w", opts.A, opts.B, err)
	}
	if opts.TablesDir != "" {
		for _, t := range cmp.Tables() {
			if err := WriteTable(opts.TablesDir, t); err != nil {
				return err
			}
		}
	}
	if opts.Out != "" {
		pages := cmp.Pages()
		if err := WritePDF(opts.Out, pages); err != nil {
			return err
		}
		if !opts.Quiet && opts.Log != nil {
			fmt.Fprintf(opts.Log, "report compare: %d pages -> %s\n", len(pages), opts.Out)
		}
	}
	return nil
}
