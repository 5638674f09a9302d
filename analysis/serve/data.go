package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
)

// data is what the handlers serve: the loaded set, its experiments and
// runs, and per run the sorted per-job values the CDFs need.
type data struct {
	set   *results.Set
	level float64
	unit  string // "s" or "time units"
	exps  []results.Experiment
	cells [][]results.Cell // per experiment
	pts   [][]point        // per experiment: its loads (sweeps) or traces
	runs  []runInfo
	byKey map[results.Key]int // run id
	dig   map[results.Key]*digest
	cache *runCache // the replay's prepared runs
}

// point is one x position of an experiment: a load of a sweep, or a
// trace otherwise.
type point struct {
	Label string `json:"label"`
	Load  num    `json:"load"`            // -1 when unknown
	Trace string `json:"trace,omitempty"` // non-sweeps
}

// runInfo is one run (trace, pair, rep) of the summary.
type runInfo struct {
	ID      int    `json:"id"`
	Exp     int    `json:"exp"`
	Point   int    `json:"point"`
	Trace   string `json:"trace"`
	Machine string `json:"machine"`
	Alloc   string `json:"alloc"`
	Sched   string `json:"sched"`
	Rep     int64  `json:"rep"`
	Load    num    `json:"load"`
	Jobs    int64  `json:"jobs"`   // job rows in jobs.parquet (0 without)
	Placed  bool   `json:"placed"` // every job row has a placement
	key     results.Key
}

// digest is what the CDFs keep of a run's jobs: each value sorted.
type digest struct {
	wait, resp, bsld []float64
	placed           bool
}

// num is a float that encodes NaN as null and ±Inf as "inf" / "-inf",
// which JSON cannot hold.
type num float64

// MarshalJSON implements json.Marshaler.
func (x num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return []byte("null"), nil
	case math.IsInf(f, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-inf"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

func nums(fs []float64) []num {
	out := make([]num, len(fs))
	for i, f := range fs {
		out[i] = num(f)
	}
	return out
}

// newData indexes a set: experiments, cells, runs, and one pass over the
// jobs for the CDF digests, which also fills the replay cache as far as
// it goes.
func newData(set *results.Set, o Options) (*data, error) {
	level := o.Level
	if level == 0 {
		level = 0.95
	}
	if !(level > 0 && level < 1) {
		return nil, fmt.Errorf("confidence level %g: want a value between 0 and 1", level)
	}
	if len(set.Summary) == 0 {
		return nil, fmt.Errorf("%s: no runs in the summary", set.Dir)
	}
	d := &data{set: set, level: level, unit: set.TimeUnit(), exps: set.Experiments(),
		byKey: map[results.Key]int{}, dig: map[results.Key]*digest{}}
	d.cache = newRunCache(o.CacheBytes, 0, d.loadRun)
	if err := d.digest(); err != nil {
		return nil, err
	}
	for ei := range d.exps {
		e := &d.exps[ei]
		cells := e.Cells()
		d.cells = append(d.cells, cells)
		var pts []point
		if e.Sweep() {
			for _, l := range e.Loads {
				pts = append(pts, point{Label: results.FormatLoad(l), Load: num(l)})
			}
		} else {
			for _, t := range e.Traces {
				l := -1.0
				for i := range e.Rows {
					if e.Rows[i].Trace == t {
						l = e.Rows[i].Load
					}
				}
				pts = append(pts, point{Label: t, Load: num(l), Trace: t})
			}
		}
		d.pts = append(d.pts, pts)
		for _, c := range cells {
			pi := d.pointOf(ei, &c)
			for _, r := range c.Rows {
				k := results.Key{Trace: r.Trace, Pair: c.Pair, Rep: r.Rep, Machine: r.Machine, Comm: r.Comm}
				ri := runInfo{ID: len(d.runs), Exp: ei, Point: pi, Trace: r.Trace, Machine: r.Machine, Alloc: r.Alloc,
					Sched: r.Sched, Rep: r.Rep, Load: num(r.Load), key: k}
				if g := d.dig[k]; g != nil {
					ri.Jobs, ri.Placed = int64(len(g.wait)), g.placed
				}
				d.byKey[k] = ri.ID
				d.runs = append(d.runs, ri)
			}
		}
	}
	return d, nil
}

// pointOf returns the index of a cell's point in its experiment.
func (d *data) pointOf(ei int, c *results.Cell) int {
	for i, p := range d.pts[ei] {
		if c.Trace != "" && p.Trace == c.Trace || c.Trace == "" && float64(p.Load) == c.Load {
			return i
		}
	}
	return -1
}

// digest reads every run's jobs once and keeps their sorted waits,
// responses and bounded slowdowns. When the jobs are streamed from the
// file, it also puts the runs prepared for the replay in the cache until
// one does not fit, so that the first requests need no second pass over
// the file (a set held in memory finds a run by binary search).
func (d *data) digest() error {
	warm := d.set.Jobs == nil
	fn := func(k results.Key, js []results.Job) error {
		if warm {
			warm = d.cache.put(prepare(k, js))
		}
		g := &digest{wait: make([]float64, len(js)), resp: make([]float64, len(js)), bsld: make([]float64, len(js)), placed: len(js) > 0}
		for i := range js {
			g.wait[i], g.resp[i], g.bsld[i] = js[i].Wait, js[i].Response, js[i].BoundedSlowdown
			if len(js[i].Placement) == 0 {
				g.placed = false
			}
		}
		slices.Sort(g.wait)
		slices.Sort(g.resp)
		slices.Sort(g.bsld)
		d.dig[k] = g
		return nil
	}
	err := d.set.EachJobRun(fn)
	if errors.Is(err, results.ErrUnsorted) { // loaded whole: a second pass sees every run once
		clear(d.dig)
		err = d.set.EachJobRun(fn)
	}
	return err
}

// httpError is an error with an HTTP status.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) error {
	return &httpError{http.StatusNotFound, fmt.Sprintf(format, args...)}
}

// api wraps a JSON handler: the value as JSON, or {"error": message} with
// the error's status (500 unless an httpError).
func (d *data) api(fn func(r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		v, err := fn(r)
		var b []byte
		if err == nil {
			b, err = json.Marshal(v)
		}
		if err != nil {
			code := http.StatusInternalServerError
			var he *httpError
			if errors.As(err, &he) {
				code = he.code
			}
			b, _ = json.Marshal(map[string]string{"error": err.Error()})
			w.WriteHeader(code)
		}
		w.Write(append(b, '\n'))
	}
}

// intParam parses the query parameter name as an index in [0, n); def
// when absent (def < 0: required).
func intParam(r *http.Request, name string, n, def int) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		if def < 0 {
			return 0, badRequest("parameter %s: missing", name)
		}
		return def, nil
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || i >= n {
		return 0, badRequest("parameter %s=%q: want an integer from 0 to %d", name, s, n-1)
	}
	return i, nil
}

// floatParam parses an optional finite float parameter.
func floatParam(r *http.Request, name string) (float64, bool, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, badRequest("parameter %s=%q: want a finite number", name, s)
	}
	return f, true, nil
}

// pairsParam returns the pairs named by the repeated parameter pair
// ("alloc/sched"), which must be pairs of experiment ei; all of its pairs
// when none is named.
func (d *data) pairsParam(r *http.Request, ei int) ([]results.Pair, error) {
	all := d.exps[ei].Pairs()
	names := r.URL.Query()["pair"]
	if len(names) == 0 {
		return all, nil
	}
	var out []results.Pair
	for _, s := range names {
		p, err := results.ParsePair(s)
		if err != nil {
			return nil, badRequest("parameter pair: %v", err)
		}
		if !slices.Contains(all, p) {
			return nil, notFound("pair %s: not in experiment %d (%s)", p, ei, d.exps[ei].Name)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// metricInfo describes a summary column for the page.
type metricInfo struct {
	Column string `json:"column"`
	Name   string `json:"name"`
	Short  string `json:"short"`
	Label  string `json:"label"` // axis label, with the unit
	Lower  bool   `json:"lower"` // lower is better
}

// extraMetrics are summary columns that metrics.Summary does not list
// but the page shows where they are informative (mesh placements).
var extraMetrics = []metrics.Metric{
	{Column: "pieces", Name: "mean pieces per job", Short: "pieces", Unit: metrics.Dimensionless, Lower: true},
	{Column: "dispersion", Name: "mean pairwise hop distance", Short: "disp", Unit: metrics.Dimensionless, Lower: true},
}

func lookup(col string) (metrics.Metric, bool) {
	if m, ok := metrics.Lookup(col); ok {
		return m, true
	}
	for _, m := range extraMetrics {
		if m.Column == col {
			return m, true
		}
	}
	return metrics.Metric{}, false
}

func (d *data) metricInfo(col string) metricInfo {
	m, _ := lookup(col)
	return metricInfo{Column: col, Name: m.Name, Short: m.Short, Label: m.AxisLabel(d.unit), Lower: m.Lower}
}

// TableMetrics are the summary table's columns, always shown; the
// columns of OptionalMetrics follow where informative.
var TableMetrics = []string{"mean_response", "sd_response", "mean_wait", "max_wait", "mean_bsld", "mean_slowdown", "utilization", "throughput", "mean_queue"}

// OptionalMetrics are shown in the table and offered as curves only in
// experiments where some run has a value that is neither NaN nor 0
// (fragmentation, deadlines, the observation window) and, for pieces and
// dispersion, only on meshes.
var OptionalMetrics = append([]string{"internal_frag", "external_frag", "pieces", "dispersion", "deadline_miss_rate", "window_delay", "window_util", "window_throughput", "window_power"},
	percentileColumns()...)

// percentileColumns are the summary's percentile columns
// (metrics.PercentileMetrics): informative in files that have them.
func percentileColumns() []string {
	var cols []string
	for _, m := range metrics.PercentileMetrics {
		cols = append(cols, m.Column)
	}
	return cols
}

// meshOnly are the optional metrics shown on mesh machines only (machines
// whose family lays the nodes on a grid, policy.Family.View.Grid).
var meshOnly = map[string]bool{"pieces": true, "dispersion": true}

// informative reports whether some row of the experiment has a value of
// col that is neither NaN nor 0 (and, for meshOnly columns, whether the
// machine is a mesh).
func informative(e *results.Experiment, col string) bool {
	if meshOnly[col] && !onGrid(e.Machine) {
		return false
	}
	for i := range e.Rows {
		if v, _ := e.Rows[i].Metric(col); v != 0 && !math.IsNaN(v) {
			return true
		}
	}
	return false
}

// tableCols returns the table columns of experiment ei.
func (d *data) tableCols(ei int) []string {
	cols := slices.Clone(TableMetrics)
	for _, c := range OptionalMetrics {
		if informative(&d.exps[ei], c) {
			cols = append(cols, c)
		}
	}
	return cols
}

// curveCols returns the metrics offered as curves in experiment ei: the
// table's, then power and makespan.
func (d *data) curveCols(ei int) []string {
	return append(d.tableCols(ei), "power", "makespan")
}

type expInfo struct {
	ID      int          `json:"id"`
	Name    string       `json:"name"`
	Machine string       `json:"machine"`
	Sweep   bool         `json:"sweep"`
	PointBy string       `json:"point_by"` // "load" or "trace"
	Points  []point      `json:"points"`
	Pairs   []pairInfo   `json:"pairs"`
	Metrics []metricInfo `json:"metrics"` // the curve metrics
	Runs    []int        `json:"runs"`
	HasJobs bool         `json:"has_jobs"`
}

type pairInfo struct {
	Alloc string `json:"alloc"`
	Sched string `json:"sched"`
	Label string `json:"label"` // "alloc / sched"
	Param string `json:"param"` // "alloc/sched", the API's pair parameter
}

func pairOf(p results.Pair) pairInfo {
	return pairInfo{p.Alloc, p.Sched, p.String(), p.Alloc + "/" + p.Sched}
}

// info is GET /api/info: the set's experiments, pairs, points and runs.
func (d *data) info(*http.Request) (any, error) {
	var exps []expInfo
	for ei := range d.exps {
		e := &d.exps[ei]
		x := expInfo{ID: ei, Name: e.Name, Machine: e.Machine, Sweep: e.Sweep(), PointBy: "trace", Points: d.pts[ei]}
		if x.Sweep {
			x.PointBy = "load"
		}
		for _, p := range e.Pairs() {
			x.Pairs = append(x.Pairs, pairOf(p))
		}
		for _, c := range d.curveCols(ei) {
			x.Metrics = append(x.Metrics, d.metricInfo(c))
		}
		for _, r := range d.runs {
			if r.Exp == ei {
				x.Runs = append(x.Runs, r.ID)
				x.HasJobs = x.HasJobs || r.Jobs > 0
			}
		}
		exps = append(exps, x)
	}
	return map[string]any{
		"dir": d.set.Dir, "version": d.set.Version, "time_unit": d.unit, "level": d.level,
		"experiments": exps, "runs": d.runs,
		"limits": map[string]int{"replay_jobs": MaxReplayJobs, "series_points": MaxSeriesPoints, "cdf_points": MaxCDFPoints},
	}, nil
}

// ci is a mean and its half-width (null when undefined).
type ci struct {
	Mean num `json:"mean"`
	Half num `json:"half"`
	N    int `json:"n"`
}

type summaryRow struct {
	Alloc  string `json:"alloc"`
	Sched  string `json:"sched"`
	Point  string `json:"point"`
	Load   num    `json:"load"`
	Reps   int    `json:"reps"`
	Jobs   int64  `json:"jobs"`
	Values []ci   `json:"values"` // one per column
}

// summary is GET /api/summary?exp=E: one row per cell (pair × point) of
// the experiment, each column's mean over the replications with its
// Student-t half-width.
func (d *data) summary(r *http.Request) (any, error) {
	ei, err := intParam(r, "exp", len(d.exps), 0)
	if err != nil {
		return nil, err
	}
	cols := d.tableCols(ei)
	var mi []metricInfo
	for _, c := range cols {
		mi = append(mi, d.metricInfo(c))
	}
	var rows []summaryRow
	for _, c := range d.cells[ei] {
		row := summaryRow{Alloc: c.Pair.Alloc, Sched: c.Pair.Sched, Point: d.pts[ei][d.pointOf(ei, &c)].Label, Load: num(c.Load), Reps: len(c.Rows)}
		for _, v := range c.Values("jobs") {
			row.Jobs += int64(v)
		}
		for _, col := range cols {
			x := c.CI(col, d.level)
			row.Values = append(row.Values, ci{num(x.Mean), num(x.HalfWidth), x.N})
		}
		rows = append(rows, row)
	}
	return map[string]any{"exp": ei, "name": d.exps[ei].Name, "point_by": pointBy(&d.exps[ei]), "level": d.level,
		"columns": mi, "rows": rows}, nil
}

func pointBy(e *results.Experiment) string {
	if e.Sweep() {
		return "load"
	}
	return "trace"
}

type curvePoint struct {
	X    num `json:"x"`
	Mean num `json:"mean"`
	Half num `json:"half"`
	N    int `json:"n"`
}

type curve struct {
	Pair   pairInfo     `json:"pair"`
	Points []curvePoint `json:"points"`
}

// curves is GET /api/curves?exp=E&metric=COL[&pair=A/S...]: the metric
// against the experiment's points for each pair named (every pair when
// none), means with Student-t half-widths across replications. x is the
// load in a sweep, the trace's index in points otherwise.
func (d *data) curves(r *http.Request) (any, error) {
	ei, err := intParam(r, "exp", len(d.exps), 0)
	if err != nil {
		return nil, err
	}
	col := r.URL.Query().Get("metric")
	if col == "" {
		col = "mean_response"
	}
	if !slices.Contains(d.curveCols(ei), col) {
		return nil, notFound("metric %q: not a curve metric of experiment %d (one of %v)", col, ei, d.curveCols(ei))
	}
	pairs, err := d.pairsParam(r, ei)
	if err != nil {
		return nil, err
	}
	e := &d.exps[ei]
	var out []curve
	for _, p := range pairs {
		cv := curve{Pair: pairOf(p), Points: []curvePoint{}}
		for _, c := range d.cells[ei] {
			if c.Pair != p {
				continue
			}
			x := c.Load
			if !e.Sweep() {
				x = float64(d.pointOf(ei, &c))
			}
			v := c.CI(col, d.level)
			cv.Points = append(cv.Points, curvePoint{num(x), num(v.Mean), num(v.HalfWidth), v.N})
		}
		sort.SliceStable(cv.Points, func(a, b int) bool { return cv.Points[a].X < cv.Points[b].X })
		out = append(out, cv)
	}
	xl := "offered load"
	if !e.Sweep() {
		xl = "trace"
	}
	return map[string]any{"exp": ei, "metric": d.metricInfo(col), "x_label": xl, "point_by": pointBy(e),
		"points": d.pts[ei], "level": d.level, "log_suggested": logSuggested(out), "curves": out}, nil
}

// LogRange is the ratio of the largest to the smallest positive mean of
// the curves past which the page draws them on a log axis (the viewer can
// switch it off): one pair far above the others would squash them.
const LogRange = 100

// logSuggested reports whether the curves' positive means span more than
// LogRange.
func logSuggested(cs []curve) bool {
	lo, hi := math.Inf(1), 0.0
	for _, c := range cs {
		for _, p := range c.Points {
			if v := float64(p.Mean); v > 0 && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return hi > LogRange*lo
}

// MaxCDFPoints is the most points of one CDF curve: larger samples are
// cut to this many quantiles.
const MaxCDFPoints = 400

// cdfMetrics are the per-job columns the CDF endpoint offers.
var cdfMetrics = map[string]string{"wait": "wait time", "response": "response time", "bsld": "bounded slowdown"}

type cdfCurve struct {
	Pair pairInfo `json:"pair"`
	N    int      `json:"n"`
	X    []num    `json:"x"`
	Y    []num    `json:"y"`
}

// cdf is GET /api/cdf?exp=E&metric=wait|response|bsld[&point=P][&pair=...]:
// the empirical distribution of the per-job values of each pair at one
// point (the experiment's last by default), jobs pooled over the
// replications, as steps (x, F(x)) at distinct values: every value when
// there are at most MaxCDFPoints, else MaxCDFPoints quantiles.
func (d *data) cdf(r *http.Request) (any, error) {
	ei, err := intParam(r, "exp", len(d.exps), 0)
	if err != nil {
		return nil, err
	}
	pi, err := intParam(r, "point", len(d.pts[ei]), len(d.pts[ei])-1)
	if err != nil {
		return nil, err
	}
	col := r.URL.Query().Get("metric")
	if col == "" {
		col = "wait"
	}
	name, ok := cdfMetrics[col]
	if !ok {
		return nil, notFound("metric %q: want wait, response or bsld", col)
	}
	pairs, err := d.pairsParam(r, ei)
	if err != nil {
		return nil, err
	}
	label := name + " (" + d.unit + ")"
	if col == "bsld" {
		label = name
	}
	var out []cdfCurve
	var pooled []float64
	found := false
	for _, p := range pairs {
		var vs []float64
		for _, c := range d.cells[ei] {
			if c.Pair != p || d.pointOf(ei, &c) != pi {
				continue
			}
			for _, row := range c.Rows {
				g := d.dig[results.Key{Trace: row.Trace, Pair: p, Rep: row.Rep, Machine: row.Machine, Comm: row.Comm}]
				if g == nil {
					continue
				}
				found = true
				switch col {
				case "wait":
					vs = append(vs, g.wait...)
				case "response":
					vs = append(vs, g.resp...)
				default:
					vs = append(vs, g.bsld...)
				}
			}
		}
		slices.Sort(vs)
		xs, ys := plot.ECDFSorted(vs, MaxCDFPoints)
		if xs == nil {
			xs, ys = []float64{}, []float64{}
		}
		out = append(out, cdfCurve{Pair: pairOf(p), N: len(vs), X: nums(xs), Y: nums(ys)})
		pooled = append(pooled, vs...)
	}
	if !found {
		return nil, notFound("experiment %d (%s): no job rows (jobs.parquet absent or empty)", ei, d.exps[ei].Name)
	}
	// A log x axis reads better when the values span orders of magnitude.
	slices.Sort(pooled)
	med, p99 := plot.QuantileSorted(pooled, 0.5), plot.QuantileSorted(pooled, 0.99)
	return map[string]any{"exp": ei, "metric": col, "label": label, "point": d.pts[ei][pi], "point_index": pi,
		"log_suggested": med > 0 && p99/med > 50, "p99": num(p99), "curves": out}, nil
}

// onGrid reports whether machine (a spec) lays its nodes on a W×H grid
// (its family's View.Grid: a mesh).
func onGrid(machine string) bool {
	m, err := policy.ParseMachine(machine)
	if err != nil {
		return false
	}
	f, _ := policy.FamilyOf(m.Kind)
	return f.View.Grid
}
