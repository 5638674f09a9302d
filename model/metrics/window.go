package metrics

import "math"

// Window accumulates the counters of an observation window [0, T]
// (Mohapatra, Yu & Das 1995 §4.2): G jobs generated (arrived by T), C
// completed by T, A allocated (started) by T, R their total queueing
// delay, and S the total service demand of the generated jobs.
type Window struct {
	T     float64 // the observation time
	Procs int     // processors of the machine (2^n)

	g, c, a int64
	r, busy float64
	demand  float64
}

// NewWindow starts the counters of a window [0, t] on a machine of procs
// processors.
func NewWindow(t float64, procs int) *Window { return &Window{T: t, Procs: procs} }

// Add counts one job: its arrival, start and end times (negative when it
// never started or did not complete), its residence time at full speed
// (run), the processors it held (held) and the processors it needed
// (need: its request rounded to the machine's unit, a subcube's 2^k).
func (w *Window) Add(submit, start, end, run, held, need float64) {
	if submit > w.T {
		return
	}
	w.g++
	w.demand += need * run
	if start >= 0 && start <= w.T {
		w.a++
		w.r += start - submit
		w.busy += held * run
	}
	if end >= 0 && end <= w.T {
		w.c++
	}
}

// WindowStats are the metrics of an observation window, exactly as
// Mohapatra, Yu & Das 1995 §4.2 define them.
type WindowStats struct {
	T                               float64
	Generated, Completed, Allocated int64
	MeanDelay                       float64 // M = R/A; NaN when no job was allocated
	Throughput                      float64 // X = C/T
	Utilization                     float64 // U = Σ_{allocated} 2^|I_i|·t_i / (2^n·T): the whole residence of every job allocated by T, even past T
	Power                           float64 // P = X/M (Power)
	Offered                         float64 // measured request rate S/(2^n·T): the generated jobs' demand at their rounded sizes
}

// Stats returns the window's metrics.
func (w *Window) Stats() WindowStats {
	s := WindowStats{T: w.T, Generated: w.g, Completed: w.c, Allocated: w.a, MeanDelay: math.NaN(),
		Throughput: math.NaN(), Utilization: math.NaN(), Power: math.NaN(), Offered: math.NaN()}
	if w.a > 0 {
		s.MeanDelay = w.r / float64(w.a)
	}
	if w.T > 0 && w.Procs > 0 {
		s.Throughput = float64(w.c) / w.T
		s.Utilization = w.busy / (float64(w.Procs) * w.T)
		s.Offered = w.demand / (float64(w.Procs) * w.T)
		if w.a > 0 {
			s.Power = Power(s.Throughput, s.MeanDelay)
		}
	}
	return s
}

// NoWindow is the WindowStats of a run without an observation window: T
// and the counts 0, the metrics NaN.
func NoWindow() WindowStats {
	nan := math.NaN()
	return WindowStats{MeanDelay: nan, Throughput: nan, Utilization: nan, Power: nan, Offered: nan}
}
