package fattree_test

import (
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/model/internal/familytest"
)

// Every fat-tree allocator × every scheduler runs under the checker, on a
// radix tree and on a topology.conf tree; Slurm's tree selection places
// jobs closer than spreading them.
func TestEverySchedulerChecked(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	disp := familytest.CheckAll(t, "fattree:16x8x8", n)
	if !(disp["ft-tree"] < disp["ft-random"] && disp["ft-tree"] < disp["ft-spread"]) {
		t.Errorf("mean hops: %v: want ft-tree the lowest", disp)
	}
	familytest.CheckAll(t, "fattree:file="+filepath.Join("testdata", "topology.conf"), n/5)
}
