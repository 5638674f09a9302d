package backfill

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// tiedJobs is a random workload on flat:procs with integer times (so that
// arrivals, completions and estimated ends coincide often), some zero run
// times, and estimates equal to the run times when exact, else 0.5–3 times.
func tiedJobs(n, procs int, seed uint64, load float64, exact bool) []policy.Job {
	r := rand.New(rand.NewPCG(seed, 11))
	jobs := make([]policy.Job, n)
	meanProcs := float64(procs+1) / 2
	iat := meanProcs * 20 / (float64(procs) * load)
	t := 0.0
	for i := range jobs {
		t += math.Floor(r.ExpFloat64() * iat)
		run := math.Round(r.ExpFloat64() * 20)
		if r.IntN(20) == 0 {
			run = 0
		}
		est := run
		if !exact {
			est = math.Round(run * (0.5 + 2.5*r.Float64()))
		}
		p := 1 + r.IntN(procs)
		if r.IntN(3) == 0 {
			p = 1 << r.IntN(5)
			p = min(p, procs)
		}
		jobs[i] = policy.Job{Index: int32(i), ID: int64(i + 1), Submit: t, Run: run, Estimate: est, Procs: p, User: -1}
	}
	return jobs
}

// interval is [s, e) on k processors; a zero-length one holds them at the
// instant s.
type interval struct {
	s, e float64
	k    int
}

// earliestSlot is a direct reference: the earliest t ≥ now, among now and
// the ends of the intervals, such that k more processors fit within size
// throughout [t, t+d) (at t when d = 0). A zero-length interval [s, s)
// holds its processors at the instant s and ends at the next float.
func earliestSlot(busy []interval, size, k int, d, now float64) float64 {
	for i, b := range busy {
		if b.e <= b.s {
			busy[i].e = math.Nextafter(b.s, math.Inf(1))
		}
	}
	use := func(x float64) int {
		u := 0
		for _, b := range busy {
			if b.s <= x && x < b.e {
				u += b.k
			}
		}
		return u
	}
	cands := []float64{now}
	for _, b := range busy {
		if b.e > now {
			cands = append(cands, b.e)
		}
	}
	slices.Sort(cands)
	for _, t := range cands {
		ok := use(t)+k <= size
		for _, b := range busy {
			if ok && b.s > t && b.s < t+d && use(b.s)+k > size {
				ok = false
			}
		}
		if ok {
			return t
		}
	}
	return math.Inf(1)
}

// consRef wraps Conservative and checks its reservations (resOf) after
// every pass against the definition (Mu'alem & Feitelson 2001 §2): an
// arriving job's reservation is the earliest slot that conflicts neither
// with the running jobs (until their estimated ends; a job past its
// estimate counts as ending now) nor with the reservations held by the jobs
// ahead of it (computed here independently); and, with estimates never too
// short, a reservation never moves later. With overruns (jobs may run past
// their estimates) a reservation may move later, but only to the earliest
// slot left by the running jobs and the reservations of the jobs ahead of
// it: queue order decides, and a job behind never delays it.
type consRef struct {
	*Conservative
	t        *testing.T
	size     int
	overruns bool
	pending  []*policy.Job
	queue    []*policy.Job // waiting, in arrival order
	first    map[*policy.Job]float64
	last     map[*policy.Job]float64
}

func (c *consRef) Submit(j *policy.Job) {
	c.Conservative.Submit(j)
	c.pending = append(c.pending, j)
}

func (c *consRef) Schedule(sys policy.System) {
	c.Conservative.Schedule(sys)
	now := sys.Now()
	c.queue = slices.DeleteFunc(c.queue, func(j *policy.Job) bool { return j.Start >= 0 })
	for k, w := range c.queue {
		r := c.resOf(w)
		if r > c.last[w] {
			if !c.overruns {
				c.t.Errorf("t=%g: job %d's reservation moved from %g to %g", now, w.ID, c.last[w], r)
			} else if want := earliestSlot(c.busy(sys, c.queue[:k]), c.size, w.Procs, w.Estimate, now); r != want {
				c.t.Errorf("t=%g: job %d (%d procs, estimate %g) moved from %g to %g, want the earliest slot behind the jobs ahead, %g",
					now, w.ID, w.Procs, w.Estimate, c.last[w], r, want)
			}
		}
		c.last[w] = r
	}
	for _, j := range c.pending {
		if j.Start >= 0 {
			c.first[j], c.last[j] = now, now
			continue
		}
		want := earliestSlot(c.busy(sys, c.queue), c.size, j.Procs, j.Estimate, now)
		if got := c.resOf(j); got != want {
			c.t.Errorf("t=%g: job %d (%d procs, estimate %g) reserved at %g, want %g", now, j.ID, j.Procs, j.Estimate, got, want)
		}
		c.first[j], c.last[j] = want, want
		c.queue = append(c.queue, j)
	}
	c.pending = c.pending[:0]
}

// busy is what a waiting job must fit around: the running jobs until their
// estimated ends, and the reservations of the waiting jobs ahead.
func (c *consRef) busy(sys policy.System, ahead []*policy.Job) []interval {
	var busy []interval
	for _, r := range sys.Running() {
		busy = append(busy, interval{r.Start, r.Start + r.Estimate, r.Alloc.Procs()})
	}
	for _, w := range ahead {
		busy = append(busy, interval{c.resOf(w), c.resOf(w) + w.Estimate, w.Procs})
	}
	return busy
}

// TestConservativeKeepsReservations checks conservative backfilling
// against its definition on random workloads with many ties and zero-length
// jobs, on the count allocator, with exact estimates and with estimates
// 1–3 times too long (so compression happens, but no job outruns): every
// arriving job gets the earliest slot behind the reservations held; no
// reservation ever moves later; every job starts at its last reservation,
// and so no later than the one it got on arrival.
func TestConservativeKeepsReservations(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		for _, exact := range []bool{true, false} {
			for _, load := range []float64{0.7, 1.1} {
				const procs = 16
				jobs := tiedJobs(300, procs, seed, load, exact)
				if !exact {
					for i := range jobs {
						jobs[i].Estimate = max(jobs[i].Estimate, jobs[i].Run)
					}
				}
				ref := &consRef{Conservative: NewConservative(), t: t, size: procs,
					first: map[*policy.Job]float64{}, last: map[*policy.Job]float64{}}
				m := policy.Machine{Kind: policy.Flat, Procs: procs}
				res, err := engine.Run(jobs, m, flat.NewCount(procs), ref, engine.Options{Check: true})
				if err != nil {
					t.Fatal(err)
				}
				for i := range res.Jobs {
					j := &res.Jobs[i]
					if j.Start > ref.first[j] || j.Start > ref.last[j] {
						t.Fatalf("seed %d exact %v load %g: job %d (submit %g, %d procs, run %g) starts at %g, reserved at %g on arrival, last at %g",
							seed, exact, load, j.ID, j.Submit, j.Procs, j.Run, j.Start, ref.first[j], ref.last[j])
					}
				}
				if t.Failed() {
					t.Fatalf("seed %d exact %v load %g", seed, exact, load)
				}
			}
		}
	}
}

// easyRef wraps EASY and records, for every job, the earliest shadow time
// computed (independently) while it was the head of the queue.
type easyRef struct {
	*EASY
	size   int
	queue  []*policy.Job
	shadow map[*policy.Job]float64
}

func (e *easyRef) Submit(j *policy.Job) {
	e.EASY.Submit(j)
	e.queue = append(e.queue, j)
}

func (e *easyRef) Schedule(sys policy.System) {
	e.EASY.Schedule(sys)
	e.queue = slices.DeleteFunc(e.queue, func(j *policy.Job) bool { return j.Start >= 0 })
	if len(e.queue) == 0 {
		return
	}
	head := e.queue[0]
	run := slices.Clone(sys.Running())
	slices.SortFunc(run, func(a, b *policy.Job) int {
		return cmpF(a.Start+a.Estimate, b.Start+b.Estimate)
	})
	avail := sys.Capacity().Free()
	sh := math.Inf(1)
	for _, r := range run {
		avail += r.Alloc.Procs()
		if avail >= head.Procs {
			sh = max(r.Start+r.Estimate, sys.Now())
			break
		}
	}
	if old, ok := e.shadow[head]; !ok || sh < old {
		e.shadow[head] = sh
	}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestEASYHeadNeverDelayed: with estimates never too short (exact for even
// seeds, up to 3 times too long for odd ones) on the count allocator, the
// job at the head of the queue starts no later than any shadow time
// computed for it: backfilled jobs never delay the head's reservation.
func TestEASYHeadNeverDelayed(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		for _, load := range []float64{0.7, 1.1} {
			const procs = 16
			jobs := tiedJobs(300, procs, seed, load, seed%2 == 0)
			for i := range jobs {
				jobs[i].Estimate = max(jobs[i].Estimate, jobs[i].Run)
			}
			ref := &easyRef{EASY: NewEASY(), size: procs, shadow: map[*policy.Job]float64{}}
			m := policy.Machine{Kind: policy.Flat, Procs: procs}
			res, err := engine.Run(jobs, m, flat.NewCount(procs), ref, engine.Options{Check: true})
			if err != nil {
				t.Fatal(err)
			}
			for i := range res.Jobs {
				j := &res.Jobs[i]
				if sh, ok := ref.shadow[j]; ok && j.Start > sh {
					t.Fatalf("seed %d load %g: job %d starts at %g after its shadow time %g", seed, load, j.ID, j.Start, sh)
				}
			}
		}
	}
}

// TestConservativeQuickPass: the passes that skip compression (nothing
// freed room since a pass that moved no job) give exactly the schedule of
// compressing at every pass, on random workloads with ties, zero-length
// jobs, estimates too long and too short, on both allocators.
func TestConservativeQuickPass(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		for _, exact := range []bool{true, false} {
			for _, alloc := range []string{"count", "contig"} {
				const procs = 16
				jobs := tiedJobs(400, procs, seed, 1.0, exact)
				newAlloc := func() policy.Allocator { return flat.NewCount(procs) }
				if alloc == "contig" {
					newAlloc = func() policy.Allocator { return flat.NewContig(procs) }
				}
				if msg := quickDiffers(t, jobs, procs, newAlloc); msg != "" {
					t.Fatalf("seed %d exact %v %s: %s", seed, exact, alloc, msg)
				}
			}
		}
	}
}

// quickDiffers replays jobs on flat:procs (allocator from newAlloc) under
// conservative backfilling with quick passes and with compression at every
// pass, and describes the first job that starts at different times ("" if
// none).
func quickDiffers(t *testing.T, jobs []policy.Job, procs int, newAlloc func() policy.Allocator) string {
	t.Helper()
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	var starts [2][]float64
	for k, s := range []*Conservative{NewConservative(), {noQuick: true}} {
		res, err := engine.Run(slices.Clone(jobs), m, newAlloc(), s, engine.Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range res.Jobs {
			starts[k] = append(starts[k], j.Start)
		}
	}
	for i := range starts[0] {
		if starts[0][i] != starts[1][i] {
			return fmt.Sprintf("job %d starts at %g with quick passes, %g without", jobs[i].ID, starts[0][i], starts[1][i])
		}
	}
	return ""
}

// logJobs reads a real log from ../../../shared/traces as jobs for
// flat:procs with the requested times as estimates; the test is skipped
// when the log is absent.
func logJobs(t *testing.T, file string, procs int) ([]policy.Job, policy.Machine) {
	t.Helper()
	path := "../../../shared/traces/" + file
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not available", file)
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	jobs, _ := admit.Jobs(tr, m, admit.EstimatesRequested)
	return jobs, m
}

// TestConservativeNASA checks conservative backfilling against its
// definition (consRef) on the NASA iPSC/860 log on flat:128: the log has no
// requested times, so estimates are exact, and it has 173 zero-length jobs.
// No job starts after the reservation it got on arrival.
func TestConservativeNASA(t *testing.T) {
	jobs, m := logJobs(t, "NASA-iPSC-1993-3.1-cln.swf.gz", 128)
	ref := &consRef{Conservative: NewConservative(), t: t, size: 128,
		first: map[*policy.Job]float64{}, last: map[*policy.Job]float64{}}
	res, err := engine.Run(jobs, m, flat.NewCount(128), ref, engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Jobs {
		if j := &res.Jobs[i]; j.Start > ref.first[j] {
			t.Fatalf("job %d starts at %g, reserved at %g on arrival", j.ID, j.Start, ref.first[j])
		}
	}
}
