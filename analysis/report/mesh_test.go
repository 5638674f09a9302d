package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/internal/fixture"
	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// meshFixture is a fixture replayed on flat:32 and relabelled mesh:32x1:
// its flat ranges x..x+w-1 are exactly the 32×1 mesh's w×1 submeshes at
// (x, 0), so the placements stay valid and disjoint.
func meshFixture(s fixture.Spec) *results.Set {
	set := fixture.Build(s)
	const m = "mesh:32x1"
	for i := range set.Summary {
		set.Summary[i].Machine = m
	}
	for i := range set.Jobs {
		set.Jobs[i].Machine = m
	}
	for i := range set.Traces {
		set.Traces[i].Machine = m
	}
	return set
}

var meshSpec = fixture.Spec{Procs: 32, Jobs: 60, Loads: []float64{0.5, 0.8}, Reps: 2, Pairs: 3, Seed: 7, Series: true}

// meshPages returns the map pages and the size-group figures and tables.
func meshPages(pages []Page) (maps []*MeshMapPage, figs, tables int) {
	for _, p := range pages {
		switch p := p.(type) {
		case *MeshMapPage:
			maps = append(maps, p)
		case *FigurePage:
			if strings.Contains(p.FigureName(), "mesh-size-groups") {
				figs++
			}
		case *TablePage:
			if strings.Contains(p.Table.Name, "mesh-size-groups") {
				tables++
			}
		}
	}
	return maps, figs, tables
}

func TestMeshPagesOnlyForMeshes(t *testing.T) {
	_, pages := pagesOf(t, fixture.Build(meshSpec), Options{})
	if maps, figs, tables := meshPages(pages); len(maps)+figs+tables != 0 {
		t.Errorf("flat results: %d maps, %d size-group figures, %d tables", len(maps), figs, tables)
	}
	set := meshFixture(meshSpec)
	_, pages = pagesOf(t, set, Options{})
	maps, figs, tables := meshPages(pages)
	// One instant per quantile (unless two coincide), 3 pairs on one page;
	// one size-group chart and table at the highest load.
	if len(maps) < 1 || len(maps) > len(mapQuantiles) || figs != 1 || tables != 1 {
		t.Fatalf("mesh results: %d maps, %d size-group figures, %d tables", len(maps), figs, tables)
	}
	for _, m := range maps {
		if len(m.Panels) != 3 || m.W != 32 || m.H != 1 || !strings.Contains(m.Title, "load 0.8") {
			t.Errorf("map %q: %d panels, %dx%d", m.Title, len(m.Panels), m.W, m.H)
		}
	}
	// Without placements: the size groups only.
	bare := *set
	bare.Jobs = slices.Clone(set.Jobs)
	for i := range bare.Jobs {
		bare.Jobs[i].Placement = nil
	}
	_, pages = pagesOf(t, &bare, Options{})
	if maps, figs, _ := meshPages(pages); len(maps) != 0 || figs != 1 {
		t.Errorf("no placements: %d maps, %d size-group figures", len(maps), figs)
	}
	// Without jobs: nothing.
	bare.Jobs = nil
	_, pages = pagesOf(t, &bare, Options{})
	if maps, figs, tables := meshPages(pages); len(maps)+figs+tables != 0 {
		t.Errorf("no jobs: %d maps, %d figures, %d tables", len(maps), figs, tables)
	}
}

// tinySet is a hand-made run of two pairs on mesh:4x4.
func tinySet() *results.Set {
	const m = "mesh:4x4"
	job := func(alloc string, id int64, submit, start, end float64, pieces ...schema.Piece) results.Job {
		n := 0.0
		for _, p := range pieces {
			n += float64(p.W * p.H)
		}
		return results.Job{Trace: "t", Machine: m, Alloc: alloc, Sched: "fcfs", JobID: id, Submit: submit, Start: start, End: end,
			Wait: start - submit, Response: end - submit, ReqProcs: int64(n), AllocProcs: n, Placement: pieces}
	}
	rect := func(x, y, w, h int) schema.Piece { return schema.Piece(policy.Rect(x, y, w, h)) }
	set := &results.Set{Summary: []results.Summary{
		{Trace: "t", Machine: m, Alloc: "bf", Sched: "fcfs", Jobs: 4, Load: -1, Procs: 16},
		{Trace: "t", Machine: m, Alloc: "ff", Sched: "fcfs", Jobs: 4, Load: -1, Procs: 16},
	}}
	set.Jobs = []results.Job{
		job("bf", 1, 0, 0, 10, rect(0, 0, 2, 2)),
		job("bf", 2, 1, 1, 5, rect(2, 0, 2, 4)),
		job("bf", 3, 2, 5, 8, rect(0, 2, 1, 2)),
		job("bf", 4, 3, 8, 9, rect(0, 2, 2, 2)),
		job("ff", 1, 0, 0, 4, rect(0, 0, 4, 1)),
		job("ff", 2, 1, 4, 6, rect(0, 0, 2, 4)),
		job("ff", 3, 2, 4, 5, rect(3, 3, 1, 1)),
		job("ff", 4, 3, 3, 3.5, rect(1, 1, 1, 1)),
	}
	return set
}

// The map's rectangles are exactly the placements of the jobs running at
// the instant (start ≤ t < end), for every pair, at boundaries too.
func TestMeshSnapshotRectangles(t *testing.T) {
	set := tinySet()
	m, _ := policy.ParseMachine("mesh:4x4")
	for _, at := range []float64{0, 1, 3.25, 4, 5, 7.5, 8, 9.5, 10} {
		for _, pair := range []results.Pair{{Alloc: "bf", Sched: "fcfs"}, {Alloc: "ff", Sched: "fcfs"}} {
			js := set.JobsOf(results.Key{Trace: "t", Pair: pair})
			var want []meshBlock
			var busy int64
			waiting := 0
			for _, j := range js {
				if j.Start <= at && at < j.End {
					want = append(want, meshBlock{JobID: j.JobID, Piece: j.Placement[0]})
					busy += int64(j.AllocProcs)
				}
				if j.Submit <= at && at < j.Start {
					waiting++
				}
			}
			s, err := snapshotAt(js, m, at)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s.Blocks, want) || s.Running != len(want) || s.Busy != busy || s.Waiting != waiting || s.Unplaced != 0 {
				t.Errorf("%s at %v: %+v, want blocks %v, busy %d, waiting %d", pair, at, s, want, busy, waiting)
			}
			// The page drawn at that instant (--window start) shows them.
			ctx, err := NewContext(set, Options{Window: Window{Start: at, End: at + 1}})
			if err != nil {
				t.Fatal(err)
			}
			pages, err := buildMeshMaps(ctx, &ctx.Experiments[0], 1)
			if err != nil || len(pages) != 1 {
				t.Fatalf("at %v: %d pages, %v", at, len(pages), err)
			}
			pg := pages[0].(*MeshMapPage)
			var got []plot.Block
			for i, p := range ctx.Experiments[0].Pairs() {
				if p == pair {
					got = pg.Panels[i].Blocks
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%s at %v: panel blocks %v, want %v", pair, at, got, want)
			}
			for i, b := range got {
				w := want[i].Piece
				if b.X != int(w.X) || b.Y != int(w.Y) || b.W != int(w.W) || b.H != int(w.H) || b.Shade != int(want[i].JobID) {
					t.Errorf("%s at %v: panel block %+v, want job %d at %+v", pair, at, b, want[i].JobID, w)
				}
			}
		}
	}
	// Hand-checked: at 4, bf runs jobs 1 and 2; ff runs 2 and 3 (job 1
	// ended at 4, job 4 at 3.5).
	js := set.JobsOf(results.Key{Trace: "t", Pair: results.Pair{Alloc: "ff", Sched: "fcfs"}})
	s, _ := snapshotAt(js, m, 4)
	if len(s.Blocks) != 2 || s.Blocks[0].JobID != 2 || s.Blocks[1].JobID != 3 || s.Busy != 9 {
		t.Errorf("ff at 4: %+v", s)
	}
}

// A piece outside the mesh, or a subcube piece, is an error naming the
// file, the job and the column.
func TestMeshSnapshotBadPiece(t *testing.T) {
	m, _ := policy.ParseMachine("mesh:4x4")
	for _, p := range []schema.Piece{{X: 3, Y: 0, W: 2, H: 1}, {X: 0, Y: 3, W: 1, H: 2}, {X: 0, W: 2, H: 1, Mask: 1}, {X: -1, W: 1, H: 1}} {
		js := []results.Job{{Trace: "t", JobID: 9, Start: 0, End: 1, Placement: []schema.Piece{p}}}
		if _, err := snapshotAt(js, m, 0.5); err == nil || !strings.Contains(err.Error(), `jobs.parquet: job 9 of trace t: column "placement"`) {
			t.Errorf("piece %+v: %v", p, err)
		}
	}
	// A running job without a placement is counted, not drawn.
	js := []results.Job{{JobID: 1, Start: 0, End: 2, AllocProcs: 3}}
	if s, err := snapshotAt(js, m, 1); err != nil || s.Running != 1 || s.Unplaced != 1 || s.Busy != 3 || len(s.Blocks) != 0 {
		t.Errorf("unplaced job: %+v %v", s, err)
	}
}

// The instant of a busy quantile, on a hand-worked busy function over
// the arrival period [0, 10): 4 nodes on [0,2), 12 on [2,6), 6 on [6,8),
// 4 on [8,10); median submit 2.
func TestBusyInstant(t *testing.T) {
	js := []results.Job{
		{JobID: 1, Submit: 0, Start: 0, End: 10, AllocProcs: 4},
		{JobID: 2, Submit: 1, Start: 2, End: 6, AllocProcs: 8},
		{JobID: 3, Submit: 2, Start: 6, End: 8, AllocProcs: 2},
		{JobID: 4, Submit: 10, Start: 10, End: 12, AllocProcs: 16},
	}
	for _, tc := range []struct {
		q    float64
		t    float64
		busy int64
	}{{0.3, 0, 4}, {0.5, 6, 6}, {0.9, 2, 12}, {1, 2, 12}} {
		at, busy, ok := busyInstant(js, tc.q)
		if !ok || at != tc.t || busy != tc.busy {
			t.Errorf("q=%v: t=%v busy=%d ok=%v, want t=%v busy=%d", tc.q, at, busy, ok, tc.t, tc.busy)
		}
	}
	if _, _, ok := busyInstant(js[:1], 0.5); ok {
		t.Error("one submit instant: an instant chosen")
	}
}

// Size groups: the shared quarters, labelled; statistics from jobs, and
// from the runs' size_classes pooled over replications, agree.
func TestSizeGroups(t *testing.T) {
	for n, want := range map[int]string{1024: "1-256 257-512 513-768 769-1024", 128: "1-32 33-64 65-96 97-128", 6: "1 2-3 4 5-6", 2: "1 2"} {
		if got := strings.Join(sizeLabels(metrics.SizeQuarters(n)), " "); got != want {
			t.Errorf("N=%d: %q, want %q", n, got, want)
		}
	}
	b := metrics.SizeQuarters(16)
	js := []results.Job{
		{ReqProcs: 1, Response: 2}, {ReqProcs: 4, Response: 4}, {ReqProcs: 4, Response: 9},
		{ReqProcs: 16, Response: 5}, {ReqProcs: 0, AllocProcs: 7.5, Response: 3}, {ReqProcs: 17, Response: 1},
	}
	st, other := fromJobs(js, b)
	if other != 1 || st[0].N != 3 || st[0].Mean != 5 || math.Abs(st[0].SD-math.Sqrt(13)) > 1e-12 ||
		st[1].N != 1 || st[1].Mean != 3 || !math.IsNaN(st[1].SD) || st[2].N != 0 || !math.IsNaN(st[2].Mean) || st[3].Mean != 5 {
		t.Errorf("stats %+v, other %d", st, other)
	}
	// Two runs' size_classes pool to the statistics of all their jobs.
	runs := [][]results.Job{js[:3], append(slices.Clone(js[3:5]), results.Job{ReqProcs: 2, Response: 11}, results.Job{ReqProcs: 13, Response: 6})}
	var rows []*results.Summary
	var all []results.Job
	for _, run := range runs {
		s, _ := fromJobs(run, b)
		r := &results.Summary{}
		for k, g := range s {
			r.SizeClasses = append(r.SizeClasses, schema.SizeClass{Lo: int64(b[k][0]), Hi: int64(b[k][1]), Jobs: g.N, MeanResponse: g.Mean, SDResponse: g.SD})
		}
		rows = append(rows, r)
		all = append(all, run...)
	}
	pooled, ok := fromSummaries(rows, b)
	want, _ := fromJobs(all, b)
	if !ok {
		t.Fatal("size_classes not used")
	}
	for k := range want {
		g, w := pooled[k], want[k]
		if g.N != w.N || !near(g.Mean, w.Mean) || !near(g.SD, w.SD) {
			t.Errorf("group %d: pooled %+v, want %+v", k, g, w)
		}
	}
	// Results without the column, or with other classes, fall back.
	if _, ok := fromSummaries([]*results.Summary{{}}, b); ok {
		t.Error("no size_classes: used")
	}
	if _, ok := fromSummaries(rows, metrics.SizeQuarters(32)); ok {
		t.Error("other classes: used")
	}
}

func near(a, b float64) bool {
	return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

// Allocators sit side by side under the reference pair's scheduler first.
func TestByScheduler(t *testing.T) {
	ps := []results.Pair{{Alloc: "bf", Sched: "fcfs"}, {Alloc: "bf", Sched: "sa"}, {Alloc: "ff", Sched: "fcfs"}, {Alloc: "ff", Sched: "sa"}, {Alloc: "bl", Sched: "easy"}}
	g := byScheduler(ps, results.Pair{Alloc: "ff", Sched: "sa"})
	var got []string
	for _, grp := range g {
		var s []string
		for _, p := range grp {
			s = append(s, p.String())
		}
		got = append(got, strings.Join(s, ", "))
	}
	if want := "bf / sa, ff / sa|bl / easy|bf / fcfs, ff / fcfs"; strings.Join(got, "|") != want {
		t.Errorf("groups %q", got)
	}
}

// Two reports of the same mesh results are byte-identical.
func TestMeshReportDeterministic(t *testing.T) {
	in := t.TempDir()
	if err := results.WriteDir(in, meshFixture(meshSpec)); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for _, name := range []string{"a.pdf", "b.pdf"} {
		if err := Generate(Options{In: in, Out: filepath.Join(out, name), Quiet: true}); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := os.ReadFile(filepath.Join(out, "a.pdf"))
	b, _ := os.ReadFile(filepath.Join(out, "b.pdf"))
	if len(a) < 10000 || !bytes.Equal(a, b) {
		t.Fatalf("mesh report not byte-identical (%d vs %d bytes)", len(a), len(b))
	}
	set, err := results.Load(in)
	if err != nil {
		t.Fatal(err)
	}
	_, pages := pagesOf(t, set, Options{})
	if maps, _, _ := meshPages(pages); len(maps) == 0 {
		t.Error("no mesh map in the report")
	}
}

func TestPairPages(t *testing.T) {
	group := func(sched string, n int) []results.Pair {
		var g []results.Pair
		for i := range n {
			g = append(g, results.Pair{Alloc: string(rune('a' + i)), Sched: sched})
		}
		return g
	}
	for _, tc := range []struct {
		sizes []int
		want  []int
	}{
		{[]int{4, 4}, []int{4, 4}},
		{[]int{1, 1, 1}, []int{3}},
		{[]int{2, 2, 2, 1}, []int{6, 1}},
		{[]int{15}, []int{5, 5, 5}},
		{[]int{8, 8}, []int{4, 4, 4, 4}},
		{[]int{3, 8}, []int{3, 4, 4}},
	} {
		var gs [][]results.Pair
		for i, n := range tc.sizes {
			gs = append(gs, group(string(rune('p'+i)), n))
		}
		var got []int
		for _, pg := range pairPages(gs, 6) {
			got = append(got, len(pg))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("groups %v: pages %v, want %v", tc.sizes, got, tc.want)
		}
	}
}
