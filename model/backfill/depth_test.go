package backfill

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// starts replays src on m (count allocator, invariant checks) and returns
// the start times, by job.
func starts(t *testing.T, src []policy.Job, m policy.Machine, s policy.Scheduler) []float64 {
	t.Helper()
	jobs := slices.Clone(src)
	res, err := engine.Run(jobs, m, flat.NewCount(m.Procs), s, engine.Options{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(res.Jobs))
	for i, j := range res.Jobs {
		out[i] = j.Start
	}
	return out
}

// firstDiff describes the first job whose start differs, "" when none.
func firstDiff(src []policy.Job, a, b []float64) string {
	for i := range a {
		if a[i] != b[i] {
			return fmt.Sprintf("job %d starts at %g and %g", src[i].ID, a[i], b[i])
		}
	}
	return ""
}

// TestDepthOneIsEASY: reservation depth 1 (the conservative machinery
// holding one reservation, kept and compressed) gives EASY's schedules job
// for job, on KTH-SP2 and NASA iPSC/860 and on random workloads with ties,
// zero-length jobs and overrunning estimates; depth inf is conservative.
func TestDepthOneIsEASY(t *testing.T) {
	type load struct {
		name string
		jobs []policy.Job
		m    policy.Machine
	}
	var loads []load
	for seed := uint64(1); seed <= 20; seed++ {
		for _, exact := range []bool{true, false} {
			loads = append(loads, load{fmt.Sprintf("seed %d exact %v", seed, exact), tiedJobs(300, 16, seed, 1.1, exact), policy.Machine{Kind: policy.Flat, Procs: 16}})
		}
	}
	for _, l := range []struct {
		file  string
		procs int
	}{{"KTH-SP2-1996-2.1-cln.swf.gz", 100}, {"NASA-iPSC-1993-3.1-cln.swf.gz", 128}} {
		if testing.Short() && l.procs == 100 {
			continue
		}
		t.Run(l.file, func(t *testing.T) {
			jobs, m := logJobs(t, l.file, l.procs)
			loads = append(loads, load{l.file, jobs, m})
		})
	}
	for _, l := range loads {
		easy := starts(t, l.jobs, l.m, NewEASY())
		if d := firstDiff(l.jobs, easy, starts(t, l.jobs, l.m, newDepth(1, nil))); d != "" {
			t.Errorf("%s: easy and depth 1: %s", l.name, d)
		}
		if d := firstDiff(l.jobs, starts(t, l.jobs, l.m, NewConservative()), starts(t, l.jobs, l.m, mustSched(t, "depth:k=inf", l.m))); d != "" {
			t.Errorf("%s: conservative and depth:k=inf: %s", l.name, d)
		}
	}
}

// mustSched builds the scheduler of spec (a catalog spelling) from
// Schedulers.
func mustSched(t *testing.T, spec string, m policy.Machine) policy.Scheduler {
	t.Helper()
	name, p, err := policy.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Schedulers() {
		if s.Name == name {
			sc, err := s.New(m, p)
			if err != nil {
				t.Fatal(err)
			}
			return sc
		}
	}
	t.Fatalf("no scheduler %s", name)
	return nil
}

// TestDefaultSpellings: the explicit defaults give today's schedules.
func TestDefaultSpellings(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 16}
	for seed := uint64(1); seed <= 10; seed++ {
		jobs := tiedJobs(300, 16, seed, 1.1, false)
		easy := starts(t, jobs, m, NewEASY())
		cons := starts(t, jobs, m, NewConservative())
		for _, c := range []struct {
			spec string
			want []float64
		}{
			{"easy:order=fcfs,backfill=fcfs,predict=off", easy},
			{"depth:k=1", easy},
			{"depth", easy},
			{"conservative:order=fcfs", cons},
			{"depth:k=inf,order=fcfs", cons},
		} {
			if d := firstDiff(jobs, c.want, starts(t, jobs, m, mustSched(t, c.spec, m))); d != "" {
				t.Errorf("seed %d: %s: %s", seed, c.spec, d)
			}
		}
	}
}

// depthRef wraps the depth-k scheduler and checks, after every pass,
// against a direct computation (earliestSlot over the running jobs and the
// reservations): at most k waiting jobs hold a reservation, and they come
// first in queue order; no waiting job without one could start now
// without delaying a reservation or a running job's estimated end; with
// estimates never too short, no reservation moves later, and every job
// starts no later than its first reservation.
type depthRef struct {
	*Conservative
	t     *testing.T
	size  int
	first map[*policy.Job]float64
	last  map[*policy.Job]float64
}

func (c *depthRef) Schedule(sys policy.System) {
	c.Conservative.Schedule(sys)
	now := sys.Now()
	var busy []interval
	for _, r := range sys.Running() {
		busy = append(busy, interval{r.Start, max(r.Start+r.Estimate, now), r.Alloc.Procs()})
	}
	n := 0
	for _, w := range c.q.Jobs() {
		if w.Start >= 0 {
			continue
		}
		if c.hasRes(w) {
			if n >= c.maxRes() {
				c.t.Fatalf("k=%d t=%g: job %d holds a reservation behind %d others (%v)", c.maxRes(), now, w.ID, n, c.q.ord.name)
			}
			n++
			r := c.resOf(w)
			if old, ok := c.last[w]; ok && r > old {
				c.t.Fatalf("t=%g: job %d's reservation moved from %g to %g", now, w.ID, old, r)
			}
			if _, ok := c.first[w]; !ok {
				c.first[w] = r
			}
			c.last[w] = r
			busy = append(busy, interval{r, r + w.Estimate, w.Procs})
			continue
		}
		delete(c.last, w) // a reservation given up may be taken again later
		if n < c.maxRes() {
			c.t.Fatalf("t=%g: job %d holds no reservation with %d ahead", now, w.ID, n)
		}
	}
	for _, w := range c.q.Jobs() {
		if w.Start < 0 && !c.hasRes(w) && earliestSlot(slices.Clone(busy), c.size, w.Procs, w.Estimate, now) == now {
			c.t.Fatalf("t=%g: job %d (%d procs, estimate %g) fits now but waits", now, w.ID, w.Procs, w.Estimate)
		}
	}
}

// TestDepthDefinition checks depth k = 0, 2, 3, 8 against depthRef on
// random workloads with estimates never too short (exact, or up to 3
// times too long), in arrival order and shortest first.
func TestDepthDefinition(t *testing.T) {
	const procs = 16
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	for _, k := range []int{0, 2, 3, 8} {
		for _, ord := range []string{"fcfs", "sjf", "xf"} {
			o, err := parseOrder(policy.Params{"order": ord}, "order", "fcfs")
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 8; seed++ {
				jobs := tiedJobs(300, procs, seed, 1.1, seed%2 == 0)
				for i := range jobs {
					jobs[i].Estimate = max(jobs[i].Estimate, jobs[i].Run)
				}
				ref := &depthRef{Conservative: newDepth(k, o), t: t, size: procs, first: map[*policy.Job]float64{}, last: map[*policy.Job]float64{}}
				res, err := engine.Run(jobs, m, flat.NewCount(procs), ref, engine.Options{Check: true})
				if err != nil {
					t.Fatal(err)
				}
				if ord != "fcfs" {
					continue // reservations may be dropped when the order changes
				}
				for i := range res.Jobs {
					j := &res.Jobs[i]
					if f, ok := ref.first[j]; ok && j.Start > f {
						t.Fatalf("k=%d seed %d: job %d starts at %g after its first reservation %g", k, seed, j.ID, j.Start, f)
					}
				}
			}
		}
	}
}

// TestDepthBetween: on a loaded random workload, mean wait is finite and
// every depth gives a valid schedule (engine checks), and depth 0 starts
// every job that fits at once (no job waits while the machine has room
// for it and nothing is reserved: checked by depthRef above); here the
// schedules of k = 1 and k = inf differ from k = 2, so the parameter acts.
func TestDepthActs(t *testing.T) {
	const procs = 16
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	jobs := tiedJobs(400, procs, 3, 1.2, false)
	s0 := starts(t, jobs, m, newDepth(0, nil))
	s1 := starts(t, jobs, m, newDepth(1, nil))
	s2 := starts(t, jobs, m, newDepth(2, nil))
	sInf := starts(t, jobs, m, newDepth(infDepth, nil))
	if firstDiff(jobs, s1, s2) == "" || firstDiff(jobs, s2, sInf) == "" || firstDiff(jobs, s0, s1) == "" {
		t.Fatal("depth 0, 1, 2 and inf do not all differ")
	}
	_ = math.Inf
}

// TestDepthCandidateScan checks the scan for backfill candidates beyond
// the reservation depth, which skips blocks of the queue where no job can
// start (Conservative.candidates), against the scan of every job, job
// for job: random loaded workloads with estimates too short and too long,
// depths 0, 2 and 8, arrival and shortest-first order, the count and
// contig allocators, with and without the passes that skip compression;
// and depths 2 and 8 on the real logs of ../shared/traces up to CTC-SP2's
// size.
func TestDepthCandidateScan(t *testing.T) {
	const procs = 32
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	run := func(t *testing.T, src []policy.Job, m policy.Machine, k int, ord *order, contig, noQuick bool) string {
		var got [2][]float64
		for v := range got {
			s := newDepth(k, ord)
			s.noBlockSkip, s.noQuick = v == 1, noQuick
			jobs := slices.Clone(src)
			var al policy.Allocator = flat.NewCount(m.Procs)
			if contig {
				al = flat.NewContig(m.Procs)
			}
			res, err := engine.Run(jobs, m, al, s, engine.Options{Check: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range res.Jobs {
				got[v] = append(got[v], j.Start)
			}
		}
		return firstDiff(src, got[0], got[1])
	}
	for _, k := range []int{0, 2, 8} {
		for _, name := range []string{"fcfs", "sjf"} {
			ord, err := parseOrder(policy.Params{"order": name}, "order", "fcfs")
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 8; seed++ {
				src := tiedJobs(1500, procs, seed, 1.5+float64(seed%3), false)
				contig, noQuick := seed%2 == 0, seed%4 == 3
				if d := run(t, src, m, k, ord, contig, noQuick); d != "" {
					t.Fatalf("k=%d order=%s seed %d contig %v noQuick %v: %s (blocks skipped, then every job scanned)", k, name, seed, contig, noQuick, d)
				}
			}
		}
	}
	for _, l := range realLogs[:3] {
		t.Run(l.file, func(t *testing.T) {
			src, m := realLogJobs(t, l.file, l.procs)
			for _, k := range []int{2, 8} {
				if d := run(t, src, m, k, nil, false, false); d != "" {
					t.Fatalf("k=%d: %s (blocks skipped, then every job scanned)", k, d)
				}
			}
		})
	}
}
