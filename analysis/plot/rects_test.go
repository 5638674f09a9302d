package plot

import (
	"image/color"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// On EqualAspect's canvas a node is square, for wide, tall and square
// meshes on wide and tall canvases.
func TestEqualAspect(t *testing.T) {
	for _, m := range [][2]int{{32, 32}, {16, 8}, {10, 40}} {
		for _, sz := range [][2]vg.Length{{400, 250}, {200, 500}} {
			p := NewMeshPlot("title", m[0], m[1], nil)
			c := draw.New(vgimg.New(sz[0], sz[1]))
			dc := p.DataCanvas(EqualAspect(p, c))
			sx := float64(dc.Max.X-dc.Min.X) / float64(m[0])
			sy := float64(dc.Max.Y-dc.Min.Y) / float64(m[1])
			if math.Abs(sx-sy) > 1e-6*sx || sx <= 0 {
				t.Errorf("mesh %v on %v: node %.4f × %.4f pt", m, sz, sx, sy)
			}
			// It uses the whole of the limiting dimension.
			full := p.DataCanvas(c)
			if math.Abs(float64(dc.Max.X-dc.Min.X)-float64(full.Max.X-full.Min.X)) > 1e-6 &&
				math.Abs(float64(dc.Max.Y-dc.Min.Y)-float64(full.Max.Y-full.Min.Y)) > 1e-6 {
				t.Errorf("mesh %v on %v: shrunk in both dimensions", m, sz)
			}
		}
	}
}

func TestMeshTicks(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []float64
	}{
		{32, []float64{0, 8, 16, 24, 32}},
		{10, []float64{0, 4, 8}},
		{4, []float64{0, 1, 2, 3, 4}},
		{128, []float64{0, 32, 64, 96, 128}},
	} {
		ts := MeshTicks{N: tc.n}.Ticks(0, float64(tc.n))
		var got []float64
		for _, tk := range ts {
			got = append(got, tk.Value)
		}
		if len(got) != len(tc.want) {
			t.Errorf("N=%d: ticks %v, want %v", tc.n, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("N=%d: ticks %v, want %v", tc.n, got, tc.want)
			}
		}
	}
}

// A block fills exactly its nodes: pixels at node centres inside it have
// its colour, those of free nodes are white.
func TestMeshMapPixels(t *testing.T) {
	const w, h = 8, 4
	blocks := []Block{{X: 1, Y: 0, W: 3, H: 2, Shade: 0, Label: "7"}, {X: 5, Y: 2, W: 2, H: 2, Shade: -3}}
	p := NewMeshPlot("", w, h, blocks)
	img := vgimg.NewWith(vgimg.UseWH(400, 300), vgimg.UseDPI(72))
	c := EqualAspect(p, draw.New(img))
	p.Draw(c)
	dc := p.DataCanvas(c)
	node := float64(dc.Max.X-dc.Min.X) / w
	rgba := img.Image()
	at := func(x, y int) color.Color {
		// Node centre in points; image rows grow downwards.
		px := float64(dc.Min.X) + (float64(x)+0.25)*node
		py := float64(dc.Min.Y) + (float64(y)+0.25)*node
		return rgba.At(int(px), rgba.Bounds().Dy()-1-int(py))
	}
	same := func(a, b color.Color) bool {
		r1, g1, b1, _ := a.RGBA()
		r2, g2, b2, _ := b.RGBA()
		return r1 == r2 && g1 == g2 && b1 == b2
	}
	n := len(MapColors)
	for y := range h {
		for x := range w {
			want := color.Color(color.White)
			switch {
			case x >= 1 && x < 4 && y < 2:
				want = MapColors[0]
			case x >= 5 && x < 7 && y >= 2:
				want = MapColors[(-3%n+n)%n]
			}
			if got := at(x, y); !same(got, want) {
				t.Errorf("node (%d, %d): colour %v, want %v", x, y, got, want)
			}
		}
	}
}

// The pieces of one job (one Group) share one outline: no edge between
// two of its nodes, edges against free nodes, other jobs and the border;
// the group is labelled once, on its largest piece.
func TestMeshMapGroups(t *testing.T) {
	// Job 5 in three pieces: a 2×2 at (0,0), a 2×2 at (2,0) touching it,
	// and a lone 1×1 at (6,3); job 6 (ungrouped) a 1×2 at (4,0) touching
	// the second piece.
	m := &MeshMap{W: 8, H: 4, Blocks: []Block{
		{X: 0, Y: 0, W: 2, H: 2, Shade: 5, Label: "5", Group: 5},
		{X: 2, Y: 0, W: 2, H: 2, Shade: 5, Label: "5", Group: 5},
		{X: 4, Y: 0, W: 1, H: 2, Shade: 6, Label: "6"},
		{X: 6, Y: 3, W: 1, H: 1, Shade: 5, Label: "5", Group: 5},
	}}
	g := m.groups()
	want := [][][4]int{
		// bottom, top, left; no right side (it faces piece 2).
		{{0, 0, 2, 0}, {0, 2, 2, 2}, {0, 0, 0, 2}},
		// bottom, top, right (against job 6); no left side.
		{{2, 0, 4, 0}, {2, 2, 4, 2}, {4, 0, 4, 2}},
		nil, // ungrouped: drawn whole, outline is not used
		{{6, 3, 7, 3}, {6, 4, 7, 4}, {6, 3, 6, 4}, {7, 3, 7, 4}},
	}
	for i, b := range m.Blocks {
		if b.Group == 0 {
			continue
		}
		if got := m.outline(b, g); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("block %d: outline %v, want %v", i, got, want[i])
		}
	}
	// A piece half against its group and half against a free node: only
	// the free half is drawn.
	m2 := &MeshMap{W: 4, H: 4, Blocks: []Block{
		{X: 0, Y: 0, W: 1, H: 2, Group: 1},
		{X: 1, Y: 0, W: 1, H: 1, Group: 1},
	}}
	if got, want := m2.outline(m2.Blocks[0], m2.groups()), [][4]int{{0, 0, 1, 0}, {0, 2, 1, 2}, {0, 0, 0, 2}, {1, 1, 1, 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("partial side: outline %v, want %v", got, want)
	}
	if got := m.labelOrder(); !reflect.DeepEqual(got, []int{0, 1, 2, 3}) {
		t.Errorf("label order %v", got)
	}
	// Drawn: the shared edge between pieces 1 and 2 (x = 2) is the fill
	// colour, the edge between piece 2 and job 6 (x = 4) is dark.
	p := NewMeshPlot("", m.W, m.H, m.Blocks)
	img := vgimg.NewWith(vgimg.UseWH(400, 300), vgimg.UseDPI(72))
	c := EqualAspect(p, draw.New(img))
	p.Draw(c)
	dc := p.DataCanvas(c)
	node := float64(dc.Max.X-dc.Min.X) / float64(m.W)
	rgba := img.Image()
	dark := func(x, y float64) bool { // a pixel within ±1 of the point (x, y), in node units, darker than the fill
		px := float64(dc.Min.X) + x*node
		py := float64(rgba.Bounds().Dy()-1) - (float64(dc.Min.Y) + y*node)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				r, gg, bb, _ := rgba.At(int(px)+dx, int(py)+dy).RGBA()
				if r+gg+bb < 404*257 { // 80% of the fill's (0xbc80bd) brightness
					return true
				}
			}
		}
		return false
	}
	if dark(2, 1) {
		t.Error("an outline between two pieces of one job")
	}
	if !dark(4, 1) {
		t.Error("no outline between job 5 and job 6")
	}
	if !dark(1, 2) {
		t.Error("no outline between job 5 and a free node")
	}
}
