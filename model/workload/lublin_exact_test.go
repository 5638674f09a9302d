package workload

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

// tailNodes is P(nodes > m) of one job type on the published constants:
// serial jobs never; parallel jobs have log2 size par two-stage uniform,
// rounded (power of two) w.p. pow2_prob, so nodes > m iff par ≥ L + 0.5
// (rounded, L = log2 m) or 2^par ≥ m + 0.5 (not rounded).
func tailNodes(p lublinParams, m float64) float64 {
	tsu := func(x float64) float64 { // P(par ≥ x)
		clip := func(v float64) float64 { return min(1, max(0, v)) }
		return p.uProb*clip((p.uMed-x)/(p.uMed-p.uLow)) + (1-p.uProb)*clip((p.uHi-x)/(p.uHi-p.uMed))
	}
	return p.pow2Prob*tsu(math.Log2(m)+0.5) + (1-p.serialProb-p.pow2Prob)*tsu(math.Log2(m+0.5))
}

// tailRun is P(run ≥ r | nodes) of the hyper-gamma log run time with
// p = pa·nodes + pb clipped to [0, 1], conditioned on log run ≤ 12 (the
// redraw), and run = ⌊e^hg⌋, so run ≥ r iff hg ≥ ln r.
func tailRun(p lublinParams, nodes int64, r float64) float64 {
	w := min(1, max(0, p.pa*float64(nodes)+p.pb))
	cdf := func(x float64) float64 {
		return w*mathext.GammaIncReg(p.a1, x/p.b1) + (1-w)*mathext.GammaIncReg(p.a2, x/p.b2)
	}
	return (cdf(lfTooMuchTime) - cdf(math.Log(r))) / cdf(lfTooMuchTime)
}

// The size and run-time distributions of the Lublin–Feitelson model
// against their exact probabilities: size tails per type (hand-worked:
// P(nodes > 32 | batch) = 0.6686·0.09375 + 0.0387·0.12360 = 0.067464,
// P(nodes > 8 | interactive) = 0.625·0.236 + 0.2209·0.28468 = 0.210386),
// and the fraction of run times ≥ 2981 s (log run ≥ 8) among serial and
// among ≥ 32-node jobs of each type, which depends on p = pa·nodes + pb.
func TestLublinExactProbabilities(t *testing.T) {
	if v := tailNodes(lublinBatch, 32); math.Abs(v-0.067464) > 1e-6 {
		t.Fatalf("P(nodes > 32 | batch) = %v, hand-worked 0.067464", v)
	}
	if v := tailNodes(lublinInteractive, 8); math.Abs(v-0.210386) > 1e-6 {
		t.Fatalf("P(nodes > 8 | interactive) = %v, hand-worked 0.210386", v)
	}
	const n = 200000
	tr, err := GenerateLublin(LublinSpec{Procs: 128, Jobs: n, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	params := [2]lublinParams{lublinInteractive, lublinBatch}
	var cnt [2]int
	var over [2][]int
	thresholds := []float64{4, 8, 32, 64}
	for q := range over {
		over[q] = make([]int, len(thresholds))
	}
	// run-time classes: 0 serial, 1 ≥ 32 nodes; expected count and variance
	var hit, exp, vr [2][2]float64
	for _, j := range tr.Jobs {
		q := j.Queue
		cnt[q]++
		for i, m := range thresholds {
			if float64(j.ReqProcs) > m {
				over[q][i]++
			}
		}
		c := -1
		if j.ReqProcs == 1 {
			c = 0
		} else if j.ReqProcs >= 32 {
			c = 1
		}
		if c < 0 {
			continue
		}
		p := tailRun(params[q], j.ReqProcs, 2981)
		exp[q][c] += p
		vr[q][c] += p * (1 - p)
		if j.Run >= 2981 {
			hit[q][c]++
		}
	}
	for q := range params {
		for i, m := range thresholds {
			if !within4σ(over[q][i], cnt[q], tailNodes(params[q], m)) {
				t.Errorf("type %d: P(nodes > %v) sample %.4f, exact %.4f", q, m, float64(over[q][i])/float64(cnt[q]), tailNodes(params[q], m))
			}
		}
		for c := range 2 {
			if vr[q][c] < 25 {
				t.Fatalf("type %d class %d: too few jobs (variance %v)", q, c, vr[q][c])
			}
			if math.Abs(hit[q][c]-exp[q][c]) > 4*math.Sqrt(vr[q][c]) {
				t.Errorf("type %d class %d: %v runs ≥ 2981 s, expected %.1f ± %.1f", q, c, hit[q][c], exp[q][c], math.Sqrt(vr[q][c]))
			}
		}
	}
	// the classes differ: p linear in size makes large batch jobs longer
	if tailRun(lublinBatch, 64, 2981) < 1.3*tailRun(lublinBatch, 1, 2981) {
		t.Errorf("P(run ≥ 2981 | batch) %v (64 nodes) vs %v (serial)", tailRun(lublinBatch, 64, 2981), tailRun(lublinBatch, 1, 2981))
	}
}

// Arrivals pass through the 48 half-hour buckets at a rate proportional
// to their weights (the points mechanism of calc_next_arrive), so over many
// days the share of a type's arrivals in bucket b is weights[b]/48. (With
// the C code's truncation of the running clock the 200,000 jobs span ~1260
// days, the clock drifts a whole day, and the interactive shares come out
// flat: 0.2485 0.2537 0.2478 0.2500 instead of 0.0724 0.2356 0.4433 0.2487.)
func TestLublinDailyCycleShares(t *testing.T) {
	const n = 200000
	tr, err := GenerateLublin(LublinSpec{Procs: 128, Jobs: n, Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	params := [2]lublinParams{lublinInteractive, lublinBatch}
	for q := range params {
		s := newLublinStream(params[q], newStream(1, 1))
		var total int
		counts := make([]int, 4) // quarters of the day
		for _, j := range tr.Jobs {
			if int(j.Queue) == q {
				total++
				counts[int(math.Mod(j.Submit, 86400))/21600]++
			}
		}
		for k := range counts {
			var share float64
			for b := 12 * k; b < 12*(k+1); b++ {
				share += s.weights[b] / lfBuckets
			}
			f := float64(counts[k]) / float64(total)
			if math.Abs(f-share) > 0.01 {
				t.Errorf("type %d: quarter %d has %.4f of arrivals, weights give %.4f", q, k, f, share)
			}
		}
	}
}
