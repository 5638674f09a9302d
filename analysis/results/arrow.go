package results

import (
	"reflect"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedlab/schedlab/model/schema"
)

// pieceType is the Arrow type of the placement column:
// list<struct<x, y, w, h, mask int32>>.
var pieceType = func() *arrow.StructType {
	var fs []arrow.Field
	t := reflect.TypeFor[schema.Piece]()
	for i := range t.NumField() {
		fs = append(fs, arrow.Field{Name: t.Field(i).Tag.Get("parquet"), Type: arrow.PrimitiveTypes.Int32})
	}
	return arrow.StructOf(fs...)
}()

// ToRecord converts result rows (Job, Summary or Series) to an Arrow record
// whose columns are the Parquet columns, in contract order, with the same
// types (utf8, int64, float64, list<struct<x,y,w,h,mask int32>>). The
// caller must Release the record.
func ToRecord[T Job | Summary | Series](mem memory.Allocator, rows []T) arrow.Record {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	var zero T
	cols := schema.Columns(zero)
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		var dt arrow.DataType
		switch c.Kind {
		case schema.String:
			dt = arrow.BinaryTypes.String
		case schema.Int:
			dt = arrow.PrimitiveTypes.Int64
		case schema.Double:
			dt = arrow.PrimitiveTypes.Float64
		case schema.List:
			dt = arrow.ListOf(pieceType)
		}
		fields[i] = arrow.Field{Name: c.Name, Type: dt}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for fi := range fields { // schema.Columns lists the fields in declaration order
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
			case *array.ListBuilder:
				fb.Append(true)
				sb := fb.ValueBuilder().(*array.StructBuilder)
				for k := range v.Len() {
					sb.Append(true)
					p := v.Index(k)
					for f := range p.NumField() {
						sb.FieldBuilder(f).(*array.Int32Builder).Append(int32(p.Field(f).Int()))
					}
				}
			}
		}
	}
	return b.NewRecord()
}
