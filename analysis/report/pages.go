package report

import (
	"image/color"
	"strings"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedlab/schedlab/analysis/plot"
	"github.com/schedlab/schedlab/analysis/table"
)

var (
	grayText = color.Gray{0x50}
	plotGray = color.Gray{0x94}
)

// FigurePage is a page holding one figure, drawn inside the page margins.
type FigurePage struct {
	Fig      *plot.Figure
	Appendix bool // the page goes to the appendix section
}

// InAppendix reports whether the page belongs to the appendix.
func (p *FigurePage) InAppendix() bool { return p.Appendix }

// Draw implements Page.
func (p *FigurePage) Draw(c draw.Canvas) {
	p.Fig.Draw(draw.Crop(c, Margin, -Margin, Margin, -Margin))
}

// FigureName implements Named.
func (p *FigurePage) FigureName() string { return p.Fig.Name }

// Figure implements Named.
func (p *FigurePage) Figure() *plot.Figure { return p.Fig }

// TablePage is one page of a (possibly multi-page) table.
type TablePage struct {
	Table    *table.Table
	Lo, Hi   int     // rows shown
	Part     int     // 1-based page of the table
	Parts    int     // number of pages of the table
	FontSize float64 // points
}

// FullTable implements Tabular.
func (p *TablePage) FullTable() *table.Table { return p.Table }

// First implements Tabular.
func (p *TablePage) First() bool { return p.Part == 1 }

const (
	tableFont    = 10
	minTableFont = 5.5
	cellPad      = 12
	titleFont    = 14
)

// tableLayout returns the font size and column widths at which t fits the
// usable page width.
func tableLayout(t *table.Table, width vg.Length) (float64, []vg.Length) {
	fs := float64(tableFont)
	for {
		ts := plot.TextStyle(vg.Length(fs))
		hs := plot.TextStyle(vg.Length(fs))
		ws := make([]vg.Length, len(t.Header))
		for i, h := range t.Header {
			ws[i] = hs.Width(h)
		}
		for _, r := range t.Rows {
			for i, cell := range r {
				ws[i] = max(ws[i], ts.Width(cell))
			}
		}
		var total vg.Length
		for i := range ws {
			ws[i] += cellPad
			total += ws[i]
		}
		if total <= width || fs <= minTableFont {
			if total > width { // scale columns down; cells are truncated with an ellipsis
				for i := range ws {
					ws[i] = ws[i] * width / total
				}
			}
			return fs, ws
		}
		fs = max(minTableFont, fs*float64(width/total)*0.98)
	}
}

// TablePages splits t into pages of at most as many rows as fit.
func TablePages(t *table.Table) []Page {
	usable := PageHeight - 2*Margin - 3*titleFont - 20
	fs, _ := tableLayout(t, PageWidth-2*Margin)
	rowH := vg.Length(fs) * 1.45
	per := max(1, int(usable/rowH)-2)
	if t.Notes != "" {
		ns := plot.TextStyle(vg.Length(max(fs-1, minTableFont)))
		per -= len(wrap(ns, t.Notes, PageWidth-2*Margin))
		per = max(per, 1)
	}
	parts := max(1, (len(t.Rows)+per-1)/per)
	out := make([]Page, 0, parts)
	for k := range parts {
		lo := k * per
		hi := min(len(t.Rows), lo+per)
		out = append(out, &TablePage{Table: t, Lo: lo, Hi: hi, Part: k + 1, Parts: parts, FontSize: fs})
	}
	return out
}

// Draw implements Page.
func (p *TablePage) Draw(c draw.Canvas) {
	c = draw.Crop(c, Margin, -Margin, Margin, -Margin)
	title := p.Table.Title
	if p.Parts > 1 {
		title += " (" + itoa(p.Part) + "/" + itoa(p.Parts) + ")"
	}
	y := drawTitle(c, title)
	fs, ws := tableLayout(p.Table, c.Max.X-c.Min.X)
	ts := plot.TextStyle(vg.Length(fs))
	hs := ts
	rowH := vg.Length(fs) * 1.45
	x0 := c.Min.X
	var total vg.Length
	for _, w := range ws {
		total += w
	}
	rule := func(y vg.Length, wd float64) {
		c.StrokeLine2(draw.LineStyle{Color: color.Black, Width: vg.Points(wd)}, x0, y, x0+total, y)
	}
	row := func(cells []string, st text.Style, y vg.Length, shade bool) {
		if shade {
			c.FillPolygon(color.Gray{0xf0}, []vg.Point{{X: x0, Y: y - rowH/2}, {X: x0 + total, Y: y - rowH/2}, {X: x0 + total, Y: y + rowH/2}, {X: x0, Y: y + rowH/2}})
		}
		x := x0
		for i, cell := range cells {
			s := st
			s.YAlign = draw.YCenter
			tx := x + cellPad/2
			if i < len(p.Table.Align) && p.Table.Align[i] == table.Right {
				s.XAlign = draw.XRight
				tx = x + ws[i] - cellPad/2
			}
			c.FillText(s, vg.Point{X: tx, Y: y}, plot.FitText(s, cell, ws[i]-cellPad/2))
			x += ws[i]
		}
	}
	y -= 4
	rule(y, 1)
	y -= rowH / 2
	row(p.Table.Header, hs, y, false)
	y -= rowH / 2
	rule(y, 0.5)
	for i := p.Lo; i < p.Hi; i++ {
		y -= rowH
		row(p.Table.Rows[i], ts, y+rowH/2, (i-p.Lo)%2 == 1)
	}
	rule(y, 1)
	if p.Table.Notes != "" {
		ns := plot.TextStyle(vg.Length(max(fs-1, minTableFont)))
		ns.Color = grayText
		ns.YAlign = draw.YTop
		ny := y - 4
		for _, line := range wrap(ns, p.Table.Notes, c.Max.X-c.Min.X) {
			c.FillText(ns, vg.Point{X: x0, Y: ny}, line)
			ny -= vg.Length(max(fs-1, minTableFont)) * 1.3
		}
	}
}

// drawTitle draws a page title at the top of c and returns the y below it.
func drawTitle(c draw.Canvas, title string) vg.Length {
	st := plot.TextStyle(titleFont)
	st.YAlign = draw.YTop
	c.FillText(st, vg.Point{X: c.Min.X, Y: c.Max.Y}, plot.FitText(st, title, c.Max.X-c.Min.X))
	return c.Max.Y - titleFont*1.8
}

// TextPage is a page of titled "key: value" lines.
type TextPage struct {
	Title    string
	Subtitle string
	Lines    [][2]string // key, value; an empty key continues the previous value
	Small    bool        // 8-point text instead of 10
}

// Draw implements Page.
func (p *TextPage) Draw(c draw.Canvas) {
	c = draw.Crop(c, Margin, -Margin, Margin, -Margin)
	st := plot.TextStyle(22)
	st.YAlign = draw.YTop
	c.FillText(st, vg.Point{X: c.Min.X, Y: c.Max.Y}, p.Title)
	y := c.Max.Y - 34
	if p.Subtitle != "" {
		ss := plot.TextStyle(12)
		ss.YAlign = draw.YTop
		ss.Color = grayText
		c.FillText(ss, vg.Point{X: c.Min.X, Y: y}, plot.FitText(ss, p.Subtitle, c.Max.X-c.Min.X))
		y -= 28
	}
	size := vg.Length(10)
	if p.Small {
		size = 8
	}
	ks := plot.TextStyle(size)
	ks.YAlign = draw.YTop
	vs := ks
	var kw vg.Length
	for _, l := range p.Lines {
		kw = max(kw, ks.Width(l[0]))
	}
	kw += 12
	step := size * 1.4
	for _, l := range p.Lines {
		if y < c.Min.Y+12 {
			break
		}
		c.FillText(ks, vg.Point{X: c.Min.X, Y: y}, l[0])
		for i, line := range wrap(vs, l[1], c.Max.X-c.Min.X-kw) {
			if i > 0 {
				y -= step
			}
			c.FillText(vs, vg.Point{X: c.Min.X + kw, Y: y}, line)
		}
		y -= step
	}
}

// wrap breaks s into lines no wider than w, at spaces when possible
// (after commas in long parameter lists), else anywhere.
func wrap(st text.Style, s string, w vg.Length) []string {
	if st.Width(s) <= w {
		return []string{s}
	}
	var out []string
	for s != "" {
		if st.Width(s) <= w {
			out = append(out, s)
			break
		}
		r := []rune(s)
		cut := len(r)
		for cut > 1 && st.Width(string(r[:cut])) > w {
			cut--
		}
		// Prefer the last space before the cut.
		if sp := strings.LastIndex(string(r[:cut]), " "); sp > 0 {
			cut = len([]rune(string(r[:cut])[:sp]))
		}
		out = append(out, strings.TrimSpace(string(r[:cut])))
		s = strings.TrimSpace(string(r[cut:]))
	}
	return out
}

func itoa(i int) string {
	const digits = "0123456789"
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{digits[i%10]}, b...)
		i /= 10
	}
	return string(b)
}
