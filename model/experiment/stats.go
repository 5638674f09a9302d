package experiment

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// summarize computes the summary row of one run with model/metrics. Jobs
// the engine rejected (never started) are not counted and add to
// `rejected`.
func summarize(tk task, res *engine.Result, opt Options) schema.Summary {
	p := tk.tr
	t := p.t
	jobs := res.Jobs
	lastArrival := math.Inf(-1)
	if len(jobs) > 0 {
		lastArrival = jobs[len(jobs)-1].Submit
	}
	acc := metrics.NewAccumulator(opt.BsldTau)
	filtered := int64(p.partial)
	for i := range jobs {
		j := &jobs[i]
		if j.Start < 0 {
			continue // rejected by the allocator's feasibility check
		}
		if i < opt.Warmup || (opt.UntilLastArrival && j.End > lastArrival) {
			filtered++
			continue
		}
		acc.Add(j.Submit, j.Start, j.End, j.Run)
	}
	js := acc.Stats()
	sys := metrics.System(res.First, res.Last, res.BusyArea, res.QueueArea, p.m.Procs, js.N, js.MeanWait)
	return schema.Summary{
		Trace: t.Name, Machine: p.m.String(), Alloc: tk.pair.Alloc, Sched: tk.pair.Sched, Rep: int64(t.Provenance.Rep),
		Jobs: js.N, Rejected: int64(p.rejected + len(res.Rejected)),
		MeanResponse: js.MeanResponse, SDResponse: js.SDResponse, MeanWait: js.MeanWait,
		MeanSlowdown: js.MeanSlowdown, MeanBSLD: js.MeanBSLD,
		Utilization: sys.Utilization, Makespan: sys.Makespan, Throughput: sys.Throughput, Power: sys.Power,
		MaxQueue: int64(res.MaxQueue), MeanQueue: sys.MeanQueue, Load: t.Provenance.Load,
		Procs: int64(p.m.Procs), BSLDTau: opt.BsldTau, Filtered: filtered, MaxWait: js.MaxWait, MeanRun: js.MeanRun,
	}
}

// chunkRows is the number of job or series rows materialised at once while
// streaming a run's rows to the sink.
const chunkRows = 1 << 14

// jobRows calls emit with the run's job rows, in job-ID order (stable), in
// chunks of at most chunkRows. The chunk's rows and placements are reused
// between calls.
func jobRows(o *output, tau float64, emit func([]schema.Job) error) error {
	p := o.tk.tr
	res := o.res
	jobs := res.Jobs
	machine := p.m.String()
	rep := int64(p.t.Provenance.Rep)
	load := p.t.Provenance.Load
	var order []int32
	if !slices.IsSortedFunc(jobs, func(a, b policy.Job) int { return cmp.Compare(a.ID, b.ID) }) {
		order = make([]int32, len(jobs))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(jobs[a].ID, jobs[b].ID) })
	}
	rows := make([]schema.Job, 0, min(chunkRows, len(jobs)))
	var pieces []schema.Piece
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		err := emit(rows)
		rows, pieces = rows[:0], pieces[:0]
		return err
	}
	for k := range jobs {
		i := k
		if order != nil {
			i = int(order[k])
		}
		j := &jobs[i]
		if j.Start < 0 {
			continue // rejected by the allocator
		}
		resp := j.End - j.Submit
		row := schema.Job{
			Trace: p.t.Name, Machine: machine, Alloc: o.tk.pair.Alloc, Sched: o.tk.pair.Sched, Rep: rep,
			JobID: j.ID, Submit: j.Submit, Start: j.Start, End: j.End, Wait: j.Start - j.Submit, Response: resp,
			Slowdown: metrics.Slowdown(resp, j.Run), BoundedSlowdown: metrics.BoundedSlowdown(resp, j.Run, tau),
			ReqProcs: int64(j.Procs), AllocProcs: res.AllocProcs[i], Load: load,
			Run: j.Run, Estimate: j.Estimate, User: j.User,
		}
		if res.Suspensions != nil {
			row.Suspensions = int64(res.Suspensions[i])
		}
		if res.Migrations != nil {
			row.Migrations = int64(res.Migrations[i])
		}
		if pl := res.Placement(i); len(pl) > 0 {
			if cap(pieces)-len(pieces) < len(pl) {
				// A fresh arena: earlier rows keep pointing into the old one.
				pieces = make([]schema.Piece, 0, max(4*chunkRows, len(pl)))
			}
			off := len(pieces)
			for _, q := range pl {
				pieces = append(pieces, schema.Piece(q))
			}
			row.Placement = pieces[off:len(pieces):len(pieces)]
		}
		rows = append(rows, row)
		if len(rows) == chunkRows {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// seriesRows calls emit with the run's series rows in chunks.
func seriesRows(o *output, emit func([]schema.Series) error) error {
	p := o.tk.tr
	machine := p.m.String()
	rep := int64(p.t.Provenance.Rep)
	ser := o.res.Series
	rows := make([]schema.Series, 0, min(chunkRows, len(ser)))
	for k, s := range ser {
		rows = append(rows, schema.Series{
			Trace: p.t.Name, Machine: machine, Alloc: o.tk.pair.Alloc, Sched: o.tk.pair.Sched, Rep: rep,
			Time: s.Time, Busy: s.Busy, Running: int64(s.Running), Queue: int64(s.Queue),
		})
		if len(rows) == chunkRows || k == len(ser)-1 {
			if err := emit(rows); err != nil {
				return err
			}
			rows = rows[:0]
		}
	}
	return nil
}
