package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/schema"
)

// sweepSpec is the fixture of most tests: a flat machine, two loads, two
// replications, two pairs.
var sweepSpec = fixture.Spec{Procs: 8, Jobs: 12, Loads: []float64{0.5, 0.8}, Reps: 2, Pairs: 2, Seed: 3, Series: true}

// load writes set into a temporary results directory and loads it back
// as report serve does (streamed).
func load(t testing.TB, set *results.Set) *results.Set {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "results")
	if err := results.WriteDir(dir, set); err != nil {
		t.Fatal(err)
	}
	s, err := results.LoadWith(dir, results.LoadOptions{Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newServer(t testing.TB, set *results.Set, o Options) *httptest.Server {
	t.Helper()
	h, err := Handler(load(t, set), o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// get fetches path and decodes its JSON into v; it returns the status.
func get(t testing.TB, srv *httptest.Server, path string, v any) int {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(path, "/api/") && ct != "application/json" {
		t.Errorf("%s: Content-Type %q", path, ct)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, b)
		}
	}
	return resp.StatusCode
}

// f decodes a num as the page does: null is NaN, "inf" +Inf.
func f(x any) float64 {
	switch v := x.(type) {
	case nil:
		return math.NaN()
	case float64:
		return v
	case string:
		if v == "inf" {
			return math.Inf(1)
		}
		if v == "-inf" {
			return math.Inf(-1)
		}
	}
	panic("not a num")
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr   string
		public bool
		ok     bool
		msg    string
	}{
		{"127.0.0.1:8080", false, true, ""},
		{"127.0.0.2:0", false, true, ""},
		{"localhost:8080", false, true, ""},
		{"[::1]:8080", false, true, ""},
		{"0.0.0.0:8080", false, false, "not a loopback address"},
		{":8080", false, false, "every interface"},
		{"192.168.1.5:80", false, false, "--public"},
		{"example.com:80", false, false, "not a loopback"},
		{"0.0.0.0:8080", true, true, ""},
		{":8080", true, true, ""},
		{"127.0.0.1", false, false, "HOST:PORT"},
		{"127.0.0.1:http", false, false, "port"},
		{"127.0.0.1:70000", true, false, "port"},
	} {
		err := CheckAddr(c.addr, c.public)
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), c.msg) {
			t.Errorf("CheckAddr(%q, %v) = %v, want ok=%v (%q)", c.addr, c.public, err, c.ok, c.msg)
		}
	}
}

func TestHostGuard(t *testing.T) {
	for _, public := range []bool{false, true} {
		srv := newServer(t, fixture.Build(sweepSpec), Options{Public: public})
		for host, ok := range map[string]bool{"evil.example:80": public, "localhost": true, "127.0.0.1:1": true, "10.0.0.1": public} {
			req, _ := http.NewRequest("GET", srv.URL+"/api/info", nil)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if (resp.StatusCode == http.StatusOK) != ok {
				t.Errorf("public=%v, Host %s: status %d", public, host, resp.StatusCode)
			}
		}
	}
}

func TestPageAndAssets(t *testing.T) {
	srv := newServer(t, fixture.Build(sweepSpec), Options{})
	for path, want := range map[string]string{
		"/":                 `id="summary-table"`,
		"/static/app.js":    "function seek(",
		"/static/style.css": "canvas#machine",
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("%s: status %d, body lacks %q", path, resp.StatusCode, want)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
	}
	if get(t, srv, "/nothing-here", nil) != http.StatusNotFound {
		t.Error("unknown path served")
	}
	// F14 (issue 25): names no file can have are not found, not errors.
	for _, p := range []string{"/static/%c0%ae%c0%ae/etc/passwd", "/static/%ff", "/static/a//b", "/static/none.js"} {
		if code := get(t, srv, p, nil); code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, code)
		}
	}
}

// TestNoExternalRequests checks that no embedded asset names another
// host: the page fetches from its own server only.
func TestNoExternalRequests(t *testing.T) {
	url := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	err := fs.WalkDir(staticFS, "static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := staticFS.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range url.FindAllString(string(b), -1) {
			if m != "http://www.w3.org" { // the SVG namespace name, never fetched
				t.Errorf("%s names %q", path, m)
			}
		}
		if strings.Contains(string(b), "@import") {
			t.Errorf("%s imports", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

type infoResp struct {
	TimeUnit    string `json:"time_unit"`
	Experiments []struct {
		Name    string `json:"name"`
		Sweep   bool   `json:"sweep"`
		PointBy string `json:"point_by"`
		Points  []struct {
			Label string `json:"label"`
		} `json:"points"`
		Pairs []struct {
			Label, Param string
		} `json:"pairs"`
		Runs    []int `json:"runs"`
		HasJobs bool  `json:"has_jobs"`
		Metrics []struct {
			Column string `json:"column"`
			Label  string `json:"label"`
		} `json:"metrics"`
	} `json:"experiments"`
	Runs []struct {
		ID                  int
		Trace, Alloc, Sched string
		Machine             string
		Rep, Jobs           int64
		Load                any
		Placed              bool
		Point               int
	} `json:"runs"`
}

func TestInfo(t *testing.T) {
	srv := newServer(t, fixture.Build(sweepSpec), Options{})
	var in infoResp
	if get(t, srv, "/api/info", &in) != 200 {
		t.Fatal("status")
	}
	if in.TimeUnit != "time units" || len(in.Experiments) != 1 {
		t.Fatalf("%+v", in)
	}
	e := in.Experiments[0]
	if !e.Sweep || e.PointBy != "load" || len(e.Points) != 2 || e.Points[0].Label != "0.5" || e.Points[1].Label != "0.8" || !e.HasJobs {
		t.Errorf("experiment %+v", e)
	}
	if len(e.Pairs) != 2 || e.Pairs[0].Param != fixture.PairName(0).Alloc+"/"+fixture.PairName(0).Sched || e.Pairs[1].Label != fixture.PairName(1).String() {
		t.Errorf("pairs %+v", e.Pairs)
	}
	if len(in.Runs) != 8 || len(e.Runs) != 8 {
		t.Fatalf("%d runs", len(in.Runs))
	}
	for i, r := range in.Runs {
		if r.ID != i || r.Jobs != 12 || !r.Placed || r.Machine != "flat:8" {
			t.Errorf("run %+v", r)
		}
		if want := map[float64]int{0.5: 0, 0.8: 1}[f(r.Load)]; r.Point != want {
			t.Errorf("run %d: point %d, want %d", i, r.Point, want)
		}
	}
	cols := []string{}
	for _, m := range e.Metrics {
		cols = append(cols, m.Column)
	}
	if !slices.Contains(cols, "mean_response") || slices.Contains(cols, "internal_frag") || slices.Contains(cols, "pieces") {
		t.Errorf("curve metrics %v: want mean_response and no uninformative fragmentation or pieces", cols)
	}
	for _, c := range []string{"p50_wait", "p99_wait", "p95_response", "p90_bsld"} {
		if !slices.Contains(cols, c) {
			t.Errorf("curve metrics %v: no %s", cols, c)
		}
	}
	// Summaries written before the percentile columns read 0: not shown.
	old := fixture.Build(sweepSpec)
	for i := range old.Summary {
		old.Summary[i].SetPercentiles([4]float64{}, [4]float64{}, [4]float64{})
	}
	srv2 := newServer(t, old, Options{})
	var in2 infoResp
	get(t, srv2, "/api/info", &in2)
	for _, m := range in2.Experiments[0].Metrics {
		if m.Column == "p50_bsld" {
			t.Errorf("percentiles shown for summaries without them")
		}
	}
}

// rowsOf returns the summary rows of a pair at a load, by rep.
func rowsOf(set *results.Set, p results.Pair, load float64) []results.Summary {
	var out []results.Summary
	for _, r := range set.Summary {
		if results.PairOf(&r) == p && r.Load == load {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rep < out[j].Rep })
	return out
}

// t975 is the 0.975 quantile of Student's t with one degree of freedom.
const t975 = 12.706204736174698

func TestSummary(t *testing.T) {
	set := fixture.Build(sweepSpec)
	srv := newServer(t, set, Options{})
	var s struct {
		PointBy string `json:"point_by"`
		Columns []struct{ Column string }
		Rows    []struct {
			Alloc, Sched, Point string
			Reps                int
			Jobs                int64
			Values              []struct{ Mean, Half any }
		}
	}
	if get(t, srv, "/api/summary?exp=0", &s) != 200 {
		t.Fatal("status")
	}
	if s.PointBy != "load" || len(s.Rows) != 4 || s.Columns[0].Column != "mean_response" {
		t.Fatalf("%+v", s)
	}
	for _, row := range s.Rows {
		p := results.Pair{Alloc: row.Alloc, Sched: row.Sched}
		load := map[string]float64{"0.5": 0.5, "0.8": 0.8}[row.Point]
		rs := rowsOf(set, p, load)
		if row.Reps != 2 || len(rs) != 2 || row.Jobs != rs[0].Jobs+rs[1].Jobs {
			t.Fatalf("row %+v", row)
		}
		for ci, c := range s.Columns {
			a, _ := rs[0].Metric(c.Column)
			b, _ := rs[1].Metric(c.Column)
			mean, half := f(row.Values[ci].Mean), f(row.Values[ci].Half)
			if !near(mean, (a+b)/2) || !near(half, t975*math.Abs(a-b)/2) {
				t.Errorf("%s at %s, %s: %g ± %g, want %g ± %g", p, row.Point, c.Column, mean, half, (a+b)/2, t975*math.Abs(a-b)/2)
			}
		}
	}
	if code := get(t, srv, "/api/summary?exp=1", nil); code != http.StatusBadRequest {
		t.Errorf("exp=1: status %d", code)
	}
}

func TestCurves(t *testing.T) {
	set := fixture.Build(sweepSpec)
	srv := newServer(t, set, Options{})
	p1 := fixture.PairName(1)
	var c struct {
		Metric struct{ Column, Label string }
		Curves []struct {
			Pair   struct{ Label string }
			Points []struct {
				X, Mean, Half any
				N             int
			}
		}
	}
	if get(t, srv, "/api/curves?exp=0&metric=utilization&pair="+p1.Alloc+"/"+p1.Sched, &c) != 200 {
		t.Fatal("status")
	}
	if c.Metric.Column != "utilization" || c.Metric.Label != "utilization (fraction)" || len(c.Curves) != 1 || c.Curves[0].Pair.Label != p1.String() {
		t.Fatalf("%+v", c)
	}
	pts := c.Curves[0].Points
	if len(pts) != 2 {
		t.Fatalf("%d points", len(pts))
	}
	for i, load := range []float64{0.5, 0.8} {
		rs := rowsOf(set, p1, load)
		want := (rs[0].Utilization + rs[1].Utilization) / 2
		if f(pts[i].X) != load || !near(f(pts[i].Mean), want) || pts[i].N != 2 || !near(f(pts[i].Half), t975*math.Abs(rs[0].Utilization-rs[1].Utilization)/2) {
			t.Errorf("point %d: %+v, want x %g mean %g", i, pts[i], load, want)
		}
	}
	// Every pair without pair=; errors name what is wrong.
	if get(t, srv, "/api/curves?exp=0", &c); len(c.Curves) != 2 {
		t.Errorf("%d curves without pair=", len(c.Curves))
	}
	var e struct{ Error string }
	if code := get(t, srv, "/api/curves?exp=0&metric=nope", &e); code != 404 || !strings.Contains(e.Error, `"nope"`) {
		t.Errorf("metric=nope: %d %q", code, e.Error)
	}
	if code := get(t, srv, "/api/curves?exp=0&pair=x/y", &e); code != 404 || !strings.Contains(e.Error, "x / y") {
		t.Errorf("pair=x/y: %d %q", code, e.Error)
	}
	if code := get(t, srv, "/api/curves?exp=0&pair=xy", &e); code != 400 {
		t.Errorf("pair=xy: %d %q", code, e.Error)
	}
}

func TestCDF(t *testing.T) {
	set := fixture.Build(sweepSpec)
	srv := newServer(t, set, Options{})
	p0 := fixture.PairName(0)
	var c struct {
		Metric string
		Point  struct{ Label string }
		Curves []struct {
			N    int
			X, Y []any
		}
	}
	if get(t, srv, "/api/cdf?exp=0&metric=response&point=0&pair="+p0.Alloc+"/"+p0.Sched, &c) != 200 {
		t.Fatal("status")
	}
	// The response times of the pair's jobs at load 0.5, both reps.
	var vs []float64
	for _, j := range set.Jobs {
		if j.Alloc == p0.Alloc && j.Sched == p0.Sched && j.Load == 0.5 {
			vs = append(vs, j.Response)
		}
	}
	sort.Float64s(vs)
	if c.Metric != "response" || c.Point.Label != "0.5" || len(c.Curves) != 1 || c.Curves[0].N != 24 || len(vs) != 24 {
		t.Fatalf("%+v (%d jobs)", c, len(vs))
	}
	cv := c.Curves[0]
	if f(cv.X[len(cv.X)-1]) != vs[23] || f(cv.Y[len(cv.Y)-1]) != 1 {
		t.Errorf("last step (%v, %v), want (%g, 1)", cv.X[len(cv.X)-1], cv.Y[len(cv.Y)-1], vs[23])
	}
	for i := range cv.X {
		x, y := f(cv.X[i]), f(cv.Y[i])
		n := sort.Search(len(vs), func(k int) bool { return vs[k] > x }) // values ≤ x
		if y != float64(n)/24 {
			t.Errorf("F(%g) = %g, want %d/24", x, y, n)
		}
	}
	// The default point is the last load; bsld and wait are offered.
	for _, m := range []string{"wait", "bsld"} {
		if get(t, srv, "/api/cdf?exp=0&metric="+m, &c); c.Point.Label != "0.8" || len(c.Curves) != 2 {
			t.Errorf("%s: %+v", m, c)
		}
	}
	if code := get(t, srv, "/api/cdf?exp=0&point=2", nil); code != 400 {
		t.Errorf("point=2: %d", code)
	}
	if code := get(t, srv, "/api/cdf?exp=0&metric=slowdown", nil); code != 404 {
		t.Errorf("metric=slowdown: %d", code)
	}
}

type replayResult struct {
	Machine struct {
		Kind, Spec, Note string
		Slices           bool
		Width, Height    int
	}
	Span      [2]any
	Window    [2]any
	Truncated bool
	JobsTotal int `json:"jobs_total"`
	Unplaced  int
	Jobs      []struct {
		ID         int64
		Start, End any
		Procs      int64
		Pieces     [][4]int32
		Ranges     [][2]int64
	}
	Steps    [][3]any
	Overview [][3]any
	Error    string
}

// runID returns the id of a run in /api/info.
func runID(t *testing.T, srv *httptest.Server, trace string, p results.Pair, rep int64) int {
	var in infoResp
	get(t, srv, "/api/info", &in)
	for _, r := range in.Runs {
		if r.Trace == trace && r.Alloc == p.Alloc && r.Sched == p.Sched && r.Rep == rep {
			return r.ID
		}
	}
	t.Fatalf("no run %s %s %d", trace, p, rep)
	return -1
}

func jobsOf(set *results.Set, trace string, p results.Pair, rep int64) []results.Job {
	return set.JobsOf(results.Key{Trace: trace, Pair: p, Rep: rep})
}

func TestReplayFlat(t *testing.T) {
	set := fixture.Build(sweepSpec)
	srv := newServer(t, set, Options{})
	p := fixture.PairName(1)
	js := jobsOf(set, "syn-l01-r1", p, 1)
	id := runID(t, srv, "syn-l01-r1", p, 1)
	var r replayResult
	if get(t, srv, "/api/replay?run="+itoa(id), &r) != 200 {
		t.Fatal(r.Error)
	}
	tmin, tmax := math.Inf(1), math.Inf(-1)
	for _, j := range js {
		tmin, tmax = math.Min(tmin, j.Submit), math.Max(tmax, j.End)
	}
	if r.Machine.Kind != "flat" || r.Truncated || r.JobsTotal != 12 || len(r.Jobs) != 12 || r.Unplaced != 0 ||
		f(r.Span[0]) != tmin || f(r.Span[1]) != tmax || f(r.Window[0]) != tmin || f(r.Window[1]) != tmax {
		t.Fatalf("%+v", r)
	}
	byID := map[int64]results.Job{}
	for _, j := range js {
		byID[j.JobID] = j
	}
	for i, x := range r.Jobs {
		j := byID[x.ID]
		if i > 0 && f(x.Start) < f(r.Jobs[i-1].Start) {
			t.Error("jobs not by start")
		}
		if f(x.Start) != j.Start || f(x.End) != j.End || x.Procs != j.ReqProcs || len(x.Pieces) != 0 {
			t.Errorf("job %+v, want %+v", x, j)
		}
		// Flat ranges are the placement's pieces, merged.
		var n int64
		for k, rg := range x.Ranges {
			n += rg[1] - rg[0] + 1
			if k > 0 && rg[0] <= x.Ranges[k-1][1]+1 {
				t.Errorf("job %d: ranges %v not maximal", x.ID, x.Ranges)
			}
		}
		if n != j.ReqProcs || x.Ranges[0][0] != int64(j.Placement[0].X) {
			t.Errorf("job %d: ranges %v, placement %v", x.ID, x.Ranges, j.Placement)
		}
	}
	// The steps: after the events at t, jobs submitted and not started,
	// and the processors of the jobs running.
	if len(r.Steps) < 2 {
		t.Fatal("no steps")
	}
	for _, s := range r.Steps {
		tt := f(s[0])
		var q, b float64
		for _, j := range js {
			if j.Submit <= tt && tt < j.Start {
				q++
			}
			if j.Start <= tt && tt < j.End {
				b += j.AllocProcs
			}
		}
		if f(s[1]) != q || f(s[2]) != b {
			t.Errorf("step at %g: queue %v busy %v, want %g %g", tt, s[1], s[2], q, b)
		}
	}
	if len(r.Overview) != OverviewBins {
		t.Errorf("%d overview bins", len(r.Overview))
	}
	// A window inside the run: the jobs running in it, and the state at
	// its start first.
	mid := (tmin + tmax) / 2
	get(t, srv, "/api/replay?run="+itoa(id)+"&t0="+ftoa(mid), &r)
	want := 0
	for _, j := range js {
		if j.End > mid {
			want++
		}
	}
	if f(r.Window[0]) != mid || len(r.Jobs) != want || f(r.Steps[0][0]) != mid {
		t.Errorf("t0=%g: window %v, %d jobs (want %d), first step %v", mid, r.Window, len(r.Jobs), want, r.Steps[0])
	}
	for q, code := range map[string]int{"": 400, "run=99": 400, "run=x": 400, "run=0&t0=5&t1=4": 400, "run=0&t0=1e9": 400, "run=0&t0=NaN": 400} {
		if c := get(t, srv, "/api/replay?"+q, &r); c != code || r.Error == "" {
			t.Errorf("%s: status %d (%q), want %d", q, c, r.Error, code)
		}
	}
}

func itoa(i int) string { return ftoa(float64(i)) }

func ftoa(x float64) string { b, _ := json.Marshal(x); return string(b) }

// TestReplayWindow checks the bound on the replay payload: a run of 2500
// jobs is sent in windows of at most MaxReplayJobs starts.
func TestReplayWindow(t *testing.T) {
	set := fixture.Build(fixture.Spec{Procs: 16, Jobs: 2500, Reps: 1, Pairs: 1, Seed: 5})
	srv := newServer(t, set, Options{})
	js := set.Jobs
	starts := make([]float64, len(js))
	for i := range js {
		starts[i] = js[i].Start
	}
	sort.Float64s(starts)
	var r replayResult
	if get(t, srv, "/api/replay?run=0", &r) != 200 {
		t.Fatal(r.Error)
	}
	w1 := f(r.Window[1])
	if !r.Truncated || r.JobsTotal != 2500 || w1 != starts[MaxReplayJobs] {
		t.Fatalf("truncated %v, window %v, want end %g", r.Truncated, r.Window, starts[MaxReplayJobs])
	}
	in := 0
	for _, x := range r.Jobs {
		if f(x.Start) >= f(r.Window[0]) {
			in++
		}
		if f(x.Start) >= w1 {
			t.Errorf("job %d starts at %v, after the window", x.ID, x.Start)
		}
	}
	if in > MaxReplayJobs || in < MaxReplayJobs-5 {
		t.Errorf("%d jobs start in the window", in)
	}
	// The next window holds the rest; a window ending at t1 is cut from
	// the other side.
	get(t, srv, "/api/replay?run=0&t0="+ftoa(w1), &r)
	if r.Truncated || f(r.Window[1]) != f(r.Span[1]) {
		t.Errorf("next window %v truncated %v", r.Window, r.Truncated)
	}
	last := starts[len(starts)-1] + 1
	get(t, srv, "/api/replay?run=0&t1="+ftoa(last), &r)
	if !r.Truncated || f(r.Window[0]) != starts[len(starts)-MaxReplayJobs] || f(r.Window[1]) != last {
		t.Errorf("window ending at %g: %v, want start %g", last, r.Window, starts[len(starts)-MaxReplayJobs])
	}
}

// placedSet is a one-run set on machine m whose jobs hold the given
// placements, job i from time i to i+10.
func placedSet(m string, procs int64, pls ...[]schema.Piece) *results.Set {
	s := &results.Set{Version: "test", Jobs: []results.Job{}}
	s.Summary = []results.Summary{{Trace: "t", Machine: m, Alloc: "a", Sched: "s", Rep: 0, Jobs: int64(len(pls)), Load: -1, Procs: procs}}
	for i, pl := range pls {
		var n int64
		for _, p := range pl {
			n += int64(p.W) * int64(p.H)
		}
		s.Jobs = append(s.Jobs, results.Job{Trace: "t", Machine: m, Alloc: "a", Sched: "s", JobID: int64(i + 1), Submit: float64(i), Start: float64(i),
			End: float64(i + 10), Response: 10, ReqProcs: n, AllocProcs: float64(n), Load: -1, Placement: pl})
	}
	return s
}

func TestReplayMeshAndCube(t *testing.T) {
	mesh := placedSet("mesh:4x4", 16,
		[]schema.Piece{{X: 0, Y: 0, W: 2, H: 2}, {X: 3, Y: 3, W: 1, H: 1}}, // non-contiguous: two pieces
		[]schema.Piece{{X: 2, Y: 0, W: 2, H: 3}})
	srv := newServer(t, mesh, Options{})
	var r replayResult
	if get(t, srv, "/api/replay?run=0", &r) != 200 {
		t.Fatal(r.Error)
	}
	if r.Machine.Kind != "mesh" || len(r.Jobs) != 2 || !slices.Equal(r.Jobs[0].Pieces, [][4]int32{{0, 0, 2, 2}, {3, 3, 1, 1}}) ||
		!slices.Equal(r.Jobs[1].Pieces, [][4]int32{{2, 0, 2, 3}}) || len(r.Jobs[0].Ranges) != 0 {
		t.Errorf("mesh replay %+v", r)
	}
	// At t = 5 both jobs run: 5 + 6 nodes.
	for _, s := range r.Steps {
		if f(s[0]) == 5 && f(s[2]) != 11 {
			t.Errorf("busy at 5: %v", s[2])
		}
	}
	// A piece outside the mesh is an error naming file, job and column.
	bad := placedSet("mesh:4x4", 16, []schema.Piece{{X: 3, Y: 0, W: 2, H: 1}})
	srv = newServer(t, bad, Options{})
	if code := get(t, srv, "/api/replay?run=0", &r); code != 500 || !strings.Contains(r.Error, "jobs.parquet: job 1 of trace t") || !strings.Contains(r.Error, `column "placement"`) {
		t.Errorf("bad piece: %d %q", code, r.Error)
	}
	// Hypercube: subcubes become node-address ranges.
	cube := placedSet("cube:3", 8,
		[]schema.Piece{{X: 0, W: 4, H: 1, Mask: 3}}, // nodes 0..3
		[]schema.Piece{{X: 4, W: 2, H: 1, Mask: 2}}) // nodes 4, 6
	srv = newServer(t, cube, Options{})
	if get(t, srv, "/api/replay?run=0", &r) != 200 {
		t.Fatal(r.Error)
	}
	if r.Machine.Kind != "cube" || !slices.Equal(r.Jobs[0].Ranges, [][2]int64{{0, 3}}) || !slices.Equal(r.Jobs[1].Ranges, [][2]int64{{4, 4}, {6, 6}}) {
		t.Errorf("cube replay %+v", r.Jobs)
	}
	// Jobs without a placement are sent and counted.
	none := placedSet("flat:4", 4, nil, nil)
	srv = newServer(t, none, Options{})
	if get(t, srv, "/api/replay?run=0", &r); r.Unplaced != 2 || len(r.Jobs) != 2 {
		t.Errorf("unplaced %+v", r)
	}
}

func TestNoJobs(t *testing.T) {
	set := fixture.Build(sweepSpec)
	set.Jobs = nil // no jobs.parquet
	srv := newServer(t, set, Options{})
	var in infoResp
	get(t, srv, "/api/info", &in)
	if in.Experiments[0].HasJobs || in.Runs[0].Jobs != 0 {
		t.Errorf("has jobs: %+v", in.Experiments[0])
	}
	var e struct{ Error string }
	if code := get(t, srv, "/api/cdf?exp=0", &e); code != 404 || !strings.Contains(e.Error, "jobs.parquet") {
		t.Errorf("cdf: %d %q", code, e.Error)
	}
	if code := get(t, srv, "/api/replay?run=0", &e); code != 404 || !strings.Contains(e.Error, "jobs.parquet") {
		t.Errorf("replay: %d %q", code, e.Error)
	}
	if code := get(t, srv, "/api/summary", nil); code != 200 {
		t.Errorf("summary without jobs: %d", code)
	}
}

// TestRun starts the server on a free loopback port, reads the URL it
// prints, fetches the info, and stops it.
func TestRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	if err := results.WriteDir(dir, fixture.Build(sweepSpec)); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), dir, Options{Addr: "0.0.0.0:0"}); err == nil || !strings.Contains(err.Error(), "--public") {
		t.Errorf("non-loopback address: %v", err)
	}
	if err := Run(context.Background(), filepath.Join(dir, "missing"), Options{Addr: "127.0.0.1:0"}); err == nil {
		t.Error("missing directory served")
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Run(ctx, dir, Options{Addr: "127.0.0.1:0", Log: pw}) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
	if m == "" {
		t.Fatalf("no URL in %q", line)
	}
	resp, err := http.Get(m + "api/info")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
}

// The curves suggest a log axis past a LogRange range of positive means:
// one pair a thousand times slower than the others, not utilization.
func TestCurvesLogSuggested(t *testing.T) {
	set := fixture.Build(sweepSpec)
	slow := fixture.PairName(0)
	for i := range set.Summary {
		if r := &set.Summary[i]; r.Alloc == slow.Alloc && r.Sched == slow.Sched {
			r.MeanResponse *= 1000
		}
	}
	srv := newServer(t, set, Options{})
	for metric, want := range map[string]bool{"mean_response": true, "utilization": false} {
		var c struct {
			LogSuggested bool `json:"log_suggested"`
		}
		if get(t, srv, "/api/curves?exp=0&metric="+metric, &c) != 200 {
			t.Fatal("status")
		}
		if c.LogSuggested != want {
			t.Errorf("%s: log_suggested %v, want %v", metric, c.LogSuggested, want)
		}
	}
}

// A machine whose family lays its nodes out (policy.Family.View.Layout:
// a dragonfly's routers in columns, a gap between groups) gets its
// placements as rectangles of that layout, with its size and note.
func TestReplaySlices(t *testing.T) {
	// dragonfly:g=3,a=2,p=2,h=1: columns at x = 0, 1 | 3, 4 | 6, 7; nodes
	// 2..8 are router 1, group 1 and the bottom node of router 4.
	set := placedSet("dragonfly:g=3,a=2,p=2,h=1", 12, []schema.Piece{{X: 2, W: 7, H: 1}})
	srv := newServer(t, set, Options{})
	var r replayResult
	if get(t, srv, "/api/replay?run=0", &r) != 200 {
		t.Fatal(r.Error)
	}
	if !r.Machine.Slices || r.Machine.Width != 8 || r.Machine.Height != 2 || !strings.Contains(r.Machine.Note, "a column per router") {
		t.Errorf("machine %+v", r.Machine)
	}
	if len(r.Jobs) != 1 || !slices.Equal(r.Jobs[0].Pieces, [][4]int32{{1, 0, 1, 2}, {3, 0, 2, 2}, {6, 0, 1, 1}}) || len(r.Jobs[0].Ranges) != 0 {
		t.Errorf("jobs %+v", r.Jobs)
	}
}
