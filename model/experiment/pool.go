package experiment

import (
	"cmp"
	"fmt"
	"io"
	"sync"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/network"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/model/stretch"
)

// output is one finished run: its engine result (rows are made from it
// while streaming) and its summary row.
type output struct {
	tk      task
	res     *engine.Result
	summary schema.Summary
	err     error
}

// runPool runs the tasks over opt.Workers goroutines and calls emit for each
// output in task order. At most 2×workers outputs are held at once.
func runPool(tasks []task, opt Options, emit func(*output) error) error {
	return runPoolPost(tasks, opt, nil, emit)
}

// runPoolPost is runPool with post, when not nil, called on each
// successful output by the worker that ran it, before emit (a sweep's cell
// files are written there, in parallel).
func runPoolPost(tasks []task, opt Options, post func(*output) error, emit func(*output) error) error {
	n := len(tasks)
	workers := opt.Workers
	type done struct {
		i int
		o *output
	}
	idx := make(chan int)
	results := make(chan done, workers)
	tokens := make(chan struct{}, 2*workers)
	quit := make(chan struct{})
	var tr *tracker // nil: no progress reports
	if opt.Progress != nil {
		tr = newTracker(tasks, opt.Progress)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				var tick func(jobs int, now, first, last float64)
				if tr != nil {
					tick = func(jobs int, now, first, last float64) { tr.tick(i, jobs, now, first, last) }
				}
				o := runTask(tasks[i], opt, tick)
				if post != nil && o.err == nil {
					o.err = post(o)
				}
				results <- done{i, o}
			}
		}()
	}
	go func() {
		defer close(idx)
		for i := 0; i < n; i++ {
			select {
			case tokens <- struct{}{}:
			case <-quit:
				return
			}
			select {
			case idx <- i:
			case <-quit:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	tr.start()
	pending := map[int]*output{}
	next := 0
	var err error
	for d := range results {
		if err != nil {
			continue // drain
		}
		pending[d.i] = d.o
		for err == nil {
			o, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if o.err != nil {
				err = o.err
			} else {
				err = emit(o)
			}
			tr.done(next, int64(tasks[next].tr.n))
			next++
			<-tokens
		}
		if err != nil {
			close(quit)
		}
	}
	return err
}

// runTask replays one (trace, pair) and computes its summary. tick, when
// not nil, is told within the run the jobs done, the simulated time and
// the span of the trace's arrivals.
func runTask(tk task, opt Options, tick func(jobs int, now, first, last float64)) (result *output) {
	p := tk.tr
	fail := func(err error) *output {
		return &output{err: fmt.Errorf("trace %s, %s/%s on %s: %w", p.name, tk.pair.Alloc, tk.pair.Sched, p.m, err)}
	}
	// A policy bug that panics is reported like any other failure of the
	// run, naming the trace and pair, instead of killing the process with a
	// goroutine dump (and the other runs' results with it).
	defer func() {
		if r := recover(); r != nil {
			result = fail(fmt.Errorf("panic: %v", r))
		}
	}()
	a, err := tk.pair.NewAllocator(p.m)
	if err != nil {
		return fail(err)
	}
	s, err := tk.pair.NewScheduler(p.m)
	if err != nil {
		return fail(err)
	}
	if c, ok := s.(io.Closer); ok { // an external scheduler's process ends with the run, whatever happens
		defer c.Close()
	}
	jobs, err := p.take()
	if err != nil {
		return fail(err)
	}
	comm, err := network.Parse(cmp.Or(p.comm, opt.Comm, network.Off))
	if err != nil {
		return fail(err)
	}
	fam, _ := policy.FamilyOf(p.m.Kind)
	var model network.Model
	if comm.Mode != network.Off {
		if fam.Network == nil {
			return fail(fmt.Errorf("--comm %s needs a mesh machine", comm))
		}
		w, h := fam.Network(p.m)
		if model, err = network.New(comm, w, h); err != nil {
			return fail(err)
		}
	}
	// The placements of families that ask for them (meshes, hypercubes)
	// are recorded for the dispersion and pieces columns (whatever the
	// output options: the summary must not depend on them), and dropped
	// afterwards unless the jobs table wants them.
	keep := opt.Out != "" && opt.Placement
	eopt := engine.Options{Check: opt.Check, Series: !opt.NoSeries, Placement: keep || fam.Placements, Until: opt.Until}
	if opt.Events == EventsSequential {
		if p.m.Kind != policy.Flat {
			return fail(fmt.Errorf("--events sequential: flat machines only, not %s", p.rec))
		}
		eopt.Sequential = true
	}
	if model != nil {
		eopt.Progress = model
	}
	if st, err := stretch.Parse(opt.Stretch); err != nil {
		return fail(err)
	} else if st.On() {
		if model != nil {
			return fail(fmt.Errorf("--stretch %s: not with --comm %s", st, comm))
		}
		kmax := 0
		for i := range jobs {
			kmax = max(kmax, jobs[i].Need())
		}
		sm, err := stretch.New(st, p.m, kmax)
		if err != nil {
			return fail(err)
		}
		eopt.Progress = sm
	}
	if tick != nil && len(jobs) > 0 {
		first, last := jobs[0].Submit, jobs[len(jobs)-1].Submit
		eopt.Tick = func(done int, now float64) { tick(done, now, first, last) }
	}
	res, err := engine.Run(jobs, p.m, a, s, eopt)
	if c, ok := s.(io.Closer); ok && err == nil {
		err = c.Close()
	}
	if err != nil {
		return fail(err)
	}
	var disp func([]policy.Piece) float64
	if fam.Dispersion != nil {
		disp = func(ps []policy.Piece) float64 { return fam.Dispersion(p.m, ps) }
	}
	var loc func([]policy.Piece) policy.Locality
	if fam.Locality != nil {
		loc = func(ps []policy.Piece) policy.Locality { return fam.Locality(p.m, ps) }
	}
	o := &output{tk: tk, summary: summarize(tk, res, opt, model, comm.Plen, disp, loc)}
	o.summary.Comm = comm.String()
	if !keep {
		res.Pieces = nil
	}
	if fam.Summary != nil {
		if err := setColumns(&o.summary, fam.Summary(s)); err != nil {
			return fail(err)
		}
	}
	if opt.Out != "" {
		o.res = res
	}
	return o
}
