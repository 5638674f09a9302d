package plot

import (
	"image/color"
	"math"
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
