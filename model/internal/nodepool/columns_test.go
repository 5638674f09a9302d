package nodepool

import (
	"reflect"
	"testing"
)

// Columns by hand: two groups of two columns of 3 nodes (a dragonfly of
// 2 groups × 2 routers × 3 nodes): x = 0, 1 | gap | 3, 4.
func TestColumnsByHand(t *testing.T) {
	l := NewColumns([]int32{0, 3, 6, 9, 12}, func(c int) bool { return c%2 == 0 })
	if l.W != 5 || l.H != 3 || !reflect.DeepEqual(l.X, []int32{0, 1, 3, 4}) {
		t.Fatalf("layout %d×%d, x %v", l.W, l.H, l.X)
	}
	for _, c := range []struct {
		lo, hi int
		want   [][4]int32
	}{
		{0, 6, [][4]int32{{0, 0, 2, 3}}},                // two full columns: one rectangle
		{1, 5, [][4]int32{{0, 1, 1, 2}, {1, 0, 1, 2}}},  // across a column boundary
		{3, 12, [][4]int32{{1, 0, 1, 3}, {3, 0, 2, 3}}}, // not merged across the gap
		{2, 4, [][4]int32{{0, 2, 1, 1}, {1, 0, 1, 1}}},  // one node each
		{11, 12, [][4]int32{{4, 2, 1, 1}}},              // the last node
		{5, 5, nil},                                     // empty
	} {
		if got := l.Rects(c.lo, c.hi, nil); !reflect.DeepEqual(got, c.want) {
			t.Errorf("nodes %d..%d: %v, want %v", c.lo, c.hi-1, got, c.want)
		}
	}
}

// Every node of a range is drawn once, at its column and row.
func TestColumnsCover(t *testing.T) {
	bound := []int32{0, 4, 5, 9, 16, 16 + 4, 21}
	l := NewColumns(bound, func(c int) bool { return c == 3 })
	for lo := 0; lo < 21; lo++ {
		for hi := lo + 1; hi <= 21; hi++ {
			cells := map[[2]int32]int{}
			for _, r := range l.Rects(lo, hi, nil) {
				for x := r[0]; x < r[0]+r[2]; x++ {
					for y := r[1]; y < r[1]+r[3]; y++ {
						cells[[2]int32{x, y}]++
					}
				}
			}
			if len(cells) != hi-lo {
				t.Fatalf("%d..%d: %d cells", lo, hi-1, len(cells))
			}
			for n := lo; n < hi; n++ {
				c := 0
				for int(bound[c+1]) <= n {
					c++
				}
				if cells[[2]int32{l.X[c], int32(n) - bound[c]}] != 1 {
					t.Fatalf("%d..%d: node %d not drawn once", lo, hi-1, n)
				}
			}
		}
	}
}
