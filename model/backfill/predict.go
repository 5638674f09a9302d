package backfill

import (
	"github.com/schedlab/schedlab/model/policy"
)

// Prediction modes (parameter predict).
const (
	predictOff   = "off"   // the runtime estimate (policy.Job.Estimate)
	predictUser2 = "user2" // Tsafrir, Etsion & Feitelson 2007's user-based prediction
)

// corrections are the amounts added to a job's initial prediction at its
// successive underpredictions (1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 5 h,
// 10 h, 20 h, 50 h, 100 h), each capped by the request: Tsafrir, Etsion &
// Feitelson 2007's incremental correction, as in the pyss implementation
// of Gaussier, Glesser, Reis & Trystram, "Improving backfilling by using
// machine learning to predict running times", SC'15 (corrector
// "tsafrir").
var corrections = [...]float64{60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000}

// estimates is what a backfilling scheduler takes for a job's run time:
// its runtime estimate (policy.Job.Estimate), or, with predict=user2, a
// prediction (Tsafrir, Etsion & Feitelson, "Backfilling using
// system-generated predictions rather than user runtime estimates", IEEE
// TPDS 18(6) 2007): at submission, the mean of the actual run times of
// the user's two most recently completed jobs, capped by the estimate (the
// request); the estimate itself while the user has fewer than two
// completed jobs (or the user is unknown). A running job that outlives its
// prediction gets the next correction (see corrections), never beyond
// its estimate. The estimate stays the hard bound: a prediction never
// exceeds it.
type estimates struct {
	on    bool
	pred  []float64 // by Job.Index: the current prediction
	first []float64 // by Job.Index: the prediction at submission
	corr  []uint8   // by Job.Index: corrections applied
	ended []bool    // by Job.Index: the job has completed
	hist  map[int64]*[2]float64
}

func newEstimates(mode string) estimates {
	if mode != predictUser2 {
		return estimates{}
	}
	return estimates{on: true, hist: map[int64]*[2]float64{}}
}

// of is the scheduler's estimate of j's run time.
func (e *estimates) of(j *policy.Job) float64 {
	if !e.on {
		return j.Estimate
	}
	return e.pred[j.Index]
}

// submit predicts j's run time.
func (e *estimates) submit(j *policy.Job) {
	if !e.on {
		return
	}
	for len(e.pred) <= int(j.Index) {
		e.pred = append(e.pred, 0)
		e.first = append(e.first, 0)
		e.corr = append(e.corr, 0)
		e.ended = append(e.ended, false)
	}
	p := j.Estimate
	if h := e.hist[j.User]; j.User >= 0 && h != nil && h[1] >= 0 {
		p = min(p, (h[0]+h[1])/2)
	}
	e.pred[j.Index], e.first[j.Index], e.corr[j.Index] = p, p, 0
}

// finished records j's actual run time in its user's history.
func (e *estimates) finished(j *policy.Job) {
	if !e.on {
		return
	}
	e.ended[j.Index] = true
	if j.User < 0 {
		return
	}
	h := e.hist[j.User]
	if h == nil {
		h = &[2]float64{-1, -1}
		e.hist[j.User] = h
	}
	h[1], h[0] = h[0], j.End-j.Start
}

// outlived reports whether running job j has outlived its prediction at
// now (it is still running at its predicted end) and the prediction can
// still grow.
func (e *estimates) outlived(j *policy.Job, now float64) bool {
	p := e.pred[j.Index]
	return j.Start < now && j.Start+p <= now && p < j.Estimate
}

// correct applies corrections to j's prediction until its predicted end is
// after now or it reaches the estimate.
func (e *estimates) correct(j *policy.Job, now float64) {
	i := j.Index
	for e.outlived(j, now) {
		c := e.corr[i]
		e.pred[i] = min(j.Estimate, e.first[i]+corrections[c])
		if int(c) < len(corrections)-1 {
			e.corr[i]++
		}
		if int(c) == len(corrections)-1 && e.pred[i] < j.Estimate && j.Start+e.pred[i] <= now {
			e.pred[i] = j.Estimate // past the last correction
		}
	}
}

// expiry is the time at which running job j outlives its prediction; ok
// false when it never can (its prediction is its estimate).
func (e *estimates) expiry(j *policy.Job) (t float64, ok bool) {
	if !e.on {
		return 0, false
	}
	p := e.pred[j.Index]
	return j.Start + p, p < j.Estimate
}
