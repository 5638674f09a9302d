package plot

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Grid is a heat map with values: cell (i, j) is drawn at x = j, y = i,
// shaded by rank from white (the worst value) to dark blue (the best;
// equal values share a shade, and one outlier does not wash the others
// out) and labelled with Labels[i][j]. A NaN value is a gray cell (no
// such pair).
type Grid struct {
	Values [][]float64 // [row][column]
	Labels [][]string  // [row][column]: the text in each cell
	Lower  bool        // lower values are better
}

// Plot implements plot.Plotter.
func (g *Grid) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	var all []float64
	for _, row := range g.Values {
		for _, v := range row {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				all = append(all, v)
			}
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	light, dark := color.RGBA{R: 247, G: 251, B: 255, A: 255}, color.RGBA{R: 8, G: 81, B: 156, A: 255}
	for i, row := range g.Values {
		for j, v := range row {
			r := vg.Rectangle{Min: vg.Point{X: trX(float64(j) - 0.5), Y: trY(float64(i) - 0.5)}, Max: vg.Point{X: trX(float64(j) + 0.5), Y: trY(float64(i) + 0.5)}}
			fill := color.Color(color.RGBA{R: 220, G: 220, B: 220, A: 255})
			text := color.Color(color.Black)
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				t := 0.5 // how good: 0 worst, 1 best
				if len(all) > 1 {
					r, _ := slices.BinarySearch(all, v)
					t = float64(r) / float64(len(all)-1)
					if g.Lower {
						t = 1 - t
					}
				}
				fill = mix(light, dark, t)
				if t > 0.55 {
					text = color.White
				}
			}
			c.FillPolygon(fill, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
			c.StrokeLines(draw.LineStyle{Color: color.White, Width: vg.Points(1.5)}, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
			if i < len(g.Labels) && j < len(g.Labels[i]) && g.Labels[i][j] != "" {
				ts := TextStyle(8)
				ts.XAlign, ts.YAlign, ts.Color = draw.XCenter, draw.YCenter, text
				c.FillText(ts, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}, FitText(ts, g.Labels[i][j], r.Max.X-r.Min.X-2))
			}
		}
	}
}

// DataRange implements plot.DataRanger.
func (g *Grid) DataRange() (xmin, xmax, ymin, ymax float64) {
	cols := 0
	for _, row := range g.Values {
		cols = max(cols, len(row))
	}
	return -0.5, float64(cols) - 0.5, -0.5, float64(len(g.Values)) - 0.5
}

// mix interpolates between colours a (t = 0) and b (t = 1).
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + t*(float64(y)-float64(x)))) }
	return color.RGBA{R: f(a.R, b.R), G: f(a.G, b.G), B: f(a.B, b.B), A: 255}
}
