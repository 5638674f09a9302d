package experiment

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// Table layouts for FormatSummary.
const (
	TableAuto    = "auto"    // full up to CompactAbove rows, else compact
	TableFull    = "full"    // one line per (trace, pair)
	TableCompact = "compact" // replications pooled per trace group and pair
)

// CompactAbove is the number of summary rows above which the auto layout
// pools replications.
const CompactAbove = 40

// FormatSummary writes the summary rows as an aligned text table in the
// given layout (TableAuto when ""). traces gives each row's trace, to pool
// replications: traces that differ only in rep and seed form one group.
// The headers of the time columns carry their unit (timeUnit).
func FormatSummary(w io.Writer, rows []schema.Summary, traces []*trace.Trace, layout string) error {
	u := timeUnit(traces)
	switch layout {
	case "", TableAuto:
		if len(rows) <= CompactAbove {
			return formatFull(w, rows, u)
		}
		return formatCompact(w, rows, traces, u)
	case TableFull:
		return formatFull(w, rows, u)
	case TableCompact:
		return formatCompact(w, rows, traces, u)
	}
	return fmt.Errorf("table %q: want auto, full or compact", layout)
}

// CheckTable returns an error unless layout is a FormatSummary layout.
func CheckTable(layout string) error {
	switch layout {
	case "", TableAuto, TableFull, TableCompact:
		return nil
	}
	return fmt.Errorf("--table %q: want auto, full or compact", layout)
}

// timeUnit is the unit the table's time headers carry: "[s]" when every
// trace is a real log (schema.TimeUnit), "[tu]" (the model's time units)
// otherwise.
func timeUnit(traces []*trace.Trace) string {
	ts := make([]schema.TraceInfo, len(traces))
	for i, t := range traces {
		ts[i] = schema.TraceInfo{Name: t.Name, Source: t.Provenance.Source, Generator: t.Provenance.Generator}
	}
	if schema.TimeUnit(ts) == schema.Seconds {
		return "[s]"
	}
	return "[tu]"
}

func formatFull(w io.Writer, rows []schema.Summary, u string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "trace\tmachine\talloc\tsched\trep\tjobs\trejected\tfiltered\tmean_wait%s\tmean_response%s\tmean_bsld\tutilization\tmakespan%s\tmax_queue\tmean_queue\t\n", u, u, u)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.3f\t%.4f\t%.0f\t%d\t%.2f\t\n",
			r.Trace, r.Machine, r.Alloc, r.Sched, r.Rep, r.Jobs, r.Rejected, r.Filtered,
			r.MeanWait, r.MeanResponse, r.MeanBSLD, r.Utilization, r.Makespan, r.MaxQueue, r.MeanQueue)
	}
	return tw.Flush()
}

var repSuffix = regexp.MustCompile(`[-_.]rep\d+$`)

// groupOf returns the replication group of a trace: its machine, generator
// and parameters other than the seed and rep; and a label for it.
func groupOf(t *trace.Trace, machine string) (key, label string) {
	pv := t.Provenance
	if pv.Generator == "" || pv.Generator == "swf" {
		return "trace\x00" + t.Name + "\x00" + machine, t.Name
	}
	var b strings.Builder
	b.WriteString(machine + "\x00" + pv.Generator + "\x00" + fmt.Sprint(pv.Load))
	for _, k := range pv.ParamKeys() {
		switch k {
		case "seed", "rep", "sweep_seed":
			continue
		}
		b.WriteString("\x00" + k + "=" + pv.Params[k])
	}
	return b.String(), repSuffix.ReplaceAllString(t.Name, "")
}

// formatCompact pools the replications of each (trace group, pair): mean
// ± the half-width of the Student-t 95% confidence interval across
// replications.
func formatCompact(w io.Writer, rows []schema.Summary, traces []*trace.Trace, u string) error {
	byName := map[string]*trace.Trace{}
	for _, t := range traces {
		byName[t.Name] = t
	}
	type group struct {
		label, machine, alloc, sched string
		rows                         []schema.Summary
	}
	var order []*group
	groups := map[string]*group{}
	for _, r := range rows {
		gk, label := "trace\x00"+r.Trace, r.Trace
		if t := byName[r.Trace]; t != nil {
			gk, label = groupOf(t, r.Machine)
		}
		k := gk + "\x00" + r.Alloc + "\x00" + r.Sched
		g := groups[k]
		if g == nil {
			g = &group{label: label, machine: r.Machine, alloc: r.Alloc, sched: r.Sched}
			groups[k] = g
			order = append(order, g)
		}
		g.rows = append(g.rows, r)
	}
	sort.SliceStable(order, func(a, b int) bool { return order[a].label < order[b].label })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "traces\tmachine\talloc\tsched\treps\tjobs\tmean_wait%s\tmean_response%s\tmean_bsld\tutilization\t\n", u, u)
	for _, g := range order {
		col := func(f func(schema.Summary) float64, prec int) string {
			xs := make([]float64, len(g.rows))
			for i, r := range g.rows {
				xs[i] = f(r)
			}
			m, hw := meanCI(xs)
			if len(xs) < 2 {
				return fmt.Sprintf("%.*f", prec, m)
			}
			return fmt.Sprintf("%.*f ± %.*f", prec, m, prec, hw)
		}
		var jobs int64
		for _, r := range g.rows {
			jobs += r.Jobs
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t\n", g.label, g.machine, g.alloc, g.sched, len(g.rows), jobs,
			col(func(r schema.Summary) float64 { return r.MeanWait }, 2),
			col(func(r schema.Summary) float64 { return r.MeanResponse }, 2),
			col(func(r schema.Summary) float64 { return r.MeanBSLD }, 3),
			col(func(r schema.Summary) float64 { return r.Utilization }, 4))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d runs pooled into %d lines (mean ± 95%% Student-t half-width across replications); every run is in %s, `--table full` prints them all.\n",
		len(rows), len(order), schema.SummaryFile)

	return err
}

// meanCI returns the mean of xs and the half-width of its Student-t 95%
// confidence interval (NaN below two values).
func meanCI(xs []float64) (mean, hw float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	return mean, t * sd / math.Sqrt(n)
}
