package fattree_test

import (
	"testing"

	"github.com/schedlab/schedlab/model/fattree"
	"github.com/schedlab/schedlab/model/internal/familytest"
)

// BenchmarkFCFS replays 100,000 LANL-like jobs (sizes scaled ×4) under
// FCFS on fattree:16x16x16 (4,096 nodes) with each allocator: jobs/s is
// the engine and allocator alone.
func BenchmarkFCFS(b *testing.B) { familytest.BenchFCFS(b, "fattree:16x16x16", fattree.Allocators()) }
