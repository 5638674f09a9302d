package results

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/internal/columnar"
	"github.com/schedlab/schedlab/model/schema"
)

// LoadOptions configures LoadWith.
type LoadOptions struct {
	// Stream leaves the rows of jobs.parquet and series.parquet on disk:
	// the files are opened and checked as Load checks them, but Set.Jobs
	// and Set.Series stay nil. EachJobRun and EachSeriesRun then read them
	// run by run, column by column in chunks, so that memory is bounded by
	// the largest run rather than the file; JobsOf and SeriesOf scan the
	// file. A sweep's dataset is always loaded whole.
	Stream bool
}

// ErrUnsorted is returned by EachJobRun and EachSeriesRun on a streamed
// Set whose file is not sorted by run (trace, alloc, sched, rep), as the
// results contract requires: the rows have then been loaded into the Set
// (Jobs or Series), and a second call delivers every run once.
var ErrUnsorted = errors.New("rows not sorted by (trace, alloc, sched, rep): loaded whole")

// streamFile is a results file left on disk (LoadOptions.Stream).
type streamFile struct {
	path   string
	rows   int64
	noLoad bool // no "load" column: jobs' Load is -1
}

// NumJobs returns the number of job rows (0 without jobs.parquet).
func (s *Set) NumJobs() int64 {
	if s.jobsFile != nil && s.Jobs == nil {
		return s.jobsFile.rows
	}
	return int64(len(s.Jobs))
}

// NumSeries returns the number of series rows (0 without series.parquet).
func (s *Set) NumSeries() int64 {
	if s.seriesFile != nil && s.Series == nil {
		return s.seriesFile.rows
	}
	return int64(len(s.Series))
}

// EachJobRun calls fn with the job rows of every run (trace, pair, rep),
// in file order (the order of jobs.parquet, sorted by run), each run
// once, rows in file order: the rows JobsOf returns. js, and the
// placements it holds, are reused once fn returns: fn copies what it
// keeps. An error from fn stops the pass and is returned.
func (s *Set) EachJobRun(fn func(k Key, js []Job) error) error {
	if s.jobsFile == nil || s.Jobs != nil {
		return eachRunInMemory(s.Jobs, jobKey, fn)
	}
	err := streamRuns(s.jobsFile, jobKey, func(j *Job) *[]schema.Piece { return &j.Placement }, fn)
	if errors.Is(err, ErrUnsorted) {
		var jobs []Job
		jf, rerr := readRows(s.jobsFile.path, &jobs, jobColumns)
		if rerr != nil {
			return rerr
		}
		if !hasColumn(jf, "load") {
			for i := range jobs {
				jobs[i].Load = -1
			}
		}
		if jobs == nil {
			jobs = []Job{}
		}
		s.Jobs = jobs
	}
	return err
}

// EachSeriesRun calls fn with the series rows of every run, in file
// order, each run once, rows in time order: the rows SeriesOf returns.
// rows is reused once fn returns.
func (s *Set) EachSeriesRun(fn func(k Key, rows []Series) error) error {
	byTime := func(k Key, rows []Series) error {
		slices.SortStableFunc(rows, func(a, b Series) int {
			switch {
			case a.Time < b.Time:
				return -1
			case a.Time > b.Time:
				return 1
			}
			return 0
		})
		return fn(k, rows)
	}
	if s.seriesFile == nil || s.Series != nil {
		return eachRunInMemory(s.Series, seriesKey, func(k Key, rows []Series) error {
			return byTime(k, slices.Clone(rows))
		})
	}
	err := streamRuns(s.seriesFile, seriesKey, nil, byTime)
	if errors.Is(err, ErrUnsorted) {
		var rows []Series
		if _, rerr := readRows(s.seriesFile.path, &rows, seriesColumns); rerr != nil {
			return rerr
		}
		if rows == nil {
			rows = []Series{}
		}
		s.Series = rows
	}
	return err
}

func jobKey(j *Job) Key       { return Key{j.Trace, Pair{j.Alloc, j.Sched}, j.Rep, j.Machine, j.Comm} }
func seriesKey(r *Series) Key { return Key{r.Trace, Pair{r.Alloc, r.Sched}, r.Rep, r.Machine, r.Comm} }

// eachRunInMemory delivers the runs of loaded rows: contiguous runs in
// order when the rows are sorted by run, else each run's rows (in row
// order) in order of first appearance.
func eachRunInMemory[T any](rows []T, key func(*T) Key, fn func(Key, []T) error) error {
	sorted := true
	for i := 1; i < len(rows) && sorted; i++ {
		a, b := key(&rows[i-1]), key(&rows[i])
		sorted = b.cmp(a.Trace, a.Pair.Alloc, a.Pair.Sched, a.Rep) >= 0
	}
	if sorted {
		for lo := 0; lo < len(rows); {
			k := key(&rows[lo])
			hi := lo + 1
			for hi < len(rows) && key(&rows[hi]) == k {
				hi++
			}
			if err := fn(k, rows[lo:hi:hi]); err != nil {
				return err
			}
			lo = hi
		}
		return nil
	}
	idx := map[Key]int{}
	var keys []Key
	var groups [][]T
	for i := range rows {
		k := key(&rows[i])
		g, ok := idx[k]
		if !ok {
			g = len(keys)
			idx[k] = g
			keys = append(keys, k)
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], rows[i])
	}
	for g, k := range keys {
		if err := fn(k, groups[g]); err != nil {
			return err
		}
	}
	return nil
}

// streamChunk is the number of rows decoded at a time.
const streamChunk = 4096

// streamRuns reads the file sf run by run: every column is decoded chunk
// by chunk (streamChunk rows), rows are gathered until their run key
// changes, and the run is handed to fn. pieces, when not nil, gives a
// row's placement field: placements are copied into one backing array per
// run. It returns ErrUnsorted when a run key sorts before the previous
// one (some runs have been delivered then).
func streamRuns[T any](sf *streamFile, key func(*T) Key, pieces func(*T) *[]schema.Piece, fn func(Key, []T) error) error {
	osf, f, err := openChecked(sf.path, schema.Columns(*new(T)))
	if err != nil {
		return err
	}
	defer osf.Close()
	opt := readOptions[T]()
	opt.Stream = true // lists copied into the run's arena
	rs, err := columnar.NewRows[T](f, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", sf.path, err)
	}
	defer rs.Close()
	chunk := make([]T, streamChunk)
	var run []T
	var arena []schema.Piece
	var starts []int
	var cur Key
	have := false
	deliver := func() error {
		if pieces != nil {
			for i := range run {
				a, b := starts[i], len(arena)
				if i+1 < len(run) {
					b = starts[i+1]
				}
				if b > a {
					*pieces(&run[i]) = arena[a:b:b]
				} else {
					*pieces(&run[i]) = nil
				}
			}
		}
		err := fn(cur, run)
		clear(run)
		run, arena, starts = run[:0], arena[:0], starts[:0]
		return err
	}
	for {
		n, err := rs.Read(chunk)
		if err != nil {
			return fmt.Errorf("%s: %w", sf.path, err)
		}
		if n == 0 {
			break
		}
		if js, ok := any(chunk[:n]).([]Job); ok && sf.noLoad {
			for i := range js {
				js[i].Load = -1
			}
		}
		for i := range chunk[:n] {
			r := &chunk[i]
			k := key(r)
			if !have || k != cur {
				if have {
					if k.cmp(cur.Trace, cur.Pair.Alloc, cur.Pair.Sched, cur.Rep) < 0 {
						return ErrUnsorted
					}
					if err := deliver(); err != nil {
						return err
					}
				}
				cur, have = k, true
			}
			if pieces != nil {
				p := pieces(r)
				starts = append(starts, len(arena))
				arena = append(arena, *p...)
				*p = nil
			}
			run = append(run, *r)
		}
	}
	if have {
		return deliver()
	}
	return nil
}

// openStream opens dir/name for streaming when it exists (nil when it
// does not), with Load's checks.
func openStream(dir, name string, cols []schema.Column, sp string, sf *parquet.File) (*streamFile, error) {
	p := dir + string(os.PathSeparator) + name
	if _, err := os.Stat(p); err != nil {
		return nil, nil
	}
	osf, f, err := openChecked(p, cols)
	if err != nil {
		return nil, err
	}
	defer osf.Close()
	if err := sameRun(sp, sf, p, f); err != nil {
		return nil, err
	}
	return &streamFile{path: p, rows: f.NumRows(), noLoad: !hasColumn(f, "load")}, nil
}
