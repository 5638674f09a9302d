package backfill

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// TestXFQueueEqualsResort checks EASY's grouped queue (xfQueue: groups
// by key, or by estimate for xf, merged at each pass: easyxf.go) against
// EASY on the sorted queue of order.go (re-sorted at every pass for xf),
// job for job, for every order of groupedOrders, on random
// loaded workloads: estimates exact, too long or too short, fractional
// ones, predictions, job IDs against arrival order, and the contig
// allocator (whose placements can fail where counts fit).
func TestXFQueueEqualsResort(t *testing.T) {
	const procs = 32
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	for name := range groupedOrders {
		ord, err := parseOrder(policy.Params{"order": name}, "order", "fcfs")
		if err != nil {
			t.Fatal(err)
		}
		testGroupedQueue(t, m, ord)
	}
}

func testGroupedQueue(t *testing.T, m policy.Machine, ord *order) {
	procs := m.Procs
	for seed := uint64(1); seed <= 12; seed++ {
		for _, load := range []float64{1.1, 2.5} {
			for _, predict := range []string{predictOff, predictUser2} {
				for _, contig := range []bool{false, true} {
					name := fmt.Sprintf(ord.name+"/seed=%d/load=%g/predict=%s/contig=%v", seed, load, predict, contig)
					src := tiedJobs(600, procs, seed, load, seed%3 == 0)
					r := rand.New(rand.NewPCG(seed, 5))
					for i := range src {
						src[i].User = int64(r.IntN(6))
						if seed%2 == 0 {
							src[i].ID = int64(len(src) - i) // IDs against arrival order
						}
						if seed%4 == 1 && r.IntN(3) == 0 {
							src[i].Estimate *= 1.37 // fractional estimates
						}
					}
					var got [2][]float64
					for k := range got {
						s := newEASY(ord, nil, predict)
						if s.xf == nil {
							t.Fatalf("EASY on order %s does not use the grouped queue", ord.name)
						}
						if k == 1 {
							s.xf = nil // the sorted queue
						}
						jobs := slices.Clone(src)
						var al policy.Allocator = flat.NewCount(procs)
						if contig {
							al = flat.NewContig(procs)
						}
						res, err := engine.Run(jobs, m, al, s, engine.Options{Check: true})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for _, j := range res.Jobs {
							got[k] = append(got[k], j.Start)
						}
					}
					if d := firstDiff(src, got[0], got[1]); d != "" {
						t.Fatalf("%s: %s (grouped queue, then sorted queue)", name, d)
					}
				}
			}
		}
	}
}

// TestGroupedBackfillEqualsSorted checks SJBF (and the other backfill
// orders kept grouped) with the candidates in a grouped queue against the
// sorted backfill queue, job for job, as TestXFQueueEqualsResort.
func TestGroupedBackfillEqualsSorted(t *testing.T) {
	const procs = 32
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	for _, q := range []string{"fcfs", "saf"} {
		for name := range groupedOrders {
			ord, err1 := parseOrder(policy.Params{"order": q}, "order", "fcfs")
			bf, err2 := parseOrder(policy.Params{"order": name}, "order", "fcfs")
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			for seed := uint64(1); seed <= 6; seed++ {
				for _, predict := range []string{predictOff, predictUser2} {
					label := fmt.Sprintf("order=%s,backfill=%s/seed=%d/predict=%s", q, name, seed, predict)
					src := tiedJobs(600, procs, seed, 2, seed%3 == 0)
					r := rand.New(rand.NewPCG(seed, 5))
					for i := range src {
						src[i].User = int64(r.IntN(6))
						if seed%2 == 0 {
							src[i].ID = int64(len(src) - i)
						}
					}
					var got [2][]float64
					for k := range got {
						s := newEASY(ord, bf, predict)
						if s.bfx == nil {
							t.Fatalf("%s: no grouped backfill queue", label)
						}
						if k == 1 {
							s.bfx = nil
							s.bf = &queue{ord: bf, est: s.est.of, sum: &s.sum}
						}
						jobs := slices.Clone(src)
						res, err := engine.Run(jobs, m, flat.NewContig(procs), s, engine.Options{Check: true})
						if err != nil {
							t.Fatalf("%s: %v", label, err)
						}
						for _, j := range res.Jobs {
							got[k] = append(got[k], j.Start)
						}
					}
					if d := firstDiff(src, got[0], got[1]); d != "" {
						t.Fatalf("%s: %s (grouped, then sorted backfill queue)", label, d)
					}
				}
			}
		}
	}
}
