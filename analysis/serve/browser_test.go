package serve

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
)

// BrowserEnv, set to 1, makes TestBrowser fail rather than skip when no
// Chromium is found (CI installs Debian's chromium and sets it).
const BrowserEnv = "SCHEDLAB_BROWSER_TEST"

// chromium returns the Chromium binary: $CHROMIUM, else the first of the
// usual names on PATH.
func chromium(t *testing.T) string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("CHROMIUM=%s: %v", p, err)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(BrowserEnv) == "1" {
		t.Fatalf("%s=1 but no Chromium found (install Debian's chromium: apt-get install -y chromium, or set CHROMIUM)", BrowserEnv)
	}
	t.Skipf("no Chromium on PATH (set CHROMIUM, or %s=1 to make this a failure)", BrowserEnv)
	return ""
}

// headless runs Chromium headless on url with the given virtual time
// budget and extra flags, and returns its standard output.
func headless(t *testing.T, bin, url string, budget time.Duration, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--disable-sync",
		"--hide-scrollbars", "--user-data-dir=" + t.TempDir(), "--window-size=1280,1600",
		"--virtual-time-budget=" + strconv.FormatInt(budget.Milliseconds(), 10)}
	args = append(append(args, extra...), url)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// attr returns the value of attribute name of the element with id id in
// a dumped DOM.
func attr(t *testing.T, dom, id, name string) string {
	t.Helper()
	tag := regexp.MustCompile(`<[a-z]+ [^>]*id="` + id + `"[^>]*>`).FindString(dom)
	if tag == "" {
		t.Fatalf("no element #%s in the DOM", id)
	}
	m := regexp.MustCompile(` ` + name + `="([^"]*)"`).FindStringSubmatch(tag)
	if m == nil {
		t.Fatalf("#%s has no %s: %s", id, name, tag)
	}
	return m[1]
}

func parseNum(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// element returns the outer HTML of the element with id id (up to its
// first closing tag of the same name).
func element(t *testing.T, dom, tag, id string) string {
	t.Helper()
	i := strings.Index(dom, `<`+tag+` id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no <%s id=%q>", tag, id)
	}
	j := strings.Index(dom[i:], `</`+tag+`>`)
	if j < 0 {
		t.Fatalf("<%s id=%q> not closed", tag, id)
	}
	return dom[i : i+j]
}

// TestBrowser serves a mesh fixture and loads the page in headless
// Chromium twice, with virtual time budgets of 3 and 8 seconds: the
// summary table (sorted by a header click), the curves and the CDFs must
// render, and the replay, playing, must have advanced between the two.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	// Flat ranges x..x+w−1 on flat:32 are the w×1 submeshes at (x, 0) of
	// mesh:32x1, so the fixture stays valid relabelled as a mesh.
	set := fixture.Build(fixture.Spec{Procs: 32, Jobs: 80, Loads: []float64{0.5, 0.8}, Reps: 2, Pairs: 3, Seed: 7, Series: true})
	for i := range set.Summary {
		set.Summary[i].Machine = "mesh:32x1"
	}
	for i := range set.Jobs {
		set.Jobs[i].Machine = "mesh:32x1"
	}
	for i := range set.Traces {
		set.Traces[i].Machine = "mesh:32x1"
	}
	srv := newServer(t, set, Options{})
	const respCol = 5 // alloc, sched, load, reps, jobs, then mean response
	url := srv.URL + "/?autoplay=1&sort=" + strconv.Itoa(respCol)
	early := headless(t, bin, url, 3*time.Second, "--dump-dom")
	late := headless(t, bin, url, 8*time.Second, "--dump-dom")

	for _, dom := range []string{early, late} {
		if st := element(t, dom, "span", "status"); strings.Contains(st, `class="error"`) {
			t.Fatalf("the page reports an error: %s", st)
		}
		if !strings.Contains(dom, `<body data-ready="true"`) {
			t.Fatal("the page did not finish loading")
		}
	}
	// The summary table: one row per pair and load, sorted by mean
	// response (ascending) after the header click.
	table := element(t, late, "table", "summary-table")
	if !strings.Contains(table, `aria-sort="ascending"`) {
		t.Error("no header sorted")
	}
	body := table[strings.Index(table, "<tbody>"):]
	rows := strings.Split(body, "<tr>")[1:]
	if len(rows) != 6 {
		t.Fatalf("%d summary rows, want 6", len(rows))
	}
	cell := regexp.MustCompile(`<td[^>]*>([^<]*)`)
	prev := -1.0
	for _, r := range rows {
		tds := cell.FindAllStringSubmatch(r, -1)
		v := parseNum(t, strings.ReplaceAll(tds[respCol][1], ",", ""))
		if v < prev {
			t.Errorf("rows not sorted by mean response: %g after %g", v, prev)
		}
		prev = v
	}
	// The curves: one per pair (the fixture has 3, all shown by default),
	// a point per load with its interval (2 replications).
	curves := element(t, late, "svg", "curves")
	if attr(t, late, "curves", "data-curves") != "3" || strings.Count(curves, `class="curve"`) != 3 ||
		strings.Count(curves, `class="point"`) != 6 || strings.Count(curves, `class="ci"`) != 6 {
		t.Errorf("curves chart: %d curves, %d points, %d intervals", strings.Count(curves, `class="curve"`),
			strings.Count(curves, `class="point"`), strings.Count(curves, `class="ci"`))
	}
	// The curves' y axis is linear or logarithmic as the server suggests
	// (a 100× range), until the viewer ticks the box.
	var cv struct {
		LogSuggested bool `json:"log_suggested"`
	}
	if get(t, srv, "/api/curves?exp=0", &cv) != 200 || attr(t, late, "curves", "data-logy") != strconv.FormatBool(cv.LogSuggested) {
		t.Errorf("curves chart: data-logy %q, server suggests %v", attr(t, late, "curves", "data-logy"), cv.LogSuggested)
	}
	if attr(t, late, "cdf", "data-curves") != "3" || strings.Count(element(t, late, "svg", "cdf"), `class="curve"`) != 3 {
		t.Error("CDF chart: want 3 curves")
	}
	// The replay plays: frames and time advance, and jobs are drawn.
	f0, f1 := parseNum(t, attr(t, early, "replay-time", "data-frame")), parseNum(t, attr(t, late, "replay-time", "data-frame"))
	t0, t1 := parseNum(t, attr(t, early, "replay-time", "data-t")), parseNum(t, attr(t, late, "replay-time", "data-t"))
	if !(f1 > f0 && t1 > t0) {
		t.Errorf("replay did not advance: frame %g → %g, t %g → %g", f0, f1, t0, t1)
	}
	running, rects := 0.0, 0.0
	for _, dom := range []string{early, late} {
		n, r := parseNum(t, attr(t, dom, "replay-time", "data-running")), parseNum(t, attr(t, dom, "replay-time", "data-rects"))
		if r < n {
			t.Errorf("%g jobs running but %g rectangles drawn", n, r)
		}
		running, rects = running+n, rects+r
	}
	if running == 0 {
		t.Error("no job running at either instant")
	}
	// Somewhere in the window the machine is busy: the queue chart has a
	// step line and a cursor.
	q := element(t, late, "svg", "queue-chart")
	if !strings.Contains(q, `class="curve"`) || !strings.Contains(q, `class="cursor"`) {
		t.Error("queue chart not drawn")
	}
	t.Logf("replay: frame %g → %g, t %g → %g; %g jobs running, %g rectangles drawn", f0, f1, t0, t1, running, rects)
}
