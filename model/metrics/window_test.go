package metrics

import (
	"math"
	"testing"
)

// TestWindow counts a hand-made window [0, 10] on 8 processors.
func TestWindow(t *testing.T) {
	w := NewWindow(10, 8)
	// (submit, start, end, run, held, need)
	w.Add(0, 0, 4, 4, 4, 4)    // allocated and completed, delay 0
	w.Add(1, 3, 9, 6, 2, 2)    // allocated and completed, delay 2
	w.Add(2, 8, -1, 5, 8, 8)   // allocated by 10, running past it: delay 6, its whole 8·5 counts in U
	w.Add(5, -1, -1, 3, 0, 4)  // waiting at 10: generated only
	w.Add(11, -1, -1, 1, 0, 1) // after the window: not generated
	s := w.Stats()
	if s.Generated != 4 || s.Allocated != 3 || s.Completed != 2 {
		t.Fatalf("G, A, C = %d, %d, %d; want 4, 3, 2", s.Generated, s.Allocated, s.Completed)
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %g, want %g", name, got, want)
		}
	}
	near("M", s.MeanDelay, 8.0/3)
	near("X", s.Throughput, 0.2)
	near("U", s.Utilization, (16+12+40)/80.0)
	near("P", s.Power, 0.2/(8.0/3))
	near("S", s.Offered, (16+12+40+12)/80.0)

	e := NewWindow(10, 8).Stats()
	if e.Generated != 0 || !math.IsNaN(e.MeanDelay) || !math.IsNaN(e.Power) || e.Throughput != 0 {
		t.Errorf("empty window: %+v", e)
	}
}

func TestMissRate(t *testing.T) {
	if r := MissRate(3, 12); r != 0.25 {
		t.Errorf("MissRate(3, 12) = %g, want 0.25", r)
	}
	if r := MissRate(0, 0); !math.IsNaN(r) {
		t.Errorf("MissRate(0, 0) = %g, want NaN", r)
	}
}
