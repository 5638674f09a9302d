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

// TestXFQueueEqualsResort checks EASY's xf queue (groups by estimate,
// merged at each pass: easyxf.go) against EASY on the xf order re-sorted
// at every pass (the sorted queue of order.go), job for job, on random
// loaded workloads: estimates exact, too long or too short, fractional
// ones, predictions, job IDs against arrival order, and the contig
// allocator (whose placements can fail where counts fit).
func TestXFQueueEqualsResort(t *testing.T) {
	const procs = 32
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	xf, err := parseOrder(policy.Params{"order": "xf"}, "order", "fcfs")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 12; seed++ {
		for _, load := range []float64{1.1, 2.5} {
			for _, predict := range []string{predictOff, predictUser2} {
				for _, contig := range []bool{false, true} {
					name := fmt.Sprintf("seed=%d/load=%g/predict=%s/contig=%v", seed, load, predict, contig)
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
						s := newEASY(xf, nil, predict)
						if s.xf == nil {
							t.Fatal("EASY on the xf order does not use the xf queue")
						}
						if k == 1 {
							s.xf = nil // the re-sorted queue
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
						t.Fatalf("%s: %s (xf queue, then re-sorted queue)", name, d)
					}
				}
			}
		}
	}
}
