package dragonfly_test

import (
	"testing"

	"github.com/schedlab/schedlab/model/dragonfly"
	"github.com/schedlab/schedlab/model/internal/familytest"
)

// BenchmarkFCFS replays 100,000 LANL-like jobs (sizes scaled ×4) under
// FCFS on dragonfly:g=16,a=8,p=32,h=2 (4,096 nodes) with each allocator: jobs/s is
// the engine and allocator alone.
func BenchmarkFCFS(b *testing.B) {
	familytest.BenchFCFS(b, "dragonfly:g=16,a=8,p=32,h=2", dragonfly.Allocators())
}
