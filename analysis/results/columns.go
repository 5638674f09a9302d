package results

import (
	"fmt"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/internal/columnar"
	"github.com/schedlab/schedlab/model/schema"
)

// Results files are read by the module's one columnar codec
// (internal/columnar): column by column, page by page, every column chunk
// decoded by its own goroutine, strings interned (the dictionary columns
// repeat a few values over millions of rows) and lists (placements, size
// classes) in one backing array per allocation. This file adapts it to the
// contract's row types.

// readOptions is how a row type T reads: a NULL in a nullable column as
// its value in memory (schema.Column.NullValue), any other NULL and a
// missing column as zero (the callers set a missing load to −1).
func readOptions[T any]() columnar.Options {
	var zero T
	return columnar.Options{Null: func(name string) float64 {
		if v, ok := schema.NullValueOf(zero, name); ok {
			return v
		}
		return 0
	}}
}

// readAll reads every row of f, opened from path, into out, which has
// room for exactly f.NumRows() rows.
func readAll[T any](path string, f *parquet.File, out []T) error {
	if err := columnar.ReadInto(f, out, readOptions[T]()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// readFile reads every row of f, opened from osf at path: rows are
// allocated as they are decoded, bounded by what the file can fill.
func readFile[T any](path string, osf *os.File, f *parquet.File) ([]T, error) {
	st, err := osf.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out, err := columnar.ReadAll[T](f, st.Size(), readOptions[T](), nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
