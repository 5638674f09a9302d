package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	goplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/table"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// Pages of mesh machines (mesh:WxH): pictures of the mesh at chosen
// instants, as Chu 1995's Sched-All and Windisch, Lo & Miller's ProcSimity
// ("ProcSimity: an experimental tool for processor allocation and
// scheduling in highly parallel systems", 1995) show them, and the
// response time per size group of Chu 1995 §5.3.
func init() {
	Register(Builder{Name: "mesh-size-groups", Order: 41, Scope: PerExperiment, Applies: meshSizes, Build: buildMeshSizeGroups})
	Register(Builder{Name: "mesh-map", Order: 51, Scope: PerExperiment, Applies: meshPlaced, Build: buildMeshMaps})
}

// Limits of the mesh pages.
const (
	mapPairs  = 6 // panels per page
	mapPages  = 3 // pages per instant; further pairs are left out with a note
	sizePairs = 6 // pairs per size-group bar chart
)

// mapQuantiles are the time-weighted quantiles of the reference run's
// busy fraction whose instants are drawn when no --window is given.
var mapQuantiles = []float64{0.5, 0.9}

// meshOf returns the mesh of an experiment: a machine whose family lays
// its nodes on a W×H grid (policy.Family.View.Grid); ok is false on other
// machines.
func meshOf(e *results.Experiment) (policy.Machine, bool) {
	m, err := policy.ParseMachine(e.Machine)
	if err != nil {
		return m, false
	}
	f, _ := policy.FamilyOf(m.Kind)
	return m, f.View.Grid
}

// meshSizes reports whether a mesh experiment has jobs or per-run
// size_classes to draw the size groups from.
func meshSizes(c *Context, e *results.Experiment) bool {
	if _, ok := meshOf(e); !ok {
		return false
	}
	if hasJobs(c, e) {
		return true
	}
	for i := range e.Rows {
		if len(e.Rows[i].SizeClasses) > 0 {
			return true
		}
	}
	return false
}

func meshPlaced(c *Context, e *results.Experiment) bool {
	_, ok := meshOf(e)
	return ok && hasPlacement(c, e)
}

// byScheduler orders pairs for comparing allocators: grouped by scheduler,
// ref's scheduler first and the others in order, allocators in order
// within a group. It returns the groups.
func byScheduler(ps []results.Pair, ref results.Pair) [][]results.Pair {
	var scheds []string
	for _, p := range ps {
		if !slices.Contains(scheds, p.Sched) {
			scheds = append(scheds, p.Sched)
		}
	}
	sort.SliceStable(scheds, func(i, j int) bool {
		if (scheds[i] == ref.Sched) != (scheds[j] == ref.Sched) {
			return scheds[i] == ref.Sched
		}
		return scheds[i] < scheds[j]
	})
	out := make([][]results.Pair, len(scheds))
	for i, s := range scheds {
		for _, p := range ps {
			if p.Sched == s {
				out[i] = append(out[i], p)
			}
		}
		sort.Slice(out[i], func(a, b int) bool { return out[i][a].Less(out[i][b]) })
	}
	return out
}

// pairPages lays the scheduler groups out on pages of at most n pairs: a
// group larger than n is split into balanced chunks, and a group (or
// chunk) that does not fit in what is left of a page starts the next one.
func pairPages(groups [][]results.Pair, n int) [][]results.Pair {
	var out [][]results.Pair
	var cur []results.Pair
	for _, g := range groups {
		for _, part := range chunks(g, n) {
			if len(cur)+len(part) > n {
				out = append(out, cur)
				cur = nil
			}
			cur = append(cur, part...)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// meshBlock is one placement piece of a job running at an instant.
type meshBlock struct {
	JobID int64
	Piece schema.Piece
}

// meshSnapshot is the state of a mesh at one instant of one run.
type meshSnapshot struct {
	T        float64
	Blocks   []meshBlock // the running jobs' pieces, by job id
	Running  int         // jobs running at T: start ≤ T < end
	Unplaced int         // running jobs without a recorded placement (not drawn)
	Waiting  int         // jobs submitted and not started at T
	Busy     int64       // nodes held by the running jobs
}

// snapshotAt returns what the jobs of one run hold on mesh m at t: a job
// runs at t when start ≤ t < end. A running job without a placement is
// counted in Unplaced and its rounded alloc_procs in Busy. Pieces outside
// the mesh, or subcube pieces, are errors naming the file, job and column.
func snapshotAt(js []results.Job, m policy.Machine, t float64) (meshSnapshot, error) {
	s := meshSnapshot{T: t}
	for i := range js {
		j := &js[i]
		if j.Submit <= t && t < j.Start {
			s.Waiting++
		}
		if !(j.Start <= t && t < j.End) {
			continue
		}
		s.Running++
		if len(j.Placement) == 0 {
			s.Unplaced++
			s.Busy += int64(math.Round(j.AllocProcs))
			continue
		}
		for _, p := range j.Placement {
			if p.Mask != 0 || p.W < 1 || p.H < 1 || p.X < 0 || p.Y < 0 || int(p.X)+int(p.W) > m.Width || int(p.Y)+int(p.H) > m.Height {
				return s, fmt.Errorf("%s: job %d of trace %s: column \"placement\": piece (x %d, y %d, w %d, h %d, mask %d) is not a submesh of %s", schema.JobsFile, j.JobID, j.Trace, p.X, p.Y, p.W, p.H, p.Mask, m)
			}
			s.Blocks = append(s.Blocks, meshBlock{JobID: j.JobID, Piece: p})
			s.Busy += int64(p.W) * int64(p.H)
		}
	}
	sort.SliceStable(s.Blocks, func(a, b int) bool { return s.Blocks[a].JobID < s.Blocks[b].JobID })
	return s, nil
}

// jobNodes is the number of nodes a job held: its pieces' sizes, else its
// rounded alloc_procs.
func jobNodes(j *results.Job) int64 {
	if len(j.Placement) == 0 {
		return int64(math.Round(j.AllocProcs))
	}
	var n int64
	for _, p := range j.Placement {
		n += int64(p.W) * int64(p.H)
	}
	return n
}

// busyInstant returns an instant of the run in its arrival period [first
// submit, last submit), when every pair of the trace still has jobs
// arriving, at which the nodes held equal their time-weighted q-quantile
// over that period: of the steps of the busy function at that level, the
// one starting nearest the median submit time (the earlier on a tie). ok
// is false when the period is empty.
func busyInstant(js []results.Job, q float64) (t float64, busy int64, ok bool) {
	type ev struct {
		t float64
		d int64
	}
	evs := make([]ev, 0, 2*len(js))
	subs := make([]float64, len(js))
	for i := range js {
		j := &js[i]
		subs[i] = j.Submit
		if j.End > j.Start {
			n := jobNodes(j)
			evs = append(evs, ev{j.Start, n}, ev{j.End, -n})
		}
	}
	if len(subs) == 0 {
		return 0, 0, false
	}
	sort.Float64s(subs)
	lo, hi, mid := subs[0], subs[len(subs)-1], subs[len(subs)/2]
	if !(hi > lo) {
		return 0, 0, false
	}
	// Steps [t0, t0+dur) of the busy function, clipped to [lo, hi).
	type step struct {
		t0, dur float64
		v       int64
	}
	sort.Slice(evs, func(a, b int) bool { return evs[a].t < evs[b].t })
	var steps []step
	v, at := int64(0), lo
	for i := 0; i < len(evs) && evs[i].t < hi; {
		t := evs[i].t
		if t > at {
			steps = append(steps, step{at, t - at, v})
			at = t
		}
		for ; i < len(evs) && evs[i].t == t; i++ {
			v += evs[i].d
		}
	}
	steps = append(steps, step{at, hi - at, v})
	byV := slices.Clone(steps)
	sort.SliceStable(byV, func(a, b int) bool { return byV[a].v < byV[b].v })
	level, acc := byV[len(byV)-1].v, 0.0
	for _, s := range byV {
		acc += s.dur
		if acc >= q*(hi-lo) {
			level = s.v
			break
		}
	}
	best := -1
	for i, s := range steps {
		if s.v == level && (best < 0 || math.Abs(s.t0-mid) < math.Abs(steps[best].t0-mid)) {
			best = i
		}
	}
	return steps[best].t0, level, true
}

// meshInstant is one instant drawn, with how it was chosen.
type meshInstant struct {
	T     float64
	Short string // for the title
	Why   string // for the note
}

// meshInstants chooses the instants of the maps: the --window start when
// set, else the instants of mapQuantiles of the reference run ref.
func meshInstants(c *Context, js []results.Job, ref results.Pair, procs int) []meshInstant {
	if c.Opts.Window.Set() {
		return []meshInstant{{T: c.Opts.Window.Start, Short: "--window start", Why: "the start of --window"}}
	}
	var out []meshInstant
	for _, q := range mapQuantiles {
		t, busy, ok := busyInstant(js, q)
		if !ok || slices.ContainsFunc(out, func(m meshInstant) bool { return m.T == t }) {
			continue
		}
		what := "median"
		if q != 0.5 {
			what = fmt.Sprintf("%g%% quantile", q*100)
		}
		out = append(out, meshInstant{T: t, Short: what + " busy fraction of " + ref.String(), Why: fmt.Sprintf("where %s's busy fraction is at its time-weighted %s, %s over the arrival period (first to last submit); of the instants at that level, the one nearest the median submit time",
			ref, what, strconv.FormatFloat(float64(busy)/float64(procs), 'f', 3, 64))})
	}
	return out
}

// meshPanel is one pair's map on a mesh-map page.
type meshPanel struct {
	Plot    *goplot.Plot
	Blocks  []plot.Block // what Plot draws
	Caption string
}

// MeshMapPage shows the mesh at one instant under several pairs, side by
// side, each panel with square nodes.
type MeshMapPage struct {
	Title  string
	Panels []meshPanel
	Note   string
	W, H   int // mesh size
}

// Draw implements Page.
func (p *MeshMapPage) Draw(c draw.Canvas) {
	c = draw.Crop(c, Margin, -Margin, Margin, -Margin)
	y := drawTitle(c, p.Title)
	ns := plot.TextStyle(8)
	ns.Color = grayText
	ns.YAlign = draw.YTop
	lines := wrap(ns, p.Note, c.Max.X-c.Min.X)
	lh := vg.Length(8 * 1.3)
	noteH := vg.Length(len(lines))*lh + 4
	for i, l := range lines {
		c.FillText(ns, vg.Point{X: c.Min.X, Y: c.Min.Y + noteH - 4 - vg.Length(i)*lh}, l)
	}
	area := draw.Crop(c, 0, 0, noteH+4, y-c.Max.Y)
	n := len(p.Panels)
	if n == 0 {
		return
	}
	// The grid of panels that gives the largest nodes, measured on the
	// first panel's plot (every panel has the same axes).
	const capH = 12 // caption line under each panel
	aw, ah := area.Max.X-area.Min.X, area.Max.Y-area.Min.Y
	cellOf := func(cols, rows, i int) draw.Canvas {
		cw, ch := aw/vg.Length(cols), ah/vg.Length(rows)
		r, k := i/cols, i%cols
		cell := draw.Canvas{Canvas: area.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: area.Min.X + vg.Length(k)*cw, Y: area.Max.Y - vg.Length(r+1)*ch},
			Max: vg.Point{X: area.Min.X + vg.Length(k+1)*cw, Y: area.Max.Y - vg.Length(r)*ch},
		}}
		return draw.Crop(cell, 6, -6, capH, -4)
	}
	cols, best := 1, vg.Length(0)
	for k := 1; k <= n; k++ {
		rows := (n + k - 1) / k
		pl := p.Panels[0].Plot
		dc := pl.DataCanvas(plot.EqualAspect(pl, cellOf(k, rows, 0)))
		if node := (dc.Max.X - dc.Min.X) / vg.Length(p.W); node > best {
			cols, best = k, node
		}
	}
	rows := (n + cols - 1) / cols
	cs := plot.TextStyle(8)
	cs.XAlign, cs.YAlign = draw.XCenter, draw.YTop
	for i, pn := range p.Panels {
		cell := plot.EqualAspect(pn.Plot, cellOf(cols, rows, i))
		pn.Plot.Draw(cell)
		c.FillText(cs, vg.Point{X: (cell.Min.X + cell.Max.X) / 2, Y: cell.Min.Y - 2}, plot.FitText(cs, pn.Caption, aw/vg.Length(cols)))
	}
}

// buildMeshMaps draws, for the first focus trace (the first replication
// at the highest load of a sweep), the mesh at each chosen instant under
// every pair (at most mapPages pages of mapPairs panels per instant),
// grouped by scheduler so that allocators sit side by side.
func buildMeshMaps(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	m, _ := meshOf(e)
	fs := focuses(e)
	if len(fs) == 0 {
		return nil, nil
	}
	f := fs[0]
	tr, rep := f.Traces[0], f.Rep
	ref := occupancyPair(c, e)
	runs := map[results.Pair][]results.Job{}
	for i := range e.Rows {
		r := &e.Rows[i]
		if r.Trace == tr && r.Rep == rep {
			runs[results.PairOf(r)] = c.runJobs(results.Key{Trace: tr, Pair: results.PairOf(r), Rep: rep, Machine: r.Machine, Comm: r.Comm})
		}
	}
	if len(runs[ref]) == 0 {
		return nil, nil
	}
	var ps []results.Pair
	for _, p := range e.Pairs() {
		if _, ok := runs[p]; ok {
			ps = append(ps, p)
		}
	}
	pages := pairPages(byScheduler(ps, ref), mapPairs)
	left := 0
	if len(pages) > mapPages {
		for _, pg := range pages[mapPages:] {
			left += len(pg)
		}
		pages = pages[:mapPages]
	}
	unit := expUnit(c, e)
	var out []Page
	for _, in := range meshInstants(c, runs[ref], ref, m.Procs) {
		for pi, part := range pages {
			pg := &MeshMapPage{W: m.Width, H: m.Height,
				Title: fmt.Sprintf("Mesh at t = %s (%s): %s%s%s", plot.Compact(in.T), in.Short, c.expTitle(e), focusTitle(e, f), partSuffix(pi, len(pages)))}
			unplaced := 0
			for _, pair := range part {
				s, err := snapshotAt(runs[pair], m, in.T)
				if err != nil {
					return nil, err
				}
				unplaced += s.Unplaced
				blocks := make([]plot.Block, len(s.Blocks))
				for i, b := range s.Blocks {
					blocks[i] = plot.Block{X: int(b.Piece.X), Y: int(b.Piece.Y), W: int(b.Piece.W), H: int(b.Piece.H), Shade: int(b.JobID), Label: strconv.FormatInt(b.JobID, 10), Group: int(b.JobID)}
				}
				pg.Panels = append(pg.Panels, meshPanel{
					Plot:    plot.NewMeshPlot(c.Label(pair), m.Width, m.Height, blocks),
					Blocks:  blocks,
					Caption: fmt.Sprintf("%d running, %d waiting, busy %.3f", s.Running, s.Waiting, float64(s.Busy)/float64(m.Procs)),
				})
			}
			note := fmt.Sprintf("Trace %s (rep %d). Every panel shows the same instant t = %s %s, %s. The pairs' schedules differ, so each panel shows the jobs its pair had running at t (start <= t < end): rectangles are their placements (jobs.parquet), numbered and coloured by job id (a job keeps its colour in every panel; a job in several pieces, from a non-contiguous allocator, has no outline between its own nodes and its number on its largest piece), free nodes white; node (x, y) is the square above and right of tick (x, y); grid lines between nodes, darker every %d. Busy: fraction of the %d nodes held.",
				tr, rep, plot.Compact(in.T), unit, in.Why, plot.MajorGrid, m.Procs)
			if unplaced > 0 {
				note += fmt.Sprintf(" %d running job(s) without a recorded placement are counted but not drawn.", unplaced)
			}
			if left > 0 {
				note += fmt.Sprintf(" %d further pair(s) not drawn (at most %d per instant).", left, mapPages*mapPairs)
			}
			pg.Note = note
			out = append(out, pg)
		}
	}
	return out, nil
}

// sizeLabels labels the size groups ("1-256", or "3" for one size).
func sizeLabels(bounds [][2]int) []string {
	out := make([]string, len(bounds))
	for k, b := range bounds {
		out[k] = strconv.Itoa(b[0])
		if b[1] > b[0] {
			out[k] += "-" + strconv.Itoa(b[1])
		}
	}
	return out
}

// groupStats is the count, mean and SD (n−1 divisor, NaN below two jobs;
// the mean NaN with none) of the response times of one size group.
type groupStats struct {
	N        int64
	Mean, SD float64
}

// fromSummaries pools the size_classes of summary rows (replications)
// into one groupStats per group of bounds: the pooled mean, and the SD of
// the pooled jobs from each run's count, mean and SD. ok is false when a
// row has no size_classes (results written before the column) or classes
// other than bounds.
func fromSummaries(rows []*results.Summary, bounds [][2]int) (out []groupStats, ok bool) {
	out = make([]groupStats, len(bounds))
	sum := make([]float64, len(bounds))
	for _, r := range rows {
		if len(r.SizeClasses) != len(bounds) {
			return nil, false
		}
		for k, sc := range r.SizeClasses {
			if sc.Lo != int64(bounds[k][0]) || sc.Hi != int64(bounds[k][1]) {
				return nil, false
			}
			if sc.Jobs > 0 {
				out[k].N += sc.Jobs
				sum[k] += float64(sc.Jobs) * sc.MeanResponse
			}
		}
	}
	for k := range out {
		out[k].Mean, out[k].SD = math.NaN(), math.NaN()
		if out[k].N > 0 {
			out[k].Mean = sum[k] / float64(out[k].N)
		}
		if out[k].N < 2 {
			continue
		}
		ss := 0.0 // the pooled sum of squared deviations from the pooled mean
		for _, r := range rows {
			sc := r.SizeClasses[k]
			if sc.Jobs == 0 {
				continue
			}
			if sc.Jobs > 1 {
				ss += float64(sc.Jobs-1) * sc.SDResponse * sc.SDResponse
			}
			d := sc.MeanResponse - out[k].Mean
			ss += float64(sc.Jobs) * d * d
		}
		out[k].SD = math.Sqrt(ss / float64(out[k].N-1))
	}
	return out, true
}

// fromJobs computes the groupStats of jobs by requested processors (the
// allocated ones, rounded up, when unknown), and the number of jobs in no
// group.
func fromJobs(js []results.Job, bounds [][2]int) ([]groupStats, int64) {
	cs := metrics.NewClassStats(bounds)
	var other int64
	for i := range js {
		p := js[i].ReqProcs
		if p <= 0 {
			p = int64(math.Ceil(js[i].AllocProcs))
		}
		if p < 1 || p > int64(bounds[len(bounds)-1][1]) {
			other++
			continue
		}
		cs.Add(int(p), js[i].Response)
	}
	out := make([]groupStats, len(bounds))
	for k := range out {
		out[k] = groupStats{N: cs.N[k], Mean: cs.Mean(k), SD: cs.SD(k)}
	}
	return out, other
}

// buildMeshSizeGroups draws the mean response time per size group (Chu
// 1995 §5.3's quarters of the mesh) for each focus, at most sizePairs
// pairs per chart, and tabulates mean, SD and job count per group and
// pair: from summary.parquet's size_classes (the jobs counted in the
// statistics), else from jobs.parquet.
func buildMeshSizeGroups(c *Context, e *results.Experiment, idx int) ([]Page, error) {
	m, _ := meshOf(e)
	unit := expUnit(c, e)
	bounds := metrics.SizeQuarters(m.Procs)
	labels := sizeLabels(bounds)
	ref := occupancyPair(c, e)
	var pages []Page
	for _, f := range focuses(e) {
		stats := map[results.Pair][]groupStats{}
		var others int64
		fromSummary := true
		var ps []results.Pair
		for _, pair := range e.Pairs() {
			var rows []*results.Summary
			for i := range e.Rows {
				if r := &e.Rows[i]; results.PairOf(r) == pair && slices.Contains(f.Traces, r.Trace) {
					rows = append(rows, r)
				}
			}
			st, ok := fromSummaries(rows, bounds)
			if !ok {
				pj := pooledFor(c, e, f, pair)
				if len(pj) == 0 {
					continue
				}
				js := make([]results.Job, len(pj))
				for i := range pj {
					js[i] = pj[i].job()
				}
				if len(js) == 0 {
					continue
				}
				var other int64
				st, other = fromJobs(js, bounds)
				others += other
				fromSummary = false
			}
			stats[pair] = st
			ps = append(ps, pair)
		}
		if len(ps) == 0 {
			continue
		}
		src := "summary.parquet's size_classes: the jobs counted in the statistics"
		if !fromSummary {
			src = "jobs.parquet (results without size_classes)"
		}
		pooled := ""
		if len(f.Traces) > 1 {
			pooled = fmt.Sprintf(", pooled over %d replications", len(f.Traces))
		}
		groups := strings.Join(labels, ", ")
		note := fmt.Sprintf("Groups of requested processors: the quarters of the %d nodes, %s (Chu 1995, sec. 5.3: 1-256, ..., 769-1024 on 32x32); from %s%s.", m.Procs, groups, src, pooled)
		if others > 0 {
			note += fmt.Sprintf(" %d job(s) with an unknown request left out.", others)
		}
		parts := pairPages(byScheduler(ps, ref), sizePairs)
		for pi, part := range parts {
			p := plot.New(fmt.Sprintf("Mean response time by size group: %s%s%s", c.expTitle(e), focusTitle(e, f), partSuffix(pi, len(parts))),
				"requested processors (quarters of the mesh)", "mean response time ("+unit+")")
			bars := &plot.Bars{Width: 0.8}
			fig := &plot.Figure{Name: fmt.Sprintf("exp%d-mesh-size-groups-%s-%d", idx, f.Name, pi+1), Plot: p, Note: note + " SD in the table."}
			for k, pair := range part {
				vals := make([]float64, len(bounds))
				for k, g := range stats[pair] {
					vals[k] = g.Mean
				}
				// Styles by position: the bars of one chart always differ.
				bars.Values = append(bars.Values, vals)
				bars.Styles = append(bars.Styles, plot.StyleOf(k))
				fig.Legend = append(fig.Legend, plot.Entry{Label: c.Label(pair), Style: plot.StyleOf(k), Bar: true})
			}
			p.Add(bars)
			p.NominalX(labels...)
			p.Y.Min = 0
			pages = append(pages, &FigurePage{Fig: fig})
		}
		t := &table.Table{Name: fmt.Sprintf("exp%d-mesh-size-groups-%s", idx, f.Name),
			Title:  fmt.Sprintf("Response time by size group: %s%s", c.expTitle(e), focusTitle(e, f)),
			Header: []string{"alloc", "sched"}, Align: []table.Align{table.Left, table.Left},
			Notes: fmt.Sprintf("Mean and standard deviation (n-1 divisor) of the response time in %s, and jobs, per group of requested processors. %s", unit, note)}
		for _, l := range labels {
			t.Header = append(t.Header, l+" mean", l+" SD", l+" jobs")
			t.Align = append(t.Align, table.Right, table.Right, table.Right)
		}
		for _, pair := range ps {
			row := []string{pair.Alloc, pair.Sched}
			for _, g := range stats[pair] {
				row = append(row, fmtNum(g.Mean), fmtNum(g.SD), strconv.FormatInt(g.N, 10))
			}
			t.Add(row...)
		}
		pages = append(pages, TablePages(t)...)
	}
	return pages, nil
}
