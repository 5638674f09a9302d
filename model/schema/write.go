package schema

import (
	"io"

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
// (trace.ParquetWriterOptions) and the run's metadata. Rows can be written in
// as many calls as wanted; Close completes the file.
func NewWriter[T any](w io.Writer, m Meta) *parquet.GenericWriter[T] {
	pw := parquet.NewGenericWriter[T](w, trace.ParquetWriterOptions(m.Version)...)
	pw.SetKeyValueMetadata(KeyVersion, m.Version)
	pw.SetKeyValueMetadata(KeyOptions, m.Options)
	pw.SetKeyValueMetadata(KeyTraces, m.Traces)
	return pw
}
