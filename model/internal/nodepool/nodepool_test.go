package nodepool

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Deal equals dealing one item per bin in turn, bin by bin in index
// order, round after round, skipping full bins.
func TestDealNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for it := 0; it < 2000; it++ {
		n := 1 + rng.IntN(9)
		caps := make([]int32, n)
		total := 0
		for i := range caps {
			caps[i] = int32(rng.IntN(6))
			total += int(caps[i])
		}
		k := rng.IntN(total + 1)
		want := make([]int32, n)
		for left, i := k, 0; left > 0; i = (i + 1) % n {
			if want[i] < caps[i] {
				want[i]++
				left--
			}
		}
		got := make([]int32, n)
		Deal(caps, k, got)
		if !slices.Equal(got, want) {
			t.Fatalf("Deal(%v, %d) = %v, dealing gives %v", caps, k, got, want)
		}
	}
}

// Random draws every k-subset of the free nodes about equally often, and
// only free nodes.
func TestRandomUniform(t *testing.T) {
	counts := map[[2]int32]int{}
	const draws = 30000
	for d := 0; d < draws; d++ {
		p := New([]int32{0, 3, 6})
		var hold Alloc
		p.Take(0, 1, &hold) // node 0 busy: 5 free nodes, 10 pairs
		var a Alloc
		p.Random(rand.New(rand.NewPCG(uint64(d), 7)), 2, &a, nil)
		var nodes []int32
		for _, s := range a.Spans {
			for q := s.Lo; q < s.Lo+s.N; q++ {
				nodes = append(nodes, q)
			}
		}
		if len(nodes) != 2 || nodes[0] == 0 || p.FreeCount() != 3 || p.Free[0]+p.Free[1] != 3 {
			t.Fatalf("drew %v (free %d, per leaf %v)", nodes, p.FreeCount(), p.Free)
		}
		counts[[2]int32{nodes[0], nodes[1]}]++
	}
	if len(counts) != 10 {
		t.Fatalf("%d distinct pairs, want 10: %v", len(counts), counts)
	}
	for pair, c := range counts {
		if c < draws/10*85/100 || c > draws/10*115/100 {
			t.Errorf("pair %v drawn %d times of %d, want about %d", pair, c, draws, draws/10)
		}
	}
}
