package sched

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// MultipleQueues is Chu's Multiple Queues (MQ) scheme (Chu 1995, §6.2,
// Fig. 6.1): Q FIFO queues numbered 1..Q, jobs classified by size, Scan All
// applied across the queues in index order.
//
// Classification, with the queue-index formulas as reconstructed from the
// damaged text of the scanned thesis (Y.-K. Chu, "Processor Allocation and
// Job Scheduling in Two-Dimensional Mesh Systems", 1995, Ch. 6), for a job
// of size x:
//
//   - by=procs: x = requested processors, on a machine of N processors;
//     ScanUp puts the job in queue ⌈x/(N/Q)⌉, ScanDown in Q − ⌈x/(N/Q)⌉ + 1
//     (computed exactly as ⌈x·Q/N⌉ in integers).
//   - by=larger / by=smaller: x = the larger / smaller side of the job's
//     requested submesh, L = the larger / smaller side of the mesh; the same
//     formulas with L for N. Meshes only. A job without a requested shape
//     (Width or Height 0) is classed as a square of side ⌈√procs⌉, clamped
//     to L (a modelling choice; the thesis's jobs always have a shape).
//
// So with order=down (ScanDown, the default) queue 1 holds the largest jobs,
// and the scan, which always starts at queue 1, serves large jobs first.
//
//   - When a job arrives: if the head of any queue has exceeded the
//     waiting-time limit (WTL), the job joins its queue; otherwise it is
//     started at once if it fits, else it joins its queue (Immediate Fit
//     gated on all queue heads).
//   - When a job completes: queues 1..Q are scanned in turn, each from head
//     to tail, and every job that fits is started; a job that does not fit
//     and has exceeded the WTL stops the whole scan.
//
// Chu's chosen configuration is by=procs, ScanDown, Q = the mesh side and
// wtl = inf. Defaults here: by=procs, order=down, wtl=inf, and q = the
// larger side of a mesh, otherwise min(32, N) (32 queues as in Chu's 32×32
// experiments; no more queues than processors). With q=1, MQ is exactly SA.
type MultipleQueues struct {
	inbox
	qs    []fifo.Queue
	wtl   float64
	index func(*policy.Job) int // 0-based queue index
	n     int                   // jobs in the queues
}

// MQ classification criteria.
const (
	ByProcs   = "procs"
	ByLarger  = "larger"
	BySmaller = "smaller"
)

// NewMultipleQueues returns MQ on machine m with q queues, ScanDown when
// down is true (ScanUp otherwise), classification by (ByProcs, ByLarger or
// BySmaller) and waiting-time limit wtl.
func NewMultipleQueues(m policy.Machine, q int, down bool, by string, wtl float64) (*MultipleQueues, error) {
	if q < 1 {
		return nil, fmt.Errorf("parameter q=%d: must be ≥ 1", q)
	}
	var size func(*policy.Job) int
	var limit int
	switch by {
	case ByProcs:
		limit = m.Procs
		size = func(j *policy.Job) int { return j.Procs }
	case ByLarger, BySmaller:
		if policy.RequestOf(m.Kind) != policy.RequestRect {
			return nil, fmt.Errorf("parameter by=%s: needs a mesh machine (got %s); use by=procs", by, m)
		}
		larger := by == ByLarger
		if larger {
			limit = max(m.Width, m.Height)
		} else {
			limit = min(m.Width, m.Height)
		}
		lim := limit
		size = func(j *policy.Job) int {
			w, h := int(j.Width), int(j.Height)
			if w <= 0 || h <= 0 {
				s := int(math.Ceil(math.Sqrt(float64(j.Procs))))
				w, h = s, s
			}
			if larger {
				return min(max(w, h), lim)
			}
			return min(min(w, h), lim)
		}
	default:
		return nil, fmt.Errorf("parameter by=%q: want one of procs, larger, smaller", by)
	}
	s := &MultipleQueues{qs: make([]fifo.Queue, q), wtl: wtl}
	s.index = func(j *policy.Job) int { return QueueIndex(size(j), limit, q, down) - 1 }
	return s, nil
}

// QueueIndex is Chu's MQ queue index (1-based) of a job of size x when
// sizes range over 1..limit and there are q queues: ⌈x/(limit/q)⌉ for
// ScanUp, q − ⌈x/(limit/q)⌉ + 1 for ScanDown. Sizes outside 1..limit are
// clamped.
func QueueIndex(x, limit, q int, down bool) int {
	x = min(max(x, 1), limit)
	c := int((int64(x)*int64(q) + int64(limit) - 1) / int64(limit))
	c = min(max(c, 1), q)
	if down {
		return q - c + 1
	}
	return c
}

// Waiting is the number of jobs waiting.
func (s *MultipleQueues) Waiting() int { return s.n + len(s.arrivals) }

// Schedule applies the completion rule, then the arrival rule per arrival.
func (s *MultipleQueues) Schedule(sys policy.System) {
	now := sys.Now()
	if s.takeFreed() {
		for i := range s.qs {
			before := s.qs[i].Len()
			blocked := scanQueue(sys, &s.qs[i], now, s.wtl)
			s.n -= before - s.qs[i].Len()
			if blocked || sys.Capacity().Free() == 0 {
				break
			}
		}
	}
	finite := !math.IsInf(s.wtl, 1)
	for _, j := range s.arrivals {
		if finite && s.headExceeded(now) || !tryStart(sys, j) {
			s.qs[s.index(j)].Push(j)
			s.n++
		}
	}
	s.done()
}

// headExceeded reports whether the head of any queue has exceeded the WTL.
func (s *MultipleQueues) headExceeded(now float64) bool {
	for i := range s.qs {
		if s.qs[i].Len() > 0 && exceeded(s.qs[i].Front(), now, s.wtl) {
			return true
		}
	}
	return false
}
