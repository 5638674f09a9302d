package trace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// A Parquet trace is read column by column, page by page, straight into the
// fields of []Job through typed value readers (parquet.Int64Reader,
// parquet.DoubleReader, ...): no per-row reflection. (parquet-go's generic
// row reader reconstructed each row through reflection and took three times
// as long as parsing the same log as SWF.gz; arrow/go's pqarrow would build
// Arrow arrays that still have to be copied into jobs.)

// jobColumn is one column of the trace contract and where its value goes.
type jobColumn struct {
	name  string
	off   uintptr // offset of the field in Job
	isInt bool    // an int64 field (else float64)
}

var jobColumns = func() []jobColumn {
	t := reflect.TypeOf(Job{})
	out := make([]jobColumn, t.NumField())
	for i := range out {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		out[i] = jobColumn{name: name, off: f.Offset, isInt: f.Type.Kind() == reflect.Int64}
	}
	return out
}()

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

// set stores v (read as a double) into job j's field, refusing a value that
// does not fit an integer field.
func (c *jobColumn) setFloat(j *Job, row int, v float64) error {
	if !c.isInt {
		*c.floatAt(j) = v
		return nil
	}
	if v != math.Trunc(v) || math.IsInf(v, 0) {
		return &rowError{row, fmt.Sprintf("column %s: %v is not an integer", c.name, v)}
	}
	if math.Abs(v) > MaxInt {
		return &rowError{row, fmt.Sprintf("column %s: %v is out of range (integer columns stored as doubles hold at most ±2^53)", c.name, v)}
	}
	*c.int64At(j) = int64(v)
	return nil
}

func (c *jobColumn) setInt(j *Job, v int64) {
	if c.isInt {
		*c.int64At(j) = v
	} else {
		*c.floatAt(j) = float64(v)
	}
}

func (c *jobColumn) setUnknown(j *Job) {
	if c.isInt {
		*c.int64At(j) = Unknown
	} else {
		*c.floatAt(j) = Unknown
	}
}

// blockRows is the number of rows filled at once, column after column: a
// block of jobs stays in cache while its columns are written.
const blockRows = 4096

// readColumns fills jobs (len = the file's rows) from f, row group by row
// group, block of rows by block, column by column. Missing columns and
// nulls read as Unknown.
func readColumns(f *parquet.File, jobs []Job) error {
	sch := f.Schema()
	type col struct {
		c    *jobColumn
		leaf parquet.LeafColumn
		ok   bool
	}
	cols := make([]col, len(jobColumns))
	for ci := range jobColumns {
		c := &jobColumns[ci]
		leaf, ok := sch.Lookup(c.name)
		cols[ci] = col{c, leaf, ok}
		if !ok {
			for i := range jobs {
				c.setUnknown(&jobs[i])
			}
			continue
		}
		if leaf.MaxRepetitionLevel > 0 {
			return fmt.Errorf("column %s: a repeated column, want one value per row", c.name)
		}
		switch leaf.Node.Type().Kind() {
		case parquet.Int64, parquet.Int32, parquet.Double, parquet.Float:
		default:
			return fmt.Errorf("column %s: type %s, want a number (int64 or double)", c.name, leaf.Node.Type())
		}
	}
	var bufs colBuffers
	row := 0
	for _, rg := range f.RowGroups() {
		n := int(rg.NumRows())
		if row+n > len(jobs) {
			return fmt.Errorf("row group of %d rows past the file's %d rows", n, len(jobs))
		}
		readers := make([]*colReader, len(cols))
		for ci, c := range cols {
			if c.ok {
				readers[ci] = &colReader{c: c.c, pages: rg.ColumnChunks()[c.leaf.ColumnIndex].Pages(), bufs: &bufs}
			}
		}
		var err error
		for lo := 0; lo < n && err == nil; lo += blockRows {
			js := jobs[row+lo : row+min(lo+blockRows, n)]
			for _, r := range readers {
				if r == nil {
					continue
				}
				if err = r.fill(js, row+lo); err != nil {
					break
				}
			}
		}
		for _, r := range readers {
			if r != nil {
				r.close()
			}
		}
		if err != nil {
			return err
		}
		row += n
	}
	if row != len(jobs) {
		return fmt.Errorf("%d rows in row groups, %d in the file", row, len(jobs))
	}
	return nil
}

// colBuffers are the typed buffers the column readers share.
type colBuffers struct {
	i64 []int64
	f64 []float64
	i32 []int32
	f32 []float32
	val []parquet.Value
}

// colReader reads one column chunk across its pages.
type colReader struct {
	c     *jobColumn
	pages parquet.Pages
	page  parquet.Page
	vr    parquet.ValueReader
	typed bool // the page has no nulls and a typed reader
	left  int  // values left in the page
	bufs  *colBuffers
}

func (r *colReader) close() {
	if r.page != nil {
		parquet.Release(r.page)
		r.page = nil
	}
	r.pages.Close()
}

func (r *colReader) nextPage() error {
	if r.page != nil {
		parquet.Release(r.page)
		r.page = nil
	}
	p, err := r.pages.ReadPage()
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("column %s: fewer values than rows", r.c.name)
	}
	if err != nil {
		return fmt.Errorf("column %s: %w", r.c.name, err)
	}
	r.page, r.vr, r.left = p, p.Values(), int(p.NumRows())
	r.typed = false
	if p.NumNulls() == 0 {
		switch r.vr.(type) {
		case parquet.Int64Reader, parquet.DoubleReader, parquet.Int32Reader, parquet.FloatReader:
			r.typed = true
		}
	}
	return nil
}

// fill sets the column's field of every job of js (rows row0...).
func (r *colReader) fill(js []Job, row0 int) error {
	for i := 0; i < len(js); {
		if r.left == 0 {
			if err := r.nextPage(); err != nil {
				return err
			}
			continue
		}
		n := min(r.left, len(js)-i)
		part := js[i : i+n]
		row := row0 + i
		var err error
		if r.typed {
			err = r.fillTyped(part, row)
		} else {
			err = r.fillValues(part, row)
		}
		if err != nil {
			return err
		}
		r.left -= n
		i += n
	}
	return nil
}

func (r *colReader) fillTyped(js []Job, row int) error {
	c, n, b := r.c, len(js), r.bufs
	short := func(k int, err error) error {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("column %s: read %d of %d values: %w", c.name, k, n, err)
	}
	switch rd := r.vr.(type) {
	case parquet.Int64Reader:
		b.i64 = grow(b.i64, n)
		if k, err := readAll(rd.ReadInt64s, b.i64); k != n {
			return short(k, err)
		}
		if c.isInt {
			for i, v := range b.i64 {
				*c.int64At(&js[i]) = v
			}
			return nil
		}
		for i, v := range b.i64 {
			*c.floatAt(&js[i]) = float64(v)
		}
	case parquet.DoubleReader:
		b.f64 = grow(b.f64, n)
		if k, err := readAll(rd.ReadDoubles, b.f64); k != n {
			return short(k, err)
		}
		if !c.isInt {
			for i, v := range b.f64 {
				*c.floatAt(&js[i]) = v
			}
			return nil
		}
		for i, v := range b.f64 {
			if err := c.setFloat(&js[i], row+i, v); err != nil {
				return err
			}
		}
	case parquet.Int32Reader:
		b.i32 = grow(b.i32, n)
		if k, err := readAll(rd.ReadInt32s, b.i32); k != n {
			return short(k, err)
		}
		for i, v := range b.i32 {
			c.setInt(&js[i], int64(v))
		}
	case parquet.FloatReader:
		b.f32 = grow(b.f32, n)
		if k, err := readAll(rd.ReadFloats, b.f32); k != n {
			return short(k, err)
		}
		for i, v := range b.f32 {
			if err := c.setFloat(&js[i], row+i, float64(v)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fillValues reads value by value: pages with nulls (files of other tools,
// e.g. pandas, make every column optional) or without a typed reader.
func (r *colReader) fillValues(js []Job, row int) error {
	c, b := r.c, r.bufs
	for i := 0; i < len(js); {
		b.val = grow(b.val, min(1024, len(js)-i))
		k, err := r.vr.ReadValues(b.val)
		for _, v := range b.val[:k] {
			j := &js[i]
			switch {
			case v.IsNull():
				c.setUnknown(j)
			case v.Kind() == parquet.Int64 || v.Kind() == parquet.Int32:
				c.setInt(j, v.Int64())
			default:
				if err := c.setFloat(j, row+i, v.Double()); err != nil {
					return err
				}
			}
			i++
		}
		if i < len(js) && (k == 0 || err != nil) {
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("column %s: row %d: %w", c.name, row+i+1, err)
		}
	}
	return nil
}

func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// readAll fills buf through a typed reader, until full or EOF.
func readAll[T any](read func([]T) (int, error), buf []T) (int, error) {
	n := 0
	for n < len(buf) {
		k, err := read(buf[n:])
		n += k
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if k == 0 {
			break
		}
	}
	return n, nil
}
