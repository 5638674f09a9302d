// Package plot draws the report's figures with gonum/plot: consistent
// per-pair styles (colour, marker and dash pattern, readable in grayscale),
// figures whose legend sits on its own strip below the plot area so that
// many policy pairs fit, and the plotters the report needs beyond gonum's
// (grouped bars with markers, occupancy rectangles, error bars).
package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgeps"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/schedlab/schedlab/trace"
)

// Palette is the Okabe–Ito colour-blind-safe palette without its yellow
// (too light on white), ordered so that neighbours differ in lightness.
var Palette = []color.Color{
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
	color.RGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.RGBA{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	color.RGBA{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	color.RGBA{0x00, 0x9e, 0x73, 0xff}, // bluish green
	color.RGBA{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
}

// Shapes are the marker shapes, distinct in grayscale.
var Shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.PlusGlyph{},
}

// Dashes are the line dash patterns.
var Dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
	{vg.Points(1), vg.Points(3)},
}

// Style is how one policy pair is drawn in every figure.
type Style struct {
	Color  color.Color
	Shape  draw.GlyphDrawer
	Dashes []vg.Length
}

// StyleOf returns the i-th style. Colour, shape and dash cycle with
// co-prime periods (7, 8, 5), so the first 280 styles are all distinct
// and neighbouring pairs differ in all three.
func StyleOf(i int) Style {
	return Style{Color: Palette[i%len(Palette)], Shape: Shapes[i%len(Shapes)], Dashes: Dashes[i%len(Dashes)]}
}

// Line returns the line style of s.
func (s Style) Line() draw.LineStyle {
	return draw.LineStyle{Color: s.Color, Width: vg.Points(1.2), Dashes: s.Dashes}
}

// Glyph returns the marker style of s.
func (s Style) Glyph() draw.GlyphStyle {
	return draw.GlyphStyle{Color: s.Color, Radius: vg.Points(3), Shape: s.Shape}
}

// Entry is one legend entry.
type Entry struct {
	Label  string
	Style  Style
	Bar    bool // draw a filled box rather than a line
	NoLine bool // draw only the marker
}

// Font returns the report font (Liberation Sans) at the given size.
func Font(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// TextStyle returns a plain text style of the report font.
func TextStyle(size vg.Length) text.Style {
	return text.Style{Color: color.Black, Font: Font(size), Handler: plot.DefaultTextHandler}
}

// New returns a plot with the report's fonts and a light grid.
func New(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = Font(12)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = Font(10)
		a.Tick.Label.Font = Font(9)
	}
	p.X.Padding, p.Y.Padding = vg.Points(4), vg.Points(4)
	p.X.Tick.Marker, p.Y.Tick.Marker = Ticks{}, Ticks{}
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{0xdd}
	g.Horizontal.Color = color.Gray{0xdd}
	p.Add(g)
	return p
}

// Figure is a plot with an external legend strip below it.
type Figure struct {
	Name   string // file stem (no extension)
	Plot   *plot.Plot
	Legend []Entry
	Note   string // one line of small text under the legend (data selection, truncation)
}

const (
	legendFont  = 9
	thumbWidth  = 26
	entryGap    = 12
	legendPad   = 6
	lineSpacing = 1.35
)

// legendLayout returns the number of columns, rows and the strip height
// for the legend at width w.
func (f *Figure) legendLayout(w vg.Length) (cols, rows int, colW, h vg.Length) {
	ts := TextStyle(legendFont)
	if len(f.Legend) == 0 {
		if f.Note != "" {
			return 0, 0, 0, ts.Height("A")*lineSpacing + 2*legendPad
		}
		return 0, 0, 0, 0
	}
	var maxw vg.Length
	for _, e := range f.Legend {
		maxw = max(maxw, ts.Width(e.Label))
	}
	colW = thumbWidth + 4 + maxw + entryGap
	avail := w - 2*legendPad
	cols = max(1, int(avail/colW))
	cols = min(cols, len(f.Legend))
	if colW > avail {
		colW = avail
	}
	rows = (len(f.Legend) + cols - 1) / cols
	lh := ts.Height("A") * lineSpacing
	h = vg.Length(rows)*lh + 2*legendPad
	if f.Note != "" {
		h += lh
	}
	return cols, rows, colW, h
}

// Draw draws the figure on c: the plot on top, the legend strip below.
func (f *Figure) Draw(c draw.Canvas) {
	w := c.Max.X - c.Min.X
	cols, rows, colW, lh := f.legendLayout(w)
	top := draw.Crop(c, 0, 0, lh, 0)
	f.Plot.Draw(top)
	if lh == 0 {
		return
	}
	ts := TextStyle(legendFont)
	line := ts.Height("A") * lineSpacing
	y0 := c.Min.Y + lh - legendPad - line/2
	// Centre the block of columns.
	x0 := c.Min.X + (w-vg.Length(cols)*colW)/2
	for i, e := range f.Legend {
		col, row := i/rows, i%rows // column-major: reads down then across
		x := x0 + vg.Length(col)*colW
		y := y0 - vg.Length(row)*line
		drawThumb(&c, e, x, y)
		label := FitText(ts, e.Label, colW-thumbWidth-4-entryGap/2)
		st := ts
		st.YAlign = draw.YCenter
		c.FillText(st, vg.Point{X: x + thumbWidth + 4, Y: y}, label)
	}
	if f.Note != "" {
		st := TextStyle(legendFont - 1)
		st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
		st.Color = color.Gray{0x40}
		c.FillText(st, vg.Point{X: c.Min.X + w/2, Y: y0 - vg.Length(rows)*line}, FitText(st, f.Note, w-2*legendPad))
	}
}

func drawThumb(c *draw.Canvas, e Entry, x, y vg.Length) {
	if e.Bar {
		r := vg.Points(4)
		pts := []vg.Point{{X: x + 6, Y: y - r}, {X: x + thumbWidth - 6, Y: y - r}, {X: x + thumbWidth - 6, Y: y + r}, {X: x + 6, Y: y + r}}
		c.FillPolygon(e.Style.Color, pts)
		c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}, append(pts, pts[0]))
		if e.Style.Shape != nil {
			g := e.Style.Glyph()
			g.Color = color.White
			g.Radius = vg.Points(2.5)
			c.DrawGlyphNoClip(g, vg.Point{X: x + thumbWidth/2, Y: y})
		}
		return
	}
	if !e.NoLine {
		c.StrokeLine2(e.Style.Line(), x, y, x+thumbWidth, y)
	}
	if e.Style.Shape != nil {
		c.DrawGlyphNoClip(e.Style.Glyph(), vg.Point{X: x + thumbWidth/2, Y: y})
	}
}

// FitText shortens s with an ellipsis so that it fits in width w.
func FitText(ts text.Style, s string, w vg.Length) string {
	if ts.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if t := string(r) + "…"; ts.Width(t) <= w {
			return t
		}
	}
	return s
}

// Formats are the figure formats Save understands.
var Formats = []string{"svg", "png", "eps", "pdf"}

// Save writes the figure to path (atomically) in the format given by its
// extension (.svg, .png, .eps, .pdf) at size w × h.
func (f *Figure) Save(path string, w, h vg.Length) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	var cw vg.CanvasWriterTo
	switch ext {
	case "svg":
		cw = vgsvg.New(w, h)
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(150))}
	case "eps":
		cw = vgeps.NewTitle(w, h, f.Name)
	case "pdf":
		cw = NewPDF(w, h)
	default:
		return fmt.Errorf("%s: unknown figure format %q (want svg, png, eps or pdf)", path, ext)
	}
	f.Draw(draw.New(cw))
	return trace.AtomicWrite(path, func(wr io.Writer) error {
		_, err := cw.WriteTo(wr)
		return err
	})
}

// Bounds returns the finite minimum and maximum of xs (NaN, NaN when none).
func Bounds(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if lo > hi {
		return math.NaN(), math.NaN()
	}
	return lo, hi
}
