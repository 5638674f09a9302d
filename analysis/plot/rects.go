package plot

import (
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Block is one filled rectangle of a mesh map: the W×H nodes whose
// lower-left node is (X, Y).
type Block struct {
	X, Y, W, H int
	Shade      int    // selects the fill colour (e.g. a job number; negative ones too)
	Label      string // drawn inside the block when it fits; "" for none
	// Group, when nonzero, makes the blocks that share it one object (the
	// pieces of one job): no outline is drawn between two of its nodes,
	// and only its largest block that can hold the label is labelled.
	Group int
}

// MapColors are the fill colours of mesh-map blocks: ColorBrewer's Set3
// (Harrower & Brewer, "ColorBrewer.org: an online tool for selecting
// colour schemes for maps", 2003) without its pale yellow and gray, which
// read as free nodes; light enough for black outlines and labels.
var MapColors = []color.Color{
	color.RGBA{0x8d, 0xd3, 0xc7, 0xff},
	color.RGBA{0xfb, 0x80, 0x72, 0xff},
	color.RGBA{0xbe, 0xba, 0xda, 0xff},
	color.RGBA{0xfd, 0xb4, 0x62, 0xff},
	color.RGBA{0x80, 0xb1, 0xd3, 0xff},
	color.RGBA{0xb3, 0xde, 0x69, 0xff},
	color.RGBA{0xfc, 0xcd, 0xe5, 0xff},
	color.RGBA{0xbc, 0x80, 0xbd, 0xff},
	color.RGBA{0xcc, 0xeb, 0xc5, 0xff},
	color.RGBA{0xff, 0xed, 0x6f, 0xff},
}

// MeshMap draws a W×H mesh of nodes, node (x, y) the unit square
// [x, x+1]×[y, y+1]: free nodes white, Blocks filled in MapColors and
// outlined, light grid lines between nodes when a node is at least
// FineGrid wide on the canvas, darker ones every MajorGrid nodes, and the
// mesh border.
type MeshMap struct {
	W, H   int
	Blocks []Block
}

// Grid spacing of a mesh map.
const (
	MajorGrid = 8               // nodes between the darker grid lines
	FineGrid  = vg.Length(3)    // smallest node width (points) with a line between every node
	labelFont = vg.Length(5.5)  // block labels
	blockEdge = vg.Length(0.45) // block outline width
)

// Plot implements plot.Plotter.
func (m *MeshMap) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	x0, x1, y0, y1 := trX(0), trX(float64(m.W)), trY(0), trY(float64(m.H))
	c.FillPolygon(color.White, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	fine := draw.LineStyle{Color: color.Gray{0xdd}, Width: vg.Points(0.25)}
	major := draw.LineStyle{Color: color.Gray{0xa0}, Width: vg.Points(0.5)}
	every := trX(1)-trX(0) >= FineGrid
	for x := 1; x < m.W; x++ {
		if x%MajorGrid == 0 {
			c.StrokeLine2(major, trX(float64(x)), y0, trX(float64(x)), y1)
		} else if every {
			c.StrokeLine2(fine, trX(float64(x)), y0, trX(float64(x)), y1)
		}
	}
	for y := 1; y < m.H; y++ {
		if y%MajorGrid == 0 {
			c.StrokeLine2(major, x0, trY(float64(y)), x1, trY(float64(y)))
		} else if every {
			c.StrokeLine2(fine, x0, trY(float64(y)), x1, trY(float64(y)))
		}
	}
	edge := draw.LineStyle{Color: color.Black, Width: blockEdge}
	ls := TextStyle(labelFont)
	ls.XAlign, ls.YAlign = draw.XCenter, draw.YCenter
	n := len(MapColors)
	group := m.groups()
	for _, b := range m.Blocks {
		bx0, bx1 := trX(float64(b.X)), trX(float64(b.X+b.W))
		by0, by1 := trY(float64(b.Y)), trY(float64(b.Y+b.H))
		pts := []vg.Point{{X: bx0, Y: by0}, {X: bx1, Y: by0}, {X: bx1, Y: by1}, {X: bx0, Y: by1}}
		c.FillPolygon(MapColors[(b.Shade%n+n)%n], c.ClipPolygonXY(pts))
	}
	for _, b := range m.Blocks {
		if b.Group == 0 {
			bx0, bx1 := trX(float64(b.X)), trX(float64(b.X+b.W))
			by0, by1 := trY(float64(b.Y)), trY(float64(b.Y+b.H))
			pts := []vg.Point{{X: bx0, Y: by0}, {X: bx1, Y: by0}, {X: bx1, Y: by1}, {X: bx0, Y: by1}}
			c.StrokeLines(edge, c.ClipLinesXY(append(pts, pts[0]))...)
			continue
		}
		for _, seg := range m.outline(b, group) {
			c.StrokeLines(edge, c.ClipLinesXY([]vg.Point{
				{X: trX(float64(seg[0])), Y: trY(float64(seg[1]))}, {X: trX(float64(seg[2])), Y: trY(float64(seg[3]))}})...)
		}
	}
	fits := func(b Block) bool {
		return b.Label != "" && ls.Width(b.Label)+2 <= trX(float64(b.X+b.W))-trX(float64(b.X)) && ls.Height(b.Label) <= trY(float64(b.Y+b.H))-trY(float64(b.Y))
	}
	labelled := map[int]bool{}
	for _, i := range m.labelOrder() {
		b := m.Blocks[i]
		if !fits(b) || (b.Group != 0 && labelled[b.Group]) {
			continue
		}
		labelled[b.Group] = b.Group != 0
		c.FillText(ls, vg.Point{X: (trX(float64(b.X)) + trX(float64(b.X+b.W))) / 2, Y: (trY(float64(b.Y)) + trY(float64(b.Y+b.H))) / 2}, b.Label)
	}
	c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.9)},
		[]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
}

// groups returns the Group of every node (y·W + x) a block covers, 0
// elsewhere.
func (m *MeshMap) groups() []int {
	g := make([]int, m.W*m.H)
	for _, b := range m.Blocks {
		for y := max(b.Y, 0); y < min(b.Y+b.H, m.H); y++ {
			for x := max(b.X, 0); x < min(b.X+b.W, m.W); x++ {
				g[y*m.W+x] = b.Group
			}
		}
	}
	return g
}

// outline returns the edges of block b, in node units (x0, y0, x1, y1),
// that do not face a node of b's own group: maximal runs of unit
// segments along each side.
func (m *MeshMap) outline(b Block, group []int) [][4]int {
	other := func(x, y int) bool { // node (x, y) is outside b's group
		return x < 0 || y < 0 || x >= m.W || y >= m.H || group[y*m.W+x] != b.Group
	}
	var segs [][4]int
	// side runs along one side of b: n unit segments, the k-th from
	// start(k) to end(k), drawn where out(k).
	side := func(n int, out func(k int) bool, seg func(k0, k1 int) [4]int) {
		for k := 0; k < n; {
			if !out(k) {
				k++
				continue
			}
			k0 := k
			for k < n && out(k) {
				k++
			}
			segs = append(segs, seg(k0, k))
		}
	}
	x0, y0, x1, y1 := b.X, b.Y, b.X+b.W, b.Y+b.H
	side(b.W, func(k int) bool { return other(x0+k, y0-1) }, func(a, z int) [4]int { return [4]int{x0 + a, y0, x0 + z, y0} })
	side(b.W, func(k int) bool { return other(x0+k, y1) }, func(a, z int) [4]int { return [4]int{x0 + a, y1, x0 + z, y1} })
	side(b.H, func(k int) bool { return other(x0-1, y0+k) }, func(a, z int) [4]int { return [4]int{x0, y0 + a, x0, y0 + z} })
	side(b.H, func(k int) bool { return other(x1, y0+k) }, func(a, z int) [4]int { return [4]int{x1, y0 + a, x1, y0 + z} })
	return segs
}

// labelOrder returns the blocks' indices, the largest first (stable), so
// that a group is labelled on its largest block that holds the label.
func (m *MeshMap) labelOrder() []int {
	idx := make([]int, len(m.Blocks))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return m.Blocks[idx[a]].W*m.Blocks[idx[a]].H > m.Blocks[idx[b]].W*m.Blocks[idx[b]].H
	})
	return idx
}

// DataRange implements plot.DataRanger.
func (m *MeshMap) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(m.W), 0, float64(m.H)
}

// MeshTicks labels node boundaries 0, s, 2s, ... where the step s is the
// smallest power of two giving at most four steps across the mesh's larger
// side N (8 on a 32-wide mesh), so that ticks fall on the MajorGrid lines
// when s ≥ 8.
type MeshTicks struct{ N int }

// Ticks implements plot.Ticker.
func (t MeshTicks) Ticks(lo, hi float64) []plot.Tick {
	s := 1
	for t.N/s > 4 {
		s *= 2
	}
	var ts []plot.Tick
	for v := int(math.Ceil(lo)); float64(v) <= hi; v++ {
		if v%s == 0 {
			ts = append(ts, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
		}
	}
	return ts
}

// NewMeshPlot returns a plot of a W×H mesh map: the report's fonts, the
// axes spanning the mesh exactly with MeshTicks, and no background grid
// (the map draws its own). Draw it on EqualAspect's canvas so that nodes
// are square.
func NewMeshPlot(title string, w, h int, blocks []Block) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = Font(9)
	p.Title.Padding = vg.Points(3)
	p.X.Label.Text, p.Y.Label.Text = "x", "y"
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = Font(8)
		a.Tick.Label.Font = Font(7)
		a.Padding = 0
		a.Tick.Marker = MeshTicks{N: max(w, h)}
	}
	p.X.Min, p.X.Max = 0, float64(w)
	p.Y.Min, p.Y.Max = 0, float64(h)
	p.Add(&MeshMap{W: w, H: h, Blocks: blocks})
	return p
}

// EqualAspect returns the part of c, centred, on which p draws one x unit
// as long as one y unit: c narrowed (or shortened) by what p's data area
// has in excess. The axes' sizes do not depend on the canvas, so one
// crop is exact.
func EqualAspect(p *plot.Plot, c draw.Canvas) draw.Canvas {
	dc := p.DataCanvas(c)
	xr, yr := p.X.Max-p.X.Min, p.Y.Max-p.Y.Min
	dw, dh := dc.Max.X-dc.Min.X, dc.Max.Y-dc.Min.Y
	if xr <= 0 || yr <= 0 || dw <= 0 || dh <= 0 {
		return c
	}
	scale := math.Min(float64(dw)/xr, float64(dh)/yr)
	ex, ey := dw-vg.Length(scale*xr), dh-vg.Length(scale*yr)
	return draw.Crop(c, ex/2, -ex/2, ey/2, -ey/2)
}
