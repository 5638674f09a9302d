package schema

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// A sweep's results form a dataset: one Parquet file per cell (trace ×
// machine × pair) and per table, in hive-partitioned directories that
// DuckDB, pyarrow and polars read as one table each:
//
//	DIR/jobs/sweep=S/machine=M/alloc=A/sched=B/part-T-R.parquet
//	DIR/summary/sweep=S/machine=M/alloc=A/sched=B/part-T-R.parquet
//	DIR/series/sweep=S/machine=M/alloc=A/sched=B/part-T-R.parquet
//
// The three tables have different columns, so each has its own root (a
// dataset is one schema): read_parquet('DIR/summary/**/*.parquet'). A
// cell's files hold exactly the rows and columns of jobs.parquet,
// summary.parquet and series.parquet for that one run (machine, alloc and
// sched are columns of the files as well as partition keys, with the same
// values), and the metadata keys of a replay's files, schedlab.traces
// naming the cell's trace only. A cell is complete when its summary file
// exists: the summary is renamed into place last.
//
// Partition values and the trace name are percent-encoded: every byte but
// ASCII letters, digits, '.', '_' and '-' is written %XX (so "flat:128" is
// "flat%3A128" and "mq:q=32,order=down" is "mq%3Aq%3D32%2Corder%3Ddown"),
// which DuckDB and polars decode when they read the partition keys.

// Dataset table directories, in the order a cell's files are renamed into
// place (summary last: a cell with a summary is complete).
const (
	JobsTable    = "jobs"
	SeriesTable  = "series"
	SummaryTable = "summary"
)

// Tables lists the dataset's tables in commit order.
var Tables = []string{JobsTable, SeriesTable, SummaryTable}

// Partition keys of a dataset, outermost first. CommPartition is one
// only in a sweep that varies the communication model (several comm
// settings: model/sweep), between machine and alloc:
//
//	DIR/summary/sweep=S/machine=M/comm=C/alloc=A/sched=B/part-T-R.parquet
//
// a sweep with one setting keeps the four-level layout.
var PartitionKeys = []string{"sweep", "machine", "alloc", "sched"}

// CommPartition is the partition key of the communication model.
const CommPartition = "comm"

// CellKey identifies one cell of a sweep. Comm is the cell's
// communication model when the sweep varies it (its comm= partition), ""
// otherwise.
type CellKey struct {
	Sweep, Machine, Alloc, Sched, Trace string
	Rep                                 int64
	Comm                                string
}

// CellDir returns the cell's partition directory, relative to a table's
// root: sweep=S/machine=M/alloc=A/sched=B, with comm=C after the machine
// when Comm is set.
func (k CellKey) CellDir() string {
	parts := []string{
		PartitionKeys[0] + "=" + Escape(k.Sweep),
		PartitionKeys[1] + "=" + Escape(k.Machine),
	}
	if k.Comm != "" {
		parts = append(parts, CommPartition+"="+Escape(k.Comm))
	}
	parts = append(parts, PartitionKeys[2]+"="+Escape(k.Alloc), PartitionKeys[3]+"="+Escape(k.Sched))
	return path.Join(parts...)
}

// FileName returns the cell's file name: part-T-R.parquet.
func (k CellKey) FileName() string {
	return "part-" + Escape(k.Trace) + "-" + strconv.FormatInt(k.Rep, 10) + ".parquet"
}

// Path returns the cell's file of table (JobsTable, SummaryTable,
// SeriesTable), relative to the dataset's root, with '/' separators.
func (k CellKey) Path(table string) string {
	return path.Join(table, k.CellDir(), k.FileName())
}

// Escape percent-encodes s for a partition value or file name: every byte
// but ASCII letters, digits, '.', '_' and '-' becomes %XX (upper-case hex).
// A leading '.' is encoded too, so that no name is hidden or "..".
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		plain := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' && i > 0
		if plain {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// Unescape decodes Escape's encoding (any %XX, upper or lower case).
func Unescape(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("%q: truncated escape at byte %d", s, i)
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", fmt.Errorf("%q: bad escape %q", s, s[i:i+3])
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), nil
}
