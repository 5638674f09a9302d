package backfill

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/internal/long"
	"github.com/schedlab/schedlab/model/policy"
)

// steps returns p's breakpoints and the free count from each on, in time
// order.
func (p *profile) steps() []sliceStep {
	out := make([]sliceStep, len(p.t))
	for i := range p.t {
		out[i] = sliceStep{p.t[i], int(p.f[i])}
	}
	return out
}

// TestProfileOperations drives the indexed profile and the sorted array of
// steps it replaced (sliceProfile) with the same random operations, on
// integer times (so that breakpoints coincide often) with zero and tiny
// lengths, and requires the same steps after each and the same answers to
// earliest; earliestBefore and holds are checked against their
// definitions on the array.
func TestProfileOperations(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		var p, c profile
		c.compact = true
		var q sliceProfile
		now := float64(r.IntN(10))
		size := 1 + r.IntN(64)
		p.reset(now, size)
		c.reset(now, size)
		q.reset(now, size)
		var held []struct {
			t, d float64
			k    int
		}
		dur := func() float64 {
			switch r.IntN(8) {
			case 0:
				return 0
			case 1:
				return 1e-300
			}
			return float64(r.IntN(30))
		}
		for op := 0; op < 300; op++ {
			switch x := r.IntN(10); {
			case x == 0:
				tt, k := now+float64(r.IntN(40)), 1+r.IntN(8)
				p.release(tt, k)
				c.release(tt, k)
				q.release(tt, k)
			case x <= 3:
				tt, d, k := now+float64(r.IntN(50)), dur(), 1+r.IntN(size)
				p.reserve(tt, d, k)
				c.reserve(tt, d, k)
				q.reserve(tt, d, k)
				held = append(held, struct {
					t, d float64
					k    int
				}{tt, d, k})
			case x <= 5 && len(held) > 0:
				i := r.IntN(len(held))
				h := held[i]
				held = slices.Delete(held, i, i+1)
				p.reserve(h.t, h.d, -h.k)
				c.reserve(h.t, h.d, -h.k)
				q.reserve(h.t, h.d, -h.k)
			case x == 6:
				now += float64(r.IntN(4))
				p.advance(now)
				c.advance(now)
				q.advance(now)
				held = slices.DeleteFunc(held, func(h struct {
					t, d float64
					k    int
				}) bool {
					return h.t < now
				})
			default:
				k, d := r.IntN(size+2), dur()
				from := now + float64(r.IntN(20))
				if r.IntN(4) == 0 {
					from = math.Nextafter(from, math.Inf(1))
				}
				if got, want := p.earliest(k, d, from), q.earliest(k, d, from); got != want {
					t.Fatalf("seed %d op %d: earliest(%d, %g, %g) = %g, want %g; steps %v", seed, op, k, d, from, got, want, q.seg)
				}
				limit := now + float64(r.IntN(60))
				got, ok := p.earliestBefore(k, d, from, limit)
				want, wok := earliestBeforeRef(q.seg, k, d, from, limit)
				if got != want || ok != wok {
					t.Fatalf("seed %d op %d: earliestBefore(%d, %g, %g, %g) = %g %v, want %g %v; steps %v", seed, op, k, d, from, limit, got, ok, want, wok, q.seg)
				}
				end := resEnd(limit, d)
				if got, want := p.holds(limit, end, k), holdsRef(q.seg, limit, end, k); got != want {
					t.Fatalf("seed %d op %d: holds(%g, %g, %d) = %v, want %v; steps %v", seed, op, limit, end, k, got, want, q.seg)
				}
				if got, want := c.holds(limit, end, k), holdsRef(q.seg, limit, end, k); got != want {
					t.Fatalf("seed %d op %d: compact holds(%g, %g, %d) = %v, want %v; steps %v", seed, op, limit, end, k, got, want, q.seg)
				}
				// From the first breakpoint, the compact profile answers
				// the same.
				if got, want := c.earliest(k, d, now), q.earliest(k, d, now); got != want {
					t.Fatalf("seed %d op %d: compact earliest(%d, %g, %g) = %g, want %g; steps %v", seed, op, k, d, now, got, want, q.seg)
				}
				got, ok = c.earliestBefore(k, d, now, limit)
				want, wok = earliestBeforeRef(q.seg, k, d, now, limit)
				if got != want || ok != wok {
					t.Fatalf("seed %d op %d: compact earliestBefore(%d, %g, %g, %g) = %g %v, want %g %v; steps %v", seed, op, k, d, now, limit, got, ok, want, wok, q.seg)
				}
			}
			if got := p.steps(); !slices.Equal(got, q.seg) {
				t.Fatalf("seed %d op %d: steps %v, want %v", seed, op, got, q.seg)
			}
			if !sameSteps(&c, &p) {
				t.Fatalf("seed %d op %d: compact steps %v, want %v", seed, op, c.steps(), q.seg)
			}
			if len(c.steps()) > len(c.collapsed()) {
				t.Fatalf("seed %d op %d: compact profile keeps breakpoints with no change: %v", seed, op, c.steps())
			}
		}
	}
}

// earliestBeforeRef is earliestBefore by definition on steps: the first
// breakpoint t in [from, limit) whose segments before min(t+d, limit) all
// have k free (the first alone when d = 0).
func earliestBeforeRef(seg []sliceStep, k int, d, from, limit float64) (float64, bool) {
	for i, s := range seg {
		if s.t < from || s.t >= limit {
			continue
		}
		ok := s.free >= k
		for m := i + 1; ok && m < len(seg) && seg[m].t < s.t+d && seg[m].t < limit; m++ {
			ok = seg[m].free >= k
		}
		if ok {
			return s.t, true
		}
	}
	return limit, false
}

// holdsRef is holds by definition on steps: every segment that meets
// [t, end) has k free (t at or after the first breakpoint).
func holdsRef(seg []sliceStep, t, end float64, k int) bool {
	for i, s := range seg {
		last := i+1 == len(seg) || seg[i+1].t > t // the segment holding t
		if (s.t > t || last && s.t <= t) && s.t < end && s.free < k {
			return false
		}
	}
	return true
}

// scheduler is conservative backfilling with the indexed profile or with
// the one it replaced.
type scheduler struct {
	name string
	new  func(noQuick bool) policy.Scheduler
}

var profiles = []scheduler{
	{"old", func(nq bool) policy.Scheduler { return &oldConservative{noQuick: nq} }},
	{"new", func(nq bool) policy.Scheduler { return &Conservative{noQuick: nq, verify: true} }},
}

// profileDiffers replays jobs on m (allocator from newAlloc) under
// conservative backfilling with the old and the new profile, with and
// without quick passes, and describes the first job whose start or end
// differs ("" if none).
func profileDiffers(t *testing.T, jobs []policy.Job, m policy.Machine, newAlloc func() policy.Allocator) string {
	t.Helper()
	for _, nq := range []bool{false, true} {
		var res [2]*engine.Result
		for k, s := range profiles {
			var err error
			res[k], err = engine.Run(slices.Clone(jobs), m, newAlloc(), s.new(nq), engine.Options{Check: true})
			if err != nil {
				t.Fatalf("%s profile: %v", s.name, err)
			}
		}
		for i := range res[0].Jobs {
			a, b := &res[0].Jobs[i], &res[1].Jobs[i]
			if a.Start != b.Start || a.End != b.End {
				return fmt.Sprintf("noQuick %v: job %d runs %g..%g with the old profile, %g..%g with the new", nq, a.ID, a.Start, a.End, b.Start, b.End)
			}
		}
	}
	return ""
}

// TestConservativeProfileEquality replays workloads under conservative
// backfilling with the indexed profile and with the array of steps it
// replaced, and requires every job to start (and end) at the same time:
// random workloads with ties, zero run times, zero estimates and overruns
// (tiedJobs, zeroOverrunJobs), on the count and contig allocators (contig
// refuses placements, which defers reservations), and the KTH SP2 and NASA
// iPSC/860 logs (skipped when ../shared/traces is absent) and the
// 120,000-job Lublin trace with overestimates at load 0.81 of
// BenchmarkRealLog (not with -short).
func TestConservativeProfileEquality(t *testing.T) {
	allocs := map[string]func(int) policy.Allocator{
		"count":  func(n int) policy.Allocator { return flat.NewCount(n) },
		"contig": func(n int) policy.Allocator { return flat.NewContig(n) },
	}
	for _, an := range []string{"count", "contig"} {
		alloc := allocs[an]
		for seed := uint64(1); seed <= 40; seed++ {
			for _, procs := range []int{8, 64} {
				for _, exact := range []bool{true, false} {
					m := policy.Machine{Kind: policy.Flat, Procs: procs}
					jobs := tiedJobs(600, procs, seed, 1.1, exact)
					if msg := profileDiffers(t, jobs, m, func() policy.Allocator { return alloc(procs) }); msg != "" {
						t.Fatalf("tiedJobs seed %d procs %d exact %v %s: %s", seed, procs, exact, an, msg)
					}
				}
			}
			m := policy.Machine{Kind: policy.Flat, Procs: 8}
			if msg := profileDiffers(t, zeroOverrunJobs(200, 8, seed), m, func() policy.Allocator { return alloc(8) }); msg != "" {
				t.Fatalf("zeroOverrunJobs seed %d %s: %s", seed, an, msg)
			}
			if seed <= 8 {
				for _, procs := range []int{8, 64} {
					m := policy.Machine{Kind: policy.Flat, Procs: procs}
					if msg := profileDiffers(t, arrayJobs(400, procs, seed), m, func() policy.Allocator { return alloc(procs) }); msg != "" {
						t.Fatalf("arrayJobs seed %d procs %d %s: %s", seed, procs, an, msg)
					}
				}
			}
		}
	}
	t.Run("lublin", func(t *testing.T) {
		if testing.Short() || !long.Enabled() {
			t.Skip("long (20 s): set " + long.Env + "=1")
		}
		jobs, m := lublinJobs(t, 0.7)
		if msg := profileDiffers(t, jobs, m, func() policy.Allocator { return flat.NewCount(m.Procs) }); msg != "" {
			t.Fatal(msg)
		}
	})
	for _, l := range []struct {
		file  string
		procs int
	}{{"KTH-SP2-1996-2.1-cln.swf.gz", 100}, {"NASA-iPSC-1993-3.1-cln.swf.gz", 128}} {
		t.Run(l.file, func(t *testing.T) {
			jobs, m := logJobs(t, l.file, l.procs)
			for _, an := range []string{"count", "contig"} {
				if msg := profileDiffers(t, jobs, m, func() policy.Allocator { return allocs[an](l.procs) }); msg != "" {
					t.Fatalf("%s: %s", an, msg)
				}
			}
		})
	}
}

// TestEarliestWithout checks earliestWithout against giving the
// reservation (of the size searched) up and searching, on random profiles
// with reservations of random lengths (zero and tiny ones included),
// compact or not.
func TestEarliestWithout(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 9))
		var p profile
		p.compact = seed%2 == 0
		size := 1 + r.IntN(32)
		p.reset(0, size)
		type res struct {
			t, d float64
			k    int
		}
		var held []res
		for range 30 {
			d := float64(r.IntN(20))
			switch r.IntN(6) {
			case 0:
				d = 0
			case 1:
				d = 1e-300
			}
			h := res{float64(r.IntN(40)), d, 1 + r.IntN(size)}
			p.reserve(h.t, h.d, h.k)
			held = append(held, h)
		}
		for range 20 {
			h := held[r.IntN(len(held))]
			k, d, from := h.k, float64(r.IntN(15)), float64(r.IntN(int(h.t)+1))
			got, ok := p.earliestWithout(k, d, from, h.t, h.t, resEnd(h.t, h.d))
			q := profile{compact: p.compact}
			q.t, q.f = slices.Clone(p.t), slices.Clone(p.f)
			q.reserve(h.t, h.d, -h.k)
			want, wok := q.earliestStarting(k, d, from, h.t, math.Inf(1))
			if !wok {
				want = math.Inf(1)
			}
			if got != want || ok != wok {
				t.Fatalf("seed %d: without %v, earliest(%d, %g, from %g) = %g %v, want %g %v; steps %v %v", seed, h, k, d, from, got, ok, want, wok, p.t, p.f)
			}
		}
	}
}

// arrayJobs is tiedJobs at a higher load in runs of like jobs (job arrays:
// the request and estimate of the job before, or a little more), some
// running longer than their estimates: the searches that start where the
// job before found no slot (Conservative.Schedule's memo, baseEarliest).
func arrayJobs(n, procs int, seed uint64) []policy.Job {
	jobs := tiedJobs(n, procs, seed, 1.4, false)
	r := rand.New(rand.NewPCG(seed, 29))
	for i := 1; i < len(jobs); i++ {
		j, prev := &jobs[i], &jobs[i-1]
		switch r.IntN(6) {
		case 0, 1, 2:
			j.Procs, j.Estimate = prev.Procs, prev.Estimate
		case 3:
			j.Procs, j.Estimate = min(procs, prev.Procs+r.IntN(2)), prev.Estimate+float64(r.IntN(3))
		}
		if r.IntN(8) == 0 {
			j.Run = j.Estimate*1.5 + 1 // outruns its estimate
		}
	}
	return jobs
}
