package metrics

import (
	"math"
	"testing"
)

func TestBoundedSlowdown(t *testing.T) {
	cases := []struct{ resp, run, tau, want float64 }{
		{100, 50, 10, 2},  // ordinary: resp/run
		{5, 1, 10, 1},     // short job: bounded by tau, then by 1
		{30, 1, 10, 3},    // short job that waited: resp/tau
		{0, 0, 10, 1},     // zero-length job
		{100, 100, 10, 1}, // no wait
		{120, 0.5, 60, 2}, // Batsim's τ = 60
	}
	for _, c := range cases {
		if got := BoundedSlowdown(c.resp, c.run, c.tau); got != c.want {
			t.Errorf("BoundedSlowdown(%v,%v,%v) = %v, want %v", c.resp, c.run, c.tau, got, c.want)
		}
	}
	for _, c := range []struct{ resp, run, want float64 }{
		{10, 0, 10}, {0.5, 0, 1}, {0, 0, 1}, {30, 10, 3}, {1, 0.5, 2},
	} {
		if got := Slowdown(c.resp, c.run); got != c.want {
			t.Errorf("Slowdown(%v, %v) = %v, want %v", c.resp, c.run, got, c.want)
		}
	}
}

func TestPowerAndGuha(t *testing.T) {
	if Power(2, 4) != 0.5 || !math.IsInf(Power(1, 0), 1) {
		t.Error("power")
	}
	if PctImprovement(80, 100) != 20 || Normalised(80, 100) != 0.8 {
		t.Error("Guha")
	}
}

func TestFragmentation(t *testing.T) {
	cases := []struct {
		free []int64
		want float64
	}{
		{nil, 0},
		{[]int64{10}, 0},
		{[]int64{5, 5}, 0.5},
		{[]int64{1, 1, 1, 1}, 0.75},
		{[]int64{3, 1}, 1 - 10.0/16},
	}
	for _, c := range cases {
		if got := Fragmentation(c.free); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Fragmentation(%v) = %v, want %v", c.free, got, c.want)
		}
	}
}

func TestNodesAndFreeBlocks(t *testing.T) {
	rs, err := ParseNodes("0-3,4-7,10,12-13")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 || rs[2] != (Range{10, 10}) || rs[3].Size() != 2 {
		t.Fatalf("%v", rs)
	}
	if d := Dispersion(rs); d != 3 { // 0-7 is one block
		t.Errorf("dispersion %d", d)
	}
	if got := FreeBlocks(16, rs); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 2 {
		t.Errorf("free blocks %v", got) // 8-9, 11, 14-15
	}
	for _, bad := range []string{"a", "3-1", "1-", "-1"} {
		if _, err := ParseNodes(bad); err == nil {
			t.Errorf("ParseNodes(%q) accepted", bad)
		}
	}
	if rs, err := ParseNodes(""); err != nil || rs != nil {
		t.Error("empty nodes")
	}
}

func TestSizeClass(t *testing.T) {
	for p, want := range map[int64]int{1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 128: 7, 129: 8, 0: -1} {
		if got := SizeClass(p); got != want {
			t.Errorf("SizeClass(%d) = %d, want %d", p, got, want)
		}
	}
	if SizeClassLabel(3) != "5-8" || SizeClassLabel(0) != "1" || SizeClassLabel(1) != "2" {
		t.Error("labels")
	}
}

func TestTimeAverage(t *testing.T) {
	// 0 on [0,2), 4 on [2,3), 1 from 3 on: over [0,5] → (0*2 + 4*1 + 1*2)/5.
	got := TimeAverage([]float64{0, 2, 3}, []float64{0, 4, 1}, 0, 5)
	if math.Abs(got-6.0/5) > 1e-12 {
		t.Errorf("TimeAverage = %v", got)
	}
	// Window inside: [2.5, 3.5] → (4*0.5 + 1*0.5)/1.
	if got := TimeAverage([]float64{0, 2, 3}, []float64{0, 4, 1}, 2.5, 3.5); math.Abs(got-2.5) > 1e-12 {
		t.Errorf("window = %v", got)
	}
}

func TestTimeAveragedFragmentation(t *testing.T) {
	// 8 processors. [0,2): job A on 2-3 → free 0-1, 4-7: 1 − (4+16)/36.
	// [2,4): A and B (6-7) → free 0-1, 4-5: 1 − 8/16 = 0.5.
	// B ends at 4 and nothing else runs: the horizon is [0, 4].
	a := Interval{Start: 0, End: 4, Nodes: []Range{{2, 3}}}
	b := Interval{Start: 2, End: 4, Nodes: []Range{{6, 7}}}
	got := TimeAveragedFragmentation(8, []Interval{a, b})
	want := (2*(1-20.0/36) + 2*0.5) / 4
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("got %v, want %v", got, want)
	}
	// A contiguous packing from processor 0 never fragments.
	c := Interval{Start: 0, End: 5, Nodes: []Range{{0, 3}}}
	if f := TimeAveragedFragmentation(8, []Interval{c}); f != 0 {
		t.Errorf("contiguous: %v", f)
	}
}
