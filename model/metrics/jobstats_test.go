package metrics

import (
	"math"
	"testing"
)

func TestFragmentationShares(t *testing.T) {
	// 2-D buddy: a 3×3 request in a 4×4 block for 10 time units, and an
	// exact 2×2 for 10: (160+40 − 90−40) / 200.
	if got := InternalFragmentation(16*10+4*10, 9*10+4*10); got != 70.0/200 {
		t.Errorf("internal %g", got)
	}
	if InternalFragmentation(0, 0) != 0 || ExternalFragmentation(3, 0) != 0 {
		t.Error("nothing allocated or elapsed: want 0")
	}
	if got := ExternalFragmentation(8, 12); got != 8.0/12 {
		t.Errorf("external %g", got)
	}
}

func TestSizeClasses(t *testing.T) {
	if got := SizeQuarters(1024); len(got) != 4 || got[0] != [2]int{1, 256} || got[1] != [2]int{257, 512} || got[3] != [2]int{769, 1024} {
		t.Errorf("quarters of 1024: %v", got)
	}
	if got := SizeQuarters(2); len(got) != 2 || got[0] != [2]int{1, 1} || got[1] != [2]int{2, 2} {
		t.Errorf("quarters of 2: %v", got)
	}
	c := NewClassStats(SizeQuarters(100))
	for _, x := range [][2]float64{{1, 10}, {25, 20}, {26, 5}, {100, 7}, {100, 9}, {101, 1000}} {
		c.Add(int(x[0]), x[1])
	}
	if c.N[0] != 2 || c.Mean(0) != 15 || math.Abs(c.SD(0)-math.Sqrt(50)) > 1e-12 {
		t.Errorf("class 1: n %d mean %g sd %g", c.N[0], c.Mean(0), c.SD(0))
	}
	if c.N[1] != 1 || c.Mean(1) != 5 || !math.IsNaN(c.SD(1)) {
		t.Errorf("class 2: n %d mean %g sd %g", c.N[1], c.Mean(1), c.SD(1))
	}
	if c.N[2] != 0 || !math.IsNaN(c.Mean(2)) || c.N[3] != 2 || c.Mean(3) != 8 {
		t.Errorf("classes 3, 4: %v %g %g", c.N, c.Mean(2), c.Mean(3))
	}
}
