package metrics

import "testing"

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
