package dragonfly_test

import (
	"testing"

	"github.com/schedlab/schedlab/model/internal/familytest"
)

// Every dragonfly allocator × every scheduler runs under the checker; the
// hybrid, which keeps small jobs on a router or a group, places jobs
// closer than group spread and random.
func TestEverySchedulerChecked(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	disp := familytest.CheckAll(t, "dragonfly:g=8,a=4,p=32,h=2", n)
	if !(disp["df-hybrid"] < disp["df-spread"] && disp["df-hybrid"] < disp["df-random"] && disp["df-simple"] < disp["df-spread"]) {
		t.Errorf("mean hops: %v: want df-hybrid below df-spread and df-random, df-simple below df-spread", disp)
	}
}
