package sweep

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/model/stretch"
	"github.com/schedlab/schedlab/trace"
)

// Shard selects shard I (1-based) of N. The zero value is the whole plan.
type Shard struct{ I, N int }

// MaxShards bounds a sweep's shards (the assignment is sized by them).
const MaxShards = 100000

// ParseShard parses "i/n" (1 ≤ i ≤ n ≤ MaxShards).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 1 ≤ i ≤ n, e.g. 2/8", s)
	}
	if n > MaxShards {
		return Shard{}, fmt.Errorf("shard %q: at most %d shards", s, MaxShards)
	}
	return Shard{i, n}, nil
}

func (s Shard) whole() bool { return s.N <= 1 }

func (s Shard) String() string {
	if s.whole() {
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Assign returns the shard (1..n) of every cell, balanced by estimated
// cost: cells in decreasing cost (ties in plan order) each go to the shard
// with the least cost so far (ties to the lowest shard), the longest
// processing time rule. It depends only on the plan and n.
func (p *Plan) Assign(n int) []int {
	out := make([]int, len(p.Cells))
	if n <= 1 {
		for i := range out {
			out[i] = 1
		}
		return out
	}
	order := make([]int, len(p.Cells))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p.Cells[order[a]].Cost > p.Cells[order[b]].Cost })
	load := make([]float64, n)
	for _, c := range order {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += p.Cells[c].Cost
		out[c] = best + 1
	}
	return out
}

// CellsOf returns the cells of shard s, in plan order.
func (p *Plan) CellsOf(s Shard) []Cell {
	if s.whole() {
		return p.Cells
	}
	a := p.Assign(s.N)
	var out []Cell
	for i, c := range p.Cells {
		if a[i] == s.I {
			out = append(out, c)
		}
	}
	return out
}

// Fingerprint identifies the plan's results: a hash of its name, replay
// options, cells and what makes each trace (the model with every
// parameter and seed, or the file's path and size): not of its text, so
// comments and key order do not matter, nor do the shards.
func (p *Plan) Fingerprint() string {
	h := sha256.New()
	o := p.opt
	fmt.Fprintf(h, "%s\n%s\n", p.Name, schema.JSON(p.metaOptions(o)))
	for i := range p.Cells {
		c := &p.Cells[i]
		u := p.units[c.unit]
		fmt.Fprintf(h, "%s\t%d\t%s\t%s\t%s\t%d\t%s\n", c.Trace, c.Rep, c.Machine, c.Alloc, c.Sched, u.jobs, u.desc)
		if c.commPart {
			fmt.Fprintf(h, "\tcomm %s\n", c.Comm)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// metaOptions is what a cell's files record of the options.
func (p *Plan) metaOptions(o experiment.Options) schema.Options {
	m := ""
	if len(p.File.Replay.Machines) == 1 {
		m = p.File.Replay.Machines[0]
	}
	opts := schema.Options{Machine: m, Allocs: o.Allocs, Scheds: o.Scheds, Estimates: o.Estimates, BsldTau: o.BsldTau,
		Warmup: o.Warmup, UntilLastArrival: o.UntilLastArrival, Check: o.Check, Placement: o.Placement,
		Sweep: p.Name, Machines: p.File.Replay.Machines, NoJobs: o.NoJobs, Shape: o.Shape, Until: o.Until, Mode: o.Mode, Comm: o.Comm}
	if p.CommSwept() {
		opts.Comms = p.comms
	}
	if st, _ := stretch.Parse(o.Stretch); st.On() {
		opts.Stretch = st.String()
	}
	if o.Events == experiment.EventsSequential {
		opts.Events = o.Events
	}
	opts.WarmupFinished = o.WarmupFinished
	return opts
}

// Options configures Run.
type Options struct {
	Out     string // the dataset's root directory
	Workers int    // parallel runs; 0 → GOMAXPROCS
	Shard   Shard  // the cells to run (zero: all)
	Resume  bool   // skip complete cells
	Version string // tool version recorded in the files
	// Progress is called with cells done (skipped ones included), the
	// shard's cell count and the jobs simulated so far.
	Progress func(experiment.Progress)
	// Warn receives one-line warnings.
	Warn func(string)
	// Log, when set, receives one line when the shard is complete.
	Log io.Writer
}

// Stats is what Run did.
type Stats struct {
	Cells   int // cells of the shard
	Skipped int // complete already (--resume)
	Ran     int
	Jobs    int64
	Elapsed time.Duration
}

// Manifest is DIR/sweep.json: which plan a dataset holds.
type Manifest struct {
	Sweep       string `json:"sweep"`
	Fingerprint string `json:"fingerprint"`
	Cells       int    `json:"cells"`
}

// ManifestFile is the manifest's name in a dataset's root.
const ManifestFile = "sweep.json"

// lock takes the dataset's locks: the whole plan holds the directory's
// lock exclusively; a shard holds it shared (shards run side by side)
// and its own shard lock exclusively (one process per shard).
func lock(dir string, s Shard) (release func(), err error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, schema.SummaryFile)); err == nil {
		return nil, fmt.Errorf("%s holds a replay's results (%s): choose another --out for replay sweep", dir, schema.SummaryFile)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	main, err := experiment.Lock(filepath.Join(dir, experiment.LockFile), !s.whole(), dir)
	if err != nil {
		return nil, err
	}
	if s.whole() {
		return func() { main.Close() }, nil
	}
	sh, err := experiment.Lock(filepath.Join(dir, fmt.Sprintf(".schedlab-shard-%d-of-%d.lock", s.I, s.N)), false, fmt.Sprintf("%s (shard %s)", dir, s))
	if err != nil {
		main.Close()
		return nil, err
	}
	return func() { sh.Close(); main.Close() }, nil
}

// checkManifest refuses a dataset of another plan and writes the manifest
// when missing (shards write identical bytes).
func (p *Plan) checkManifest(dir string) error {
	m := Manifest{Sweep: p.Name, Fingerprint: p.Fingerprint(), Cells: len(p.Cells)}
	path := filepath.Join(dir, ManifestFile)
	if b, err := os.ReadFile(path); err == nil {
		var old Manifest
		if err := json.Unmarshal(b, &old); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		if old != m {
			return fmt.Errorf("%s holds the results of another plan (sweep %q, fingerprint %s, %d cells; this plan: sweep %q, %s, %d cells): choose another --out, or remove it", dir, old.Sweep, old.Fingerprint, old.Cells, m.Sweep, m.Fingerprint, m.Cells)
		}
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	return trace.AtomicWrite(path, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}

// complete reports whether a cell's files are all in place.
func (p *Plan) complete(dir string, c *Cell) bool {
	k := c.Key(p.Name)
	tables := []string{schema.SummaryTable}
	if !p.opt.NoJobs {
		tables = append(tables, schema.JobsTable)
	}
	if !p.opt.NoSeries {
		tables = append(tables, schema.SeriesTable)
	}
	for _, t := range tables {
		if !parquetWhole(filepath.Join(dir, filepath.FromSlash(k.Path(t)))) {
			return false
		}
	}
	return true
}

// parquetWhole reports whether path is a regular file with a Parquet
// file's frame: PAR1 at both ends and a footer that fits. A part file cut
// short (a disk full, a copy interrupted) is then not taken for complete.
func parquetWhole(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < 12 {
		return false
	}
	var head [4]byte
	var tail [8]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return false
	}
	if _, err := f.ReadAt(tail[:], st.Size()-8); err != nil {
		return false
	}
	footer := int64(binary.LittleEndian.Uint32(tail[:4]))
	return string(head[:]) == "PAR1" && string(tail[4:]) == "PAR1" && footer+12 <= st.Size()
}

// Missing returns the cells of the plan whose files are not all in dir.
func (p *Plan) Missing(dir string) []Cell {
	var out []Cell
	for i := range p.Cells {
		if !p.complete(dir, &p.Cells[i]) {
			out = append(out, p.Cells[i])
		}
	}
	return out
}

// Run runs the cells of opt.Shard into the dataset at opt.Out.
func Run(p *Plan, opt Options) (*Stats, error) {
	if opt.Out == "" {
		return nil, errors.New("sweep: no output directory")
	}
	start := time.Now()
	release, err := lock(opt.Out, opt.Shard)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := p.checkManifest(opt.Out); err != nil {
		return nil, err
	}
	cells := p.CellsOf(opt.Shard)
	st := &Stats{Cells: len(cells)}
	var todo []Cell
	for i := range cells {
		if opt.Resume && p.complete(opt.Out, &cells[i]) {
			st.Skipped++
			continue
		}
		todo = append(todo, cells[i])
	}
	groups := p.groups(todo)
	eo := p.opt
	eo.Out, eo.Workers, eo.Version, eo.Warn = opt.Out, opt.Workers, opt.Version, opt.Warn
	if len(p.File.Replay.Machines) == 1 {
		eo.Machine = p.File.Replay.Machines[0]
	}
	meta := p.metaOptions(eo)
	eo.MetaOptions = &meta
	if opt.Progress != nil {
		skipped := st.Skipped
		eo.Progress = func(p experiment.Progress) {
			p.Done += skipped
			p.Total += skipped
			opt.Progress(p)
		}
	}
	ds := experiment.Dataset{Sweep: p.Name, CommPartition: p.CommSwept(), Done: func(schema.CellKey, schema.Summary) { st.Ran++ }}
	var jobs int64
	for _, c := range todo {
		jobs += int64(c.Jobs)
	}
	if err := experiment.RunDataset(groups, ds, eo); err != nil {
		return nil, err
	}
	if opt.Progress != nil && len(todo) == 0 {
		opt.Progress(experiment.Progress{Done: st.Skipped, Total: st.Skipped})
	}
	st.Jobs, st.Elapsed = jobs, time.Since(start)
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, "sweep %s shard %s: %d cells (%d ran, %d complete already), %d jobs, %.1f s\n",
			p.Name, opt.Shard, st.Cells, st.Ran, st.Skipped, st.Jobs, st.Elapsed.Seconds())
	}
	return st, nil
}

// groups gathers cells into the experiment's groups (one per trace and
// machine, in plan order). A trace shared by several groups is loaded
// once and its records released when the last group has converted it.
func (p *Plan) groups(cells []Cell) []experiment.Group {
	type gkey struct {
		unit          int
		machine, comm string
	}
	var out []experiment.Group
	idx := map[gkey]int{}
	users := map[int]int{}
	for i := range cells {
		c := &cells[i]
		k := gkey{c.unit, c.Machine, c.Comm}
		if _, ok := idx[k]; !ok {
			idx[k] = len(out)
			m, _ := policy.ParseMachine(c.Machine) // checked by Plan
			g := experiment.Group{Name: c.Trace, Rep: c.Rep, Machine: m}
			if p.CommSwept() {
				g.Comm = c.Comm
			}
			out = append(out, g)
			users[c.unit]++
		}
		g := &out[idx[k]]
		g.Pairs = append(g.Pairs, c.pair)
	}
	loaders := map[int]*loader{}
	for k, gi := range idx {
		l := loaders[k.unit]
		if l == nil {
			l = &loader{u: p.units[k.unit], users: users[k.unit]}
			loaders[k.unit] = l
		}
		out[gi].Load, out[gi].Release = l.load, l.release
	}
	return out
}

// loader loads a unit's trace once for the groups that share it.
type loader struct {
	u     *unit
	once  sync.Once
	t     *trace.Trace
	err   error
	mu    sync.Mutex
	users int
}

func (l *loader) load() (*trace.Trace, error) {
	l.once.Do(func() {
		if l.u.gen != nil {
			l.t, l.err = l.u.gen()
		} else {
			// A copy: the plan keeps the records it read (a plan may run
			// again), the copy's are let go by the last group.
			cp := *l.u.tr
			l.t = &cp
		}
	})
	return l.t, l.err
}

// release is called by each group once it has converted the trace; the
// last one lets the records go.
func (l *loader) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.users--; l.users == 0 && l.t != nil {
		l.t.Jobs = nil
	}
}

// Merge checks, after the shards, that the dataset at dir is this plan's
// and complete: it takes the directory's lock (no shard may still be
// running) and returns the cells whose files are missing.
func Merge(p *Plan, dir string) ([]Cell, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err != nil {
		return nil, fmt.Errorf("%s: no %s: not a sweep's dataset (or no shard has run yet)", dir, ManifestFile)
	}
	release, err := lock(dir, Shard{})
	if err != nil {
		return nil, err
	}
	defer release()
	if err := p.checkManifest(dir); err != nil {
		return nil, err
	}
	return p.Missing(dir), nil
}
