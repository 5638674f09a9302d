package trace

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedlab/schedlab/internal/columnar"
)

// ArrowSchema is the Arrow schema of a trace table: the Parquet columns,
// int64 for counts and identifiers, float64 for times and quantities.
func ArrowSchema(md *arrow.Metadata) *arrow.Schema {
	fields := make([]arrow.Field, len(jobFields))
	for i, c := range jobFields {
		t := arrow.DataType(arrow.PrimitiveTypes.Float64)
		if c.Kind == columnar.Int64 {
			t = arrow.PrimitiveTypes.Int64
		}
		fields[i] = arrow.Field{Name: c.Name, Type: t}
	}
	return arrow.NewSchema(fields, md)
}

// ToRecord builds an Arrow record holding t's jobs, one row per job, with
// the trace's metadata (the same keys as the Parquet file) on the schema.
// The caller must Release the record.
func ToRecord(t *Trace, mem memory.Allocator) arrow.Record {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	kv := t.metadata()
	keys, vals := make([]string, len(kv)), make([]string, len(kv))
	for i, p := range kv {
		keys[i], vals[i] = p[0], p[1]
	}
	md := arrow.NewMetadata(keys, vals)
	b := array.NewRecordBuilder(mem, ArrowSchema(&md))
	defer b.Release()
	for ci := range jobFields {
		c := &jobFields[ci]
		if c.Kind == columnar.Int64 {
			fb := b.Field(ci).(*array.Int64Builder)
			fb.Reserve(len(t.Jobs))
			for i := range t.Jobs {
				fb.UnsafeAppend(*columnar.Int(&t.Jobs[i], c))
			}
		} else {
			fb := b.Field(ci).(*array.Float64Builder)
			fb.Reserve(len(t.Jobs))
			for i := range t.Jobs {
				fb.UnsafeAppend(*columnar.Float(&t.Jobs[i], c))
			}
		}
	}
	return b.NewRecord()
}

// FromRecord reads jobs back from an Arrow record. Columns are found by
// name; a missing column reads as Unknown, a null value as Unknown, and a
// column of the wrong type is an error.
func FromRecord(rec arrow.Record) ([]Job, error) {
	n := int(rec.NumRows())
	jobs := make([]Job, n)
	for i := range jobs {
		jobs[i] = NewJob(Unknown)
	}
	schema := rec.Schema()
	for ci := range jobFields {
		c := &jobFields[ci]
		isInt := c.Kind == columnar.Int64
		idx := schema.FieldIndices(c.Name)
		if len(idx) == 0 {
			continue
		}
		col := rec.Column(idx[0])
		switch a := col.(type) {
		case *array.Int64:
			for i := 0; i < n; i++ {
				v := int64(Unknown)
				if a.IsValid(i) {
					v = a.Value(i)
				}
				if isInt {
					*columnar.Int(&jobs[i], c) = v
				} else {
					*columnar.Float(&jobs[i], c) = float64(v)
				}
			}
		case *array.Float64:
			for i := 0; i < n; i++ {
				v := float64(Unknown)
				if a.IsValid(i) {
					v = a.Value(i)
				}
				if isInt {
					if !isWhole(v) {
						return nil, fmt.Errorf("column %s row %d: %v is not an integer", c.Name, i+1, v)
					}
					if math.Abs(v) > MaxInt {
						return nil, fmt.Errorf("column %s row %d: %v is out of range (integer columns stored as doubles hold at most ±2^53)", c.Name, i+1, v)
					}
					*columnar.Int(&jobs[i], c) = int64(v)
				} else {
					*columnar.Float(&jobs[i], c) = v
				}
			}
		default:
			return nil, fmt.Errorf("column %s: type %s, want int64 or float64", c.Name, col.DataType())
		}
	}
	return jobs, nil
}
