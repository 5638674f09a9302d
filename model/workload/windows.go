package workload

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/trace"
)

// Windows draws the priorities and execution windows of pcw's jobs (S. A.
// Ghoneim and H. M. A. Fahmy, "Job preemption, fast subcube compaction,
// or waiting in hypercube systems? A selection methodology", Parallel
// Computing 29(1), 2003: every job has a priority and a window from its
// start to its deadline; the paper gives no distribution, these are ours).
//
//   - Priorities K ≥ 1: each job's class is drawn uniformly from 0..K−1
//     (higher is more urgent); 0 leaves the column -1 (unknown).
//   - Laxity [a, b], 1 ≤ a ≤ b: deadline = submit + run × U(a, b), drawn
//     per job (a = b: a fixed factor); a factor of 1 leaves no slack at
//     all. Zero leaves the column -1.
//
// The draws come from their own streams of the trace's seed, one for the
// priorities and one for the deadlines, so that adding windows to a trace
// changes no other column, and a trace made without them is unchanged.
type Windows struct {
	Priorities           int
	LaxityMin, LaxityMax float64
}

// Zero reports whether w draws nothing.
func (w Windows) Zero() bool { return w == Windows{} }

// ParseLaxity parses "A" (a fixed factor) or "A-B" (uniform on [A, B]),
// with 1 ≤ A ≤ B; "" or "0" means none.
func ParseLaxity(s string) (lo, hi float64, err error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("laxity %q: want a factor A or a range A-B, e.g. 1.5-4", s)
	}
	if err := (Windows{LaxityMin: lo, LaxityMax: hi}).Check(); err != nil {
		return 0, 0, err
	}
	return lo, hi, nil
}

// Check validates w.
func (w Windows) Check() error {
	if w.Priorities < 0 {
		return fmt.Errorf("priorities %d: want a number of classes ≥ 1, or 0 for none", w.Priorities)
	}
	if w.LaxityMin == 0 && w.LaxityMax == 0 {
		return nil
	}
	if !(w.LaxityMin >= 1) || !(w.LaxityMax >= w.LaxityMin) || math.IsInf(w.LaxityMax, 0) {
		return fmt.Errorf("laxity %s: want finite factors 1 ≤ A ≤ B", w.laxity())
	}
	return nil
}

func (w Windows) laxity() string {
	if w.LaxityMin == w.LaxityMax {
		return ftoa(w.LaxityMin)
	}
	return ftoa(w.LaxityMin) + "-" + ftoa(w.LaxityMax)
}

// Apply draws t's priorities and deadlines with t's seed
// (t.Provenance.Seed), and records w in the provenance parameters
// ("priorities", "laxity") and the header notes.
func (w Windows) Apply(t *trace.Trace) error {
	if err := w.Check(); err != nil {
		return err
	}
	seed := t.Provenance.Seed
	note := func(k, v string) {
		if t.Provenance.Params == nil {
			t.Provenance.Params = map[string]string{}
		}
		t.Provenance.Params[k] = v
		t.Header = append(t.Header, trace.HeaderField{Key: "Note", Value: k + "=" + v})
	}
	if w.Priorities > 0 {
		r := newStream(seed, streamPriority)
		for i := range t.Jobs {
			t.Jobs[i].Priority = int64(r.IntN(w.Priorities))
		}
		note("priorities", strconv.Itoa(w.Priorities))
	}
	if w.LaxityMin > 0 {
		r := newStream(seed, streamLaxity)
		for i := range t.Jobs {
			j := &t.Jobs[i]
			f := w.LaxityMin + (w.LaxityMax-w.LaxityMin)*r.Float64()
			j.Deadline = -1
			if j.Submit >= 0 && j.Run >= 0 {
				j.Deadline = j.Submit + j.Run*f
			}
		}
		note("laxity", w.laxity())
	}
	return nil
}
