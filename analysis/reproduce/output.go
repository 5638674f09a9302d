package reproduce

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	gplot "gonum.org/v1/plot"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/report"
	"github.com/schedlab/schedlab/analysis/table"
	"github.com/schedlab/schedlab/trace"
)

// Info describes a reproduction run for the PDF's first page.
type Info struct {
	Suite       string      // suite name
	Description string      // the suite's description
	Mode        Mode        // quick or full
	Data        string      // the results directory evaluated
	Lines       [][2]string // further "key: value" lines (sizes, version, run time)
}

// Files returns the paths Write writes into dir for mode m: MODE.md,
// MODE.csv and MODE.pdf.
func Files(dir string, m Mode) (md, csv, pdf string) {
	base := filepath.Join(dir, m.String())
	return base + ".md", base + ".csv", base + ".pdf"
}

// Write writes the table of rows into dir as Markdown, CSV and a PDF (a
// title page, the table, and a figure of ours against published), each
// atomically. The PDF is deterministic: the same rows and info give the
// same bytes.
func Write(dir string, info Info, rows []Row) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	md, csvPath, pdf := Files(dir, info.Mode)
	t := Table(info.Suite, info.Mode, rows)
	if err := trace.AtomicWrite(md, t.WriteMarkdown); err != nil {
		return err
	}
	if err := trace.AtomicWrite(csvPath, func(w io.Writer) error { return WriteCSV(w, rows) }); err != nil {
		return err
	}
	pages := []report.Page{titlePage(info, rows)}
	pages = append(pages, report.TablePages(pdfTable(t))...)
	pages = append(pages, &report.FigurePage{Fig: Figure(info, rows)})
	return report.WritePDF(pdf, pages)
}

// pdfText spells the characters the PDF's fonts lack (they hold the
// Windows-1252 code page: no Greek, no minus sign) in ASCII.
var pdfText = strings.NewReplacer("ρ", "rho", "μ", "mu", "λ", "lambda", "α", "alpha", "σ", "sigma", "τ", "tau",
	"Δ", "Delta", "−", "-", "≈", "~", "≤", "<=", "≥", ">=", "∞", "inf")

// pdfTable returns a copy of t with its text spelled for the PDF.
func pdfTable(t *table.Table) *table.Table {
	c := *t
	c.Title, c.Notes = pdfText.Replace(t.Title), pdfText.Replace(t.Notes)
	c.Header = make([]string, len(t.Header))
	for i, h := range t.Header {
		c.Header[i] = pdfText.Replace(h)
	}
	c.Rows = make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		c.Rows[i] = make([]string, len(r))
		for j, cell := range r {
			c.Rows[i][j] = pdfText.Replace(cell)
		}
	}
	return &c
}

func titlePage(info Info, rows []Row) report.Page {
	p := &report.TextPage{
		Title:    "Reproduction: " + info.Suite,
		Subtitle: fmt.Sprintf("%s run — %s", info.Mode, tally(rows)),
	}
	if info.Description != "" {
		p.Lines = append(p.Lines, [2]string{"Suite", pdfText.Replace(info.Description)})
	}
	if info.Data != "" {
		p.Lines = append(p.Lines, [2]string{"Results", info.Data})
	}
	p.Lines = append(p.Lines, info.Lines...)
	for _, v := range []Verdict{Disagrees, NotComparable, NotSignificant} {
		for i, r := range rows {
			if r.Verdict == v {
				p.Lines = append(p.Lines, [2]string{fmt.Sprintf("#%d %s", i+1, v), pdfText.Replace(r.Claim + ": " + r.Reason)})
			}
		}
	}
	return p
}

// Verdict styles in the figure: colour and marker.
var verdictStyle = map[Verdict]plot.Style{
	Agrees:        {Color: plot.Palette[0], Shape: draw.CircleGlyph{}},
	Disagrees:     {Color: plot.Palette[3], Shape: draw.SquareGlyph{}},
	NotComparable: {Color: color.Gray{0x90}, Shape: draw.TriangleGlyph{}},
	// Consistent but not significant: agreement's colour, an open marker.
	NotSignificant: {Color: plot.Palette[0], Shape: draw.RingGlyph{}},
}

// Figure plots each numeric claim (x: its number in the table) as
// ours/published with its CI scaled the same way, against the published
// value at 1 and the claim's relative tolerance as a grey band. Claims
// that are not one number (rankings), have no estimate, or whose published
// value is within their absolute tolerance of 0 (a ratio to it means
// nothing) are not drawn; the note lists them. Points beyond the axis
// range are drawn at its edge, hollow.
func Figure(info Info, rows []Row) *plot.Figure {
	p := plot.New(fmt.Sprintf("Ours against published: %s (%s)", info.Suite, info.Mode), "claim (# in the table)", "ours / published")
	cp := &claimPlot{lo: math.Inf(1), hi: math.Inf(-1)}
	var skipped []string
	for i, r := range rows {
		var tol Tolerance
		if r.Tolerance != nil {
			tol = *r.Tolerance
		}
		switch {
		case math.IsNaN(r.Value) || math.IsNaN(r.Ours.Mean):
			skipped = append(skipped, strconv.Itoa(i+1))
			continue
		case r.Value == 0 || (tol.Abs > 0 && math.Abs(r.Value) <= tol.Abs):
			skipped = append(skipped, strconv.Itoa(i+1)+" (published ~ 0)")
			continue
		}
		pt := claimPoint{x: float64(i + 1), y: r.Ours.Mean / r.Value, hw: r.Ours.HalfWidth / math.Abs(r.Value), band: tol.Rel, v: r.Verdict}
		cp.pts = append(cp.pts, pt)
		for _, y := range []float64{pt.y - pt.hw, pt.y + pt.hw, 1 - pt.band, 1 + pt.band} {
			if !math.IsNaN(y) {
				cp.lo, cp.hi = math.Min(cp.lo, y), math.Max(cp.hi, y)
			}
		}
	}
	if len(cp.pts) == 0 {
		cp.lo, cp.hi = 0.9, 1.1
	}
	cp.lo, cp.hi = math.Max(cp.lo, 0), math.Min(cp.hi, 2)
	cp.lo, cp.hi = math.Min(cp.lo, 0.99), math.Max(cp.hi, 1.01)
	pad := 0.04 * (cp.hi - cp.lo)
	cp.lo, cp.hi = cp.lo-pad, cp.hi+pad
	cp.n = len(rows)
	p.Add(cp)
	p.X.Min, p.X.Max = 0.5, float64(len(rows))+0.5
	p.Y.Min, p.Y.Max = cp.lo, cp.hi
	var ticks []gplot.Tick
	step := max(1, len(rows)/25)
	for i := 1; i <= len(rows); i++ {
		t := gplot.Tick{Value: float64(i)}
		if (i-1)%step == 0 {
			t.Label = strconv.Itoa(i)
		}
		ticks = append(ticks, t)
	}
	p.X.Tick.Marker = gplot.ConstantTicks(ticks)
	fig := &plot.Figure{Name: info.Mode.String(), Plot: p}
	fig.Legend = append(fig.Legend, plot.Entry{Label: "published (= 1)", Style: plot.Style{Color: color.Black, Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}})
	fig.Legend = append(fig.Legend, plot.Entry{Label: "relative tolerance", Style: plot.Style{Color: color.Gray{0xdd}}, Bar: true})
	for _, v := range []Verdict{Agrees, NotSignificant, Disagrees, NotComparable} {
		fig.Legend = append(fig.Legend, plot.Entry{Label: "ours ± CI, " + v.String(), Style: verdictStyle[v], NoLine: true})
	}
	if len(skipped) > 0 {
		fig.Note = "Not drawn: " + strings.Join(skipped, ", ") + "."
	}
	return fig
}

type claimPoint struct {
	x, y, hw, band float64
	v              Verdict
}

// claimPlot draws the claims: tolerance bands, the published line, CI bars
// and markers, clipped to [lo, hi].
type claimPlot struct {
	pts    []claimPoint
	lo, hi float64
	n      int
}

// Plot implements plot.Plotter.
func (cp *claimPlot) Plot(c draw.Canvas, plt *gplot.Plot) {
	trX, trY := plt.Transforms(&c)
	clamp := func(y float64) float64 { return math.Max(cp.lo, math.Min(cp.hi, y)) }
	for _, p := range cp.pts {
		if p.band > 0 {
			x0, x1 := trX(p.x-0.35), trX(p.x+0.35)
			y0, y1 := trY(clamp(1-p.band)), trY(clamp(1+p.band))
			c.FillPolygon(color.Gray{0xdd}, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		}
	}
	ref := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
	c.StrokeLine2(ref, trX(0.5), trY(1), trX(float64(cp.n)+0.5), trY(1))
	for _, p := range cp.pts {
		st := verdictStyle[p.v]
		x := trX(p.x)
		if p.hw > 0 && !math.IsInf(p.hw, 0) {
			ls := draw.LineStyle{Color: st.Color, Width: vg.Points(1)}
			lo, hi := trY(clamp(p.y-p.hw)), trY(clamp(p.y+p.hw))
			c.StrokeLine2(ls, x, lo, x, hi)
			for _, e := range []float64{p.y - p.hw, p.y + p.hw} {
				if e >= cp.lo && e <= cp.hi {
					c.StrokeLine2(ls, x-vg.Points(3), trY(e), x+vg.Points(3), trY(e))
				}
			}
		}
		g := st.Glyph()
		if p.y < cp.lo || p.y > cp.hi {
			g.Shape = draw.RingGlyph{}
		}
		c.DrawGlyphNoClip(g, vg.Point{X: x, Y: trY(clamp(p.y))})
	}
}

// DataRange implements plot.DataRanger.
func (cp *claimPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0.5, float64(cp.n) + 0.5, cp.lo, cp.hi
}
