package results

import (
	"io"
	"os"
	"path/filepath"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// WriteDir writes s as a results directory following the results contract
// (zstd-compressed Parquet, metadata on every file, each file written
// atomically). jobs.parquet and series.parquet are written only when
// s.Jobs and s.Series are non-nil. It is the writer behind test fixtures
// and filtered copies of results; `replay run` has its own.
func WriteDir(dir string, s *Set) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	meta := map[string]string{schema.KeyVersion: s.Version}
	if s.Options != nil {
		meta[schema.KeyOptions] = string(s.Options)
	}
	traces := s.Traces
	if traces == nil {
		traces = []TraceInfo{}
	}
	meta[schema.KeyTraces] = schema.JSON(traces)
	if err := writeFile(filepath.Join(dir, schema.SummaryFile), s.Summary, meta); err != nil {
		return err
	}
	if s.Jobs != nil {
		if err := writeFile(filepath.Join(dir, schema.JobsFile), s.Jobs, meta); err != nil {
			return err
		}
	}
	if s.Series != nil {
		if err := writeFile(filepath.Join(dir, schema.SeriesFile), s.Series, meta); err != nil {
			return err
		}
	}
	return nil
}

func writeFile[T any](path string, rows []T, meta map[string]string) error {
	return trace.AtomicWrite(path, func(w io.Writer) error {
		pw := schema.NewWriter[T](w, schema.Meta{Version: meta[schema.KeyVersion], Options: meta[schema.KeyOptions], Traces: meta[schema.KeyTraces]})
		if err := schema.Write(pw, rows); err != nil {
			return err
		}
		return pw.Close()
	})
}
