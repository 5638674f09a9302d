package mesh

import (
	"math/rand/v2"
	"testing"
)

// Bases equals a brute-force search on random grids of every width class
// (one word, a word and a bit, several words) and random requests.
func TestBasesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, dim := range [][2]int{{1, 1}, {5, 3}, {32, 32}, {64, 7}, {65, 9}, {100, 13}, {130, 6}, {16, 8}, {128, 128}} {
		W, H := dim[0], dim[1]
		for trial := 0; trial < 40; trial++ {
			g := NewGrid(W, H)
			var held []Rect
			for k := 0; k < r.IntN(12); k++ {
				rc := Rect{X: r.IntN(W), Y: r.IntN(H), W: 1 + r.IntN(max(1, W/3)), H: 1 + r.IntN(max(1, H/3))}
				if !rc.Inside(W, H) || !g.IsFree(rc) {
					continue
				}
				g.Set(rc)
				held = append(held, rc)
			}
			for q := 0; q < 10; q++ {
				w, h := 1+r.IntN(W), 1+r.IntN(H)
				b := g.Bases(w, h, nil)
				for y := 0; y < H; y++ {
					for x := 0; x < W; x++ {
						want := Rect{x, y, w, h}.Inside(W, H)
						for _, hr := range held {
							want = want && !hr.Overlaps(Rect{x, y, w, h})
						}
						got := b[y*g.words+x/64]>>(uint(x)%64)&1 == 1
						if got != want {
							t.Fatalf("%dx%d mesh, %dx%d request at (%d,%d): base %v, want %v (held %v)", W, H, w, h, x, y, got, want, held)
						}
						if rc := (Rect{x, y, w, h}); rc.Inside(W, H) && want != g.IsFree(rc) {
							t.Fatalf("IsFree disagrees at (%d,%d)", x, y)
						}
					}
				}
				// Bits beyond the mesh are clear.
				for y := 0; y < H; y++ {
					for x := W; x < g.words*64; x++ {
						if b[y*g.words+x/64]>>(uint(x)%64)&1 == 1 {
							t.Fatalf("bit beyond the mesh at (%d,%d)", x, y)
						}
					}
				}
			}
			busy := 0
			for _, hr := range held {
				busy += hr.Size()
			}
			if g.Busy() != busy || g.Free() != W*H-busy {
				t.Fatalf("busy %d, want %d", g.Busy(), busy)
			}
			for _, hr := range held {
				g.Clear(hr)
			}
			if g.Busy() != 0 {
				t.Fatalf("busy %d after clearing", g.Busy())
			}
		}
	}
}
