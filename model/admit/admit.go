// Package admit turns a trace's records into engine jobs (policy.Job),
// rejecting those a replay cannot run.
package admit

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
)

// Estimate modes for Jobs.
const (
	EstimatesRequested = "requested" // the user's requested time when known (>= 0, finite), else the actual run time
	EstimatesActual    = "actual"    // always the actual run time (perfect estimates)
	// EstimatesFactor, "factor:x=X", is X times the actual run time (X >
	// 0, finite; Mu'alem & Feitelson 2001's f model with a constant
	// factor).
	EstimatesFactor = "factor"
)

// Rejection is a record Jobs refused, with the reason.
type Rejection = policy.Rejection

// Jobs converts a trace into engine jobs, deciding every hole of a real log
// deliberately:
//
//   - processor count: requested processors when > 0, else allocated
//     processors when > 0, else the job is rejected ("no processor count");
//   - run time < 0 (unknown), NaN or +Inf (possible in Parquet input) is
//     rejected; run time 0 is kept (the job ends at the instant it starts);
//   - submit time < 0 (unknown), NaN or +Inf is rejected;
//   - more processors than the machine has is rejected;
//   - estimate: the requested time when estimates is "requested" and the
//     requested time is known (>= 0 and finite; see trace.Job.Estimate: a
//     zero requested time is a known zero estimate), else the actual run
//     time ("actual" always uses the actual run time; "factor:x=X", X times
//     it). An estimate shorter than the run time is kept:
//     the job runs its actual time (policies see that it outran its estimate);
//   - mesh shape: Width/Height from req_width/req_height when > 0, else 0;
//   - priority and deadline (Job.Window, nil when the record has
//     neither): from the priority and deadline columns when ≥ 0 (a
//     priority within int32, a deadline finite), else -1;
//   - malleable characteristics (Job.Malleable, nil when the record has
//     none of them): Work and Efficiency from work and efficiency when
//     ≥ 0 and finite, else -1 (unknown); MaxPar from max_parallelism when
//     > 0, else -1 (no cap).
//
// Jobs come out sorted by (Submit, trace order), stably, numbered in that
// order (Index), with Record the record's position in the trace. An
// unknown estimates mode is treated as "requested"; callers validate it
// with CheckEstimates.
func Jobs(t *trace.Trace, m policy.Machine, estimates string) ([]policy.Job, []Rejection) {
	jobs := make([]policy.Job, 0, len(t.Jobs))
	factor, _ := estimateFactor(estimates) // 0 unless factor:x=X
	var rej []Rejection
	var slab []policy.Malleable // Malleable records, allocated in blocks
	var wslab []policy.Window   // Window records, allocated in blocks
	for i := range t.Jobs {
		tj := &t.Jobs[i]
		reject := func(format string, a ...any) {
			rej = append(rej, Rejection{Index: i, ID: tj.ID, Reason: fmt.Sprintf(format, a...)})
		}
		procs := tj.Procs()
		switch refusal(tj, m) {
		case NoProcs:
			reject("no processor count (req_procs %d, alloc_procs %d)", tj.ReqProcs, tj.AllocProcs)
			continue
		case NoRun:
			reject("unknown run time (%g)", tj.Run)
			continue
		case NoSubmit:
			reject("unknown submit time (%g)", tj.Submit)
			continue
		case TooLarge:
			reject("needs %d processors, machine %s has %d", procs, m, m.Procs)
			continue
		}
		est := tj.Run
		if factor > 0 {
			est = factor * tj.Run
		} else if e := tj.Estimate(); estimates != EstimatesActual && !math.IsInf(e, 0) && !math.IsNaN(e) {
			est = e
		}
		j := policy.Job{
			Record: int32(i), ID: tj.ID, Submit: tj.Submit, Run: tj.Run, Estimate: est,
			Procs: int(procs), User: tj.User, Start: -1, End: -1,
		}
		w := policy.Window{Priority: -1, Deadline: known(tj.Deadline)}
		if tj.Priority >= 0 && tj.Priority <= math.MaxInt32 {
			w.Priority = int(tj.Priority)
		}
		if w != (policy.Window{Priority: -1, Deadline: -1}) {
			if len(wslab) == 0 {
				wslab = make([]policy.Window, min(len(t.Jobs)-i, 4096))
			}
			wslab[0] = w
			j.Window = &wslab[0]
			wslab = wslab[1:]
		}
		ml := policy.Malleable{Work: known(tj.Work), Efficiency: known(tj.Efficiency), MaxPar: -1}
		if tj.MaxParallelism > 0 && tj.MaxParallelism <= math.MaxInt32 {
			ml.MaxPar = int(tj.MaxParallelism)
		}
		if ml != (policy.Malleable{Work: -1, Efficiency: -1, MaxPar: -1}) {
			if len(slab) == 0 {
				slab = make([]policy.Malleable, min(len(t.Jobs)-i, 4096))
			}
			slab[0] = ml
			j.Malleable = &slab[0]
			slab = slab[1:]
		}
		if tj.ReqWidth > 0 {
			j.Width = int32(min(tj.ReqWidth, math.MaxInt32))
		}
		if tj.ReqHeight > 0 {
			j.Height = int32(min(tj.ReqHeight, math.MaxInt32))
		}
		jobs = append(jobs, j)
	}
	less := func(a, b int) bool { return jobs[a].Submit < jobs[b].Submit }
	if !sort.SliceIsSorted(jobs, less) {
		sort.SliceStable(jobs, less)
	}
	for k := range jobs {
		jobs[k].Index = int32(k)
	}
	return jobs, rej
}

// Why Jobs refuses a record, and how it adjusts one (Count.Reason).
const (
	NoProcs  = "no processor count (req_procs and alloc_procs unknown)"
	NoRun    = "unknown run time"
	NoSubmit = "unknown submit time"
	TooLarge = "more processors than the machine has"
	Partial  = "partial record (status 2-4; --keep-partial replays them)"

	ProcsFromAlloc = "processors from alloc_procs (req_procs unknown)"
	EstimateIsRun  = "estimate = run time (requested time unknown)"
	Outruns        = "run time beyond the requested time (the job runs its run time)"
)

// refusal returns why Jobs refuses tj on m (NoProcs, NoRun, NoSubmit,
// TooLarge), "" when it accepts it.
func refusal(tj *trace.Job, m policy.Machine) string {
	procs := tj.Procs()
	switch {
	case procs <= 0:
		return NoProcs
	case !(tj.Run >= 0) || math.IsInf(tj.Run, 1):
		return NoRun
	case !(tj.Submit >= 0) || math.IsInf(tj.Submit, 1):
		return NoSubmit
	case procs > int64(m.Procs):
		return TooLarge
	}
	return ""
}

// Count is a number of records dropped or adjusted for one reason.
type Count struct {
	Reason  string
	Records int
}

// Tally counts the records of t that Jobs refuses on m (dropped, by
// reason, in the order of Jobs' checks) and those it accepts but adjusts
// (adjusted: a processor count taken from alloc_procs, an estimate that
// is the run time because the requested time is unknown (estimates
// "requested"), a run time beyond the requested time). Unless keepPartial,
// the partial records Jobs accepts are counted dropped too (Partial), as
// a replay drops them by default. Reasons with no record are left out.
func Tally(t *trace.Trace, m policy.Machine, estimates string, keepPartial bool) (dropped, adjusted []Count) {
	refused := map[string]int{}
	var fromAlloc, estRun, outruns int
	for i := range t.Jobs {
		tj := &t.Jobs[i]
		if r := refusal(tj, m); r != "" {
			refused[r]++
			continue
		}
		if !keepPartial && tj.Partial() {
			refused[Partial]++
			continue
		}
		if tj.ReqProcs <= 0 {
			fromAlloc++
		}
		if estimates != EstimatesActual {
			if !(tj.ReqTime >= 0) || math.IsInf(tj.ReqTime, 1) {
				estRun++
			} else if tj.Run > tj.ReqTime {
				outruns++
			}
		}
	}
	for _, r := range []string{NoProcs, NoRun, NoSubmit, TooLarge, Partial} {
		if refused[r] > 0 {
			dropped = append(dropped, Count{r, refused[r]})
		}
	}
	for _, c := range []Count{{ProcsFromAlloc, fromAlloc}, {EstimateIsRun, estRun}, {Outruns, outruns}} {
		if c.Records > 0 {
			adjusted = append(adjusted, c)
		}
	}
	return dropped, adjusted
}

// known returns x when it is a known quantity (≥ 0 and finite), else -1.
func known(x float64) float64 {
	if x >= 0 && !math.IsInf(x, 1) {
		return x
	}
	return -1
}

// CheckEstimates returns an error unless mode is "requested", "actual"
// or "factor:x=X" with X > 0 finite.
func CheckEstimates(mode string) error {
	if mode == EstimatesRequested || mode == EstimatesActual {
		return nil
	}
	if strings.HasPrefix(mode, EstimatesFactor) {
		_, err := estimateFactor(mode)
		return err
	}
	return fmt.Errorf("estimates %q: want %q, %q or %s:x=X", mode, EstimatesRequested, EstimatesActual, EstimatesFactor)
}

// estimateFactor returns X of mode "factor:x=X" (0 for another mode).
func estimateFactor(mode string) (float64, error) {
	name, p, err := policy.ParseSpec(mode)
	if err != nil || name != EstimatesFactor {
		return 0, fmt.Errorf("estimates %q: want %s:x=X", mode, EstimatesFactor)
	}
	if err := p.Check("x"); err != nil {
		return 0, fmt.Errorf("estimates %q: %w", mode, err)
	}
	if _, ok := p["x"]; !ok {
		return 0, fmt.Errorf("estimates %q: parameter x missing (factor:x=X)", mode)
	}
	x, err := p.Float("x", 0)
	if err != nil {
		return 0, fmt.Errorf("estimates %q: %w", mode, err)
	}
	if !(x > 0) || math.IsInf(x, 1) {
		return 0, fmt.Errorf("estimates %q: parameter x=%g: want a finite factor > 0", mode, x)
	}
	return x, nil
}
