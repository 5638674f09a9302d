package experiment

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/network"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/model/stretch"
	"github.com/schedlab/schedlab/trace"
)

// LockFile is the lock a replay holds in its output directory for the
// whole run, so that two replays never mix their files in one directory.
const LockFile = ".schedlab.lock"

// sink streams the rows of each run, as it is emitted in task order, into
// temporary files next to the results files; commit renames them all only
// when every run succeeded.
type sink struct {
	dir  string
	lock *os.File
	// made: the topmost directory the run made for dir ("" when dir
	// existed); done: commit renamed the results in. A run that made dir
	// and fails leaves nothing behind (abort).
	made    string
	done    atomic.Bool
	unstop  func() // cancels the clean-up on an interrupt (trace.AtStop)
	files   []*stream
	jobs    *colFile[*jobTable]
	rows    jobTable // the current run's job rows, buffers kept between runs
	summary *parquet.GenericWriter[schema.Summary]
	series  *colFile[*seriesTable]
	tau     float64
}

// stream is one results file being written.
type stream struct {
	path string // the results file
	tmp  *trace.Temp
	buf  *bufio.Writer
	pw   interface{ Close() error }
}

// close completes the file, flushes it and syncs it to disk.
func (st *stream) close() error {
	if err := st.pw.Close(); err != nil {
		return err
	}
	if err := st.buf.Flush(); err != nil {
		return err
	}
	return st.tmp.Close()
}

// closeAll completes the files at the same time (each is synced to disk).
func closeAll(files []*stream) error {
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f.close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// lockDir creates dir and takes an exclusive lock on dir/LockFile, failing
// at once when another process holds it; made is the topmost directory it
// created ("" when dir existed).
func lockDir(dir string) (_ *os.File, made string, err error) {
	st, err := os.Stat(dir)
	if err == nil && !st.IsDir() {
		return nil, "", fmt.Errorf("%s: not a directory", dir)
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !os.IsNotExist(err) || filepath.Dir(d) == d {
			break
		}
		made = d
	}
	// A sweep's dataset is not a replay's results folder: mixing the two
	// layouts would leave neither readable.
	if st, err := os.Stat(filepath.Join(dir, schema.SummaryTable)); err == nil && st.IsDir() {
		return nil, "", fmt.Errorf("%s holds a sweep dataset (%s/): choose another --out for replay run", dir, schema.SummaryTable)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", err
	}
	f, err := Lock(filepath.Join(dir, LockFile), false, dir)
	return f, made, err
}

// Lock takes a lock on the file path (created if missing), exclusive or
// shared, failing at once when another process holds it in a conflicting
// mode; the error names what (a results directory) is in use. An exclusive
// holder writes its pid into the file. Closing the file releases the lock.
//
// The lock file is opened without following a symbolic link and must be a
// regular file: a link planted there cannot make a replay truncate or
// write into another file.
func Lock(path string, shared bool, what string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s: a symbolic link, not a lock file (remove it)", path)
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // "open PATH: ...": the path is said once, below
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file, not a lock file (remove it)", path)
	}
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			who := strings.TrimSpace(string(b))
			if who == "" {
				return nil, fmt.Errorf("%s is in use by a sweep's shards, or another replay: wait for them, or choose another --out", what)
			}
			if !shared {
				// The holders may be a sweep's shards, which hold the lock
				// shared and write no pid: the pid may be an earlier run's.
				who += ", or the shards of a sweep"
			}
			return nil, fmt.Errorf("%s is in use by another replay (pid %s): wait for it, or choose another --out", what, who)
		}
		return nil, fmt.Errorf("%s: lock: %w", path, err)
	}
	// A replay that failed in a directory it made removes the lock file
	// while holding it: a lock taken meanwhile on the file it removed
	// is no lock.
	if st, err := f.Stat(); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	} else if cur, err := os.Lstat(path); err != nil || !os.SameFile(st, cur) {
		f.Close()
		return nil, fmt.Errorf("%s is in use by another replay, which is leaving it: try again", what)
	}
	if !shared {
		f.Truncate(0)
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

func newSink(opt Options, preps []*prepared) (_ *sink, err error) {
	lock, made, err := lockDir(opt.Out)
	if err != nil {
		return nil, err
	}
	s := &sink{dir: opt.Out, lock: lock, made: made, tau: opt.BsldTau}
	if made != "" {
		// Interrupted (the process then exits at once, abort unrun):
		// the lock file and the directories made go too.
		lockPath, dir := lock.Name(), opt.Out
		s.unstop = trace.AtStop(func() {
			if !s.done.Load() {
				os.Remove(lockPath)
				removeDirs(dir, made)
			}
		})
	}
	defer func() {
		if err != nil {
			s.abort()
		}
	}()
	for _, name := range schema.Files {
		if _, err := trace.CleanStaleTemps(opt.Out, name); err != nil {
			return nil, err
		}
	}
	meta := metaOf(opt, preps)
	// Opened, and renamed at commit, in this order: summary.parquet last,
	// so that a new summary means new jobs and series.
	if s.jobs, err = openColumns[schema.Job](s, schema.JobsFile, meta, jobColumns); err != nil {
		return nil, err
	}
	if !opt.NoSeries {
		if s.series, err = openColumns[schema.Series](s, schema.SeriesFile, meta, seriesColumns); err != nil {
			return nil, err
		}
	}
	ss, err := s.open(schema.SummaryFile)
	if err != nil {
		return nil, err
	}
	s.summary = schema.NewWriter[schema.Summary](ss.buf, meta)
	ss.pw = s.summary
	return s, nil
}

// open creates the temporary file of results file name.
func (s *sink) open(name string) (*stream, error) {
	path := filepath.Join(s.dir, name)
	t, err := trace.CreateTemp(path)
	if err != nil {
		return nil, err
	}
	st := &stream{path: path, tmp: t, buf: bufio.NewWriterSize(t, 1<<20)}
	s.files = append(s.files, st)
	return st, nil
}

// openColumns opens results file name, of rows T, written column by
// column.
func openColumns[T any, R table](s *sink, name string, meta schema.Meta, cols []column[R]) (*colFile[R], error) {
	st, err := s.open(name)
	if err != nil {
		return nil, err
	}
	pw := schema.NewWriter[T](st.buf, meta)
	st.pw = pw
	return newColFile(name, pw, cols)
}

// metaOf returns the run's metadata: the options that shape the results and
// every trace's provenance.
func metaOf(opt Options, preps []*prepared) schema.Meta {
	var filters []string
	if !opt.KeepPartial {
		filters = append(filters, "drop-partial")
	}
	if opt.Warmup > 0 {
		filters = append(filters, fmt.Sprintf("warmup=%d", opt.Warmup))
	}
	if opt.UntilLastArrival {
		filters = append(filters, "until-last-arrival")
	}
	if opt.WarmupFinished > 0 {
		filters = append(filters, fmt.Sprintf("warmup-finished=%g", opt.WarmupFinished))
	}
	if opt.Until > 0 {
		filters = append(filters, fmt.Sprintf("until=%g", opt.Until))
	}
	mode := modeMeta(opt, preps)
	o := schema.Options{Machine: machineMeta(opt.Machine), Allocs: opt.Allocs, Scheds: opt.Scheds, Estimates: opt.Estimates,
		BsldTau: opt.BsldTau, Warmup: opt.Warmup, UntilLastArrival: opt.UntilLastArrival, Check: opt.Check,
		Filters: filters, Placement: opt.Placement, Shape: opt.Shape, Until: opt.Until, Mode: mode, Comm: commMeta(opt.Comm)}
	if opt.MetaOptions != nil {
		o = *opt.MetaOptions
		o.Filters, o.Shape, o.Until, o.Mode, o.Comm = filters, opt.Shape, opt.Until, mode, commMeta(opt.Comm)
	}
	if opt.Events == EventsSequential {
		o.Events = opt.Events
	}
	if st, _ := stretch.Parse(opt.Stretch); st.On() {
		o.Stretch = st.String()
	}
	o.WarmupFinished = opt.WarmupFinished
	var ts []schema.TraceInfo
	for _, p := range preps {
		pv := p.t.Provenance
		var params json.RawMessage
		if pv.Params != nil {
			params = json.RawMessage(schema.JSON(pv.Params))
		}
		ti := schema.TraceInfo{Name: p.t.Name, Source: pv.Source, Generator: pv.Generator, Params: params,
			Seed: pv.Seed, Load: pv.Load, Rep: int64(pv.Rep), Machine: p.rec, Jobs: int64(p.records),
			MachineFrom: p.from, SHA256: pv.SHA256}
		if p.t.InputSHA256 != "" && p.t.InputSHA256 != pv.SHA256 {
			ti.Input, ti.InputSHA256 = p.t.Path, p.t.InputSHA256
		}
		ts = append(ts, ti)
	}
	version := opt.Version
	if version == "" {
		version = "dev"
	}
	return schema.Meta{Version: version, Options: schema.JSON(o), Traces: schema.JSON(ts)}
}

// write streams one run's rows. Jobs and series are written at the same
// time (each file's bytes depend only on its own rows).
func (s *sink) write(o *output) error {
	jt := &s.rows
	jt.reset(o, s.tau)
	series := make(chan error, 1)
	go func() {
		if s.series == nil {
			series <- nil
			return
		}
		st := &seriesTable{keys: jt.keys, ser: o.res.Series}
		series <- s.series.write(st, len(st.ser))
	}()
	err := s.jobs.write(jt, jt.n)
	if serr := <-series; err == nil {
		err = serr
	}
	jt.res = nil // let the collector have the run
	if err != nil {
		return err
	}
	if err := schema.Write(s.summary, []schema.Summary{o.summary}); err != nil {
		return fmt.Errorf("%s: %w", schema.SummaryFile, err)
	}
	return nil
}

// commit completes every file and renames them into place, all or nothing
// as far as the file system allows: a failure before the renames leaves the
// directory as it was. Without series, a series.parquet left by an earlier
// run is removed, so that the directory never mixes two runs.
func (s *sink) commit() error {
	defer s.abort()
	// The last pages of every column, compressed in parallel; then the
	// files completed and synced at the same time.
	if err := s.jobs.flushColumns(); err != nil {
		return err
	}
	if s.series != nil {
		if err := s.series.flushColumns(); err != nil {
			return err
		}
	}
	if err := closeAll(s.files); err != nil {
		return err
	}
	// Every target checked again before the first rename (something may
	// have taken a file's place during the run).
	for _, f := range s.files {
		if err := trace.CheckTarget(f.path); err != nil {
			return err
		}
	}
	s.done.Store(true) // from the first rename on, the directory holds results
	for i, f := range s.files {
		if i == len(s.files)-1 && s.series == nil {
			// Before the summary: an earlier run's series would not match.
			if err := os.Remove(filepath.Join(s.dir, schema.SeriesFile)); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		if err := f.tmp.Rename(); err != nil {
			return err
		}
	}
	return nil
}

// abort removes the temporary files not renamed, and releases the lock.
func (s *sink) abort() {
	for _, f := range s.files {
		f.tmp.Discard()
	}
	s.files = nil
	if s.lock == nil {
		return
	}
	if s.unstop != nil {
		s.unstop()
	}
	// A failed run in a directory it made takes the directories it made
	// away again: the lock file first, while held (Lock checks that the
	// file it locked is still the one at its path), then each directory
	// if it is empty (another process may have put files there).
	gone := s.made != "" && !s.done.Load()
	if gone {
		os.Remove(s.lock.Name())
	}
	s.lock.Close() // releases the flock
	s.lock = nil
	if gone {
		removeDirs(s.dir, s.made)
	}
}

// removeDirs removes dir and its parents up to made, each only if empty.
func removeDirs(dir, made string) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == made {
			return
		}
	}
}

// modeMeta is what the options metadata records of the replay mode: the
// mode given, else that of the machines' family (policy.Recorded:
// malleable:P runs in mode "malleable"); nothing for rigid runs (files of
// rigid runs are as before modes existed).
func modeMeta(opt Options, preps []*prepared) string {
	if opt.Mode != "" && opt.Mode != policy.ModeRigid {
		return opt.Mode
	}
	for _, p := range preps {
		if _, mode := policy.Recorded(p.m); mode != "" {
			return mode
		}
	}
	return ""
}

// machineMeta is what the options metadata records of the machine option:
// as given, but a machine whose family records it as another
// (malleable:P as flat:P, policy.Recorded) as that one.
func machineMeta(s string) string {
	if m, err := policy.ParseMachine(s); err == nil {
		if rec, mode := policy.Recorded(m); mode != "" {
			return rec
		}
	}
	return s
}

// commMeta is the communication model as the metadata records it: its
// canonical form, "" when off.
func commMeta(c string) string {
	s, err := network.Parse(cmp.Or(c, network.Off))
	if err != nil || s.Mode == network.Off {
		return ""
	}
	return s.String()
}
