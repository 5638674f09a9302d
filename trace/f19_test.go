package trace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// F19 (issue 25): a Parquet file whose only trace column is queue (once
// read with every other field -1) is not a trace.
func TestQueueOnlyParquetIsNotATrace(t *testing.T) {
	type row struct {
		Queue int64 `parquet:"queue"`
	}
	path := filepath.Join(t.TempDir(), "q.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[row](f)
	if _, err := w.Write([]row{{1}, {2}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadFile(path, ReadOptions{})
	if want := path + ": missing column job_id (not a trace: want job_id, submit_time, ...)"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
