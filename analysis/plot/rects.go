package plot

import (
	"image/color"
	"math"
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
	for _, b := range m.Blocks {
		bx0, bx1 := trX(float64(b.X)), trX(float64(b.X+b.W))
		by0, by1 := trY(float64(b.Y)), trY(float64(b.Y+b.H))
		pts := []vg.Point{{X: bx0, Y: by0}, {X: bx1, Y: by0}, {X: bx1, Y: by1}, {X: bx0, Y: by1}}
		c.FillPolygon(MapColors[(b.Shade%n+n)%n], c.ClipPolygonXY(pts))
		c.StrokeLines(edge, c.ClipLinesXY(append(pts, pts[0]))...)
		if b.Label != "" && ls.Width(b.Label)+2 <= bx1-bx0 && ls.Height(b.Label) <= by1-by0 {
			c.FillText(ls, vg.Point{X: (bx0 + bx1) / 2, Y: (by0 + by1) / 2}, b.Label)
		}
	}
	c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.9)},
		[]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
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
