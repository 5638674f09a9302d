package experiment

import (
	"cmp"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/internal/columnar"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// Job and series rows reach their files column by column, straight from
// the engine's result: no row is ever materialised as a schema.Job or
// schema.Series. A run's rows go in batches of batchRows; the columns of a
// batch are encoded and compressed in parallel (each column has its own
// parquet.ColumnWriter, pages and compressor), and every column writer gets
// valueRows rows at a time, so that it cuts a page once it holds the
// writer configuration's 64 KiB. Pages therefore depend only on the rows
// and on the run and row-group boundaries, never on the scheduling: -j 1
// and -j N give the same bytes.
//
// Measured as a user would (`replay run --sched fcfs --alloc count`, 2
// cores, placements on, best of 5–10): 1M jobs 1.66 s → 1.11 s, 120k jobs
// 0.27 s → 0.18 s, against the row path (GenericWriter.Write of
// []schema.Job chunks, every column encoded on the writing goroutine). The
// process uses about 7% more CPU time in all, for the hand-offs.
//
// Variables only so that tests can cross every boundary with few rows.
var (
	batchRows = 1 << 13
	valueRows = 1024
	// rowGroupRows is the row-group size of the writer configuration
	// (trace.ParquetWriterOptions): column writers do not count rows, so
	// the sink cuts the row groups itself.
	rowGroupRows = trace.ParquetRowGroupRows
)

// table is one run's rows of a results file.
type table interface {
	// stage prepares rows lo..hi−1 (at most batchRows) for the columns'
	// fill.
	stage(lo, hi int)
}

// column is one leaf column of a results file: fill appends the values of
// the staged rows lo..hi−1 of a run (ci is the column's index, for the
// levels of a repeated column).
type column[R table] struct {
	name string // dotted leaf path, e.g. "placement.list.element.x"
	fill func(r R, lo, hi, ci int, vals []parquet.Value) []parquet.Value
}

// colFile writes one results file column by column, through the codec's
// writer (internal/columnar).
type colFile[R table] struct {
	cw   *columnar.Writer
	cols []column[R]
}

func newColFile[R table](name string, pw columnar.ParquetWriter, cols []column[R]) (*colFile[R], error) {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	cw, err := columnar.NewWriter(name, pw, names, rowGroupRows)
	if err != nil {
		return nil, err
	}
	cw.ValueRows = valueRows
	return &colFile[R]{cw: cw, cols: cols}, nil
}

// write appends rows 0..n−1 of run r, in batches of at most batchRows
// that do not cross a row group.
func (f *colFile[R]) write(r R, n int) error {
	for lo := 0; lo < n; {
		hi := min(n, lo+batchRows, lo+f.cw.Room())
		r.stage(lo, hi)
		err := f.cw.Write(hi-lo, func(ci, a, b int, vals []parquet.Value) []parquet.Value {
			return f.cols[ci].fill(r, lo+a, lo+b, ci, vals)
		})
		if err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// flushColumns cuts the last page of every column, columns in parallel,
// before the file is closed (which would compress them one after the
// other).
func (f *colFile[R]) flushColumns() error { return f.cw.FlushColumns() }

// runKeys are the key columns every job and series row of a run repeats.
type runKeys struct {
	trace, machine, alloc, sched, rep, comm parquet.Value
}

func keysOf(o *output) runKeys {
	p := o.tk.tr
	str := func(s string) parquet.Value { return parquet.ByteArrayValue([]byte(s)) }
	return runKeys{str(p.t.Name), str(p.rec), str(o.tk.pair.Alloc), str(o.tk.pair.Sched),
		parquet.Int64Value(int64(p.t.Provenance.Rep)), str(o.summary.Comm)}
}

// The codec's value helpers.
var (
	extend  = columnar.Extend
	repeat  = columnar.Repeat
	doubles = columnar.Doubles
	int64s  = columnar.Int64s
)

// keyColumn is the column of one run key, the same value on every row.
func keyColumn[R table](name string, keys func(R) *runKeys, v func(*runKeys) parquet.Value) column[R] {
	return column[R]{name, func(r R, lo, hi, _ int, vals []parquet.Value) []parquet.Value {
		return repeat(v(keys(r)), hi-lo, vals)
	}}
}

// commColumn is the comm column, last in both files (it came later).
func commColumn[R table](keys func(R) *runKeys) column[R] {
	return keyColumn("comm", keys, func(k *runKeys) parquet.Value { return k.comm })
}

// keyColumns returns the columns of the run keys, first in both files.
func keyColumns[R table](keys func(R) *runKeys) []column[R] {
	key := func(name string, v func(*runKeys) parquet.Value) column[R] { return keyColumn(name, keys, v) }
	return []column[R]{
		key("trace", func(k *runKeys) parquet.Value { return k.trace }),
		key("machine", func(k *runKeys) parquet.Value { return k.machine }),
		key("alloc", func(k *runKeys) parquet.Value { return k.alloc }),
		key("sched", func(k *runKeys) parquet.Value { return k.sched }),
		key("rep", func(k *runKeys) parquet.Value { return k.rep }),
	}
}

// The staged numeric columns of a jobs batch.
const (
	fSubmit = iota
	fStart
	fEnd
	fWait
	fResponse
	fSlowdown
	fBSLD
	fAllocProcs
	fRun
	fEstimate
	nFloat
)

const (
	iJobID = iota
	iReqProcs
	iUser
	iSuspensions
	iMigrations
	nInt
)

// jobTable is one run's jobs.parquet rows: the accepted jobs in job-ID
// order (stable). A batch's numeric columns are staged in one pass over
// the jobs (whose records are large), then each column is converted alone.
type jobTable struct {
	keys runKeys
	res  *engine.Result
	pos  []int32 // row → position in res.Jobs; empty: the identity
	n    int     // rows
	tau  float64
	load parquet.Value

	lo int               // first staged row
	f  [nFloat][]float64 // staged double columns
	i  [nInt][]int64     // staged int64 columns
	// Staged placements: the values of row lo+r are pieceVal[r] ..
	// pieceVal[r+1]−1 of piece (x, y, w, h, mask) and level.
	pieceVal []int32
	piece    [5][]int32
	level    []uint8 // pieceFirst, pieceNext or pieceNone
}

// Levels of a placement value: a row's first piece, a later one, or the
// null standing for an empty list.
const (
	pieceFirst = iota
	pieceNext
	pieceNone
)

// reset makes t the rows of run o, keeping its buffers.
func (t *jobTable) reset(o *output, tau float64) {
	jobs := o.res.Jobs
	t.keys, t.res, t.tau, t.load = keysOf(o), o.res, tau, parquet.DoubleValue(o.tk.tr.t.Provenance.Load)
	sorted := slices.IsSortedFunc(jobs, func(a, b policy.Job) int { return cmp.Compare(a.ID, b.ID) })
	if sorted && len(o.res.Rejected) == 0 && !o.res.Stopped {
		t.pos, t.n = t.pos[:0], len(jobs)
		return
	}
	t.pos = slices.Grow(t.pos[:0], len(jobs)-len(o.res.Rejected))
	for i := range jobs {
		if jobs[i].End >= 0 { // not rejected by the allocator, completed (within the window)
			t.pos = append(t.pos, int32(i))
		}
	}
	if !sorted {
		slices.SortStableFunc(t.pos, func(a, b int32) int { return cmp.Compare(jobs[a].ID, jobs[b].ID) })
	}
	t.n = len(t.pos)
}

func (t *jobTable) at(row int) int {
	if len(t.pos) == 0 {
		return row
	}
	return int(t.pos[row])
}

func (t *jobTable) stage(lo, hi int) {
	n := hi - lo
	for k := range t.f {
		t.f[k] = slices.Grow(t.f[k][:0], n)[:n]
	}
	for k := range t.i {
		t.i[k] = slices.Grow(t.i[k][:0], n)[:n]
	}
	t.lo = lo
	res := t.res
	blocks := (n + valueRows - 1) / valueRows
	columnar.Each(blocks+1, func(b int) error {
		if b == blocks {
			t.stagePieces(lo, hi)
			return nil
		}
		for k := b * valueRows; k < min(n, (b+1)*valueRows); k++ {
			i := t.at(lo + k)
			j := &res.Jobs[i]
			resp := j.End - j.Submit
			t.f[fSubmit][k] = j.Submit
			t.f[fStart][k] = j.Start
			t.f[fEnd][k] = j.End
			t.f[fWait][k] = j.Start - j.Submit
			t.f[fResponse][k] = resp
			t.f[fSlowdown][k] = metrics.Slowdown(resp, j.Run)
			t.f[fBSLD][k] = metrics.BoundedSlowdown(resp, j.Run, t.tau)
			t.f[fAllocProcs][k] = res.AllocProcs[i]
			t.f[fRun][k] = j.Run
			t.f[fEstimate][k] = j.Estimate
			t.i[iJobID][k] = j.ID
			t.i[iReqProcs][k] = int64(j.Procs)
			t.i[iUser][k] = j.User
			t.i[iSuspensions][k] = counts(res.Suspensions, i)
			t.i[iMigrations][k] = counts(res.Migrations, i)
		}
		return nil
	})
}

// stagePieces stages the placements of rows lo..hi−1 (none without
// placements: the columns are then all nulls).
func (t *jobTable) stagePieces(lo, hi int) {
	if t.res.Pieces == nil {
		return
	}
	t.pieceVal = append(t.pieceVal[:0], 0)
	for k := range t.piece {
		t.piece[k] = t.piece[k][:0]
	}
	t.level = t.level[:0]
	for row := lo; row < hi; row++ {
		pl := t.res.Placement(t.at(row))
		if len(pl) == 0 {
			for k := range t.piece {
				t.piece[k] = append(t.piece[k], 0)
			}
			t.level = append(t.level, pieceNone)
		}
		for k, p := range pl {
			t.piece[0] = append(t.piece[0], p.X)
			t.piece[1] = append(t.piece[1], p.Y)
			t.piece[2] = append(t.piece[2], p.W)
			t.piece[3] = append(t.piece[3], p.H)
			t.piece[4] = append(t.piece[4], p.Mask)
			t.level = append(t.level, uint8(min(k, pieceNext)))
		}
		t.pieceVal = append(t.pieceVal, int32(len(t.level)))
	}
}

// counts returns c[i] as int64, 0 when c is nil (nothing happened).
func counts(c []int32, i int) int64 {
	if c == nil {
		return 0
	}
	return int64(c[i])
}

func jobFloat(name string, k int) column[*jobTable] {
	return column[*jobTable]{name, func(t *jobTable, lo, hi, _ int, vals []parquet.Value) []parquet.Value {
		return doubles(t.f[k][lo-t.lo:hi-t.lo], vals)
	}}
}

func jobInt(name string, k int) column[*jobTable] {
	return column[*jobTable]{name, func(t *jobTable, lo, hi, _ int, vals []parquet.Value) []parquet.Value {
		return int64s(t.i[k][lo-t.lo:hi-t.lo], vals)
	}}
}

// pieceColumn is leaf f (x, y, w, h, mask) of the placement list: one
// value per piece (repetition level 1 after a row's first), a null for an
// empty list.
func pieceColumn(name string, f int) column[*jobTable] {
	return column[*jobTable]{"placement.list.element." + name, func(t *jobTable, lo, hi, ci int, vals []parquet.Value) []parquet.Value {
		null := parquet.NullValue().Level(0, 0, ci)
		if t.res.Pieces == nil {
			return repeat(null, hi-lo, vals)
		}
		a, b := t.pieceVal[lo-t.lo], t.pieceVal[hi-t.lo]
		vals, add := extend(vals, int(b-a))
		for k := range add {
			lev := t.level[int(a)+k]
			if lev == pieceNone {
				add[k] = null
				continue
			}
			v := parquet.Int32Value(t.piece[f][int(a)+k])
			v.SetRepetitionLevel(int(lev))
			v.SetDefinitionLevel(1)
			v.SetColumnIndex(ci)
			add[k] = v
		}
		return vals
	}}
}

// jobColumns are the leaf columns of jobs.parquet, in schema.Job's order.
var jobColumns = append(keyColumns(func(t *jobTable) *runKeys { return &t.keys }), []column[*jobTable]{
	jobInt("job_id", iJobID),
	jobFloat("submit_time", fSubmit),
	jobFloat("start_time", fStart),
	jobFloat("end_time", fEnd),
	jobFloat("wait_time", fWait),
	jobFloat("response_time", fResponse),
	jobFloat("slowdown", fSlowdown),
	jobFloat("bounded_slowdown", fBSLD),
	jobInt("req_procs", iReqProcs),
	jobFloat("alloc_procs", fAllocProcs),
	{"load", func(t *jobTable, lo, hi, ci int, vals []parquet.Value) []parquet.Value {
		// Nullable (schema.Job): NULL when the trace's load is unknown (-1).
		v := t.load.Level(0, 1, ci)
		if t.load.Double() == -1 {
			v = parquet.NullValue().Level(0, 0, ci)
		}
		return repeat(v, hi-lo, vals)
	}},
	jobFloat("run_time", fRun),
	jobFloat("estimate", fEstimate),
	jobInt("user_id", iUser),
	pieceColumn("x", 0),
	pieceColumn("y", 1),
	pieceColumn("w", 2),
	pieceColumn("h", 3),
	pieceColumn("mask", 4),
	jobInt("suspensions", iSuspensions),
	jobInt("migrations", iMigrations),
	commColumn(func(t *jobTable) *runKeys { return &t.keys }),
}...)

// seriesTable is one run's series.parquet rows; the samples are compact
// enough to be read column by column where they are.
type seriesTable struct {
	keys runKeys
	ser  []engine.Sample
}

func (*seriesTable) stage(int, int) {}

// seriesColumns are the columns of series.parquet, in schema.Series' order.
var seriesColumns = append(keyColumns(func(t *seriesTable) *runKeys { return &t.keys }), []column[*seriesTable]{
	{"time", func(t *seriesTable, lo, hi, _ int, vals []parquet.Value) []parquet.Value {
		vals, add := extend(vals, hi-lo)
		for i := range add {
			add[i] = parquet.DoubleValue(t.ser[lo+i].Time)
		}
		return vals
	}},
	{"busy", func(t *seriesTable, lo, hi, _ int, vals []parquet.Value) []parquet.Value {
		vals, add := extend(vals, hi-lo)
		for i := range add {
			add[i] = parquet.DoubleValue(t.ser[lo+i].Busy)
		}
		return vals
	}},
	{"running", func(t *seriesTable, lo, hi, _ int, vals []parquet.Value) []parquet.Value {
		vals, add := extend(vals, hi-lo)
		for i := range add {
			add[i] = parquet.Int64Value(int64(t.ser[lo+i].Running))
		}
		return vals
	}},
	{"queue", func(t *seriesTable, lo, hi, _ int, vals []parquet.Value) []parquet.Value {
		vals, add := extend(vals, hi-lo)
		for i := range add {
			add[i] = parquet.Int64Value(int64(t.ser[lo+i].Queue))
		}
		return vals
	}},
	commColumn(func(t *seriesTable) *runKeys { return &t.keys }),
}...)
