package results

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/schedlab/schedlab/internal/columnar"
	"github.com/schedlab/schedlab/model/schema"
)

// isDataset reports whether dir holds a sweep dataset rather than a
// replay's results files: dir/summary is a directory (or, with no
// summary.parquet, dir/jobs or dir/series is: a sweep with no complete
// cell yet). Both summary.parquet and summary/ is an error.
func isDataset(dir string) (bool, error) {
	isDir := func(name string) bool {
		st, err := os.Stat(filepath.Join(dir, name))
		return err == nil && st.IsDir()
	}
	_, err := os.Stat(filepath.Join(dir, schema.SummaryFile))
	file := err == nil
	switch {
	case isDir(schema.SummaryTable) && file:
		return false, fmt.Errorf("%s holds both %s (a replay's results) and %s/ (a sweep dataset): move one of them to its own directory", dir, schema.SummaryFile, schema.SummaryTable)
	case isDir(schema.SummaryTable):
		return true, nil
	case !file && (isDir(schema.JobsTable) || isDir(schema.SeriesTable)):
		return true, nil
	}
	return false, nil
}

// runKey identifies one run: a row of summary.parquet.
type runKey struct {
	trace, machine, alloc, sched string
	rep                          int64
	comm                         string
}

// part is one part file of a complete cell.
type part struct {
	path  string // the file
	rel   string // path below the table's root: the cell's identity across tables
	sweep string
	comm  bool   // the path has a comm= partition (cell.comm)
	cell  runKey // from the path; trace and rep from the metadata
	meta  fileMeta
	rows  int  // row count
	load  bool // has the load column
	sum   []Summary
	trace TraceInfo // the metadata's one trace
}

// fileMeta holds the schedlab.* metadata of a file.
type fileMeta map[string]string

// metaKeys are the metadata keys of a results file.
var metaKeys = []string{schema.KeyVersion, schema.KeyOptions, schema.KeyTraces}

// loadDataset reads the sweep dataset in dir (model/schema's dataset
// layout) into the Set that a `replay run` of the same traces and pairs
// would give:
//
//   - Only complete cells count, those with a summary part. The summary
//     table is walked first: a cell's summary is renamed into place after
//     its jobs and series, so every cell seen complete has them already,
//     even while a sweep is still writing. Jobs and series parts of
//     incomplete cells are skipped without being opened.
//   - Rows are in the order of `replay run`: cells sorted by (trace,
//     alloc, sched, rep), then machine and sweep (which a single replay
//     never has twice for one trace), rows within a cell in file order.
//     Traces are the union of the cells' traces (one each), sorted by
//     (name, rep); a trace replayed on several machines is listed once,
//     its Machine the machines joined by ", ".
//   - Several sweep= partitions may share a dataset only when every part
//     carries the same version and options metadata; a run found in two
//     of them is refused like a repeated row of summary.parquet.
//   - Refused, naming the file(s): parts whose version or options differ,
//     a part whose schedlab.traces is not exactly one trace or whose file
//     name is not that trace's, a summary part that is not one row of the
//     cell of its path, jobs or series rows of another cell, jobs or
//     series parts that disagree with their cell's summary part on any
//     metadata, and a complete cell without a jobs (series) part when
//     other cells have one. A .parquet file outside the layout is an
//     error; hidden entries (temporary files) and other files are ignored.
//
// Parts are read on GOMAXPROCS goroutines, jobs and series straight into
// their place in the Set (each file opened twice: its footer first, for
// the row counts); the result does not depend on the number of goroutines.
func loadDataset(dir string) (*Set, error) {
	sums, err := walkTable(dir, schema.SummaryTable)
	if err != nil {
		return nil, err
	}
	if len(sums) == 0 {
		return nil, fmt.Errorf("%s: sweep dataset with no complete cell (no part under %s/)", dir, schema.SummaryTable)
	}
	complete := make(map[string]bool, len(sums))
	for _, p := range sums {
		complete[p.rel] = true
	}
	var jobs, series []*part
	for _, t := range []struct {
		table string
		dst   *[]*part
	}{{schema.JobsTable, &jobs}, {schema.SeriesTable, &series}} {
		ps, err := walkTable(dir, t.table)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if complete[p.rel] {
				*t.dst = append(*t.dst, p)
			}
		}
	}

	// Pass 1: every summary part read, every jobs and series part's
	// footer checked.
	all := slices.Concat(sums, jobs, series)
	err = parallel(len(all), func(i int) error {
		p := all[i]
		switch {
		case i < len(sums):
			return p.inspect(summaryColumns, true)
		case i < len(sums)+len(jobs):
			return p.inspect(jobColumns, false)
		}
		return p.inspect(seriesColumns, false)
	})
	if err != nil {
		return nil, err
	}

	slices.SortFunc(sums, func(a, b *part) int {
		x, y := a.cell, b.cell
		return cmp.Or(strings.Compare(x.trace, y.trace), strings.Compare(x.alloc, y.alloc),
			strings.Compare(x.sched, y.sched), cmp.Compare(x.rep, y.rep),
			strings.Compare(x.machine, y.machine), strings.Compare(a.sweep, b.sweep), strings.Compare(a.rel, b.rel))
	})
	ref := sums[0]
	s := &Set{Dir: dir, Summary: make([]Summary, 0, len(sums))}
	s.Version = ref.meta[schema.KeyVersion]
	if v := ref.meta[schema.KeyOptions]; v != "" {
		if !json.Valid([]byte(v)) {
			return nil, fmt.Errorf("%s: metadata %s: invalid JSON", ref.path, schema.KeyOptions)
		}
		s.Options = json.RawMessage(v)
	}
	jobsOf := byRel(jobs)
	seriesOf := byRel(series)
	seen := make(map[runKey]*part, len(sums))
	type traceKey struct {
		name string
		rep  int64
	}
	traces := map[traceKey]*part{}
	machines := map[traceKey][]string{}
	var jobParts, seriesParts []*part
	for _, p := range sums {
		for _, k := range metaKeys[:2] {
			if err := sameMeta(ref.path, ref.meta, p.path, p.meta, k); err != nil {
				return nil, fmt.Errorf("%w: parts of two sweeps with different replay options or versions cannot be read as one dataset", err)
			}
		}
		if o, dup := seen[p.cell]; dup {
			return nil, fmt.Errorf("%s and %s hold the same run (trace %s, machine %s, %s / %s, rep %d, comm %q): two sweeps of one dataset replayed it (results must be unique, as in summary.parquet)", o.path, p.path, p.cell.trace, p.cell.machine, p.cell.alloc, p.cell.sched, p.cell.rep, p.cell.comm)
		}
		seen[p.cell] = p
		s.Summary = append(s.Summary, p.sum...)
		tk := traceKey{p.trace.Name, p.trace.Rep}
		if o, ok := traces[tk]; !ok {
			traces[tk] = p
		} else if !sameTrace(o.trace, p.trace) {
			return nil, fmt.Errorf("%s and %s: metadata %s describes two different traces named %q with rep %d: their results could not be told apart", o.path, p.path, schema.KeyTraces, tk.name, tk.rep)
		}
		if !slices.Contains(machines[tk], p.trace.Machine) {
			machines[tk] = append(machines[tk], p.trace.Machine)
		}
		for _, t := range []struct {
			table string
			of    map[string]*part
			dst   *[]*part
		}{{schema.JobsTable, jobsOf, &jobParts}, {schema.SeriesTable, seriesOf, &seriesParts}} {
			q, ok := t.of[p.rel]
			if !ok {
				if len(t.of) > 0 {
					return nil, fmt.Errorf("%s: complete cell without its %s part %s, which other cells have", p.path, t.table, filepath.Join(dir, t.table, filepath.FromSlash(p.rel)))
				}
				continue
			}
			for _, k := range metaKeys {
				if err := sameMeta(p.path, p.meta, q.path, q.meta, k); err != nil {
					return nil, fmt.Errorf("%w: the cell's files come from different runs", err)
				}
			}
			q.cell = p.cell
			*t.dst = append(*t.dst, q)
		}
	}
	for tk, p := range traces {
		ti := p.trace
		slices.Sort(machines[tk])
		ti.Machine = strings.Join(machines[tk], ", ")
		s.Traces = append(s.Traces, ti)
	}
	slices.SortFunc(s.Traces, func(a, b TraceInfo) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Rep, b.Rep))
	})

	// Pass 2: jobs and series read into their place.
	if len(jobParts) > 0 {
		s.Jobs = make([]Job, total(jobParts))
	}
	if len(seriesParts) > 0 {
		s.Series = make([]Series, total(seriesParts))
	}
	jobAt, seriesAt := offsets(jobParts), offsets(seriesParts)
	err = parallel(len(jobParts)+len(seriesParts), func(i int) error {
		if i < len(jobParts) {
			p := jobParts[i]
			rows := s.Jobs[jobAt[i] : jobAt[i]+p.rows]
			if err := readPart(p, rows, jobColumns, func(j *Job) runKey { return runKey{j.Trace, j.Machine, j.Alloc, j.Sched, j.Rep, j.Comm} }); err != nil {
				return err
			}
			if !p.load {
				for k := range rows {
					rows[k].Load = -1
				}
			}
			return nil
		}
		i -= len(jobParts)
		p := seriesParts[i]
		return readPart(p, s.Series[seriesAt[i]:seriesAt[i]+p.rows], seriesColumns, func(r *Series) runKey { return runKey{r.Trace, r.Machine, r.Alloc, r.Sched, r.Rep, r.Comm} })
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// walkTable lists the part files of a table of the dataset in dir, in
// lexical order, with their partition values decoded; nil when the table
// is absent. Hidden entries and files not ending in .parquet are skipped.
func walkTable(dir, table string) ([]*part, error) {
	root := filepath.Join(dir, table)
	if _, err := os.Stat(root); err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []*part
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == root {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".parquet") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		p, err := parsePartPath(filepath.ToSlash(rel))
		if err != nil {
			return fmt.Errorf("%s: %v (want %s/sweep=S/machine=M/alloc=A/sched=B/part-T-R.parquet)", path, err, table)
		}
		p.path = path
		out = append(out, p)
		return nil
	})
	return out, err
}

// parsePartPath decodes a part's path below its table's root: the four
// partitions, or five with comm= after machine= (a sweep that varies the
// communication model).
func parsePartPath(rel string) (*part, error) {
	comps := strings.Split(rel, "/")
	n := len(schema.PartitionKeys)
	keys := schema.PartitionKeys
	if len(comps) == n+2 {
		keys = slices.Insert(slices.Clone(keys), 2, schema.CommPartition)
	} else if len(comps) != n+1 {
		return nil, fmt.Errorf("a Parquet file %d directories below the table, not %d (or %d with %s=)", len(comps)-1, n, n+1, schema.CommPartition)
	}
	vals := make([]string, len(keys))
	for i, k := range keys {
		v, ok := strings.CutPrefix(comps[i], k+"=")
		if !ok {
			return nil, fmt.Errorf("directory %q is not the partition %s=VALUE", comps[i], k)
		}
		u, err := schema.Unescape(v)
		if err != nil {
			return nil, fmt.Errorf("partition %s: %v", k, err)
		}
		if u == "" {
			return nil, fmt.Errorf("partition %s: empty value", k)
		}
		vals[i] = u
	}
	if base := comps[len(comps)-1]; !strings.HasPrefix(base, "part-") {
		return nil, fmt.Errorf("file name %q does not start with part-", base)
	}
	if len(keys) > n {
		return &part{rel: rel, sweep: vals[0], comm: true, cell: runKey{machine: vals[1], comm: vals[2], alloc: vals[3], sched: vals[4]}}, nil
	}
	return &part{rel: rel, sweep: vals[0], cell: runKey{machine: vals[1], alloc: vals[2], sched: vals[3]}}, nil
}

// inspect opens the part, checks its columns, reads its metadata and
// checks that it names one trace, whose name and rep make the file name.
// A summary part (rows) is read whole and must be one row of its cell.
func (p *part) inspect(cols []schema.Column, rows bool) error {
	osf, f, err := openChecked(p.path, cols)
	if err != nil {
		return err
	}
	defer osf.Close()
	// The rows are allocated from the footers' counts: a count beyond
	// what the file can hold (columnar.RowsFor) is a corrupt footer.
	if st, err := osf.Stat(); err == nil && f.NumRows() > int64(columnar.RowsFor(f.NumRows(), st.Size())) {
		return fmt.Errorf("%s: the footer claims %d rows in a file of %d bytes (a corrupt file?)", p.path, f.NumRows(), st.Size())
	}
	p.rows, p.load = int(f.NumRows()), hasColumn(f, "load")
	p.meta = fileMeta{}
	for _, k := range metaKeys {
		if v, ok := f.Lookup(k); ok {
			p.meta[k] = v
		}
	}
	var ts []TraceInfo
	if v, ok := f.Lookup(schema.KeyTraces); !ok {
		return fmt.Errorf("%s: no metadata %s: a part file must name its cell's trace", p.path, schema.KeyTraces)
	} else if err := json.Unmarshal([]byte(v), &ts); err != nil {
		return fmt.Errorf("%s: metadata %s: %v", p.path, schema.KeyTraces, err)
	}
	if len(ts) != 1 {
		return fmt.Errorf("%s: metadata %s lists %d traces, want 1 (a part file holds one cell's run)", p.path, schema.KeyTraces, len(ts))
	}
	p.trace = ts[0]
	p.cell.trace, p.cell.rep = p.trace.Name, p.trace.Rep
	name, ok := strings.CutSuffix(strings.TrimPrefix(filepath.Base(p.path), "part-"), "-"+strconv.FormatInt(p.trace.Rep, 10)+".parquet")
	if u, err := schema.Unescape(name); !ok || err != nil || u != p.trace.Name {
		return fmt.Errorf("%s: file name is not that of its trace %q rep %d (metadata %s): want %s", p.path, p.trace.Name, p.trace.Rep, schema.KeyTraces, schema.CellKey{Trace: p.trace.Name, Rep: p.trace.Rep}.FileName())
	}
	if !rows {
		return nil
	}
	p.sum = make([]Summary, p.rows)
	if err := readAll(p.path, f, p.sum); err != nil {
		return err
	}
	if len(p.sum) != 1 {
		return fmt.Errorf("%s: %d summary rows, want 1 (a cell is one run)", p.path, len(p.sum))
	}
	r := &p.sum[0]
	if !p.load {
		r.Load = -1
	}
	if !p.comm {
		p.cell.comm = r.Comm // no comm= partition: the row's (checked by its jobs and series)
	}
	return checkRows(p, p.sum, func(r *Summary) runKey { return runKey{r.Trace, r.Machine, r.Alloc, r.Sched, r.Rep, r.Comm} })
}

// readPart reads a jobs or series part into rows, which has room for the
// p.rows rows found by inspect, and checks that they are its cell's.
func readPart[T any](p *part, rows []T, cols []schema.Column, key func(*T) runKey) error {
	osf, f, err := openChecked(p.path, cols)
	if err != nil {
		return err
	}
	defer osf.Close()
	if n := f.NumRows(); n != int64(len(rows)) {
		return fmt.Errorf("%s: changed while being read (%d rows, then %d)", p.path, len(rows), n)
	}
	if err := readAll(p.path, f, rows); err != nil {
		return err
	}
	return checkRows(p, rows, key)
}

// checkRows checks that every row is a row of the part's cell.
func checkRows[T any](p *part, rows []T, key func(*T) runKey) error {
	for i := range rows {
		if k := key(&rows[i]); k != p.cell {
			return fmt.Errorf("%s: row %d is of run (trace %s, machine %s, %s / %s, rep %d, comm %q), not of the cell of its path and metadata (trace %s, machine %s, %s / %s, rep %d, comm %q)",
				p.path, i+1, k.trace, k.machine, k.alloc, k.sched, k.rep, k.comm, p.cell.trace, p.cell.machine, p.cell.alloc, p.cell.sched, p.cell.rep, p.cell.comm)
		}
	}
	return nil
}

// sameMeta checks that two files agree on metadata key k.
func sameMeta(pa string, a fileMeta, pb string, b fileMeta, k string) error {
	va, oka := a[k]
	vb, okb := b[k]
	if va != vb || oka != okb {
		return fmt.Errorf("%s and %s disagree on metadata %s", pa, pb, k)
	}
	return nil
}

// sameTrace reports whether two cells' trace provenance describes one
// trace: equal but perhaps for the machine it was replayed on.
func sameTrace(a, b TraceInfo) bool {
	a.Machine, b.Machine = "", ""
	return schema.JSON(a) == schema.JSON(b)
}

func byRel(ps []*part) map[string]*part {
	m := make(map[string]*part, len(ps))
	for _, p := range ps {
		m[p.rel] = p
	}
	return m
}

func total(ps []*part) int {
	n := 0
	for _, p := range ps {
		n += p.rows
	}
	return n
}

// offsets returns where each part's rows start in the concatenation.
func offsets(ps []*part) []int {
	out := make([]int, len(ps))
	n := 0
	for i, p := range ps {
		out[i] = n
		n += p.rows
	}
	return out
}

// parallel calls fn(i) for every i in [0, n) on up to GOMAXPROCS
// goroutines and returns the error of the lowest i that failed (indices
// above a failure are skipped, those below still run), so that the error
// reported does not depend on scheduling.
func parallel(n int, fn func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Int64
	failed.Store(int64(n))
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				if i > failed.Load() {
					continue
				}
				if errs[i] = fn(int(i)); errs[i] != nil {
					for f := failed.Load(); i < f && !failed.CompareAndSwap(f, i); f = failed.Load() {
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
