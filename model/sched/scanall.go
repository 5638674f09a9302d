package sched

import (
	"github.com/schedlab/schedlab/model/fifo"
	"github.com/schedlab/schedlab/model/policy"
)

// ScanAll is Chu's Scan All (SA) scheme (Chu 1995, §5.2, Fig. 5.2).
//
//   - When a job arrives: as in Immediate Fit, the job is started at once if
//     it fits, unless the head of the queue has exceeded the waiting-time
//     limit (WTL), in which case it joins the tail.
//   - When a job completes: the whole queue is scanned in arrival order and
//     every job that fits is started; a job that does not fit stays, unless
//     it has exceeded the WTL, in which case the scan stops there.
//
// SA skips over jobs that do not fit, like backfilling without
// reservations. wtl=0 is FCFS. Chu (§5.4) notes that SA with wtl=inf behaves
// exactly like Das Sharma and Pradhan's priority scheme without reservation
// and with MAX_PRI = ∞ (see PrioRes).
type ScanAll struct{ fitQueue }

// NewScanAll returns Scan All with waiting-time limit wtl (math.Inf(1) for
// none).
func NewScanAll(wtl float64) *ScanAll { return &ScanAll{fitQueue{wtl: wtl}} }

// Schedule applies the completion rule, then the arrival rule per arrival.
func (s *ScanAll) Schedule(sys policy.System) {
	now := sys.Now()
	if s.takeFreed() {
		scanQueueOver(sys, &s.q, func(j *policy.Job) bool { return s.over(j, now) })
	}
	s.arrive(sys, now)
	s.markHead(now)
}

// scanQueue is SA's completion rule on one queue: start every job that fits,
// in order; stop at a job that does not fit and has exceeded wtl. It reports
// whether it stopped that way. (It also stops when no processor is free,
// which changes nothing: no job could start.)
func scanQueue(sys policy.System, q *fifo.Queue, now, wtl float64) (blocked bool) {
	return scanQueueOver(sys, q, func(j *policy.Job) bool { return exceeded(j, now, wtl) })
}

// scanQueueOver is scanQueue with the limit's test given.
func scanQueueOver(sys policy.System, q *fifo.Queue, over func(*policy.Job) bool) (blocked bool) {
	alloc := sys.Capacity()
	q.Scan(func(j *policy.Job) (bool, bool) {
		if tryStart(sys, j) {
			return true, alloc.Free() == 0
		}
		if over(j) {
			blocked = true
			return false, true
		}
		return false, alloc.Free() == 0
	})
	return blocked
}
