package schema

import (
	"encoding/json"
	"io"
	"math"
	"reflect"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/trace"
)

// Meta is the key-value metadata every results file of one run carries.
type Meta struct {
	Version string // KeyVersion
	Options string // KeyOptions: JSON of Options
	Traces  string // KeyTraces: JSON array of TraceInfo
}

// NewWriter returns a Parquet writer of rows of type T (Job, Summary or
// Series) with schedlab's one writer configuration
// (trace.ParquetWriterOptions), the run's metadata and the units of the
// columns (KeyUnits: the time unit follows the traces, TimeUnit). The
// nullable columns (Column.Null) are OPTIONAL: write rows with Write,
// which puts NULL where they do not apply, or give their column writers
// definition levels. Rows can be written in as many calls as wanted; Close
// completes the file.
func NewWriter[T any](w io.Writer, m Meta) *parquet.GenericWriter[T] {
	var zero T
	opts := trace.ParquetWriterOptions(m.Version)
	if sch := nullableSchema(zero); sch != nil {
		opts = append(opts, sch)
	}
	pw := parquet.NewGenericWriter[T](w, opts...)
	pw.SetKeyValueMetadata(KeyVersion, m.Version)
	pw.SetKeyValueMetadata(KeyOptions, m.Options)
	pw.SetKeyValueMetadata(KeyTraces, m.Traces)
	var ts []TraceInfo
	json.Unmarshal([]byte(m.Traces), &ts) // unreadable: no trace known, TimeUnits
	pw.SetKeyValueMetadata(KeyUnits, JSON(Units(zero, TimeUnit(ts))))
	return pw
}

// nullableSchemas caches nullableSchema by row type: parquet-go does not
// cache a schema derived with tag replacements, and a sweep writes
// thousands of small files.
var nullableSchemas sync.Map // reflect.Type → *parquet.Schema (nil: no nullable column)

// nullableSchema returns the Parquet schema of row's type with its
// nullable columns OPTIONAL, nil when it has none.
func nullableSchema(row any) *parquet.Schema {
	t := reflect.TypeOf(row)
	if s, ok := nullableSchemas.Load(t); ok {
		return s.(*parquet.Schema)
	}
	var tags []parquet.SchemaOption
	for _, c := range Columns(row) {
		if c.Null != "" {
			tags = append(tags, parquet.StructTag(reflect.StructTag(`parquet:"`+c.Name+`,optional"`), c.goName))
		}
	}
	var s *parquet.Schema
	if len(tags) > 0 {
		s = parquet.SchemaOf(row, tags...)
	}
	nullableSchemas.Store(t, s)
	return s
}

// Write writes rows with pw (a NewWriter of T): NULL in a nullable
// column where its value does not apply (Column.Null).
func Write[T any](pw *parquet.GenericWriter[T], rows []T) error {
	var zero T
	nulls, when := nullColumns(zero)
	if len(nulls)+len(when) == 0 {
		_, err := pw.Write(rows)
		return err
	}
	plain := parquet.SchemaOf(zero)
	out := make([]parquet.Row, len(rows))
	isNull := map[string]bool{}
	at := map[int]int{} // leaf column → index of its value in the row (a list has any number)
	for i := range rows {
		r := plain.Deconstruct(nil, rows[i])
		clear(isNull)
		clear(at)
		for k, v := range r {
			if _, seen := at[v.Column()]; !seen {
				at[v.Column()] = k
			}
		}
		for _, n := range nulls {
			v := r[at[n.leaf]]
			x := v.Double()
			if v.Kind() == parquet.Int64 {
				x = float64(v.Int64())
			}
			isNull[n.col.Name] = n.col.isNull(x)
		}
		for _, n := range when {
			isNull[n.col.Name] = isNull[n.col.Null[len("when:"):]]
		}
		for _, n := range append(nulls, when...) {
			k := at[n.leaf]
			if isNull[n.col.Name] {
				r[k] = parquet.NullValue().Level(0, 0, n.leaf)
			} else {
				r[k] = r[k].Level(0, 1, n.leaf)
			}
		}
		out[i] = r
	}
	_, err := pw.WriteRows(out)
	return err
}

// nullColumn is a nullable top-level column and its leaf index.
type nullColumn struct {
	col  Column
	leaf int
}

// nullColumns returns row's nullable columns: those decided by their own
// value, then the "when:" ones.
func nullColumns(row any) (own, when []nullColumn) {
	sch := parquet.SchemaOf(row)
	for _, c := range Columns(row) {
		if c.Null == "" {
			continue
		}
		leaf, ok := sch.Lookup(c.Name)
		if !ok {
			continue
		}
		n := nullColumn{c, leaf.ColumnIndex}
		if len(c.Null) > 5 && c.Null[:5] == "when:" {
			when = append(when, n)
		} else {
			own = append(own, n)
		}
	}
	return own, when
}

// NullValueOf returns the value in memory of a NULL in column name of a
// row type (Column.NullValue), and whether the column is nullable.
func NullValueOf(row any, name string) (float64, bool) {
	for _, c := range Columns(row) {
		if c.Name == name && c.Null != "" {
			return c.NullValue(), true
		}
	}
	return math.NaN(), false
}
