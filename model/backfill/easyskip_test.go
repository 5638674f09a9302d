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

// TestEASYSkipsEqualFullPasses checks the passes EASY skips and the shadow
// times it reuses (Schedule, shadow, and correct, which keeps both across
// prediction corrections) against EASY running every pass in full
// (noSkip), job for job: random loaded workloads with predictions, users
// with few jobs, estimates too long and too short, every order and SJBF,
// the count and contig allocators; and, with predictions, the real logs
// of ../shared/traces up to CTC-SP2's size.
func TestEASYSkipsEqualFullPasses(t *testing.T) {
	const procs = 32
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	specs := []string{"easy", "easy:predict=user2", "easy:predict=user2,backfill=sjf", "easy:order=sjf,predict=user2",
		"easy:order=xf,predict=user2", "easy:order=largest,predict=user2", "easy:backfill=saf,predict=user2"}
	for _, spec := range specs {
		for seed := uint64(1); seed <= 10; seed++ {
			for _, contig := range []bool{false, true} {
				src := tiedJobs(800, procs, seed, 1.5+float64(seed%3), false)
				r := rand.New(rand.NewPCG(seed, 7))
				for i := range src {
					src[i].User = int64(r.IntN(5))
					if seed%3 == 1 {
						src[i].Estimate = src[i].Run * 4 // long estimates: many corrections
					}
				}
				label := fmt.Sprintf("%s/seed=%d/contig=%v", spec, seed, contig)
				var al [2]policy.Allocator = [2]policy.Allocator{flat.NewCount(procs), flat.NewCount(procs)}
				if contig {
					al = [2]policy.Allocator{flat.NewContig(procs), flat.NewContig(procs)}
				}
				if d := easySkipDiff(t, spec, src, m, al); d != "" {
					t.Fatalf("%s: %s (skipping, then every pass)", label, d)
				}
			}
		}
	}
	for _, l := range realLogs[:3] {
		t.Run(l.file, func(t *testing.T) {
			src, m := realLogJobs(t, l.file, l.procs)
			for _, spec := range []string{"easy:predict=user2", "easy:predict=user2,backfill=sjf"} {
				if d := easySkipDiff(t, spec, src, m, [2]policy.Allocator{flat.NewCount(m.Procs), flat.NewCount(m.Procs)}); d != "" {
					t.Fatalf("%s: %s (skipping, then every pass)", spec, d)
				}
			}
		})
	}
}

// easySkipDiff replays src under spec with skips and without (al[0],
// al[1]), and describes the first job that starts differently.
func easySkipDiff(t *testing.T, spec string, src []policy.Job, m policy.Machine, al [2]policy.Allocator) string {
	t.Helper()
	var got [2][]float64
	for k := range got {
		s := benchSched(t, spec, m).(*EASY)
		s.noSkip = k == 1
		jobs := slices.Clone(src)
		res, err := engine.Run(jobs, m, al[k], s, engine.Options{Check: true})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		for _, j := range res.Jobs {
			got[k] = append(got[k], j.Start)
		}
	}
	return firstDiff(src, got[0], got[1])
}
