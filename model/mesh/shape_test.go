package mesh

import "testing"

func TestShape(t *testing.T) {
	for _, tc := range []struct {
		n, W, H int
		rule    string
		w, h    int
		ok      bool
	}{
		{1, 32, 32, ShapeSquare, 1, 1, true},
		{5, 32, 32, ShapeSquare, 3, 2, true},   // 3×2 and 2×3 tie: the wider
		{7, 32, 32, ShapeSquare, 3, 3, true},   // squareness before area (4×2 wastes less)
		{16, 32, 32, ShapeSquare, 4, 4, true},  //
		{128, 16, 8, ShapeSquare, 16, 8, true}, // 12×11 does not fit: the most square that does
		{100, 10, 10, ShapeSquare, 10, 10, true},
		{101, 10, 10, ShapeSquare, 0, 0, false},
		{17, 32, 32, ShapeExact, 17, 1, true}, // a prime: one row
		{17, 16, 16, ShapeExact, 0, 0, false}, // too long either way
		{12, 32, 32, ShapeExact, 4, 3, true},
		{12, 32, 32, ShapeRow, 12, 1, true},
		{40, 32, 64, ShapeRow, 40, 1, true}, // fits rotated (a column)
		{40, 32, 32, ShapeRow, 40, 1, false},
		{0, 32, 32, ShapeSquare, 0, 0, false},
	} {
		w, h, ok := Shape(tc.n, tc.W, tc.H, tc.rule)
		if w != tc.w || h != tc.h || ok != tc.ok {
			t.Errorf("Shape(%d, %dx%d, %s) = %dx%d %v, want %dx%d %v", tc.n, tc.W, tc.H, tc.rule, w, h, ok, tc.w, tc.h, tc.ok)
		}
	}
}

// Every square shape holds n, fits, has no empty row (h = ⌈n/w⌉), and is
// at least as square as any other such shape that fits (brute force).
func TestShapeSquareBruteForce(t *testing.T) {
	for _, dim := range [][2]int{{32, 32}, {16, 8}, {10, 10}, {7, 3}} {
		W, H := dim[0], dim[1]
		for n := 1; n <= W*H; n++ {
			w, h, ok := Shape(n, W, H, ShapeSquare)
			if !ok {
				t.Fatalf("n=%d on %dx%d: no shape", n, W, H)
			}
			if w*h < n || !fits(w, h, W, H) {
				t.Fatalf("n=%d: %dx%d", n, w, h)
			}
			if h != (n+w-1)/w {
				t.Fatalf("n=%d: %dx%d wastes a whole row", n, w, h)
			}
			for cw := 1; cw <= max(W, H); cw++ {
				ch := (n + cw - 1) / cw
				if fits(cw, ch, W, H) && abs(cw-ch) < abs(w-h) {
					t.Fatalf("n=%d on %dx%d: %dx%d is squarer than %dx%d", n, W, H, cw, ch, w, h)
				}
			}
		}
	}
}
