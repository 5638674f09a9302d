package results

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/schema"
)

// LoadOptions configures LoadWith.
type LoadOptions struct {
	// Stream leaves the rows of jobs.parquet and series.parquet on disk:
	// the files are opened and checked as Load checks them, but Set.Jobs
	// and Set.Series stay nil. EachJobRun and EachSeriesRun then read them
	// run by run, column by column in chunks, so that memory is bounded by
	// the largest run rather than the file; JobsOf and SeriesOf scan the
	// file. A sweep's dataset is always loaded whole.
	Stream bool
}

// ErrUnsorted is returned by EachJobRun and EachSeriesRun on a streamed
// Set whose file is not sorted by run (trace, alloc, sched, rep), as the
// results contract requires: the rows have then been loaded into the Set
// (Jobs or Series), and a second call delivers every run once.
var ErrUnsorted = errors.New("rows not sorted by (trace, alloc, sched, rep): loaded whole")

// streamFile is a results file left on disk (LoadOptions.Stream).
type streamFile struct {
	path   string
	rows   int64
	noLoad bool // no "load" column: jobs' Load is -1
}

// NumJobs returns the number of job rows (0 without jobs.parquet).
func (s *Set) NumJobs() int64 {
	if s.jobsFile != nil && s.Jobs == nil {
		return s.jobsFile.rows
	}
	return int64(len(s.Jobs))
}

// NumSeries returns the number of series rows (0 without series.parquet).
func (s *Set) NumSeries() int64 {
	if s.seriesFile != nil && s.Series == nil {
		return s.seriesFile.rows
	}
	return int64(len(s.Series))
}

// EachJobRun calls fn with the job rows of every run (trace, pair, rep),
// in file order (the order of jobs.parquet, sorted by run), each run
// once, rows in file order: the rows JobsOf returns. js, and the
// placements it holds, are reused once fn returns: fn copies what it
// keeps. An error from fn stops the pass and is returned.
func (s *Set) EachJobRun(fn func(k Key, js []Job) error) error {
	if s.jobsFile == nil || s.Jobs != nil {
		return eachRunInMemory(s.Jobs, jobKey, fn)
	}
	err := streamRuns(s.jobsFile, jobKey, func(j *Job) *[]schema.Piece { return &j.Placement }, fn)
	if errors.Is(err, ErrUnsorted) {
		var jobs []Job
		jf, rerr := readRows(s.jobsFile.path, &jobs, jobColumns)
		if rerr != nil {
			return rerr
		}
		if !hasColumn(jf, "load") {
			for i := range jobs {
				jobs[i].Load = -1
			}
		}
		if jobs == nil {
			jobs = []Job{}
		}
		s.Jobs = jobs
	}
	return err
}

// EachSeriesRun calls fn with the series rows of every run, in file
// order, each run once, rows in time order: the rows SeriesOf returns.
// rows is reused once fn returns.
func (s *Set) EachSeriesRun(fn func(k Key, rows []Series) error) error {
	byTime := func(k Key, rows []Series) error {
		slices.SortStableFunc(rows, func(a, b Series) int {
			switch {
			case a.Time < b.Time:
				return -1
			case a.Time > b.Time:
				return 1
			}
			return 0
		})
		return fn(k, rows)
	}
	if s.seriesFile == nil || s.Series != nil {
		return eachRunInMemory(s.Series, seriesKey, func(k Key, rows []Series) error {
			return byTime(k, slices.Clone(rows))
		})
	}
	err := streamRuns(s.seriesFile, seriesKey, nil, byTime)
	if errors.Is(err, ErrUnsorted) {
		var rows []Series
		if _, rerr := readRows(s.seriesFile.path, &rows, seriesColumns); rerr != nil {
			return rerr
		}
		if rows == nil {
			rows = []Series{}
		}
		s.Series = rows
	}
	return err
}

func jobKey(j *Job) Key       { return Key{j.Trace, Pair{j.Alloc, j.Sched}, j.Rep, j.Machine, j.Comm} }
func seriesKey(r *Series) Key { return Key{r.Trace, Pair{r.Alloc, r.Sched}, r.Rep, r.Machine, r.Comm} }

// eachRunInMemory delivers the runs of loaded rows: contiguous runs in
// order when the rows are sorted by run, else each run's rows (in row
// order) in order of first appearance.
func eachRunInMemory[T any](rows []T, key func(*T) Key, fn func(Key, []T) error) error {
	sorted := true
	for i := 1; i < len(rows) && sorted; i++ {
		a, b := key(&rows[i-1]), key(&rows[i])
		sorted = b.cmp(a.Trace, a.Pair.Alloc, a.Pair.Sched, a.Rep) >= 0
	}
	if sorted {
		for lo := 0; lo < len(rows); {
			k := key(&rows[lo])
			hi := lo + 1
			for hi < len(rows) && key(&rows[hi]) == k {
				hi++
			}
			if err := fn(k, rows[lo:hi:hi]); err != nil {
				return err
			}
			lo = hi
		}
		return nil
	}
	idx := map[Key]int{}
	var keys []Key
	var groups [][]T
	for i := range rows {
		k := key(&rows[i])
		g, ok := idx[k]
		if !ok {
			g = len(keys)
			idx[k] = g
			keys = append(keys, k)
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], rows[i])
	}
	for g, k := range keys {
		if err := fn(k, groups[g]); err != nil {
			return err
		}
	}
	return nil
}

// streamChunk is the number of rows decoded at a time.
const streamChunk = 4096

// streamRuns reads the file sf run by run: every column is decoded chunk
// by chunk (streamChunk rows), rows are gathered until their run key
// changes, and the run is handed to fn. pieces, when not nil, gives a
// row's placement field: placements are copied into one backing array per
// run. It returns ErrUnsorted when a run key sorts before the previous
// one (some runs have been delivered then).
func streamRuns[T any](sf *streamFile, key func(*T) Key, pieces func(*T) *[]schema.Piece, fn func(Key, []T) error) error {
	osf, f, err := openChecked(sf.path, schema.Columns(*new(T)))
	if err != nil {
		return err
	}
	defer osf.Close()
	rs, err := newRowStream[T](f)
	if err != nil {
		return fmt.Errorf("%s: %w", sf.path, err)
	}
	defer rs.close()
	chunk := make([]T, streamChunk)
	var run []T
	var arena []schema.Piece
	var starts []int
	var cur Key
	have := false
	deliver := func() error {
		if pieces != nil {
			for i := range run {
				a, b := starts[i], len(arena)
				if i+1 < len(run) {
					b = starts[i+1]
				}
				if b > a {
					*pieces(&run[i]) = arena[a:b:b]
				} else {
					*pieces(&run[i]) = nil
				}
			}
		}
		err := fn(cur, run)
		clear(run)
		run, arena, starts = run[:0], arena[:0], starts[:0]
		return err
	}
	for {
		n, err := rs.read(chunk)
		if err != nil {
			return fmt.Errorf("%s: %w", sf.path, err)
		}
		if n == 0 {
			break
		}
		if js, ok := any(chunk[:n]).([]Job); ok && sf.noLoad {
			for i := range js {
				js[i].Load = -1
			}
		}
		for i := range chunk[:n] {
			r := &chunk[i]
			k := key(r)
			if !have || k != cur {
				if have {
					if k.cmp(cur.Trace, cur.Pair.Alloc, cur.Pair.Sched, cur.Rep) < 0 {
						return ErrUnsorted
					}
					if err := deliver(); err != nil {
						return err
					}
				}
				cur, have = k, true
			}
			if pieces != nil {
				p := pieces(r)
				starts = append(starts, len(arena))
				arena = append(arena, *p...)
				*p = nil
			}
			run = append(run, *r)
		}
	}
	if have {
		return deliver()
	}
	return nil
}

// colCursor reads the values of one column chunk in order, page by page.
type colCursor struct {
	pages    parquet.Pages
	page     parquet.Page
	vr       parquet.ValueReader
	pageDone bool
	buf      []parquet.Value
	i, n     int
}

func newCursor(cc parquet.ColumnChunk) *colCursor {
	return &colCursor{pages: cc.Pages(), buf: make([]parquet.Value, 1024)}
}

// fill makes c.buf[c.i] the next value; io.EOF at the end of the chunk.
// Values of a page stay valid until the cursor moves past the page.
func (c *colCursor) fill() error {
	for c.i >= c.n {
		if c.vr != nil && !c.pageDone {
			m, err := c.vr.ReadValues(c.buf)
			c.i, c.n = 0, m
			if err != nil {
				if !errors.Is(err, io.EOF) {
					return err
				}
				c.pageDone = true
			}
			continue
		}
		if c.page != nil {
			parquet.Release(c.page)
			c.page, c.vr = nil, nil
		}
		p, err := c.pages.ReadPage()
		if err != nil {
			return err
		}
		c.page, c.vr, c.pageDone = p, p.Values(), false
	}
	return nil
}

// next returns the next value.
func (c *colCursor) next() (parquet.Value, error) {
	if err := c.fill(); err != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("fewer values than rows")
		}
		return parquet.Value{}, err
	}
	v := c.buf[c.i]
	c.i++
	return v, nil
}

// peekRepeated reports whether the next value continues the current row
// (repetition level > 0); false at the end of the chunk.
func (c *colCursor) peekRepeated() (bool, error) {
	if err := c.fill(); err != nil {
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	return c.buf[c.i].RepetitionLevel() > 0, nil
}

func (c *colCursor) close() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	c.pages.Close()
}

// streamField is how one field of the row type is read.
type streamField struct {
	name   string
	offset uintptr
	kind   reflect.Kind
	col    int  // leaf column index (scalars); -1 when absent
	pieces bool // a []schema.Piece field
	leaves [5]int
	maxDef int
	cur    *colCursor
	pcur   [5]*colCursor
	last   string // the string column's previous value: runs repeat it
	// null is the value in memory of a NULL (schema.Column.NullValue);
	// nullable says the column has one.
	null     float64
	nullable bool
}

// rowStream decodes the rows of a Parquet file chunk by chunk, column by
// column (the fields readColumns reads), strings interned.
type rowStream[T any] struct {
	f      *parquet.File
	fields []streamField
	rgs    []parquet.RowGroup
	rg     int
	left   int // rows left in the current row group
	intern map[string]string
	arena  []schema.Piece
	starts []int
}

func newRowStream[T any](f *parquet.File) (*rowStream[T], error) {
	rt := reflect.TypeFor[T]()
	sch := f.Schema()
	rs := &rowStream[T]{f: f, rgs: f.RowGroups(), rg: -1, intern: map[string]string{}}
	pt := reflect.TypeFor[schema.Piece]()
	if pt.NumField() != 5 {
		panic("results: schema.Piece changed: update streamRuns")
	}
	for fi := range rt.NumField() {
		sf := rt.Field(fi)
		name, _, _ := strings.Cut(sf.Tag.Get("parquet"), ",")
		if name == "" || name == "-" {
			continue
		}
		fd := streamField{name: name, offset: sf.Offset, kind: sf.Type.Kind(), col: -1}
		fd.null, fd.nullable = schema.NullValueOf(*new(T), name)
		if sf.Type == reflect.TypeFor[[]schema.Piece]() {
			fd.pieces = true
			found := 0
			for k := range pt.NumField() {
				tag, _, _ := strings.Cut(pt.Field(k).Tag.Get("parquet"), ",")
				fd.leaves[k] = -1
				for _, path := range sch.Columns() {
					if len(path) > 1 && path[0] == name && path[len(path)-1] == tag {
						if l, ok := sch.Lookup(path...); ok {
							fd.leaves[k] = l.ColumnIndex
							fd.maxDef = l.MaxDefinitionLevel
							found++
						}
					}
				}
			}
			if found == 0 {
				continue // absent (optional)
			}
			if found != 5 {
				return nil, fmt.Errorf("column %q: %d of the 5 piece leaves", name, found)
			}
			rs.fields = append(rs.fields, fd)
			continue
		}
		if k := fd.kind; k != reflect.String && k != reflect.Int64 && k != reflect.Float64 {
			return nil, fmt.Errorf("field %s: unsupported type %s", sf.Name, sf.Type)
		}
		leaf, ok := sch.Lookup(name)
		if !ok {
			continue
		}
		fd.col = leaf.ColumnIndex
		rs.fields = append(rs.fields, fd)
	}
	return rs, nil
}

func (rs *rowStream[T]) closeCursors() {
	for i := range rs.fields {
		fd := &rs.fields[i]
		if fd.cur != nil {
			fd.cur.close()
			fd.cur = nil
		}
		for k, c := range fd.pcur {
			if c != nil {
				c.close()
				fd.pcur[k] = nil
			}
		}
	}
}

func (rs *rowStream[T]) close() { rs.closeCursors() }

// read decodes the next rows into out (zeroed first) and returns how
// many; 0 at the end of the file. Placements point into an array reused
// by the next read.
func (rs *rowStream[T]) read(out []T) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	for rs.left == 0 {
		rs.closeCursors()
		rs.rg++
		if rs.rg >= len(rs.rgs) {
			return 0, nil
		}
		rg := rs.rgs[rs.rg]
		rs.left = int(rg.NumRows())
		chunks := rg.ColumnChunks()
		for i := range rs.fields {
			fd := &rs.fields[i]
			if fd.pieces {
				for k, c := range fd.leaves {
					fd.pcur[k] = newCursor(chunks[c])
				}
			} else {
				fd.cur = newCursor(chunks[fd.col])
			}
		}
	}
	n = min(len(out), rs.left)
	rs.left -= n
	out = out[:n]
	clear(out)
	var zero T
	size := unsafe.Sizeof(zero)
	p0 := unsafe.Pointer(&out[0])
	for i := range rs.fields {
		fd := &rs.fields[i]
		if fd.pieces {
			if err := rs.readPieces(fd, out); err != nil {
				return 0, fmt.Errorf("column %q: %w", fd.name, err)
			}
			continue
		}
		for r := range n {
			v, err := fd.cur.next()
			if err != nil {
				return 0, fmt.Errorf("column %q: %w", fd.name, err)
			}
			fp := unsafe.Add(p0, uintptr(r)*size+fd.offset)
			if v.IsNull() {
				if fd.nullable {
					setNull(fp, fd.kind, fd.null)
				}
				continue
			}
			switch fd.kind {
			case reflect.String:
				b := v.ByteArray()
				if string(b) == fd.last { // no allocation, no hashing
					*(*string)(fp) = fd.last
					break
				}
				s, ok := rs.intern[string(b)]
				if !ok {
					s = string(b)
					if len(rs.intern) < 1<<16 {
						rs.intern[s] = s
					}
				}
				fd.last = s
				*(*string)(fp) = s
			case reflect.Int64:
				if v.Kind() == parquet.Int32 {
					*(*int64)(fp) = int64(v.Int32())
				} else {
					*(*int64)(fp) = v.Int64()
				}
			case reflect.Float64:
				if v.Kind() == parquet.Float {
					*(*float64)(fp) = float64(v.Float())
				} else {
					*(*float64)(fp) = v.Double()
				}
			}
		}
	}
	return n, nil
}

// readPieces reads the placements of len(out) rows from the five leaf
// columns of fd: a row starts at repetition level 0 and holds one piece
// per value defined down to the element.
func (rs *rowStream[T]) readPieces(fd *streamField, out []T) error {
	rs.arena, rs.starts = rs.arena[:0], rs.starts[:0]
	var zero T
	size := unsafe.Sizeof(zero)
	p0 := unsafe.Pointer(&out[0])
	for range out {
		rs.starts = append(rs.starts, len(rs.arena))
		for first := true; ; first = false {
			if !first {
				more, err := fd.pcur[0].peekRepeated()
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
			var pc [5]int32
			defined := true
			for k, c := range fd.pcur {
				v, err := c.next()
				if err != nil {
					return err
				}
				if first != (v.RepetitionLevel() == 0) {
					return fmt.Errorf("leaf %d: repetition levels disagree", k)
				}
				if v.DefinitionLevel() < fd.maxDef {
					defined = false
					continue
				}
				if v.Kind() == parquet.Int64 {
					pc[k] = int32(v.Int64())
				} else {
					pc[k] = v.Int32()
				}
			}
			if defined {
				rs.arena = append(rs.arena, schema.Piece{X: pc[0], Y: pc[1], W: pc[2], H: pc[3], Mask: pc[4]})
			}
		}
	}
	for r := range out {
		a, b := rs.starts[r], len(rs.arena)
		if r+1 < len(out) {
			b = rs.starts[r+1]
		}
		if b > a {
			*(*[]schema.Piece)(unsafe.Add(p0, uintptr(r)*size+fd.offset)) = rs.arena[a:b:b]
		}
	}
	return nil
}

// openStream opens dir/name for streaming when it exists (nil when it
// does not), with Load's checks.
func openStream(dir, name string, cols []schema.Column, sp string, sf *parquet.File) (*streamFile, error) {
	p := dir + string(os.PathSeparator) + name
	if _, err := os.Stat(p); err != nil {
		return nil, nil
	}
	osf, f, err := openChecked(p, cols)
	if err != nil {
		return nil, err
	}
	defer osf.Close()
	if err := sameRun(sp, sf, p, f); err != nil {
		return nil, err
	}
	return &streamFile{path: p, rows: f.NumRows(), noLoad: !hasColumn(f, "load")}, nil
}
