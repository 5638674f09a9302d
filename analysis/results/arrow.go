package results

import (
	"fmt"
	"reflect"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// ToRecord converts result rows (Job, Summary or Series) to an Arrow record
// whose columns are the Parquet columns, in contract order, with the same
// types (utf8, int64, float64). The caller must Release the record.
func ToRecord[T Job | Summary | Series](mem memory.Allocator, rows []T) arrow.Record {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	t := reflect.TypeFor[T]()
	fields := make([]arrow.Field, t.NumField())
	for i := range fields {
		f := t.Field(i)
		var dt arrow.DataType
		switch f.Type.Kind() {
		case reflect.String:
			dt = arrow.BinaryTypes.String
		case reflect.Int64:
			dt = arrow.PrimitiveTypes.Int64
		case reflect.Float64:
			dt = arrow.PrimitiveTypes.Float64
		default:
			panic(fmt.Sprintf("results: field %s of kind %s", f.Name, f.Type.Kind()))
		}
		fields[i] = arrow.Field{Name: f.Tag.Get("parquet"), Type: dt}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for fi := range fields {
		fb := b.Field(fi)
		fb.Reserve(len(rows))
		for ri := range rows {
			v := reflect.ValueOf(&rows[ri]).Elem().Field(fi)
			switch fb := fb.(type) {
			case *array.StringBuilder:
				fb.Append(v.String())
			case *array.Int64Builder:
				fb.Append(v.Int())
			case *array.Float64Builder:
				fb.Append(v.Float())
			}
		}
	}
	return b.NewRecord()
}
