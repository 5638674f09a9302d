package experiment

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/network"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// Group is the runs of one trace on one machine in a sweep: the trace is
// loaded (read or generated) once, on a worker, when the group's first run
// starts, and its jobs are shared by the group's runs.
type Group struct {
	Name    string                       // the trace's name, as Load will set it
	Rep     int                          // the trace's replication, as Load will set it
	Load    func() (*trace.Trace, error) // loads or generates the trace
	Release func()                       // optional: called once the trace has been converted to engine jobs
	Machine policy.Machine
	Pairs   []catalog.Pair
	// Comm is the group's communication model (model/network.Parse);
	// "" → Options.Comm. A sweep that varies it has one group per
	// setting.
	Comm string
}

// Dataset configures RunDataset.
type Dataset struct {
	Sweep string // the sweep's name: the sweep= partition
	// CommPartition puts each cell under a comm= partition (its
	// communication model's canonical form; schema.CellKey.Comm): a sweep
	// that varies the model.
	CommPartition bool
	// Done, when set, is called in plan order after each cell's files are
	// in place, with the cell and its summary row.
	Done func(k schema.CellKey, s schema.Summary)
}

// RunDataset replays every run of groups and writes each to its own files
// in the sweep dataset rooted at opt.Out (the layout of model/schema's
// dataset.go): each cell's jobs, series and summary files are written to
// temporary files next to them and renamed into place when the run is
// complete, the summary last. A cell's bytes depend only on its run and on
// opt, never on the other cells, the order or the number of workers.
// Locking the directory is the caller's business. Runs are emitted in
// group order, pairs in order.
func RunDataset(groups []Group, ds Dataset, opt Options) error {
	if err := opt.validate(); err != nil {
		return err
	}
	if opt.Out == "" {
		return errors.New("dataset: no output directory")
	}
	var tasks []task
	commOf := make([]string, len(groups)) // canonical, for the cell keys
	for i := range groups {
		g := &groups[i]
		c, err := network.Parse(cmp.Or(g.Comm, opt.Comm, network.Off))
		if err != nil {
			return fmt.Errorf("trace %s: %w", g.Name, err)
		}
		commOf[i] = c.String()
		if len(g.Pairs) == 0 {
			continue
		}
		m, err := policy.InMode(g.Machine, opt.Mode)
		if err != nil {
			return fmt.Errorf("trace %s: %w", g.Name, err)
		}
		p := &prepared{name: g.Name, m: m, rec: recorded(m), left: len(g.Pairs), load: g.Load, release: g.Release, opt: &opt, comm: g.Comm}
		for _, pr := range g.Pairs {
			tasks = append(tasks, task{p, pr})
		}
	}
	if len(tasks) == 0 {
		return nil
	}
	// Temporary files of killed runs of these cells go first: one pass
	// over each partition folder.
	bases := map[string]map[string]bool{}
	for i := range groups {
		g := &groups[i]
		for _, pr := range g.Pairs {
			k := schema.CellKey{Sweep: ds.Sweep, Machine: recorded(g.Machine), Alloc: pr.Alloc, Sched: pr.Sched, Trace: g.Name, Rep: int64(g.Rep)}
			if ds.CommPartition {
				k.Comm = commOf[i]
			}
			for _, table := range schema.Tables {
				path := filepath.Join(opt.Out, filepath.FromSlash(k.Path(table)))
				dir := filepath.Dir(path)
				if bases[dir] == nil {
					bases[dir] = map[string]bool{}
				}
				bases[dir][filepath.Base(path)] = true
			}
		}
	}
	for dir, b := range bases {
		if _, err := trace.CleanStaleTempsOf(dir, b); err != nil {
			return err
		}
	}
	w := &cellWriter{root: opt.Out, sweep: ds.Sweep, commPart: ds.CommPartition, opt: opt}
	write := func(o *output) error {
		err := w.write(w.key(o), o)
		o.res = nil
		return err
	}
	return runPoolPost(tasks, opt, write, func(o *output) error {
		k := w.key(o)
		if o.summary.Jobs == 0 && opt.Warn != nil {
			opt.Warn(fmt.Sprintf("trace %s, %s/%s: no job counted (%d in the trace, %d rejected, %d filtered): its statistics are NaN",
				k.Trace, k.Alloc, k.Sched, o.tk.tr.records, o.summary.Rejected, o.summary.Filtered))
		}
		if ds.Done != nil {
			ds.Done(k, o.summary)
		}
		return nil
	})
}

// cellWriter writes each run's cell files, on the workers.
type cellWriter struct {
	root     string
	sweep    string
	commPart bool // cells under comm= partitions
	opt      Options
	rows     sync.Pool // *jobTable: buffers kept between cells
}

func (w *cellWriter) key(o *output) schema.CellKey {
	p := o.tk.tr
	k := schema.CellKey{Sweep: w.sweep, Machine: p.rec, Alloc: o.tk.pair.Alloc, Sched: o.tk.pair.Sched,
		Trace: p.t.Name, Rep: int64(p.t.Provenance.Rep)}
	if w.commPart {
		k.Comm = o.summary.Comm
	}
	return k
}

// write writes the cell's files: jobs, series (unless NoSeries), then the
// summary, each to a temporary file, renamed in that order once all are
// complete.
func (w *cellWriter) write(k schema.CellKey, o *output) (err error) {
	meta := metaOf(w.opt, []*prepared{o.tk.tr})
	var files []*stream
	defer func() {
		for _, f := range files {
			f.tmp.Discard()
		}
	}()
	open := func(table string) (*stream, error) {
		path := filepath.Join(w.root, filepath.FromSlash(k.Path(table)))
		dir := filepath.Dir(path)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		t, err := trace.CreateTemp(path)
		if err != nil {
			return nil, err
		}
		st := &stream{path: path, tmp: t, buf: bufio.NewWriterSize(t, 64<<10)}
		files = append(files, st)
		return st, nil
	}
	// Jobs.
	jt, _ := w.rows.Get().(*jobTable)
	if jt == nil {
		jt = new(jobTable)
	}
	defer w.rows.Put(jt)
	jt.reset(o, w.opt.BsldTau)
	if !w.opt.NoJobs {
		st, err := open(schema.JobsTable)
		if err != nil {
			return err
		}
		jpw := schema.NewWriter[schema.Job](st.buf, meta)
		st.pw = jpw
		jf, err := newColFile(k.Path(schema.JobsTable), jpw, jobColumns)
		if err != nil {
			return err
		}
		err = jf.write(jt, jt.n)
		if err == nil {
			err = jf.flushColumns()
		}
		if err != nil {
			return err
		}
	}
	jt.res = nil
	// Series.
	if !w.opt.NoSeries {
		st, err := open(schema.SeriesTable)
		if err != nil {
			return err
		}
		spw := schema.NewWriter[schema.Series](st.buf, meta)
		st.pw = spw
		sf, err := newColFile(k.Path(schema.SeriesTable), spw, seriesColumns)
		if err != nil {
			return err
		}
		tab := &seriesTable{keys: jt.keys, ser: o.res.Series}
		if err := sf.write(tab, len(tab.ser)); err != nil {
			return err
		}
		if err := sf.flushColumns(); err != nil {
			return err
		}
	}
	// Summary.
	st, err := open(schema.SummaryTable)
	if err != nil {
		return err
	}
	sw := schema.NewWriter[schema.Summary](st.buf, meta)
	st.pw = sw
	if err := schema.Write(sw, []schema.Summary{o.summary}); err != nil {
		return fmt.Errorf("%s: %w", k.Path(schema.SummaryTable), err)
	}
	if err := closeAll(files); err != nil {
		return err
	}
	// A jobs or series file left by an earlier run of the cell would not
	// match.
	for _, t := range []struct {
		table string
		off   bool
	}{{schema.JobsTable, w.opt.NoJobs}, {schema.SeriesTable, w.opt.NoSeries}} {
		if !t.off {
			continue
		}
		old := filepath.Join(w.root, filepath.FromSlash(k.Path(t.table)))
		if err := os.Remove(old); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	for _, f := range files {
		if err := f.tmp.Rename(); err != nil {
			return err
		}
	}
	files = nil
	return nil
}
