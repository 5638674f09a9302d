package reproduce

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/model/schema"
)

// LoadSummary loads the summary rows of a results directory (a sweep
// dataset or a replay's results files) with results.Load, without reading
// the jobs and series tables: an evaluation needs only the summary, and a
// full suite's jobs (tens of millions of rows) would take most of the run
// time and more memory than the machine has. The summary files are copied
// into a temporary directory (one small file per cell) and loaded from
// there, so that every check of results.Load applies.
func LoadSummary(dir string) (*results.Set, error) {
	tmp, err := os.MkdirTemp("", "schedlab-summary-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	file := filepath.Join(dir, schema.SummaryFile)
	table := filepath.Join(dir, schema.SummaryTable)
	if st, err := os.Stat(table); err == nil && st.IsDir() {
		if _, err := os.Stat(file); err == nil {
			return results.Load(dir) // both: let Load name the conflict
		}
		err := filepath.WalkDir(table, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || strings.HasPrefix(d.Name(), ".") {
				return nil
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			return copyFile(p, filepath.Join(tmp, rel))
		})
		if err != nil {
			return nil, err
		}
	} else if _, err := os.Stat(file); err == nil {
		if err := copyFile(file, filepath.Join(tmp, schema.SummaryFile)); err != nil {
			return nil, err
		}
	} else {
		return results.Load(dir) // nothing to copy: Load's error names what is missing
	}
	s, err := results.Load(tmp)
	if err != nil {
		// Name the real files, not the copies.
		return nil, errorIn(err, tmp, dir)
	}
	s.Dir = dir
	return s, nil
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }

// errorIn rewrites the temporary directory's name in err's message to dir.
func errorIn(err error, tmp, dir string) error {
	return &renamedError{strings.ReplaceAll(err.Error(), tmp, dir), err}
}
