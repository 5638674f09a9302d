package sched

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// Ordered keeps one waiting queue ordered by a key, smallest first, ties by
// arrival order. It is the common machinery of the classic single-queue
// orderings that Chu (1995, §6.1; results §6.3.2) evaluates: SJF, SmallestJF,
// LargestJF and SmallestSDJF (see NewSJF, NewSmallest, NewLargest, NewSSD).
//
// Two disciplines (parameter scan):
//
//   - head (default): the orderings "unmodified", blocking at the head like
//     FCFS. On arrival the job is inserted at its place; then, on arrival
//     and on completion alike, the head is started for as long as it fits.
//     An arrival that sorts to the head may thus start at once; one that
//     does not waits behind the blocked head.
//   - all: Chu's "(SA)" variants (Figs. 6.12–6.14), Scan All with the
//     queue kept in the ordering's order and an infinite waiting-time limit,
//     as in Ch. 6: an arriving job is started at once if it fits (Immediate
//     Fit) and otherwise inserted at its place; on completion the whole
//     queue is scanned in order and every job that fits is started.
type Ordered struct {
	inbox
	key  func(*policy.Job) float64
	all  bool
	keys []float64
	jobs []*policy.Job
	head int
}

// NewOrdered returns a single ordered queue keyed by key (smallest first);
// scanAll selects the "(SA)" discipline.
func NewOrdered(key func(*policy.Job) float64, scanAll bool) *Ordered {
	return &Ordered{key: key, all: scanAll}
}

// Waiting is the number of jobs waiting.
func (s *Ordered) Waiting() int { return len(s.jobs) - s.head + len(s.arrivals) }

// Schedule applies the completion rule, then the arrival rule per arrival.
func (s *Ordered) Schedule(sys policy.System) {
	freed := s.takeFreed()
	if !s.all {
		s.drain(sys)
		for _, j := range s.arrivals {
			s.insert(j)
			s.drain(sys)
		}
		s.done()
		return
	}
	if freed {
		s.scanAll(sys)
	}
	for _, j := range s.arrivals {
		if !tryStart(sys, j) {
			s.insert(j)
		}
	}
	s.done()
}

// drain starts the head while it fits.
func (s *Ordered) drain(sys policy.System) {
	for s.head < len(s.jobs) && tryStart(sys, s.jobs[s.head]) {
		s.jobs[s.head] = nil
		s.head++
	}
	if s.head == len(s.jobs) {
		s.jobs, s.keys, s.head = s.jobs[:0], s.keys[:0], 0
	}
}

// scanAll starts, in queue order, every job that fits.
func (s *Ordered) scanAll(sys policy.System) {
	w := s.head
	free := sys.Capacity().Free()
	for r := s.head; r < len(s.jobs); r++ {
		j := s.jobs[r]
		if free > 0 && j.Procs <= free && sys.Start(j) {
			free = sys.Capacity().Free()
			continue
		}
		s.jobs[w], s.keys[w] = j, s.keys[r]
		w++
	}
	clear(s.jobs[w:])
	s.jobs, s.keys = s.jobs[:w], s.keys[:w]
	if s.head == w {
		s.jobs, s.keys, s.head = s.jobs[:0], s.keys[:0], 0
	}
}

// insert puts j after every job with a key ≤ its own (j arrived last, so
// ties stay in arrival order).
func (s *Ordered) insert(j *policy.Job) {
	k := s.key(j)
	lo, hi := s.head, len(s.keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.keys[m] <= k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == s.head && s.head > 0 {
		s.head--
		s.jobs[s.head], s.keys[s.head] = j, k
		return
	}
	s.jobs = append(s.jobs, nil)
	s.keys = append(s.keys, 0)
	copy(s.jobs[lo+1:], s.jobs[lo:])
	copy(s.keys[lo+1:], s.keys[lo:])
	s.jobs[lo], s.keys[lo] = j, k
}

// orderedSpec builds the registry entry of one ordering.
func orderedSpec(name, doc string, key func(*policy.Job) float64) policy.SchedulerSpec {
	return policy.SchedulerSpec{
		Name: name,
		Doc:  doc,
		Params: []policy.Param{
			{Name: "scan", Default: "head", Doc: "head: block at the head like FCFS; all: Chu's (SA) variant (immediate fit on arrival, scan the whole queue on completion)"},
		},
		New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
			if err := p.Check("scan"); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			scan, err := p.Choice("scan", "head", "head", "all")
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return NewOrdered(key, scan == "all"), nil
		},
	}
}
