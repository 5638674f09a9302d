// Package familytest holds the checks the machine families' tests share.
package familytest

import (
	"math"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/internal/benchload"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/sched"
)

// CheckAll replays a LANL-like workload on m under every default
// (allocator, scheduler) pair of the catalog with the engine's invariant
// checker, and returns the mean over jobs of the mean hop distance of
// their placements, by allocator.
func CheckAll(t testing.TB, spec string, n int) map[string]float64 {
	t.Helper()
	m, err := policy.ParseMachine(spec)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := policy.FamilyOf(m.Kind)
	pairs, err := catalog.Pairs(m, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := benchload.LANLLike(n, 0.9, 1)
	for i := range src {
		src[i].Procs = max(1, min(m.Procs, src[i].Procs*m.Procs/1024))
	}
	sum, cnt := map[string]float64{}, map[string]float64{}
	scheds := map[string]bool{}
	for _, p := range pairs {
		a, err := p.NewAllocator(m)
		if err != nil {
			t.Fatal(err)
		}
		s, err := p.NewScheduler(m)
		if err != nil {
			t.Fatal(err)
		}
		res, err := engine.Run(slices.Clone(src), m, a, s, engine.Options{Check: true, Placement: true})
		if err != nil {
			t.Fatalf("%s %s/%s: %v", spec, p.Alloc, p.Sched, err)
		}
		scheds[p.Sched] = true
		for i, j := range res.Jobs {
			ps := res.Placement(i)
			if j.End < 0 || len(ps) == 0 {
				t.Fatalf("%s/%s: job %d did not run or has no placement", p.Alloc, p.Sched, j.ID)
			}
			for _, pc := range ps {
				if !f.Valid(m, pc) {
					t.Fatalf("%s/%s: job %d: invalid piece %+v", p.Alloc, p.Sched, j.ID, pc)
				}
			}
			l := f.Locality(m, ps)
			if l.Span < 1 || j.Procs > 1 && (math.IsNaN(l.MeanHops) || l.MeanHops < 0) {
				t.Fatalf("%s/%s: job %d: locality %+v", p.Alloc, p.Sched, j.ID, l)
			}
			if j.Procs > 1 {
				sum[p.Alloc] += l.MeanHops
				cnt[p.Alloc]++
			}
		}
	}
	if len(scheds) < 10 {
		t.Errorf("%s: only %d schedulers ran: %v", spec, len(scheds), scheds)
	}
	for k := range sum {
		sum[k] /= cnt[k]
	}
	return sum
}

// BenchFCFS replays 100,000 LANL-like jobs (sizes scaled ×4) under FCFS
// on machine spec with each of allocs, reporting jobs/s of the engine and
// allocator alone.
func BenchFCFS(b *testing.B, spec string, allocs []policy.AllocatorSpec) {
	m, err := policy.ParseMachine(spec)
	if err != nil {
		b.Fatal(err)
	}
	src := benchload.LANLLike(100000, 0.9, 1)
	for i := range src {
		src[i].Procs = min(m.Procs, src[i].Procs*4)
	}
	for _, s := range allocs {
		b.Run(s.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				a, err := s.New(m, policy.Params{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := engine.Run(slices.Clone(src), m, a, sched.NewFCFS(), engine.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
