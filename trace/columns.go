package trace

import (
	"fmt"
	"io"
	"reflect"
	"sort"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/internal/columnar"
)

// Parquet traces are read and written by the module's one columnar codec
// (internal/columnar; see the package documentation for the measurements
// behind this design): this file adapts it to Job and the trace's extra
// columns.

// unknown is the value of a NULL and of a missing column: Unknown.
func unknown(string) float64 { return Unknown }

// readJobs reads the jobs of f, a file of size bytes: missing columns and
// NULLs read as Unknown. check(jobs, hi) is called once the rows before hi
// are filled (to validate them while in cache); its error stops the
// reading.
func readJobs(f *parquet.File, size int64, check func(jobs []Job, hi int) error) ([]Job, error) {
	return columnar.ReadAll[Job](f, size, columnar.Options{Null: unknown, Missing: unknown}, check)
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
	cw      *columnar.Writer
	err     error         // from newExtendedWriter
	extra   []ExtraColumn // an extended log's fields beyond the 18, double columns after Job's
	staged  int           // rows staged in all (the index of the next row in extra)
	pending int           // rows staged
	i64     [][]int64     // per int column: the staged values
	f64     [][]float64   // per float column: the staged values
}

// writeBatch is the number of rows staged before their columns are encoded,
// in parallel; blockRows the rows staged at once, column after column.
// writeBatch divides ParquetRowGroupRows.
const (
	writeBatch = 8192
	blockRows  = 512
)

func newJobWriter(w io.Writer) *jobWriter { return newExtendedWriter(w, nil) }

// newExtendedWriter is newJobWriter for a trace with the extra columns of
// an extended SWF log, written after Job's as required double columns.
func newExtendedWriter(w io.Writer, extra []ExtraColumn) *jobWriter {
	sch := jobSchema
	names := append(FieldNames[:], ExtraFieldNames...)
	if len(extra) > 0 {
		sch = extendedSchema(extra)
		for _, c := range extra {
			names = append(names, c.Name)
		}
	}
	jw := &jobWriter{pw: parquet.NewGenericWriter[any](w, append(ParquetWriterOptions(""), sch)...), extra: extra}
	jw.cw, jw.err = columnar.NewWriter("trace", jw.pw, names, ParquetRowGroupRows)
	n := len(jobFields) + len(extra)
	jw.i64 = make([][]int64, n)
	jw.f64 = make([][]float64, n)
	for ci := range n {
		if ci < len(jobFields) && jobFields[ci].Kind == columnar.Int64 {
			jw.i64[ci] = make([]int64, writeBatch)
		} else {
			jw.f64[ci] = make([]float64, writeBatch)
		}
	}
	return jw
}

// write appends jobs as rows.
func (jw *jobWriter) write(jobs []Job) error {
	if jw.err != nil {
		return jw.err
	}
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
	columnar.Each((len(jobs)+blockRows-1)/blockRows, func(b int) error {
		lo := b * blockRows
		part := jobs[lo:min(lo+blockRows, len(jobs))]
		for ci := range jobFields {
			c := &jobFields[ci]
			if c.Kind == columnar.Int64 {
				v := jw.i64[ci][base+lo : base+lo+len(part)]
				for i := range part {
					v[i] = *columnar.Int(&part[i], c)
				}
			} else {
				v := jw.f64[ci][base+lo : base+lo+len(part)]
				for i := range part {
					v[i] = *columnar.Float(&part[i], c)
				}
			}
		}
		return nil
	})
	for e, c := range jw.extra {
		copy(jw.f64[len(jobFields)+e][base:base+len(jobs)], c.Values[jw.staged:jw.staged+len(jobs)])
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

// flush hands the staged values to the codec's writer, columns in
// parallel.
func (jw *jobWriter) flush() error {
	if jw.pending == 0 {
		return nil
	}
	err := jw.cw.Write(jw.pending, func(ci, lo, hi int, vals []parquet.Value) []parquet.Value {
		if s := jw.i64[ci]; s != nil {
			return columnar.Int64s(s[lo:hi], vals)
		}
		return columnar.Doubles(jw.f64[ci][lo:hi], vals)
	})
	jw.pending = 0
	return err
}

// finish writes the rows still staged, records t's metadata, in key order,
// and closes the file.
func (jw *jobWriter) finish(t *Trace) error {
	if jw.err != nil {
		return jw.err
	}
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
