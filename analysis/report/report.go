// Package report assembles the multi-page PDF report of a results
// directory (a ranking of the pairs per experiment, a title page with
// provenance, then per experiment: metric-vs-load curves with confidence
// intervals, CDFs, time series, size-class bars, an occupancy chart and
// summary tables, at most plot.MaxCurves curves per figure, the pairs not
// featured in an appendix), exports its figures at paper sizes
// (PDF/SVG/PNG/EPS) and tables (Markdown/CSV/booktabs LaTeX), and compares
// two result sets.
//
// The page set is a registry of Builders: each declares whether it applies
// to the whole result set or to one experiment, and to which; later machine
// families (mesh occupancy maps, per-dimension hypercube delays, malleable
// allocations) add their pages by registering a Builder in their own file,
// without touching the others.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/schedlab/schedlab/model/sweep"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/table"
	_ "github.com/schedlab/schedlab/model/catalog" // the machine families (policy.RegisterFamily), which read the results' machines
	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// Page size of the report: A4 landscape. Exported figures have the paper
// sizes of plot.PaperSizes.
var (
	PageWidth  = vg.Points(841.89)
	PageHeight = vg.Points(595.28)
	Margin     = vg.Inch / 2
)

// Window is the time window of the occupancy (Gantt) chart. The zero
// value chooses one automatically.
type Window struct{ Start, End float64 }

// Set reports whether the window was given.
func (w Window) Set() bool { return w.End > w.Start }

// Options configures Generate.
type Options struct {
	In         string   // results directory (jobs/summary/series.parquet)
	Out        string   // PDF path; "" writes no PDF
	FiguresDir string   // when set, every figure is also written here
	Formats    []string // figure formats for FiguresDir: svg, png, eps, pdf (default svg)
	TablesDir  string   // when set, every table is written here as .md, .csv and .tex
	// Baseline is the "alloc/sched" pair the relative differences are to
	// and every main figure shows: "" for the default (FCFS with the
	// default allocator of flat machines, else the first FCFS pair, none
	// without FCFS), NoBaseline for none.
	Baseline string
	Pairs    []results.Pair // pairs to show in the main figures besides the best ones
	// Labels relabels pairs in figures and tables ("count/easy" → "EASY").
	Labels map[results.Pair]string
	// Metrics, when set, are the summary columns the metric figures (the
	// curves against load and the allocator × scheduler grids) show,
	// instead of every applicable one.
	Metrics []string
	// NoAppendix leaves out the appendix (the figures of the pairs not
	// featured in the main section).
	NoAppendix bool
	// Top is the number of pairs per experiment in the terminal summary
	// (default 5).
	Top int
	// SteadyState adds the MSER-5 steady-state table on real logs too
	// (synthetic traces always get it): warm-up deletion can discard up to
	// half of a log that has no steady state to find.
	SteadyState bool
	Window      Window  // occupancy chart window
	Level       float64 // confidence level (default 0.95)
	Quiet       bool    // no progress on Log (warnings are still written)
	Log         io.Writer
	// Stdout, when set and not Quiet, receives the terminal summary: the
	// Top best pairs of each experiment and where the PDF has the rest.
	Stdout io.Writer
}

// Context is what builders see.
type Context struct {
	Set         *results.Set
	Opts        Options
	Level       float64
	TimeUnit    string // "s" or "time units"
	Pairs       []results.Pair
	Baseline    *results.Pair // nil when none
	Experiments []results.Experiment
	// Warning says which runs counted no job (NaN statistics); "" when
	// every run counted jobs. Generate logs it and the title page shows it.
	Warning string
	styles  map[results.Pair]plot.Style
	sels    map[string]*selection // per experiment name: what its figures show
	dig     *digest               // what the pages keep of each run's jobs (prepare)
	// Sections are the report's outline (PDF bookmarks and the contents
	// page), set by Pages.
	Sections []Section
}

// Section is an entry of the report's outline: a title, its level (0: a
// part, 1: a group of pages within it) and the 0-based index of its first
// page.
type Section struct {
	Title string
	Level int
	Page  int
}

// sectionNames are the outline titles of the builders' pages.
var sectionNames = map[string]string{
	"ranking": "Ranking of the policy pairs", "title": "Title and provenance", "traces": "Traces",
	"load-curves": "Metrics against offered load", "trace-bars": "Metrics per trace", "malleable-alpha": "Malleable: the alpha curves",
	"baseline": "Relative to the baseline", "grid": "Allocator x scheduler grids", "cdf": "Distributions (CDFs)", "series": "Time series",
	"allocation-quality": "Allocation quality", "size-classes": "Size classes", "mesh-size-groups": "Mesh: size groups",
	"occupancy": "Occupancy", "mesh-map": "Mesh: occupancy maps", "summary-table": "Summary table", "steady-state": "Steady state",
	"malleable-normalised": "Malleable: normalised results",
}

func sectionName(builder string) string {
	if n, ok := sectionNames[builder]; ok {
		return n
	}
	return builder
}

// Style returns the figure style of a pair: the same in every figure.
func (c *Context) Style(p results.Pair) plot.Style { return c.styles[p] }

// Page is one page of the report.
type Page interface {
	// Draw draws the page on a canvas of the page size.
	Draw(c draw.Canvas)
}

// Scope says what a builder is applied to.
type Scope int

// Scopes.
const (
	Global        Scope = iota // once per report
	PerExperiment              // once per experiment
)

// Builder makes pages. Applies is nil or reports whether the builder has
// something to show (exp is nil for Global builders).
type Builder struct {
	Name    string
	Order   int // pages are ordered by scope group, then Order, then Name
	Scope   Scope
	Applies func(ctx *Context, exp *results.Experiment) bool
	Build   func(ctx *Context, exp *results.Experiment, idx int) ([]Page, error)
	// Run, when set, is called with the job rows of every run during the
	// one pass over jobs.parquet that precedes the builds (rows reused
	// after it returns: keep a digest, not the rows). Builders without it
	// can still call ctx.Set.JobsOf, which reads the file again.
	Run func(ctx *Context, k results.Key, js []results.Job) error
}

var builders []Builder

// Register adds a page builder. It is meant to be called from init
// functions; names must be unique.
func Register(b Builder) {
	for _, o := range builders {
		if o.Name == b.Name {
			panic("report: builder " + b.Name + " registered twice")
		}
	}
	builders = append(builders, b)
	sort.SliceStable(builders, func(i, j int) bool {
		if builders[i].Order != builders[j].Order {
			return builders[i].Order < builders[j].Order
		}
		return builders[i].Name < builders[j].Name
	})
}

// Builders returns the names of the registered builders in page order.
func Builders() []string {
	out := make([]string, len(builders))
	for i, b := range builders {
		out[i] = b.Name
	}
	return out
}

// NewContext prepares the context of a loaded result set.
func NewContext(set *results.Set, opts Options) (*Context, error) {
	if opts.Level == 0 {
		opts.Level = 0.95
	}
	if opts.Level <= 0 || opts.Level >= 1 {
		return nil, fmt.Errorf("confidence level %v: want 0 < level < 1", opts.Level)
	}
	if len(set.Summary) == 0 {
		return nil, fmt.Errorf("%s: no rows", filepath.Join(set.Dir, schema.SummaryFile))
	}
	ctx := &Context{Set: set, Opts: opts, Level: opts.Level, TimeUnit: set.TimeUnit(), Pairs: set.Pairs(), Experiments: set.Experiments(), Warning: noJobWarning(set)}
	ctx.styles = make(map[results.Pair]plot.Style, len(ctx.Pairs))
	for i, p := range ctx.Pairs {
		ctx.styles[p] = plot.StyleOf(i)
	}
	for _, m := range opts.Metrics {
		if _, ok := metrics.Lookup(m); !ok || !slices.Contains(CurveMetrics, m) {
			return nil, fmt.Errorf("--metrics %q: unknown metric (known: %s)", m, strings.Join(CurveMetrics, ", "))
		}
	}
	for p := range opts.Labels {
		if _, ok := ctx.styles[p]; !ok {
			return nil, fmt.Errorf("--label %q: no such pair in %s", p, filepath.Join(set.Dir, schema.SummaryFile))
		}
	}
	switch opts.Baseline {
	case NoBaseline:
	case "":
		ctx.Baseline = defaultBaseline(ctx.Pairs)
	default:
		b, err := results.ParsePair(opts.Baseline)
		if err != nil {
			return nil, fmt.Errorf("--baseline: %w", err)
		}
		if _, ok := ctx.styles[b]; !ok {
			return nil, fmt.Errorf("--baseline %q: no such pair in %s", opts.Baseline, filepath.Join(set.Dir, schema.SummaryFile))
		}
		ctx.Baseline = &b
	}
	for _, p := range opts.Pairs {
		if _, ok := ctx.styles[p]; !ok {
			return nil, fmt.Errorf("--pairs %q: no such pair in %s", p, filepath.Join(set.Dir, schema.SummaryFile))
		}
	}
	return ctx, nil
}

// NoBaseline is the Options.Baseline value for no baseline pair.
const NoBaseline = "none"

// defaultBaseline is the default baseline pair: FCFS with the default
// allocator of flat machines (experiment.DefaultFlatAlloc), else the first
// FCFS pair; nil when no pair runs FCFS.
func defaultBaseline(pairs []results.Pair) *results.Pair {
	var first *results.Pair
	for i := range pairs {
		p := pairs[i]
		if p.Sched != "fcfs" {
			continue
		}
		if p.Alloc == experiment.DefaultFlatAlloc {
			return &p
		}
		if first == nil {
			first = &p
		}
	}
	return first
}

// Label is the name of a pair in figures and tables: its --label, else
// "alloc/sched".
func (c *Context) Label(p results.Pair) string {
	if l, ok := c.Opts.Labels[p]; ok {
		return l
	}
	return p.String()
}

// appendixPage is a page that belongs to the appendix section.
type appendixPage interface{ InAppendix() bool }

// Pages builds every page of the report in order: the global pages, each
// experiment's pages, then the appendix (the figures of the pairs not
// featured), introduced by a page saying what it holds.
func (ctx *Context) Pages() ([]Page, error) {
	main, app, err := ctx.pages()
	if err != nil {
		return nil, err
	}
	if len(app) > 0 && !ctx.Opts.NoAppendix {
		ctx.Sections = append(ctx.Sections, Section{Title: "Appendix: the other policy pairs", Page: len(main)})
		main = append(main, ctx.appendixIntro())
		main = append(main, app...)
	}
	// The contents page follows the title page (or opens the report).
	at := 0
	for _, s := range ctx.Sections {
		if s.Title == sectionName("title") {
			at = s.Page + 1
		}
	}
	for i := range ctx.Sections {
		if ctx.Sections[i].Page >= at {
			ctx.Sections[i].Page++
		}
	}
	i := slices.IndexFunc(ctx.Sections, func(s Section) bool { return s.Page > at })
	if i < 0 {
		i = len(ctx.Sections)
	}
	ctx.Sections = slices.Insert(ctx.Sections, i, Section{Title: "Contents", Page: at})
	main = slices.Insert(main, at, ctx.contentsPage())
	return main, nil
}

// contentsPage lists the outline's sections with their page numbers (the
// groups within each part when they fit on the page).
func (ctx *Context) contentsPage() Page {
	// A TextPage holds 35 lines at 10 points, 43 at 8.
	all := len(ctx.Sections) <= 43
	var lines [][2]string
	for _, s := range ctx.Sections {
		if s.Level > 0 && !all {
			continue
		}
		title := s.Title
		if s.Level > 0 {
			title = "    " + title
		}
		lines = append(lines, [2]string{"p. " + strconv.Itoa(s.Page+1), title})
	}
	return &TextPage{Title: "Contents", Lines: lines, Small: len(lines) > 35}
}

func (ctx *Context) pages() (main, appendix []Page, err error) {
	if err := ctx.prepare(); err != nil {
		return nil, nil, err
	}
	var pages []Page
	for _, b := range builders {
		if b.Scope != Global || (b.Applies != nil && !b.Applies(ctx, nil)) {
			continue
		}
		ps, err := b.Build(ctx, nil, 0)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", b.Name, err)
		}
		if len(ps) > 0 {
			ctx.Sections = append(ctx.Sections, Section{Title: sectionName(b.Name), Page: len(pages)})
		}
		pages = append(pages, ps...)
	}
	for i := range ctx.Experiments {
		e := &ctx.Experiments[i]
		ctx.Sections = append(ctx.Sections, Section{Title: fmt.Sprintf("Experiment %d: %s", i+1, ctx.expTitle(e)), Page: len(pages)})
		if noJobCounted(e) {
			pages = append(pages, noJobPage(e, i+1))
			continue
		}
		for _, b := range builders {
			if b.Scope != PerExperiment || (b.Applies != nil && !b.Applies(ctx, e)) {
				continue
			}
			ps, err := b.Build(ctx, e, i+1)
			if err != nil {
				return nil, nil, fmt.Errorf("%s (experiment %s): %w", b.Name, e.Name, err)
			}
			first := true
			for _, p := range ps {
				if a, ok := p.(appendixPage); !(ok && a.InAppendix()) && first {
					ctx.Sections = append(ctx.Sections, Section{Title: sectionName(b.Name), Level: 1, Page: len(pages)})
					first = false
				}
				if a, ok := p.(appendixPage); ok && a.InAppendix() {
					appendix = append(appendix, p)
				} else {
					pages = append(pages, p)
				}
			}
		}
	}
	return pages, appendix, nil
}

// appendixIntro is the page that opens the appendix: per experiment, the
// groups of pairs its figures show.
func (ctx *Context) appendixIntro() Page {
	lines := [][2]string{{"", "The main section shows, per experiment, the reference pair, the pairs named with --pairs and the best pairs on mean response, bounded slowdown and utilization, at most " + itoa(plot.MaxCurves) + " per figure. The figures that follow show the other pairs in groups of at most " + itoa(plot.MaxCurves) + ", in the same order of figures."}}
	for i := range ctx.Experiments {
		e := &ctx.Experiments[i]
		for _, g := range ctx.groups(e) {
			if !g.Appendix {
				continue
			}
			names := make([]string, len(g.Pairs))
			for k, p := range g.Pairs {
				names[k] = ctx.Label(p)
			}
			lines = append(lines, [2]string{fmt.Sprintf("Experiment %d, group %d", i+1, g.Part), strings.Join(names, "; ")})
		}
	}
	return &TextPage{Title: "Appendix: the other policy pairs", Lines: lines}
}

// noJobCounted reports whether no run of the experiment counted a job.
func noJobCounted(e *results.Experiment) bool {
	for i := range e.Rows {
		if e.Rows[i].Jobs > 0 {
			return false
		}
	}
	return true
}

// noJobWarning describes the runs that counted no job (jobs = 0: every job
// rejected, or filtered out of the statistics, or an empty trace): their
// statistics are NaN. It is "" when every run counted jobs.
func noJobWarning(set *results.Set) string {
	var none, rejected, filtered int64
	var first *results.Summary
	for i := range set.Summary {
		if r := &set.Summary[i]; r.Jobs == 0 {
			none++
			rejected += r.Rejected
			filtered += r.Filtered
			if first == nil {
				first = r
			}
		}
	}
	var empty []string
	for _, t := range set.Traces {
		if t.Jobs == 0 {
			empty = append(empty, t.Name)
		}
	}
	if none == 0 && len(empty) == 0 {
		return ""
	}
	why := fmt.Sprintf("%d jobs rejected, %d filtered out of the statistics", rejected, filtered)
	if len(empty) > 0 {
		if len(empty) > 3 {
			empty = append(empty[:3], "...")
		}
		why += "; empty traces: " + strings.Join(empty, ", ")
	}
	w := fmt.Sprintf("%d of %d runs counted no job (%s): their statistics are undefined (NaN)", none, len(set.Summary), why)
	switch {
	case none == int64(len(set.Summary)):
		w += ", there is nothing to plot"
	case first != nil:
		w += fmt.Sprintf(" and missing from the figures (first: trace %s, %s, rep %d)", first.Trace, results.PairOf(first), first.Rep)
	}
	return w
}

// noJobPage stands for the pages of an experiment none of whose runs
// counted a job.
func noJobPage(e *results.Experiment, idx int) Page {
	var rejected, filtered int64
	for i := range e.Rows {
		rejected += e.Rows[i].Rejected
		filtered += e.Rows[i].Filtered
	}
	var why []string
	if rejected > 0 {
		why = append(why, "the replay rejected jobs (unknown run time or size, or larger than the machine)")
	}
	if filtered > 0 {
		why = append(why, "filters (--warmup, --until-last-arrival, partial records) left jobs out of the statistics")
	}
	if len(why) == 0 {
		why = append(why, "the traces are empty")
	}
	return &TextPage{Title: fmt.Sprintf("Experiment %d: no job counted", idx), Subtitle: e.Name, Lines: [][2]string{
		{"Runs", fmt.Sprintf("%d (%d traces)", len(e.Rows), len(e.Traces))},
		{"Jobs counted", "0"},
		{"Jobs rejected", fmt.Sprint(rejected)},
		{"Jobs filtered", fmt.Sprint(filtered)},
		{"Note", "No run counted a job: " + strings.Join(why, "; ") + ". The statistics are undefined (NaN), so this experiment has no figures or tables."},
	}}
}

// incompleteSweep says how many of a sweep dataset's cells (its
// manifest's count) have no results, "" when none is missing or dir is
// not a sweep's (one row of the summary per cell).
func incompleteSweep(dir string, rows int) string {
	b, err := os.ReadFile(filepath.Join(dir, sweep.ManifestFile))
	if err != nil {
		return ""
	}
	var m sweep.Manifest
	if json.Unmarshal(b, &m) != nil || m.Cells <= rows {
		return ""
	}
	return fmt.Sprintf("%d of the sweep's %d cells have results: the report leaves out the %d others (still running, or lost: `replay sweep --resume` completes them)", rows, m.Cells, m.Cells-rows)
}

// Generate loads opts.In and writes the PDF report, figures and tables
// that opts asks for. Every output file is written atomically; on error
// the PDF is not written.
func Generate(opts Options) error {
	if opts.In == "" {
		return errors.New("no results directory")
	}
	set, err := results.LoadWith(opts.In, results.LoadOptions{Stream: true})
	if err != nil {
		return err
	}
	if w := incompleteSweep(opts.In, len(set.Summary)); w != "" && opts.Log != nil {
		fmt.Fprintf(opts.Log, "report: warning: %s: %s\n", opts.In, w)
	}
	ctx, err := NewContext(set, opts)
	if err != nil {
		return err
	}
	if ctx.Warning != "" && opts.Log != nil {
		fmt.Fprintf(opts.Log, "report: warning: %s: %s\n", opts.In, ctx.Warning)
	}
	pages, err := ctx.Pages()
	if err != nil {
		return err
	}
	if err := ctx.export(pages); err != nil {
		return err
	}
	if opts.Out != "" {
		if err := writePDF(opts.Out, pages, ctx.Sections); err != nil {
			return err
		}
	}
	if !opts.Quiet && opts.Stdout != nil {
		if err := ctx.WriteSummary(opts.Stdout); err != nil {
			return err
		}
	}
	if !opts.Quiet && opts.Log != nil && opts.Out != "" {
		fmt.Fprintf(opts.Log, "report: %d pages, %d experiments, %d pairs -> %s\n", len(pages), len(ctx.Experiments), len(ctx.Pairs), opts.Out)
	}
	return nil
}

// WriteSummary writes the terminal summary of a report whose pages were
// built: per experiment, its Top (default 5) best pairs from the ranking
// (values, and whether each is significantly apart from the next), and
// the page of the PDF with the full ranking.
func (ctx *Context) WriteSummary(w io.Writer) error {
	top := ctx.Opts.Top
	if top <= 0 {
		top = 5
	}
	rankPage := -1
	for _, s := range ctx.Sections {
		if s.Title == sectionName("ranking") {
			rankPage = s.Page
		}
	}
	var b strings.Builder
	for i := range ctx.Experiments {
		e := &ctx.Experiments[i]
		if noJobCounted(e) {
			fmt.Fprintf(&b, "Experiment %d: %s: no job counted\n\n", i+1, ctx.expTitle(e))
			continue
		}
		t := rankingTable(ctx, e, i+1)
		fmt.Fprintf(&b, "Experiment %d: %s\n", i+1, ctx.expTitle(e))
		tw := tabwriter.NewWriter(&b, 2, 8, 2, ' ', 0)
		keep := func(h string) bool { return h != "mean ranks" && h != "figures" }
		var cells []string
		for _, h := range t.Header {
			if keep(h) {
				cells = append(cells, h)
			}
		}
		fmt.Fprintln(tw, "  "+strings.Join(cells, "\t"))
		shown := 0
		for _, row := range t.Rows {
			if row[0] != "" || row[1] != "" { // a pair's first row (not another trace's)
				if shown++; shown > top {
					break
				}
			}
			cells = cells[:0]
			for k, h := range t.Header {
				if keep(h) {
					cells = append(cells, row[k])
				}
			}
			fmt.Fprintln(tw, "  "+strings.Join(cells, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		n := len(ctx.sel(e).ranked)
		more := ""
		if n > top {
			more = fmt.Sprintf("%d more pairs; ", n-top)
		}
		switch {
		case ctx.Opts.Out != "" && rankPage >= 0:
			fmt.Fprintf(&b, "  (%sthe full ranking, with the notes: page %d of %s)\n\n", more, rankPage+1, ctx.Opts.Out)
		case more != "":
			fmt.Fprintf(&b, "  (%s)\n\n", strings.TrimSuffix(more, "; "))
		default:
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WritePDF draws pages into one PDF at path (atomically). The output is
// deterministic: fonts embedded, fixed dates, sorted catalogs.
func WritePDF(path string, pages []Page) error { return writePDF(path, pages, nil) }

// writePDF is WritePDF with an outline (bookmarks) of the sections.
func writePDF(path string, pages []Page, sections []Section) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	c := plot.NewPDF(PageWidth, PageHeight)
	for i, p := range pages {
		if i > 0 {
			c.NextPage()
		}
		for _, s := range sections {
			if s.Page == i {
				c.Bookmark(s.Title, s.Level)
			}
		}
		dc := draw.New(c)
		p.Draw(dc)
		footer(dc, i+1, len(pages))
	}
	// A report killed before its rename left its temporary file: remove
	// those of dead processes first (as the trace writer does).
	trace.CleanStaleTemps(filepath.Dir(path), filepath.Base(path))
	return trace.AtomicWrite(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}

func footer(c draw.Canvas, n, total int) {
	st := plot.TextStyle(8)
	st.XAlign = draw.XCenter
	st.Color = grayText
	c.FillText(st, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Min.Y + Margin/3}, fmt.Sprintf("%d / %d", n, total))
}

// Named is a page that can be exported as a figure file.
type Named interface {
	FigureName() string
	Figure() *plot.Figure
}

// Tabular is a page showing (part of) a table that can be exported.
type Tabular interface {
	FullTable() *table.Table
	// First reports whether this page is the table's first part (the one
	// that exports it).
	First() bool
}

func (ctx *Context) export(pages []Page) error {
	formats := ctx.Opts.Formats
	if len(formats) == 0 {
		formats = []string{"svg"}
	}
	for _, f := range formats {
		if !slices.Contains(plot.Formats, f) {
			return fmt.Errorf("--format %q: want one of %s", f, strings.Join(plot.Formats, ", "))
		}
	}
	if ctx.Opts.FiguresDir != "" {
		if err := os.MkdirAll(ctx.Opts.FiguresDir, 0o755); err != nil {
			return err
		}
		var captions strings.Builder
		captions.WriteString("# Figures\n\nEach figure is written at column width (NAME-col, 3.5 in) and page width (NAME-page, 7 in), without its title and note: they are its caption below.\n")
		for _, p := range pages {
			n, ok := p.(Named)
			if !ok {
				continue
			}
			fig := n.Figure()
			for _, f := range formats {
				for _, sz := range plot.PaperSizes {
					path := filepath.Join(ctx.Opts.FiguresDir, n.FigureName()+"-"+sz.Suffix+"."+f)
					if err := fig.SaveAs(path, sz); err != nil {
						return err
					}
				}
			}
			fmt.Fprintf(&captions, "\n## %s\n\n%s\n", n.FigureName(), fig.Caption())
		}
		if err := trace.AtomicWrite(filepath.Join(ctx.Opts.FiguresDir, "captions.md"), func(w io.Writer) error {
			_, err := io.WriteString(w, captions.String())
			return err
		}); err != nil {
			return err
		}
	}
	if ctx.Opts.TablesDir != "" {
		if err := os.MkdirAll(ctx.Opts.TablesDir, 0o755); err != nil {
			return err
		}
		for _, p := range pages {
			t, ok := p.(Tabular)
			if !ok || !t.First() {
				continue
			}
			if err := WriteTable(ctx.Opts.TablesDir, t.FullTable()); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteTable writes t as dir/NAME.md, .csv and .tex.
func WriteTable(dir string, t *table.Table) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		ext   string
		write func(io.Writer) error
	}{{"md", t.WriteMarkdown}, {"csv", t.WriteCSV}, {"tex", t.WriteLaTeX}} {
		if err := trace.AtomicWrite(filepath.Join(dir, t.Name+"."+f.ext), f.write); err != nil {
			return err
		}
	}
	return nil
}
