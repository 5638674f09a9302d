package results

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// writeSchemaOnly writes an empty Parquet file at path with the columns of
// row type row, without those named in drop.
func writeSchemaOnly(t *testing.T, path string, row any, drop string) {
	t.Helper()
	g := parquet.Group{}
	for _, f := range parquet.SchemaOf(row).Fields() {
		if f.Name() != drop {
			g[f.Name()] = f
		}
	}
	if err := trace.AtomicWrite(path, func(w io.Writer) error {
		return parquet.NewWriter(w, parquet.NewSchema("t", g)).Close()
	}); err != nil {
		t.Fatal(err)
	}
}

// Load checks the contract's columns, from model/schema: each required
// column of each file is reported when missing, optional ones are not.
func TestColumnChecksFollowTheSchema(t *testing.T) {
	for _, tc := range []struct {
		file string
		row  any
	}{{schema.SummaryFile, Summary{}}, {schema.JobsFile, Job{}}, {schema.SeriesFile, Series{}}} {
		for _, c := range schema.Columns(tc.row) {
			dir := t.TempDir()
			writeSchemaOnly(t, filepath.Join(dir, schema.SummaryFile), Summary{}, "")
			writeSchemaOnly(t, filepath.Join(dir, tc.file), tc.row, c.Name)
			_, err := Load(dir)
			switch {
			case c.Optional && err != nil:
				t.Errorf("%s without optional %q: %v", tc.file, c.Name, err)
			case !c.Optional && (err == nil || !strings.Contains(err.Error(), `missing column "`+c.Name+`"`) || !strings.Contains(err.Error(), tc.file)):
				t.Errorf("%s without %q: %v", tc.file, c.Name, err)
			}
		}
	}
}

// legacyJob is a jobs.parquet row of the format before placements: a
// `nodes` string column and integer alloc_procs.
type legacyJob struct {
	Trace      string `parquet:"trace"`
	Machine    string `parquet:"machine"`
	Alloc      string `parquet:"alloc"`
	Sched      string `parquet:"sched"`
	Rep        int64  `parquet:"rep"`
	JobID      int64  `parquet:"job_id"`
	AllocProcs int64  `parquet:"alloc_procs"`
	Nodes      string `parquet:"nodes"`
}

// badPlacement has a placement column that is not a list of pieces.
type badPlacement struct {
	Job
	Placement string `parquet:"placement"`
}

// Files of the format before placements are refused with a message that
// says what to do; a placement column of the wrong shape is refused.
func TestOldFormatRefused(t *testing.T) {
	dir := t.TempDir()
	set := &Set{Version: "old", Summary: []Summary{{Trace: "t", Machine: "flat:4", Alloc: "count", Sched: "fcfs", Jobs: 1}}}
	if err := WriteDir(dir, set); err != nil {
		t.Fatal(err)
	}
	jp := filepath.Join(dir, schema.JobsFile)
	if err := writeFile(jp, []legacyJob{{Trace: "t", Machine: "flat:4", Alloc: "count", Sched: "fcfs", JobID: 1, AllocProcs: 2, Nodes: "0-1"}},
		map[string]string{schema.KeyVersion: "old", schema.KeyTraces: "[]"}); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), jp) || !strings.Contains(err.Error(), `column "nodes"`) || !strings.Contains(err.Error(), "re-run `replay run`") {
		t.Errorf("old jobs.parquet: %v", err)
	}
	os.Remove(jp)
	writeSchemaOnly(t, jp, badPlacement{}, "")
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), `column "placement" has type`) {
		t.Errorf("string placement: %v", err)
	}
}
