package workload

import (
	"math"
	"reflect"
	"testing"
)

// The Lublin–Feitelson model on flat:128 (the published constants): serial
// fractions per type, sizes within the machine, power-of-two bias, run-time
// bound, ordered arrivals, bucket weights averaging 1, and a daily cycle.
func TestLublin(t *testing.T) {
	const n = 100000
	tr, err := GenerateLublin(LublinSpec{Procs: 128, Jobs: n, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != n || tr.Machine != "flat:128" || tr.Provenance.Generator != "lublin" {
		t.Fatalf("trace %s %s with %d jobs", tr.Machine, tr.Provenance.Generator, len(tr.Jobs))
	}
	var cnt, serial, pow2 [2]int
	hourly := make([]int, 24)
	for i, j := range tr.Jobs {
		if i > 0 && j.Submit < tr.Jobs[i-1].Submit {
			t.Fatalf("job %d submitted before job %d", j.ID, j.ID-1)
		}
		if j.ReqProcs < 1 || j.ReqProcs > 128 || j.AllocProcs != j.ReqProcs {
			t.Fatalf("job %d: size %d", j.ID, j.ReqProcs)
		}
		if j.Run < 0 || j.Run > math.Exp(12) || j.Run != math.Trunc(j.Run) || j.Submit != math.Trunc(j.Submit) {
			t.Fatalf("job %d: run %v submit %v", j.ID, j.Run, j.Submit)
		}
		if j.Queue != 0 && j.Queue != 1 {
			t.Fatalf("job %d: queue %d", j.ID, j.Queue)
		}
		q := j.Queue
		cnt[q]++
		if j.ReqProcs == 1 {
			serial[q]++
		} else if j.ReqProcs&(j.ReqProcs-1) == 0 {
			pow2[q]++
		}
		hourly[int(math.Mod(j.Submit, 86400)/3600)]++
	}
	// serial_prob of each type
	for q, p := range map[int]float64{1: 0.2927, 0: 0.1541} {
		if !within4σ(serial[q], cnt[q], p) {
			t.Errorf("type %d: serial fraction %v, want %v", q, float64(serial[q])/float64(cnt[q]), p)
		}
		// at least the rounded fraction pow2_prob is a power of two (>1)
		pp := map[int]float64{1: 0.6686, 0: 0.625}[q]
		if float64(pow2[q])/float64(cnt[q]) < pp-0.01 {
			t.Errorf("type %d: power-of-two fraction %v < %v", q, float64(pow2[q])/float64(cnt[q]), pp)
		}
	}
	if cnt[0] == 0 || cnt[1] == 0 {
		t.Fatal("one job type is missing")
	}
	// daily cycle: the busiest hour has clearly more arrivals than the quietest
	lo, hi := hourly[0], hourly[0]
	for _, h := range hourly {
		lo, hi = min(lo, h), max(hi, h)
	}
	if hi < 2*lo {
		t.Errorf("no daily cycle: hourly arrivals %v", hourly)
	}
	s := newLublinStream(lublinBatch, newStream(1, 1))
	var sum float64
	for _, w := range s.weights {
		sum += w
	}
	if math.Abs(sum/lfBuckets-1) > 1e-12 {
		t.Errorf("bucket weights average %v, want 1", sum/lfBuckets)
	}
	again, _ := GenerateLublin(LublinSpec{Procs: 128, Jobs: n, Seed: 1})
	if !reflect.DeepEqual(tr, again) {
		t.Error("same seed, different traces")
	}
}

// Scaling: on flat:1024 the largest batch jobs reach 1024 processors and
// never exceed it.
func TestLublinScaling(t *testing.T) {
	tr, err := GenerateLublin(LublinSpec{Procs: 1024, Jobs: 50000, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var big int
	for _, j := range tr.Jobs {
		if j.ReqProcs > 1024 {
			t.Fatalf("size %d > 1024", j.ReqProcs)
		}
		if j.ReqProcs > 128 {
			big++
		}
	}
	if big == 0 {
		t.Error("no job larger than 128 on a 1024-processor machine")
	}
}
