package experiment

import (
	"cmp"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// picky is the count allocator refusing, as infeasible, every job of 3
// processors: the engine rejects them on arrival (Start = End = −1).
type picky struct{ policy.Allocator }

func (p picky) Feasible(j *policy.Job) error {
	if j.Procs == 3 {
		return errors.New("no 3-processor jobs here")
	}
	return nil
}
func (p picky) Clone() policy.Allocator { return picky{p.Allocator.Clone()} }

// readRows reads every row of a results file.
func readRows[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := parquet.NewGenericReader[T](f)
	rows := make([]T, rd.NumRows())
	if n, err := rd.Read(rows); n != len(rows) {
		t.Fatalf("%s: read %d of %d rows: %v", path, n, len(rows), err)
	}
	return rows
}

// TestColumnsAreTheRows writes runs column by column, with small batches,
// pages and row groups so that every boundary is crossed, and reads back
// exactly the rows of the contract built field by field from the engine's
// results: jobs in job-ID order (the trace's numbers are shuffled), the
// allocator's rejections left out, placements of several pieces, series.
func TestColumnsAreTheRows(t *testing.T) {
	defer func(b, v, g int) { batchRows, valueRows, rowGroupRows = b, v, g }(batchRows, valueRows, rowGroupRows)
	batchRows, valueRows, rowGroupRows = 300, 64, 1000

	tr := synthetic("shuffled", 1500, 7)
	for i, j := range shuffle(len(tr.Jobs), 3) {
		tr.Jobs[i].ID = int64(j + 1)
	}
	m := policy.Machine{Kind: policy.Flat, Procs: 32}
	count := flat.Allocators()[0]
	alloc := policy.AllocatorSpec{Name: "picky", New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
		a, err := count.New(m, p)
		return picky{a}, err
	}}
	fcfs, err := catalog.Scheduler("fcfs")
	if err != nil {
		t.Fatal(err)
	}
	easy, err := catalog.Scheduler("easy")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	opt := Options{Out: dir, Placement: true, Check: true, BsldTau: 10, Workers: 1}
	jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
	p := &prepared{t: tr, m: m, rec: m.String(), jobs: jobs, n: len(jobs), left: 2, records: len(tr.Jobs)}
	s, err := newSink(opt, []*prepared{p})
	if err != nil {
		t.Fatal(err)
	}
	var wantJobs []schema.Job
	var wantSeries []schema.Series
	pieces := 0
	for _, sp := range []policy.SchedulerSpec{fcfs, easy} {
		o := runTask(task{tr: p, pair: catalog.NewPair(alloc, nil, sp, nil)}, opt, nil)
		if o.err != nil {
			t.Fatal(o.err)
		}
		if len(o.res.Rejected) == 0 {
			t.Fatal("no job rejected by the allocator")
		}
		res := o.res
		order := make([]int, len(res.Jobs))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(res.Jobs[a].ID, res.Jobs[b].ID) })
		for _, i := range order {
			j := &res.Jobs[i]
			if j.Start < 0 {
				continue
			}
			row := schema.Job{Trace: tr.Name, Machine: "flat:32", Alloc: "picky", Sched: sp.Name, JobID: j.ID,
				Submit: j.Submit, Start: j.Start, End: j.End, Wait: j.Start - j.Submit, Response: j.End - j.Submit,
				Slowdown: metrics.Slowdown(j.End-j.Submit, j.Run), BoundedSlowdown: metrics.BoundedSlowdown(j.End-j.Submit, j.Run, 10),
				ReqProcs: int64(j.Procs), AllocProcs: res.AllocProcs[i], Load: 0.8, Run: j.Run, Estimate: j.Estimate, User: j.User, Comm: "off",
			}
			for _, q := range res.Placement(i) {
				row.Placement = append(row.Placement, schema.Piece(q))
			}
			pieces += len(row.Placement)
			wantJobs = append(wantJobs, row)
		}
		for _, x := range res.Series {
			wantSeries = append(wantSeries, schema.Series{Trace: tr.Name, Machine: "flat:32", Alloc: "picky", Sched: sp.Name,
				Time: x.Time, Busy: x.Busy, Running: int64(x.Running), Queue: int64(x.Queue), Comm: "off"})
		}
		if err := s.write(o); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.commit(); err != nil {
		t.Fatal(err)
	}
	if pieces <= len(wantJobs) {
		t.Fatalf("%d pieces for %d jobs: no placement of several pieces", pieces, len(wantJobs))
	}
	gotJobs := readRows[schema.Job](t, filepath.Join(dir, schema.JobsFile))
	if len(gotJobs) != len(wantJobs) {
		t.Fatalf("%d job rows, want %d", len(gotJobs), len(wantJobs))
	}
	for i := range gotJobs {
		g, w := gotJobs[i], wantJobs[i]
		if len(g.Placement) == 0 {
			g.Placement = nil
		}
		if !reflect.DeepEqual(g, w) && !(math.IsNaN(g.Slowdown) && math.IsNaN(w.Slowdown)) {
			t.Fatalf("job row %d\n got %+v\nwant %+v", i, g, w)
		}
	}
	gotSeries := readRows[schema.Series](t, filepath.Join(dir, schema.SeriesFile))
	if !reflect.DeepEqual(gotSeries, wantSeries) {
		t.Fatalf("series: %d rows, want %d, or different values", len(gotSeries), len(wantSeries))
	}
	if f, err := os.Open(filepath.Join(dir, schema.JobsFile)); err == nil {
		st, _ := f.Stat()
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(pf.RowGroups()), (len(wantJobs)+rowGroupRows-1)/rowGroupRows; got != want {
			t.Errorf("%d row groups, want %d", got, want)
		}
		f.Close()
	}
}

// shuffle returns a permutation of 0..n−1.
func shuffle(n int, seed uint64) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	x := seed
	for i := n - 1; i > 0; i-- {
		x = x*6364136223846793005 + 1442695040888963407
		k := int((x >> 33) % uint64(i+1))
		p[i], p[k] = p[k], p[i]
	}
	return p
}

// The writer's columns are the schema's leaves, in order.
func TestColumnsFollowTheSchema(t *testing.T) {
	for _, c := range []struct {
		row   any
		names []string
	}{
		{schema.Job{}, names(jobColumns)},
		{schema.Series{}, names(seriesColumns)},
	} {
		var got []string
		for _, p := range parquet.SchemaOf(c.row).Columns() {
			got = append(got, strings.Join(p, "."))
		}
		if !slices.Equal(got, c.names) {
			t.Errorf("%T: schema leaves %v, writer columns %v", c.row, got, c.names)
		}
	}
}

func names[R table](cs []column[R]) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.name)
	}
	return out
}
