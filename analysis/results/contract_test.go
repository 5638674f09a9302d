package results

import (
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/schedlab/schedlab/model/experiment"
)

// The reader's row types and the replay runner's row types describe the same
// public files: same column names, order and physical types. (They are kept
// as two types so that analysis code names fields for reading; this test
// keeps them one contract.)
func TestRowTypesMatchTheWriter(t *testing.T) {
	for _, tc := range []struct {
		file         string
		read, writer any
	}{
		{"jobs.parquet", Job{}, experiment.JobRow{}},
		{"summary.parquet", Summary{}, experiment.SummaryRow{}},
		{"series.parquet", Series{}, experiment.SeriesRow{}},
	} {
		r, w := parquet.SchemaOf(tc.read).Fields(), parquet.SchemaOf(tc.writer).Fields()
		if len(r) != len(w) {
			t.Errorf("%s: reader has %d columns, writer %d", tc.file, len(r), len(w))
			continue
		}
		for i := range r {
			if r[i].Name() != w[i].Name() || r[i].Type().Kind() != w[i].Type().Kind() {
				t.Errorf("%s column %d: reader %s %v, writer %s %v", tc.file, i+1,
					r[i].Name(), r[i].Type().Kind(), w[i].Name(), w[i].Type().Kind())
			}
		}
	}
}
