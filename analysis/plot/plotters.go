package plot

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Curve adds to p a line with markers through (xs, ys) in style s, and
// vertical error bars of half-width hw where hw is finite and positive.
// Points whose y is not finite are skipped. Every x is shifted by dodge
// (in data units) so that the error bars of neighbouring curves do not
// coincide. It returns the legend entry.
func Curve(p *plot.Plot, label string, s Style, xs, ys, hw []float64, dodge float64) Entry {
	var pts plotter.XYs
	var eb errPoints
	for i := range xs {
		if math.IsNaN(ys[i]) || math.IsInf(ys[i], 0) {
			continue
		}
		pts = append(pts, plotter.XY{X: xs[i] + dodge, Y: ys[i]})
		if hw != nil && hw[i] > 0 && !math.IsNaN(hw[i]) && !math.IsInf(hw[i], 0) {
			eb.XYs = append(eb.XYs, plotter.XY{X: xs[i] + dodge, Y: ys[i]})
			eb.YErrors = append(eb.YErrors, struct{ Low, High float64 }{hw[i], hw[i]})
		}
	}
	if len(pts) > 0 {
		l, _ := plotter.NewLine(pts)
		l.LineStyle = s.Line()
		sc, _ := plotter.NewScatter(pts)
		sc.GlyphStyle = s.Glyph()
		p.Add(l, sc)
	}
	if len(eb.XYs) > 0 {
		eb.Line = draw.LineStyle{Color: s.Color, Width: vg.Points(0.8)}
		p.Add(&eb)
	}
	return Entry{Label: label, Style: s}
}

// errPoints draws vertical error bars clipped to the data area. It has no
// data range of its own: the caller decides whether the axis must include
// the bars' ends (see ErrorRange).
type errPoints struct {
	plotter.XYs
	plotter.YErrors
	Line draw.LineStyle
}

// Plot implements plot.Plotter.
func (e *errPoints) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	cw := vg.Points(2.5)
	_, logY := plt.Y.Scale.(plot.LogScale)
	for i, p := range e.XYs {
		x := trX(p.X)
		low := p.Y - e.YErrors[i].Low
		if logY && low <= 0 {
			// A log axis has no place for a bar's end at or below 0: the
			// bar runs to the axis's bottom (clipped, as the note says).
			low = plt.Y.Min
		}
		lo, hi := trY(low), trY(p.Y+e.YErrors[i].High)
		c.StrokeLines(e.Line, c.ClipLinesXY([]vg.Point{{X: x, Y: lo}, {X: x, Y: hi}})...)
		for _, y := range []vg.Length{lo, hi} {
			if c.ContainsY(y) && c.ContainsX(x) {
				c.StrokeLine2(e.Line, x-cw, y, x+cw, y)
			}
		}
	}
}

// ErrorRange returns the y range a metric-vs-x figure should show, given
// the curves' means and half-widths: the means' range extended to the
// error bars' ends, unless the bars are so wide (more than three times the
// means' range, as with two replications) that the curves would be
// squashed; then the means' range padded by 25% and clipped = true.
func ErrorRange(means, hw []float64) (lo, hi float64, clipped bool) {
	mlo, mhi := Bounds(means)
	if math.IsNaN(mlo) {
		return 0, 1, false
	}
	lo, hi = mlo, mhi
	for i, m := range means {
		if math.IsNaN(m) || math.IsInf(m, 0) || i >= len(hw) || math.IsNaN(hw[i]) || math.IsInf(hw[i], 0) {
			continue
		}
		lo, hi = math.Min(lo, m-hw[i]), math.Max(hi, m+hw[i])
	}
	r := mhi - mlo
	if r == 0 {
		r = math.Max(math.Abs(mhi), 1)
	}
	if hi-lo > 3*r {
		return mlo - 0.25*r, mhi + 0.25*r, true
	}
	pad := 0.03 * (hi - lo)
	return lo - pad, hi + pad, false
}

// Step adds a right-continuous step line through (xs, ys) (value ys[i] from
// xs[i] to xs[i+1]) without markers, and returns the legend entry (line
// only, marker kept in the legend for grayscale reading). A NaN y leaves
// a gap: nothing is drawn from its x to the next finite point (a run that
// has ended, a bin without data).
func Step(p *plot.Plot, label string, s Style, xs, ys []float64) Entry {
	segs, ms := stepSegments(xs, ys)
	for _, seg := range segs {
		l, _ := plotter.NewLine(seg)
		l.LineStyle = s.Line()
		l.LineStyle.Width = vg.Points(1)
		p.Add(l)
	}
	if len(ms) > 0 {
		sc, _ := plotter.NewScatter(ms)
		sc.GlyphStyle = s.Glyph()
		p.Add(sc)
	}
	return Entry{Label: label, Style: s}
}

// stepSegments returns the polylines of the step function (xs, ys), split
// at NaN values, and at most 8 marker positions spread over its points.
func stepSegments(xs, ys []float64) (segs []plotter.XYs, marks plotter.XYs) {
	var cur plotter.XYs
	n := 0
	for i := range xs {
		if math.IsNaN(ys[i]) || math.IsInf(ys[i], 0) {
			if len(cur) > 0 {
				cur = append(cur, plotter.XY{X: xs[i], Y: cur[len(cur)-1].Y})
				segs = append(segs, cur)
				cur = nil
			}
			continue
		}
		if len(cur) > 0 {
			cur = append(cur, plotter.XY{X: xs[i], Y: cur[len(cur)-1].Y})
		}
		cur = append(cur, plotter.XY{X: xs[i], Y: ys[i]})
		n++
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	// Sparse markers so the curve can be identified in grayscale.
	stride := max(1, n/8)
	k := 0
	for i := range xs {
		if math.IsNaN(ys[i]) || math.IsInf(ys[i], 0) {
			continue
		}
		if k%stride == stride/2 {
			marks = append(marks, plotter.XY{X: xs[i], Y: ys[i]})
		}
		k++
	}
	return segs, marks
}

// ECDF returns the empirical distribution function of xs (NaNs left out)
// as step points: ECDFSorted of the sorted values. The report's PDF and
// report serve's page both draw their CDFs with it.
func ECDF(xs []float64, n int) (x, y []float64) {
	s := make([]float64, 0, len(xs))
	for _, v := range xs {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	sort.Float64s(s)
	return ECDFSorted(s, n)
}

// ECDFSorted returns the steps of the empirical distribution of sorted
// values: x the distinct values (at most n of them, chosen at evenly
// spaced ranks ⌈k·len/n⌉ when there are more; every one when n ≤ 0) and
// y the fraction of values ≤ x. It is nil for no values.
func ECDFSorted(vs []float64, n int) (xs, ys []float64) {
	m := len(vs)
	if m == 0 {
		return nil, nil
	}
	add := func(i int) {
		// The last index of vs[i]'s run of equal values.
		j := sort.Search(m, func(k int) bool { return vs[k] > vs[i] }) - 1
		if len(xs) > 0 && xs[len(xs)-1] == vs[j] {
			return
		}
		xs, ys = append(xs, vs[j]), append(ys, float64(j+1)/float64(m))
	}
	if n <= 0 || m <= n {
		for i := range vs {
			add(i)
		}
		return xs, ys
	}
	for k := 1; k <= n; k++ {
		add((k*m+n-1)/n - 1) // ⌈k m / n⌉ − 1
	}
	return xs, ys
}

// Quantile returns the q-quantile (nearest rank) of xs.
func Quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return QuantileSorted(s, q)
}

// QuantileSorted returns the q-quantile (nearest rank: the value of rank
// ⌈q·len⌉) of sorted values; NaN when there are none.
func QuantileSorted(vs []float64, q float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(q*float64(len(vs)))) - 1
	return vs[min(max(i, 0), len(vs)-1)]
}

// Downsample returns the time averages of the right-continuous step
// function (t[i], v[i]) over bins equal bins of [t0, t1], at the bin
// centres. Before t[0] the function is 0.
func Downsample(t, v []float64, t0, t1 float64, bins int) (x, y []float64) {
	if bins < 1 || t1 <= t0 {
		return nil, nil
	}
	w := (t1 - t0) / float64(bins)
	x = make([]float64, bins)
	y = make([]float64, bins)
	for b := range x {
		x[b] = t0 + (float64(b)+0.5)*w
	}
	for i := range t {
		a := math.Max(t[i], t0)
		e := t1
		if i+1 < len(t) {
			e = math.Min(t[i+1], t1)
		}
		for a < e {
			b := min(int((a-t0)/w), bins-1)
			for b < bins-1 && t0+float64(b+1)*w <= a { // a sits on a bin's upper edge
				b++
			}
			end := e
			if b < bins-1 {
				end = math.Min(e, t0+float64(b+1)*w)
			}
			y[b] += v[i] * (end - a)
			a = end
		}
	}
	for b := range y {
		y[b] /= w
	}
	return x, y
}

// Bars draws groups of bars: group g (at x = g) holds one bar per series,
// side by side, each filled in its series' colour with its marker on top
// (so bars stay distinguishable in grayscale).
type Bars struct {
	Values [][]float64 // [series][group]; NaN draws nothing
	Styles []Style     // one per series
	Width  float64     // total width of a group, in x units (≤ 1)
}

// Plot implements plot.Plotter.
func (b *Bars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	n := len(b.Values)
	if n == 0 {
		return
	}
	bw := b.Width / float64(n)
	_, logY := plt.Y.Scale.(plot.LogScale)
	for s, vals := range b.Values {
		for g, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			x0 := float64(g) - b.Width/2 + float64(s)*bw
			base := c.Min.Y // a log axis has no 0: bars start at the axis
			if !logY {
				base = trY(0)
			}
			FillBar(c, vg.Rectangle{Min: vg.Point{X: trX(x0), Y: base}, Max: vg.Point{X: trX(x0 + bw), Y: trY(v)}}, b.Styles[s])
			g := b.Styles[s].Glyph()
			g.Radius = vg.Points(2.2)
			pt := vg.Point{X: trX(x0 + bw/2), Y: trY(v) + vg.Points(4)}
			if c.Contains(pt) {
				c.DrawGlyph(g, pt)
			}
		}
	}
}

// DataRange implements plot.DataRanger.
func (b *Bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ng := 0
	ymax = math.Inf(-1)
	ymin = 0
	for _, vals := range b.Values {
		ng = max(ng, len(vals))
		for _, v := range vals {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				ymax = math.Max(ymax, v)
				ymin = math.Min(ymin, v)
			}
		}
	}
	if math.IsInf(ymax, -1) {
		ymax = 1
	}
	return -0.5, float64(ng) - 0.5, ymin, ymax * 1.06
}

// Rect is one occupancy rectangle: processors [Lo, Hi] held from T0 to T1.
type Rect struct {
	T0, T1 float64
	Lo, Hi float64
	Shade  int // selects the fill shade (any integer, e.g. a job number; negative ones too)
}

// Occupancy draws processor-occupancy rectangles (a Gantt chart of
// processors against time), filled in alternating gray shades and outlined.
type Occupancy struct {
	Rects []Rect
}

var shades = []color.Color{
	color.Gray{0x60}, color.Gray{0xa8}, color.Gray{0x84}, color.Gray{0xcc}, color.Gray{0x94}, color.Gray{0xbb},
}

// Plot implements plot.Plotter.
func (o *Occupancy) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	edge := draw.LineStyle{Color: color.Black, Width: vg.Points(0.3)}
	for _, r := range o.Rects {
		pts := []vg.Point{
			{X: trX(r.T0), Y: trY(r.Lo)}, {X: trX(r.T1), Y: trY(r.Lo)},
			{X: trX(r.T1), Y: trY(r.Hi + 1)}, {X: trX(r.T0), Y: trY(r.Hi + 1)},
		}
		cl := c.ClipPolygonXY(pts)
		if len(cl) == 0 {
			continue
		}
		n := len(shades)
		c.FillPolygon(shades[(r.Shade%n+n)%n], cl)
		c.StrokeLines(edge, c.ClipLinesXY(append(pts, pts[0]))...)
	}
}

// HBars draws one horizontal bar per row (row i at y = i) from 0 to
// Values[i] in Styles[i]'s colour, with the style's marker at the bar's
// end and a horizontal error bar of half-width HalfWidths[i] when finite.
type HBars struct {
	Values     []float64
	HalfWidths []float64 // nil or per row; NaN for none
	Styles     []Style
	Height     float64  // bar height in y units (≤ 1)
	Labels     []string // nil or per row: drawn right of the bar's marker (its value)
}

// Plot implements plot.Plotter.
func (b *HBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		y0, y1 := float64(i)-b.Height/2, float64(i)+b.Height/2
		_, logX := plt.X.Scale.(plot.LogScale)
		base := c.Min.X // a log axis has no 0: bars start at the axis
		if !logX {
			base = trX(0)
		}
		FillBar(c, vg.Rectangle{Min: vg.Point{X: base, Y: trY(y0)}, Max: vg.Point{X: trX(v), Y: trY(y1)}}, b.Styles[i])
		if b.HalfWidths != nil && b.HalfWidths[i] > 0 && !math.IsNaN(b.HalfWidths[i]) && !math.IsInf(b.HalfWidths[i], 0) {
			ls := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
			y := trY(float64(i))
			low := v - b.HalfWidths[i]
			if logX && low <= 0 {
				low = plt.X.Min // clipped at the axis
			}
			lo, hi := trX(low), trX(v+b.HalfWidths[i])
			c.StrokeLines(ls, c.ClipLinesXY([]vg.Point{{X: lo, Y: y}, {X: hi, Y: y}})...)
			for _, x := range []vg.Length{lo, hi} {
				c.StrokeLines(ls, c.ClipLinesXY([]vg.Point{{X: x, Y: y - vg.Points(3)}, {X: x, Y: y + vg.Points(3)}})...)
			}
		}
		g := b.Styles[i].Glyph()
		end := trX(v)
		if b.HalfWidths != nil && b.HalfWidths[i] > 0 && !math.IsInf(b.HalfWidths[i], 0) {
			end = max(end, trX(v+b.HalfWidths[i]))
		}
		pt := vg.Point{X: end + vg.Points(6), Y: trY(float64(i))}
		if c.Contains(pt) {
			c.DrawGlyph(g, pt)
		}
		if i < len(b.Labels) && b.Labels[i] != "" {
			ts := TextStyle(plt.Y.Tick.Label.Font.Size)
			ts.YAlign = draw.YCenter
			x := pt.X + vg.Points(6)
			if x+ts.Width(b.Labels[i]) > c.Max.X { // no room right of the bar: inside it
				ts.XAlign = draw.XRight
				ts.Color = hatchColor(b.Styles[i].Color)
				x = trX(v) - vg.Points(4)
				// A white box keeps the label legible over the hatch.
				w, h := ts.Width(b.Labels[i]), ts.Height(b.Labels[i])
				c.FillPolygon(color.White, []vg.Point{{X: x - w - 2, Y: pt.Y - h/2 - 1}, {X: x + 2, Y: pt.Y - h/2 - 1}, {X: x + 2, Y: pt.Y + h/2 + 1}, {X: x - w - 2, Y: pt.Y + h/2 + 1}})
				ts.Color = color.Black
			}
			c.FillText(ts, vg.Point{X: x, Y: pt.Y}, b.Labels[i])
		}
	}
}

// DataRange implements plot.DataRanger.
func (b *HBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmax = math.Inf(-1)
	for i, v := range b.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		hi := v
		if b.HalfWidths != nil && !math.IsNaN(b.HalfWidths[i]) && !math.IsInf(b.HalfWidths[i], 0) {
			hi += b.HalfWidths[i]
			xmin = math.Min(xmin, v-b.HalfWidths[i])
		}
		xmin = math.Min(xmin, v)
		xmax = math.Max(xmax, hi)
	}
	if math.IsInf(xmax, -1) {
		xmax = 1
	}
	return xmin, xmax * 1.06, -0.5, float64(len(b.Values)) - 0.5
}

// FillBar fills the rectangle r in s's colour, draws s's hatch over it
// (white on dark colours, black on light ones) and outlines it.
func FillBar(c draw.Canvas, r vg.Rectangle, s Style) {
	pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
	cl := c.ClipPolygonXY(pts)
	if len(cl) == 0 {
		return
	}
	c.FillPolygon(s.Color, cl)
	// The visible part of r.
	v := vg.Rectangle{Min: vg.Point{X: max(r.Min.X, c.Min.X), Y: max(r.Min.Y, c.Min.Y)}, Max: vg.Point{X: min(r.Max.X, c.Max.X), Y: min(r.Max.Y, c.Max.Y)}}
	if v.Max.X > v.Min.X && v.Max.Y > v.Min.Y {
		hs := draw.LineStyle{Color: hatchColor(s.Color), Width: vg.Points(0.6)}
		for _, seg := range hatchLines(v, s.Hatch, vg.Points(3.5)) {
			c.StrokeLine2(hs, seg[0].X, seg[0].Y, seg[1].X, seg[1].Y)
		}
	}
	c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.4)}, c.ClipLinesXY(append(pts, pts[0]))...)
}

// hatchColor is the hatch line colour over fill: white on dark fills,
// black on light ones.
func hatchColor(fill color.Color) color.Color {
	r, g, b, _ := fill.RGBA()
	if 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) < 0.5*0xffff {
		return color.White
	}
	return color.Black
}

// hatchLines returns the segments of hatch h inside r, spaced gap apart,
// anchored to the page (so that neighbouring bars' hatches line up).
func hatchLines(r vg.Rectangle, h Hatch, gap vg.Length) [][2]vg.Point {
	var out [][2]vg.Point
	horiz := func() {
		for y := vg.Length(math.Ceil(float64(r.Min.Y/gap))) * gap; y <= r.Max.Y; y += gap {
			out = append(out, [2]vg.Point{{X: r.Min.X, Y: y}, {X: r.Max.X, Y: y}})
		}
	}
	vert := func() {
		for x := vg.Length(math.Ceil(float64(r.Min.X/gap))) * gap; x <= r.Max.X; x += gap {
			out = append(out, [2]vg.Point{{X: x, Y: r.Min.Y}, {X: x, Y: r.Max.Y}})
		}
	}
	// diag draws the lines y = s·x + k (s = ±1) for k on the gap grid,
	// clipped to r.
	diag := func(s vg.Length) {
		step := gap * 1.4142
		kmin, kmax := r.Min.Y-s*r.Max.X, r.Max.Y-s*r.Min.X
		if s < 0 {
			kmin, kmax = r.Min.Y-s*r.Min.X, r.Max.Y-s*r.Max.X
		}
		for k := vg.Length(math.Ceil(float64(kmin/step))) * step; k <= kmax; k += step {
			// Intersect y = s·x + k with r.
			x0, x1 := r.Min.X, r.Max.X
			// y range constraint: Min.Y ≤ s·x + k ≤ Max.Y.
			xa, xb := (r.Min.Y-k)/s, (r.Max.Y-k)/s
			if xa > xb {
				xa, xb = xb, xa
			}
			x0, x1 = max(x0, xa), min(x1, xb)
			if x1 <= x0 {
				continue
			}
			out = append(out, [2]vg.Point{{X: x0, Y: s*x0 + k}, {X: x1, Y: s*x1 + k}})
		}
	}
	switch h {
	case Diagonal:
		diag(1)
	case AntiDiag:
		diag(-1)
	case Cross:
		diag(1)
		diag(-1)
	case Horiz:
		horiz()
	case Vert:
		vert()
	}
	return out
}
