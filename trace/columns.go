package trace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// Parquet traces are read and written column by column (see the package
// documentation for the measurements behind this design).
//
// Reading: every column chunk of a row group has a decoder goroutine that
// reads, decompresses and converts its pages ahead of the consumer; the
// consumer copies the values into []Job a block of blockRows rows at a time,
// column after column, so that the block stays in cache while its columns are
// written. zstd decoding, most of the work, thus runs on every core, and a
// plain page is copied once, straight from parquet-go's decoded buffer.
//
// Writing: a batch of jobs is split into its columns, each column encoded and
// compressed into its own page buffers in parallel; the row group is then
// written column after column. Pages depend only on each column's values and
// batch sizes, never on scheduling, so the bytes are deterministic.

// jobColumn is one column of the trace contract and where its value goes.
type jobColumn struct {
	name  string
	off   uintptr // offset of the field in Job
	isInt bool    // an int64 field (else float64)
	procs bool    // a processor count, bounded by MaxProcCount
}

var jobColumns = func() []jobColumn {
	t := reflect.TypeOf(Job{})
	out := make([]jobColumn, t.NumField())
	for i := range out {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		out[i] = jobColumn{name: name, off: f.Offset, isInt: f.Type.Kind() == reflect.Int64, procs: procColumns[name]}
	}
	return out
}()

// procColumns are the columns holding processor counts.
var procColumns = map[string]bool{"alloc_procs": true, "req_procs": true, "req_width": true, "req_height": true, "max_parallelism": true}

func (c *jobColumn) int64At(j *Job) *int64 { return (*int64)(unsafe.Add(unsafe.Pointer(j), c.off)) }
func (c *jobColumn) floatAt(j *Job) *float64 {
	return (*float64)(unsafe.Add(unsafe.Pointer(j), c.off))
}

// rowError is an error at a 0-based row.
type rowError struct {
	row int
	msg string
}

func (e *rowError) Error() string { return e.msg }

// floatToInt converts v, read from a floating-point column, for an integer
// field: it must be integral and at most MaxInt in magnitude (beyond, a
// float64 no longer holds every integer).
func (c *jobColumn) floatToInt(v float64, row int) (int64, error) {
	if v != math.Trunc(v) || math.IsInf(v, 0) {
		return 0, &rowError{row, fmt.Sprintf("column %s: %v is not an integer", c.name, v)}
	}
	if math.Abs(v) > MaxInt {
		return 0, &rowError{row, fmt.Sprintf("column %s: %v is out of range (integer columns stored as doubles hold at most ±2^53)", c.name, v)}
	}
	return int64(v), nil
}

// blockRows is the number of rows filled at once, column after column: a
// block of jobs stays in cache while its columns are written.
const blockRows = 512

// pageAhead is the number of decoded pages a column decoder may hold ahead of
// the consumer.
const pageAhead = 2

// colSource is a column of the file read into a Job field.
type colSource struct {
	c        *jobColumn
	leaf     int  // leaf column index in the file
	unsigned bool // the column is annotated as an unsigned integer
}

// planColumns matches the trace columns to the file's, checking their types.
// Columns the file lacks have a nil entry.
func planColumns(sch *parquet.Schema) ([]*colSource, error) {
	plan := make([]*colSource, len(jobColumns))
	for ci := range jobColumns {
		c := &jobColumns[ci]
		leaf, ok := sch.Lookup(c.name)
		if !ok {
			continue
		}
		if leaf.MaxRepetitionLevel > 0 {
			return nil, fmt.Errorf("column %s: a repeated column, want one value per row", c.name)
		}
		typ := leaf.Node.Type()
		src := &colSource{c: c, leaf: leaf.ColumnIndex}
		switch typ.Kind() {
		case parquet.Int64, parquet.Int32, parquet.Double, parquet.Float:
		default:
			return nil, fmt.Errorf("column %s: type %s, want a number (int64 or double)", c.name, typ)
		}
		// An integer annotation (INT(32,true), ...) is a plain number; any
		// other (DECIMAL, TIMESTAMP, DATE, ...) would be read wrongly.
		if lt := typ.LogicalType(); lt != nil && lt.Value != nil {
			it, ok := lt.Value.(*format.IntType)
			if !ok {
				return nil, fmt.Errorf("column %s: type %s, want a plain number (int64 or double)", c.name, typ)
			}
			src.unsigned = !it.IsSigned
		}
		plan[ci] = src
	}
	return plan, nil
}

// readColumns fills jobs (len = the file's rows) from f, row group by row
// group. Missing columns and nulls read as Unknown. Once the rows before hi
// are filled, check(hi) is called (to validate them while in cache); its
// error stops the reading.
func readColumns(f *parquet.File, jobs []Job, check func(hi int) error) error {
	plan, err := planColumns(f.Schema())
	if err != nil {
		return err
	}
	row := 0
	for _, rg := range f.RowGroups() {
		n := int(rg.NumRows())
		if n < 0 || row+n > len(jobs) {
			return fmt.Errorf("row group of %d rows past the file's %d rows", n, len(jobs))
		}
		if err := readRowGroup(rg, plan, jobs[row:row+n], row, check); err != nil {
			return err
		}
		row += n
	}
	if row != len(jobs) {
		return fmt.Errorf("%d rows in row groups, %d in the file", row, len(jobs))
	}
	return nil
}

// readRowGroup fills js, the rows of rg (row0 = the first one's row in the
// file), from decoder goroutines, one per column, calling check after each
// block.
func readRowGroup(rg parquet.RowGroup, plan []*colSource, js []Job, row0 int, check func(hi int) error) error {
	done := make(chan struct{})
	curs := make([]*colCursor, len(plan))
	chunks := rg.ColumnChunks()
	for ci, src := range plan {
		if src == nil {
			continue
		}
		d := &colDecoder{src: src, out: make(chan colPage, pageAhead), done: done,
			freeI: make(chan []int64, pageAhead+1), freeF: make(chan []float64, pageAhead+1)}
		curs[ci] = &colCursor{d: d}
		go d.run(chunks[src.leaf].Pages(), row0)
	}
	defer func() {
		close(done)
		for _, cu := range curs {
			if cu != nil {
				cu.drain()
			}
		}
	}()
	n := len(js)
	for lo := 0; lo < n; lo += blockRows {
		block := js[lo:min(lo+blockRows, n)]
		for ci, cu := range curs {
			if cu == nil {
				setUnknown(&jobColumns[ci], block)
				continue
			}
			if err := cu.fill(block); err != nil {
				return err
			}
		}
		if err := check(row0 + lo + len(block)); err != nil {
			return err
		}
	}
	for _, cu := range curs {
		if cu != nil {
			if err := cu.end(); err != nil {
				return err
			}
		}
	}
	return nil
}

func setUnknown(c *jobColumn, js []Job) {
	for i := range js {
		if c.isInt {
			*c.int64At(&js[i]) = Unknown
		} else {
			*c.floatAt(&js[i]) = Unknown
		}
	}
}

// colPage is a page of one column, its values converted to the field's type,
// one per row (nulls as Unknown). Exactly one of i64 and f64 is set, unless
// err is.
type colPage struct {
	i64  []int64
	f64  []float64
	page parquet.Page // the page i64 or f64 points into, to release once consumed; nil when they are copies
	err  error
}

func (p *colPage) len() int { return len(p.i64) + len(p.f64) }

// colDecoder reads the pages of one column chunk in its own goroutine.
type colDecoder struct {
	src   *colSource
	out   chan colPage
	done  chan struct{}
	freeI chan []int64   // consumed copies, for reuse
	freeF chan []float64 // consumed copies, for reuse
	vals  []parquet.Value
}

func (d *colDecoder) run(pages parquet.Pages, row int) {
	defer close(d.out)
	send := func(p colPage) bool {
		select {
		case d.out <- p:
			return true
		case <-d.done:
			releasePage(p)
			return false
		}
	}
	// The library panics on some corrupt pages: in this goroutine nobody
	// else could recover it, so it becomes the column's error.
	defer func() {
		if r := recover(); r != nil {
			send(colPage{err: fmt.Errorf("column %s: not a readable Parquet page (%v)", d.src.c.name, r)})
		}
	}()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			send(colPage{err: fmt.Errorf("column %s: %w", d.src.c.name, err)})
			return
		}
		n := int(p.NumRows())
		if n == 0 {
			parquet.Release(p)
			continue
		}
		cp, err := d.convert(p, row)
		if err != nil {
			parquet.Release(p)
			send(colPage{err: err})
			return
		}
		if cp.page == nil {
			parquet.Release(p)
		}
		if !send(cp) {
			return
		}
		row += n
	}
}

func releasePage(p colPage) {
	if p.page != nil {
		parquet.Release(p.page)
	}
}

func (d *colDecoder) ints(n int) []int64 {
	select {
	case b := <-d.freeI:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	return make([]int64, n)
}

func (d *colDecoder) floats(n int) []float64 {
	select {
	case b := <-d.freeF:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	return make([]float64, n)
}

// convert returns the values of page p (its first row is row) in the
// field's type: the page's own buffer when it already is (a plain int64 or
// double page without nulls), else a converted copy.
func (d *colDecoder) convert(p parquet.Page, row int) (colPage, error) {
	c, n := d.src.c, int(p.NumRows())
	if p.Dictionary() == nil && p.NumNulls() == 0 && int(p.NumValues()) == n {
		v := p.Data()
		switch v.Kind() {
		case encoding.Int64:
			if s := v.Int64(); len(s) == n {
				if c.isInt && !d.src.unsigned {
					return colPage{i64: s, page: p}, nil
				}
				return d.fromInts(s, row)
			}
		case encoding.Double:
			if s := v.Double(); len(s) == n {
				if !c.isInt {
					return colPage{f64: s, page: p}, nil
				}
				return d.fromFloats(s, row)
			}
		case encoding.Int32:
			if s := v.Int32(); len(s) == n {
				if d.src.unsigned {
					return d.fromInts(unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), n), row)
				}
				return d.fromInts(s, row)
			}
		case encoding.Float:
			if s := v.Float(); len(s) == n {
				return d.fromFloats(s, row)
			}
		}
	}
	return d.fromValues(p, row)
}

// fromInts converts integers of any width.
func (d *colDecoder) fromInts(s any, row int) (colPage, error) {
	c := d.src.c
	switch s := s.(type) {
	case []int64:
		if c.isInt {
			out := d.ints(len(s))
			for i, v := range s {
				if v < 0 { // unsigned: at least 2^63
					return colPage{}, &rowError{row + i, fmt.Sprintf("column %s: %d is out of range", c.name, uint64(v))}
				}
				out[i] = v
			}
			return colPage{i64: out}, nil
		}
		out := d.floats(len(s))
		for i, v := range s {
			if d.src.unsigned {
				out[i] = float64(uint64(v))
			} else {
				out[i] = float64(v)
			}
		}
		return colPage{f64: out}, nil
	case []int32:
		return widen(d, s), nil
	case []uint32:
		return widen(d, s), nil
	}
	panic("unreachable")
}

func widen[T int32 | uint32](d *colDecoder, s []T) colPage {
	if d.src.c.isInt {
		out := d.ints(len(s))
		for i, v := range s {
			out[i] = int64(v)
		}
		return colPage{i64: out}
	}
	out := d.floats(len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return colPage{f64: out}
}

// fromFloats converts floating-point values; integer fields take only
// integral values in range.
func (d *colDecoder) fromFloats(s any, row int) (colPage, error) {
	c := d.src.c
	switch s := s.(type) {
	case []float64:
		if !c.isInt {
			panic("unreachable")
		}
		out := d.ints(len(s))
		for i, v := range s {
			x, err := c.floatToInt(v, row+i)
			if err != nil {
				return colPage{}, err
			}
			out[i] = x
		}
		return colPage{i64: out}, nil
	case []float32:
		if c.isInt {
			out := d.ints(len(s))
			for i, v := range s {
				x, err := c.floatToInt(float64(v), row+i)
				if err != nil {
					return colPage{}, err
				}
				out[i] = x
			}
			return colPage{i64: out}, nil
		}
		out := d.floats(len(s))
		for i, v := range s {
			out[i] = float64(v)
		}
		return colPage{f64: out}, nil
	}
	panic("unreachable")
}

// fromValues reads a page value by value: pages with nulls (pandas makes
// every column optional) or dictionary-encoded (pyarrow's default).
func (d *colDecoder) fromValues(p parquet.Page, row int) (colPage, error) {
	c, n := d.src.c, int(p.NumRows())
	var cp colPage
	if c.isInt {
		cp.i64 = d.ints(n)
	} else {
		cp.f64 = d.floats(n)
	}
	if cap(d.vals) < 1024 {
		d.vals = make([]parquet.Value, 1024)
	}
	vr := p.Values()
	for i := 0; i < n; {
		k, err := vr.ReadValues(d.vals[:min(len(d.vals), n-i)])
		for _, v := range d.vals[:k] {
			var x int64
			var f float64
			isFloat := false
			switch {
			case v.IsNull():
				x, f = Unknown, Unknown
			case v.Kind() == parquet.Int64:
				x = v.Int64()
				if d.src.unsigned && x < 0 {
					if c.isInt {
						return colPage{}, &rowError{row + i, fmt.Sprintf("column %s: %d is out of range", c.name, uint64(x))}
					}
					f, isFloat = float64(uint64(x)), true
				}
			case v.Kind() == parquet.Int32:
				x = int64(v.Int32())
				if d.src.unsigned {
					x = int64(v.Uint32())
				}
			case v.Kind() == parquet.Double || v.Kind() == parquet.Float:
				f, isFloat = v.Double(), true
				if v.Kind() == parquet.Float {
					f = float64(v.Float())
				}
			default:
				return colPage{}, &rowError{row + i, fmt.Sprintf("column %s: a %s value, want a number", c.name, v.Kind())}
			}
			switch {
			case c.isInt && isFloat:
				var err error
				if x, err = c.floatToInt(f, row+i); err != nil {
					return colPage{}, err
				}
				cp.i64[i] = x
			case c.isInt:
				cp.i64[i] = x
			case isFloat:
				cp.f64[i] = f
			default:
				cp.f64[i] = float64(x)
			}
			i++
		}
		if i < n && (k == 0 || err != nil) {
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return colPage{}, &rowError{row + i, fmt.Sprintf("column %s: %v", c.name, err)}
		}
	}
	return cp, nil
}

// colCursor consumes the pages of one column decoder.
type colCursor struct {
	d   *colDecoder
	cur colPage
	off int // values of cur consumed
}

// next moves to the next page.
func (cu *colCursor) next() error {
	cu.release()
	p, ok := <-cu.d.out
	if !ok {
		return fmt.Errorf("column %s: fewer values than rows", cu.d.src.c.name)
	}
	if p.err != nil {
		return p.err
	}
	cu.cur, cu.off = p, 0
	return nil
}

// release gives the current page back (to parquet-go, or its copy to the
// decoder for reuse).
func (cu *colCursor) release() {
	p := cu.cur
	cu.cur = colPage{}
	switch {
	case p.page != nil:
		parquet.Release(p.page)
	case p.i64 != nil:
		select {
		case cu.d.freeI <- p.i64:
		default:
		}
	case p.f64 != nil:
		select {
		case cu.d.freeF <- p.f64:
		default:
		}
	}
}

// fill sets the column's field of every job of js.
func (cu *colCursor) fill(js []Job) error {
	c := cu.d.src.c
	for i := 0; i < len(js); {
		avail := cu.cur.len() - cu.off
		if avail == 0 {
			if err := cu.next(); err != nil {
				return err
			}
			continue
		}
		k := min(avail, len(js)-i)
		dst := js[i : i+k]
		if c.isInt {
			for j, v := range cu.cur.i64[cu.off : cu.off+k] {
				*c.int64At(&dst[j]) = v
			}
		} else {
			for j, v := range cu.cur.f64[cu.off : cu.off+k] {
				*c.floatAt(&dst[j]) = v
			}
		}
		cu.off += k
		i += k
	}
	return nil
}

// end checks that the column has no values beyond the row group's rows.
func (cu *colCursor) end() error {
	if cu.cur.len() > cu.off {
		return fmt.Errorf("column %s: more values than rows", cu.d.src.c.name)
	}
	cu.release()
	p, ok := <-cu.d.out
	if ok {
		releasePage(p)
		if p.err != nil {
			return p.err
		}
		return fmt.Errorf("column %s: more values than rows", cu.d.src.c.name)
	}
	return nil
}

// drain releases every page still held, once the decoder has been told to
// stop, and waits for it to end.
func (cu *colCursor) drain() {
	cu.release()
	for p := range cu.d.out {
		releasePage(p)
	}
}

// jobSchema is the Parquet schema of a trace: the fields of Job, in order,
// required int64 and double columns.
var jobSchema = parquet.SchemaOf(Job{})

// jobWriter writes the rows of a trace in batches, and its metadata last,
// so that rows can be written while the rest of the trace is still being
// read. The bytes do not depend on how the rows are split between calls to
// write.
type jobWriter struct {
	pw      *parquet.GenericWriter[any]
	extra   []ExtraColumn     // an extended log's fields beyond the 18, double columns after Job's
	staged  int               // rows staged in all (the index of the next row in extra)
	rows    int               // rows of the current row group written to the column writers
	pending int               // rows staged
	i64     [][]int64         // per int column: the staged values
	f64     [][]float64       // per float column: the staged values
	vals    [][]parquet.Value // per column: values handed to its writer
}

// writeBatch is the number of rows staged before their columns are encoded,
// in parallel; valueBatch the number of values handed to a column writer at
// once. A page is cut once it holds 64 KiB after a call, so pages hold 8192
// values. Both divide ParquetRowGroupRows.
const (
	writeBatch = 8192
	valueBatch = 1024
)

func newJobWriter(w io.Writer) *jobWriter { return newExtendedWriter(w, nil) }

// newExtendedWriter is newJobWriter for a trace with the extra columns of
// an extended SWF log, written after Job's as required double columns.
func newExtendedWriter(w io.Writer, extra []ExtraColumn) *jobWriter {
	sch := jobSchema
	if len(extra) > 0 {
		sch = extendedSchema(extra)
	}
	jw := &jobWriter{pw: parquet.NewGenericWriter[any](w, append(ParquetWriterOptions(""), sch)...), extra: extra}
	n := len(jobColumns) + len(extra)
	jw.i64 = make([][]int64, n)
	jw.f64 = make([][]float64, n)
	jw.vals = make([][]parquet.Value, n)
	for ci := range n {
		jw.vals[ci] = make([]parquet.Value, valueBatch)
		if ci < len(jobColumns) && jobColumns[ci].isInt {
			jw.i64[ci] = make([]int64, writeBatch)
		} else {
			jw.f64[ci] = make([]float64, writeBatch)
		}
	}
	return jw
}

// write appends jobs as rows.
func (jw *jobWriter) write(jobs []Job) error {
	for len(jobs) > 0 {
		n := min(len(jobs), writeBatch-jw.pending)
		jw.stage(jobs[:n])
		jobs = jobs[n:]
		if jw.pending == writeBatch {
			if err := jw.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// stage copies the columns of jobs into the staged values, blocks of rows
// in parallel, each block column after column while it is in cache.
func (jw *jobWriter) stage(jobs []Job) {
	base := jw.pending
	parallel((len(jobs)+blockRows-1)/blockRows, func(b int) error {
		lo := b * blockRows
		part := jobs[lo:min(lo+blockRows, len(jobs))]
		for ci := range jobColumns {
			c := &jobColumns[ci]
			if c.isInt {
				v := jw.i64[ci][base+lo : base+lo+len(part)]
				for i := range part {
					v[i] = *c.int64At(&part[i])
				}
			} else {
				v := jw.f64[ci][base+lo : base+lo+len(part)]
				for i := range part {
					v[i] = *c.floatAt(&part[i])
				}
			}
		}
		return nil
	})
	for e, c := range jw.extra {
		copy(jw.f64[len(jobColumns)+e][base:base+len(jobs)], c.Values[jw.staged:jw.staged+len(jobs)])
	}
	jw.pending += len(jobs)
	jw.staged += len(jobs)
}

// extendedSchema is the Parquet schema of a trace with extra columns:
// Job's columns, then one double column per extra field, in order.
func extendedSchema(extra []ExtraColumn) *parquet.Schema {
	jt := reflect.TypeFor[Job]()
	fields := make([]reflect.StructField, 0, jt.NumField()+len(extra))
	for i := range jt.NumField() {
		fields = append(fields, jt.Field(i))
	}
	for e, c := range extra {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Extra%d", e), Type: reflect.TypeFor[float64](),
			Tag: reflect.StructTag(`parquet:"` + c.Name + `"`)})
	}
	return parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Elem().Interface())
}

// flush hands the staged values to the column writers, columns in parallel:
// each encodes and compresses its own pages, which depend only on its values
// and the batches, never on the scheduling. A full row group is then written
// out.
func (jw *jobWriter) flush() error {
	if jw.pending == 0 {
		return nil
	}
	cws := jw.pw.ColumnWriters()
	n := len(jobColumns) + len(jw.extra)
	if len(cws) != n {
		return fmt.Errorf("parquet writer has %d columns, want %d", len(cws), n)
	}
	err := parallel(n, func(ci int) error {
		name := func() string {
			if ci < len(jobColumns) {
				return jobColumns[ci].name
			}
			return jw.extra[ci-len(jobColumns)].Name
		}
		for lo := 0; lo < jw.pending; lo += valueBatch {
			vals := jw.vals[ci][:min(valueBatch, jw.pending-lo)]
			if ci < len(jobColumns) && jobColumns[ci].isInt {
				for i, v := range jw.i64[ci][lo : lo+len(vals)] {
					vals[i] = parquet.Int64Value(v)
				}
			} else {
				for i, v := range jw.f64[ci][lo : lo+len(vals)] {
					vals[i] = parquet.DoubleValue(v)
				}
			}
			if _, err := cws[ci].WriteRowValues(vals); err != nil {
				return fmt.Errorf("column %s: %w", name(), err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	jw.rows += jw.pending
	jw.pending = 0
	if jw.rows == ParquetRowGroupRows {
		jw.rows = 0
		return jw.pw.Flush()
	}
	return nil
}

// finish writes the rows still staged, records t's metadata, in key order,
// and closes the file.
func (jw *jobWriter) finish(t *Trace) error {
	if err := jw.flush(); err != nil {
		return err
	}
	kv := t.metadata()
	sort.Slice(kv, func(a, b int) bool { return kv[a][0] < kv[b][0] })
	for _, p := range kv {
		jw.pw.SetKeyValueMetadata(p[0], p[1])
	}
	return jw.pw.Close()
}

// parallel calls f(0), ..., f(n-1) on up to GOMAXPROCS goroutines and
// returns their errors, joined in index order.
func parallel(n int, f func(i int) error) error {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := 0; i < n; i++ {
			if err := f(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				errs[i] = f(i)
			}
		}()
	}
	wg.Wait()
	return errors.Join(slices.DeleteFunc(errs, func(e error) bool { return e == nil })...)
}
