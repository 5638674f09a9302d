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

// Hatch is the fill pattern drawn over a bar, so that bars stay apart in
// grayscale and when colours repeat.
type Hatch int

// Hatch patterns.
const (
	NoHatch  Hatch = iota
	Diagonal       // "/"
	AntiDiag       // "\\"
	Cross          // "x"
	Horiz          // "-"
	Vert           // "|"
)

// Hatches are the bar patterns in style order.
var Hatches = []Hatch{NoHatch, Diagonal, AntiDiag, Horiz, Cross, Vert}

// MaxCurves is the most curves (or bar series) a figure shows: the first
// MaxCurves styles differ in colour, marker, hatch and dash pattern
// (apart from the solid and 6th dash, which differ in all the others).
const MaxCurves = 6

// Style is how one policy pair is drawn in a figure.
type Style struct {
	Color  color.Color
	Shape  draw.GlyphDrawer
	Dashes []vg.Length
	Hatch  Hatch
}

// StyleOf returns the i-th style. Colour, shape, hatch and dash cycle with
// periods 7, 8, 6 and 5, so the first MaxCurves styles differ in colour,
// marker and hatch, and neighbouring styles differ in all four.
func StyleOf(i int) Style {
	return Style{Color: Palette[i%len(Palette)], Shape: Shapes[i%len(Shapes)], Dashes: Dashes[i%len(Dashes)], Hatch: Hatches[i%len(Hatches)]}
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

// Figure is a plot with an external legend strip below it, and
// optionally further panels stacked under the plot that share its legend
// and x axis range (small multiples: fewer lines per panel).
type Figure struct {
	Name   string // file stem (no extension)
	Plot   *plot.Plot
	Panels []*plot.Plot // drawn below Plot, in order, each as tall as Plot
	Legend []Entry
	Note   string // one line of small text under the legend (data selection, truncation)

	legendSize vg.Length // legend font size; 0: legendFont
}

const (
	legendFont  = 9
	thumbWidth  = 26
	entryGap    = 12
	legendPad   = 6
	lineSpacing = 1.35
)

func (f *Figure) legendFontSize() vg.Length {
	if f.legendSize > 0 {
		return f.legendSize
	}
	return legendFont
}

// legendLayout returns the number of columns, rows and the strip height
// for the legend at width w.
func (f *Figure) legendLayout(w vg.Length) (cols, rows int, colW, h vg.Length) {
	ts := TextStyle(f.legendFontSize())
	thumb := thumbWidth * f.legendFontSize() / legendFont
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
	colW = thumb + 4 + maxw + entryGap
	avail := w - 2*legendPad
	cols = max(1, int(avail/colW))
	cols = min(cols, len(f.Legend))
	// Balance the columns: as few rows as the columns allow, then as few
	// columns as those rows need (6 entries in 4 columns read worse than
	// in 3).
	rows = (len(f.Legend) + cols - 1) / cols
	cols = (len(f.Legend) + rows - 1) / rows
	if colW > avail {
		colW = avail
	}
	lh := ts.Height("A") * lineSpacing
	h = vg.Length(rows)*lh + 2*legendPad
	if f.Note != "" {
		h += lh
	}
	return cols, rows, colW, h
}

// Draw draws the figure on c: the plot (and panels) on top, the legend
// strip below.
func (f *Figure) Draw(c draw.Canvas) {
	w := c.Max.X - c.Min.X
	cols, rows, colW, lh := f.legendLayout(w)
	top := draw.Crop(c, 0, 0, lh, 0)
	f.drawPlots(top)
	if lh == 0 {
		return
	}
	fs := f.legendFontSize()
	thumb := thumbWidth * fs / legendFont
	ts := TextStyle(fs)
	line := ts.Height("A") * lineSpacing
	y0 := c.Min.Y + lh - legendPad - line/2
	// Centre the block of columns.
	x0 := c.Min.X + (w-vg.Length(cols)*colW)/2
	for i, e := range f.Legend {
		col, row := i/rows, i%rows // column-major: reads down then across
		x := x0 + vg.Length(col)*colW
		y := y0 - vg.Length(row)*line
		drawThumb(&c, e, x, y, thumb)
		label := FitText(ts, e.Label, colW-thumb-4-entryGap/2)
		st := ts
		st.YAlign = draw.YCenter
		c.FillText(st, vg.Point{X: x + thumb + 4, Y: y}, label)
	}
	if f.Note != "" {
		st := TextStyle(fs - 1)
		st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
		st.Color = color.Gray{0x40}
		c.FillText(st, vg.Point{X: c.Min.X + w/2, Y: y0 - vg.Length(rows)*line}, FitText(st, f.Note, w-2*legendPad))
	}
}

// drawPlots draws Plot and Panels stacked in c, aligning their data areas.
func (f *Figure) drawPlots(c draw.Canvas) {
	if len(f.Panels) == 0 {
		f.Plot.Draw(c)
		return
	}
	ps := append([]*plot.Plot{f.Plot}, f.Panels...)
	rows := make([][]*plot.Plot, len(ps))
	for i, p := range ps {
		rows[i] = []*plot.Plot{p}
	}
	// Align lines the panels' data areas up (same left and right edges).
	cs := plot.Align(rows, draw.Tiles{Rows: len(ps), Cols: 1, PadY: vg.Points(4)}, c)
	for i, p := range ps {
		p.Draw(cs[i][0])
	}
}

func drawThumb(c *draw.Canvas, e Entry, x, y, thumbWidth vg.Length) {
	if e.Bar {
		r := vg.Points(4.5)
		FillBar(*c, vg.Rectangle{Min: vg.Point{X: x + 4, Y: y - r}, Max: vg.Point{X: x + thumbWidth - 4, Y: y + r}}, e.Style)
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
// extension (.svg, .png, .eps, .pdf) at size w × h, as drawn on a report
// page (title, fonts and note as they are).
func (f *Figure) Save(path string, w, h vg.Length) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	var cw vg.CanvasWriterTo
	switch ext {
	case "svg":
		cw = vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(true))
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(300))}
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

// Size is a figure size for a paper, with the font sizes that keep the
// figure legible when printed at that width.
type Size struct {
	Suffix      string    // file-name suffix: NAME-SUFFIX.EXT
	W, H        vg.Length // size of a one-panel figure; each further panel adds PanelH
	PanelH      vg.Length
	Label, Tick vg.Length // axis label and tick label font sizes
	Legend      vg.Length // legend font size
}

// Paper sizes: a column of a two-column paper (3.5 in) and the full text
// width (7 in). Fonts are 7–8 pt at column width, as in print.
var (
	ColumnSize = Size{Suffix: "col", W: 3.5 * vg.Inch, H: 2.6 * vg.Inch, PanelH: 1.3 * vg.Inch, Label: 8, Tick: 7, Legend: 7}
	PageSize   = Size{Suffix: "page", W: 7 * vg.Inch, H: 3.6 * vg.Inch, PanelH: 1.8 * vg.Inch, Label: 9, Tick: 8, Legend: 8}
	PaperSizes = []Size{ColumnSize, PageSize}
)

// SaveAs writes the figure for a paper at size sz: without its title and
// note (a paper says them in the caption: see Caption), with sz's fonts.
// The figure is restored afterwards.
func (f *Figure) SaveAs(path string, sz Size) error {
	restore := f.paper(sz)
	defer restore()
	h := sz.H + vg.Length(len(f.Panels))*sz.PanelH
	return f.Save(path, sz.W, h)
}

// Caption is the figure's title and note, for a paper's caption.
func (f *Figure) Caption() string {
	c := f.Plot.Title.Text
	if c != "" && !strings.HasSuffix(c, ".") {
		c += "."
	}
	if f.Note != "" {
		c = strings.TrimSpace(c + " " + f.Note)
	}
	return c
}

// paper sets the figure up for a paper at size sz and returns the
// function that undoes it.
func (f *Figure) paper(sz Size) func() {
	var undo []func()
	title, note, ls := f.Plot.Title.Text, f.Note, f.legendSize
	f.Plot.Title.Text, f.Note, f.legendSize = "", "", sz.Legend
	undo = append(undo, func() { f.Plot.Title.Text, f.Note, f.legendSize = title, note, ls })
	for _, p := range append([]*plot.Plot{f.Plot}, f.Panels...) {
		for _, a := range []*plot.Axis{&p.X, &p.Y} {
			a := a
			lf, tf := a.Label.TextStyle.Font.Size, a.Tick.Label.Font.Size
			a.Label.TextStyle.Font.Size = min(lf, sz.Label)
			a.Tick.Label.Font.Size = min(tf, sz.Tick)
			undo = append(undo, func() { a.Label.TextStyle.Font.Size, a.Tick.Label.Font.Size = lf, tf })
		}
		if len(f.Panels) > 0 && p != f.Plot {
			// Panels below the first keep their own titles (the line
			// groups they show), smaller.
			ts := p.Title.TextStyle.Font.Size
			p.Title.TextStyle.Font.Size = sz.Label
			undo = append(undo, func() { p.Title.TextStyle.Font.Size = ts })
		}
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
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
