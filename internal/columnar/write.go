package columnar

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
)

// ValueRows is the number of values handed to a column writer at once: a
// page is cut once it holds the writer configuration's page size after a
// call, so that pages depend on the values and these calls only.
const ValueRows = 1024

// ParquetWriter is what a Writer needs of a parquet.GenericWriter.
type ParquetWriter interface {
	Schema() *parquet.Schema
	ColumnWriters() []*parquet.ColumnWriter
	Flush() error
}

// Writer writes rows column by column: the columns of a batch are encoded
// and compressed in parallel (each column writer has its own pages and
// compressor), every column writer is handed ValueRows rows at a time, and
// the row groups are cut every RowGroupRows rows (column writers do not
// count rows). Pages therefore depend only on the values and on the batch
// and row-group boundaries, never on the scheduling: the bytes are
// deterministic.
type Writer struct {
	name         string // file name, for errors
	pw           ParquetWriter
	cols         []string
	rowGroupRows int
	rows         int // rows in the current row group
	bufs         [][]parquet.Value
	// ValueRows is the number of rows handed to a column writer at once
	// (ValueRows by default; tests cross every boundary with few rows).
	ValueRows int
}

// NewWriter returns a Writer of pw's columns, whose leaf paths (dotted)
// must be cols, cutting row groups of rowGroupRows rows; name labels
// errors.
func NewWriter(name string, pw ParquetWriter, cols []string, rowGroupRows int) (*Writer, error) {
	leaves := pw.Schema().Columns()
	if len(leaves) != len(cols) {
		return nil, fmt.Errorf("%s: the schema has %d columns, the writer knows %d", name, len(leaves), len(cols))
	}
	for i, p := range leaves {
		got := ""
		for k, s := range p {
			if k > 0 {
				got += "."
			}
			got += s
		}
		if got != cols[i] {
			return nil, fmt.Errorf("%s: column %d is %s in the schema, %s in the writer", name, i, got, cols[i])
		}
	}
	return &Writer{name: name, pw: pw, cols: cols, rowGroupRows: rowGroupRows, bufs: make([][]parquet.Value, len(cols)), ValueRows: ValueRows}, nil
}

// Room is the number of rows the current row group still takes: a batch
// must not be larger.
func (w *Writer) Room() int { return w.rowGroupRows - w.rows }

// Write writes a batch of n rows (at most Room): fill(ci, lo, hi, vals)
// appends to vals the values of column ci for rows lo..hi−1 of the batch
// (hi − lo ≤ w.ValueRows), with their levels for a repeated or optional
// column. Columns are filled in parallel. Once a row group is full, the
// last page of every column is cut, columns in parallel (where it would
// have been cut anyway), and the row group written.
func (w *Writer) Write(n int, fill func(ci, lo, hi int, vals []parquet.Value) []parquet.Value) error {
	if n > w.Room() {
		return fmt.Errorf("%s: a batch of %d rows, the row group takes %d", w.name, n, w.Room())
	}
	cws := w.pw.ColumnWriters()
	err := Each(len(w.cols), func(ci int) error {
		for lo := 0; lo < n; lo += w.ValueRows {
			w.bufs[ci] = fill(ci, lo, min(lo+w.ValueRows, n), w.bufs[ci][:0])
			if _, err := cws[ci].WriteRowValues(w.bufs[ci]); err != nil {
				return fmt.Errorf("%s: column %s: %w", w.name, w.cols[ci], err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	w.rows += n
	if w.rows < w.rowGroupRows {
		return nil
	}
	w.rows = 0
	if err := w.FlushColumns(); err != nil {
		return err
	}
	if err := w.pw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", w.name, err)
	}
	return nil
}

// FlushColumns cuts the last page of every column, columns in parallel
// (closing the file would compress them one after the other). A page is
// cut where it would have been anyway: the bytes are the same.
func (w *Writer) FlushColumns() error {
	cws := w.pw.ColumnWriters()
	return Each(len(cws), func(ci int) error {
		if err := cws[ci].Flush(); err != nil {
			return fmt.Errorf("%s: column %s: %w", w.name, w.cols[ci], err)
		}
		return nil
	})
}

// Extend grows vals by n values and returns it with the n new ones.
func Extend(vals []parquet.Value, n int) (all, added []parquet.Value) {
	k := len(vals)
	if cap(vals)-k < n {
		v := make([]parquet.Value, k, max(k+n, 2*cap(vals)))
		copy(v, vals)
		vals = v
	}
	vals = vals[:k+n]
	return vals, vals[k:]
}

// Repeat appends n copies of v to vals.
func Repeat(v parquet.Value, n int, vals []parquet.Value) []parquet.Value {
	vals, add := Extend(vals, n)
	for i := range add {
		add[i] = v
	}
	return vals
}

// Doubles appends xs to vals as double values.
func Doubles(xs []float64, vals []parquet.Value) []parquet.Value {
	vals, add := Extend(vals, len(xs))
	for i, x := range xs {
		add[i] = parquet.DoubleValue(x)
	}
	return vals
}

// Int64s appends xs to vals as int64 values.
func Int64s(xs []int64, vals []parquet.Value) []parquet.Value {
	vals, add := Extend(vals, len(xs))
	for i, x := range xs {
		add[i] = parquet.Int64Value(x)
	}
	return vals
}
