package plot

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	goplot "gonum.org/v1/plot"
)

func TestStylesDistinct(t *testing.T) {
	seen := map[[3]int]int{}
	for i := range 280 {
		k := [3]int{i % len(Palette), i % len(Shapes), i % len(Dashes)}
		if j, ok := seen[k]; ok {
			t.Fatalf("styles %d and %d equal", i, j)
		}
		seen[k] = i
		s := StyleOf(i)
		if s.Color != Palette[k[0]] || s.Shape != Shapes[k[1]] {
			t.Fatalf("StyleOf(%d)", i)
		}
	}
	// Neighbours differ in colour, shape and dash.
	for i := range 50 {
		a, b := StyleOf(i), StyleOf(i+1)
		if a.Color == b.Color || a.Shape == b.Shape || len(a.Dashes) == len(b.Dashes) && (len(a.Dashes) == 0 || a.Dashes[0] == b.Dashes[0]) {
			t.Errorf("styles %d and %d too alike", i, i+1)
		}
	}
}

// The one ECDF of the PDF and report serve: ties collapse to their last
// rank, thinning keeps the values at ranks ⌈k n / max⌉.
func TestECDFSorted(t *testing.T) {
	xs, ys := ECDFSorted([]float64{0, 0, 1, 2, 2, 2, 5}, 10)
	if !slices.Equal(xs, []float64{0, 1, 2, 5}) || !slices.Equal(ys, []float64{2.0 / 7, 3.0 / 7, 6.0 / 7, 1}) {
		t.Errorf("ecdf = %v %v", xs, ys)
	}
	// Decimated: 1000 distinct values to 4 quantiles.
	vs := make([]float64, 1000)
	for i := range vs {
		vs[i] = float64(i)
	}
	xs, ys = ECDFSorted(vs, 4)
	if !slices.Equal(xs, []float64{249, 499, 749, 999}) || !slices.Equal(ys, []float64{0.25, 0.5, 0.75, 1}) {
		t.Errorf("decimated ecdf = %v %v", xs, ys)
	}
	if xs, _ := ECDFSorted(nil, 4); len(xs) != 0 {
		t.Error("empty")
	}
	// Each step's y is the fraction of values ≤ its x (brute force).
	r := []float64{3, 3, 3, 1, 7, 7, 2, 9, 9, 9, 9, 4}
	x, y := ECDF(r, 5)
	for i := range x {
		n := 0
		for _, v := range r {
			if v <= x[i] {
				n++
			}
		}
		if y[i] != float64(n)/float64(len(r)) {
			t.Errorf("step (%v, %v): %d of %d values are ≤ x", x[i], y[i], n, len(r))
		}
	}
	if QuantileSorted([]float64{1, 2, 3, 4}, 0.5) != 2 || QuantileSorted([]float64{1, 2, 3, 4}, 0.99) != 4 {
		t.Error("nearest-rank quantiles")
	}
}

func TestECDFAndQuantile(t *testing.T) {
	x, y := ECDF([]float64{3, 1, 2, 4}, 0)
	if len(x) != 4 || x[0] != 1 || x[3] != 4 || y[0] != 0.25 || y[3] != 1 {
		t.Errorf("ECDF %v %v", x, y)
	}
	x, y = ECDF([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5)
	if len(x) != 5 || x[0] != 2 || y[0] != 0.2 || x[4] != 10 || y[4] != 1 {
		t.Errorf("thinned ECDF %v %v", x, y)
	}
	if q := Quantile([]float64{5, 1, 3, 2, 4}, 0.5); q != 3 {
		t.Errorf("median %v", q)
	}
}

// Downsampling a step function into bins preserves its integral.
func TestDownsampleArea(t *testing.T) {
	ts := []float64{0, 1.5, 2, 7.25, 9}
	vs := []float64{2, 0, 5, 1, 3}
	xs, ys := Downsample(ts, vs, 0, 10, 7)
	area := 0.0
	for _, y := range ys {
		area += y * 10.0 / 7
	}
	want := 2*1.5 + 0*0.5 + 5*5.25 + 1*1.75 + 3*1
	if math.Abs(area-want) > 1e-9 || len(xs) != 7 || math.Abs(xs[0]-10.0/14) > 1e-12 {
		t.Errorf("area %v, want %v", area, want)
	}
	// A constant function stays constant.
	_, ys = Downsample([]float64{0}, []float64{4}, 0, 3, 10)
	for _, y := range ys {
		if math.Abs(y-4) > 1e-12 {
			t.Fatalf("constant: %v", ys)
		}
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.3: "0.3", 2500: "2500", 7.5e6: "7.5e6", 1e-5: "1e-5", -1234567: "-1.235e6", 250000: "250000"} {
		if got := Compact(v); got != want {
			t.Errorf("Compact(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestErrorRange(t *testing.T) {
	lo, hi, clipped := ErrorRange([]float64{10, 20}, []float64{1, 2})
	if clipped || lo > 9 || hi < 22 || hi > 23 {
		t.Errorf("moderate bars: %v %v %v", lo, hi, clipped)
	}
	lo, hi, clipped = ErrorRange([]float64{10, 20}, []float64{100, 100})
	if !clipped || lo != 7.5 || hi != 22.5 {
		t.Errorf("wide bars: %v %v %v", lo, hi, clipped)
	}
}

func TestToCP1252(t *testing.T) {
	if got := ToCP1252("a ± b²…τ"); got != "a \xb1 b\xb2\x85?" {
		t.Errorf("%q", got)
	}
	if ToCP1252("plain") != "plain" {
		t.Error("ASCII changed")
	}
}

func TestFigureSaveAndLegendLayout(t *testing.T) {
	p := New("title", "x (s)", "y (jobs)")
	f := &Figure{Name: "f", Plot: p, Note: "note"}
	for i := range 25 {
		f.Legend = append(f.Legend, Curve(p, strings.Repeat("pair", 1+i%3)+string(rune('a'+i)), StyleOf(i), []float64{0, 1}, []float64{float64(i), float64(i + 1)}, []float64{0.5, 0.5}, 0))
	}
	cols, rows, colW, h := f.legendLayout(7 * vg.Inch)
	if cols*rows < 25 || vg.Length(cols)*colW > 7*vg.Inch || h <= 0 || h > 5*vg.Inch/2 {
		t.Errorf("layout %d×%d, column %v, height %v", cols, rows, colW, h)
	}
	// Every label fits its column.
	ts := TextStyle(legendFont)
	for _, e := range f.Legend {
		if thumbWidth+4+ts.Width(e.Label) > colW {
			t.Errorf("label %q wider than its column", e.Label)
		}
	}
	dir := t.TempDir()
	for _, ext := range Formats {
		path := filepath.Join(dir, "f."+ext)
		if err := f.Save(path, 6*vg.Inch, 4*vg.Inch); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(path); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", path, err)
		}
	}
	if err := f.Save(filepath.Join(dir, "f.jpg"), 6*vg.Inch, 4*vg.Inch); err == nil || !strings.Contains(err.Error(), "unknown figure format") {
		t.Errorf("jpg: %v", err)
	}
}

// Steps that start exactly on bin edges (computed the way Downsample computes
// them) must not pile their area into one bin: every bin average stays within
// the step function's range, and the integral is preserved.
func TestDownsampleBinEdges(t *testing.T) {
	t0, t1, bins := 123.456, 9876.5432, 200
	w := (t1 - t0) / float64(bins)
	var ts, vs []float64
	for k := 0; k < bins; k += 3 {
		ts = append(ts, t0+float64(k)*w)
		vs = append(vs, float64(k%7))
	}
	_, ys := Downsample(ts, vs, t0, t1, bins)
	area, want := 0.0, 0.0
	for _, y := range ys {
		if y < -1e-9 || y > 6+1e-9 {
			t.Fatalf("bin average %v outside [0, 6]", y)
		}
		area += y * w
	}
	for i := range ts {
		e := t1
		if i+1 < len(ts) {
			e = ts[i+1]
		}
		want += vs[i] * (e - ts[i])
	}
	if math.Abs(area-want) > 1e-6*want {
		t.Fatalf("area %v, want %v", area, want)
	}
}

// TestTicksDensity: a full-page axis gets five to ten labelled ticks at a
// nice step, in range, with labels free of rounding noise (gonum's default
// gave only three labels: 0.3, 0.6, 0.9 on a utilization axis).
func TestTicksDensity(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{0.19, 0.93, []string{"0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}},
		{0, 3900, []string{"0", "500", "1000", "1500", "2000", "2500", "3000", "3500"}},
		{0, 17500, []string{"0", "2500", "5000", "7500", "10000", "12500", "15000", "17500"}},
		{0, 1, []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
		{-3e-4, 3.2e-3, []string{"0", "0.0005", "0.001", "0.0015", "0.002", "0.0025", "0.003"}},
	} {
		var got []string
		minors := 0
		for _, tk := range (Ticks{}).Ticks(c.min, c.max) {
			if tk.Value < c.min-1e-12 || tk.Value > c.max+1e-12 {
				t.Errorf("[%v, %v]: tick %v out of range", c.min, c.max, tk.Value)
			}
			if tk.Label == "" {
				minors++
			} else {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("[%v, %v]: labels %q, want %q", c.min, c.max, got, c.want)
		}
		if minors == 0 {
			t.Errorf("[%v, %v]: no minor ticks", c.min, c.max)
		}
	}
}

// Occupancy rectangles shaded by a negative job number draw without
// panicking (the shade index wraps like a positive one).
func TestOccupancyNegativeShade(t *testing.T) {
	p := New("occ", "t", "p")
	p.Add(&Occupancy{Rects: []Rect{{T0: 0, T1: 1, Lo: 0, Hi: 3, Shade: -1}, {T0: 1, T1: 2, Lo: 0, Hi: 3, Shade: -7}}})
	c := NewPDF(200, 200)
	p.Draw(draw.New(c))
}

// An error bar reaching 0 or below on a log axis is drawn to the axis's
// bottom instead of panicking.
func TestErrorBarOnLogAxis(t *testing.T) {
	p := New("t", "x", "y")
	p.Y.Scale = goplot.LogScale{}
	p.Y.Min, p.Y.Max = 0.5, 2000
	Curve(p, "a", Style{}, []float64{1, 2}, []float64{1, 1000}, []float64{5, 10}, 0)
	c := vgimg.New(200, 200)
	p.Draw(draw.New(c))
}
