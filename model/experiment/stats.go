package experiment

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/metrics"
	"github.com/schedlab/schedlab/model/network"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// summarize computes the summary row of one run with model/metrics. Jobs
// the engine rejected (never started) are not counted and add to
// `rejected`.
//
// On a machine with a topology (dispersion, its family's Dispersion, not nil)
// the dispersion and pieces columns come from the recorded placements of
// the counted jobs; under a communication model (model,
// nil when off; packets of plen flits) the communication columns from
// its per-job statistics. Where the family measures locality (locality
// not nil) the max_hops, span and hop_bytes columns come from it too (and
// the dispersion from its mean hop distance); NaN otherwise.
func summarize(tk task, res *engine.Result, opt Options, model network.Model, plen int, dispersion func([]policy.Piece) float64, locality func([]policy.Piece) policy.Locality) schema.Summary {
	p := tk.tr
	t := p.t
	jobs := res.Jobs
	lastArrival := math.Inf(-1)
	if len(jobs) > 0 {
		lastArrival = jobs[len(jobs)-1].Submit
	}
	acc := metrics.NewAccumulator(opt.BsldTau)
	filtered := int64(p.partial)
	var allocArea, reqArea, residence float64
	classes := metrics.NewClassStats(metrics.SizeQuarters(p.m.Procs))
	window := metrics.NoWindow()
	waiting := 0
	comm := metrics.NewCommTotals(plen, dispersion)
	comm.SetLocality(locality)
	var deadlines, missed int64 // counted jobs with a deadline, and missing it
	early := firstFinished(jobs, opt.WarmupFinished)
	if opt.Until > 0 {
		w := metrics.NewWindow(opt.Until, p.m.Procs)
		for i := range jobs {
			j := &jobs[i]
			w.Add(j.Submit, j.Start, j.End, j.Run, res.AllocProcs[i], float64(j.Need()))
		}
		window = w.Stats()
	}
	for i := range jobs {
		j := &jobs[i]
		if j.Start < 0 {
			if res.Stopped && j.Submit <= res.Last {
				waiting++ // arrived by the end of the window (or rejected on arrival)
			}
			continue // rejected by the allocator's feasibility check, or after the window
		}
		end := j.End
		if end < 0 { // running when the window ended
			end = res.Last
		}
		// Fragmentation counts every job that ran, as utilization does.
		if d := end - j.Start; d > 0 {
			allocArea += res.AllocProcs[i] * d
			reqArea += float64(j.Procs) * d
			residence += d
		}
		if j.End < 0 || i < opt.Warmup || (opt.UntilLastArrival && j.End > lastArrival) || early != nil && early[i] {
			filtered++
			continue
		}
		acc.Add(j.Submit, j.Start, j.End, j.Run)
		comm.AddPlacement(res.Placement(i))
		if model != nil {
			st := model.Stats(int(j.Record))
			comm.AddComm(st.Comm, st.Packets, st.Hops, st.Latency, st.Blocked)
		}
		classes.Add(j.Procs, j.End-j.Submit)
		if d := j.Deadline(); d >= 0 {
			deadlines++
			if j.End > d {
				missed++
			}
		}
	}
	var susp, migr int64
	for i := range jobs {
		if res.Suspensions != nil {
			susp += int64(res.Suspensions[i])
		}
		if res.Migrations != nil {
			migr += int64(res.Migrations[i])
		}
	}
	if waiting > 0 {
		// Still waiting when the window ended: left out, as the filters'.
		filtered += int64(waiting - len(res.Rejected))
	}
	sizes := make([]schema.SizeClass, len(classes.Bounds))
	for i, b := range classes.Bounds {
		sizes[i] = schema.SizeClass{Lo: int64(b[0]), Hi: int64(b[1]), Jobs: classes.N[i], MeanResponse: classes.Mean(i), SDResponse: classes.SD(i)}
	}
	js := acc.Stats()
	disp, pieces, commTime, lat, block, hopFlits := comm.Stats()
	sys := metrics.System(res.First, res.Last, res.BusyArea, res.QueueArea, p.m.Procs, js.N, js.MeanWait)
	s := schema.Summary{
		Trace: t.Name, Machine: p.rec, Alloc: tk.pair.Alloc, Sched: tk.pair.Sched, Rep: int64(t.Provenance.Rep),
		Jobs: js.N, Rejected: int64(p.rejected + len(res.Rejected)),
		MeanResponse: js.MeanResponse, SDResponse: js.SDResponse, MeanWait: js.MeanWait,
		MeanSlowdown: js.MeanSlowdown, MeanBSLD: js.MeanBSLD,
		Utilization: sys.Utilization, Makespan: sys.Makespan, Throughput: sys.Throughput, Power: sys.Power,
		MaxQueue: int64(res.MaxQueue), MeanQueue: sys.MeanQueue, Load: t.Provenance.Load,
		Procs: int64(p.m.Procs), BSLDTau: opt.BsldTau, Filtered: filtered, MaxWait: js.MaxWait, MeanRun: js.MeanRun,
		InternalFrag:      metrics.InternalFragmentation(allocArea, reqArea),
		ExternalFrag:      metrics.ExternalFragmentation(res.ExtFragTime, sys.Makespan),
		ExternalFragCount: int64(res.ExtFragInstants),
		SizeClasses:       sizes,
		WindowEnd:         window.T, WindowGenerated: window.Generated, WindowCompleted: window.Completed,
		WindowAllocated: window.Allocated, WindowDelay: window.MeanDelay, WindowThroughput: window.Throughput,
		WindowUtilization: window.Utilization, WindowPower: window.Power, WindowOffered: window.Offered,
		DeadlineJobs: deadlines, DeadlineMissed: missed, DeadlineMissRate: metrics.MissRate(missed, deadlines), Preemptions: susp, Migrations: migr, MigrationTime: res.MigrationTime,
		MeanActive:  metrics.MeanActive(residence, sys.Makespan),
		CappedShare: math.NaN(),
		Dispersion:  disp, Pieces: pieces, CommTime: commTime, PktLatency: lat, PktBlocking: block, HopFlits: hopFlits,
	}
	s.MaxHops, s.Span, s.HopBytes = comm.LocalityStats()
	s.SetPercentiles(js.Wait, js.Response, js.BSLD)
	return s
}

// firstFinished marks the first ⌊f·n⌋ of the n completed jobs by (End,
// position): pyss's warm-up exclusion (Options.WarmupFinished); nil when
// none.
func firstFinished(jobs []policy.Job, f float64) []bool {
	if f <= 0 {
		return nil
	}
	var done []int32
	for i := range jobs {
		if jobs[i].End >= 0 {
			done = append(done, int32(i))
		}
	}
	k := int(math.Floor(f * float64(len(done))))
	if k == 0 {
		return nil
	}
	slices.SortFunc(done, func(a, b int32) int {
		return cmp.Or(cmp.Compare(jobs[a].End, jobs[b].End), cmp.Compare(a, b))
	})
	early := make([]bool, len(jobs))
	for _, i := range done[:k] {
		early[i] = true
	}
	return early
}

// setColumns sets the summary's float columns named in cols (a family's
// extra columns, policy.Family.Summary) by their Parquet names; a name
// that is no float column of schema.Summary is an error.
func setColumns(s *schema.Summary, cols map[string]float64) error {
	v := reflect.ValueOf(s).Elem()
	names := make([]string, 0, len(cols))
	for name := range cols {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		i := summaryColumn(name)
		if i < 0 {
			return fmt.Errorf("machine family's summary column %q: not a float column of %s", name, schema.SummaryFile)
		}
		v.Field(i).SetFloat(cols[name])
	}
	return nil
}

// summaryColumn returns the index of schema.Summary's float64 field whose
// Parquet name is name, or −1.
func summaryColumn(name string) int {
	t := reflect.TypeOf(schema.Summary{})
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if tag == name && f.Type.Kind() == reflect.Float64 {
			return i
		}
	}
	return -1
}
