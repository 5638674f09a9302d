package mesh

import "fmt"

// Shaping rules: how a job that gives only a processor count n (every real
// SWF log) becomes a w×h request on a W×H mesh (replay --shape).
const (
	// ShapeSquare is the most square w×h ≥ n that fits the mesh (in
	// either orientation) among the shapes with no empty row, h = ⌈n/w⌉:
	// the smallest |w − h|, then the smallest area, then the wider
	// (w ≥ h). So 5 is 3×2, 7 is 3×3, 17 is 5×4, and 128 on mesh:16x8 is
	// 16×8. The w·h − n extra nodes are internal fragmentation, counted as
	// allocated. (A literal "most square" would make every request
	// ⌈√n⌉×⌈√n⌉: 2 processors as 2×2.)
	ShapeSquare = "square"
	// ShapeRow is a 1-row request n×1 (w = n, h = 1): a row cannot wrap
	// onto the next, so n > W only fits a rotating allocator on a mesh
	// with H ≥ n.
	ShapeRow = "row"
	// ShapeExact is the most square factor pair w·h = n that fits the
	// mesh; a count with none (a prime above both sides) is rejected.
	ShapeExact = "exact"
)

// Shapes lists the shaping rules, the default first.
var Shapes = []string{ShapeSquare, ShapeRow, ShapeExact}

// CheckShape validates a shaping rule's name.
func CheckShape(rule string) error {
	for _, s := range Shapes {
		if rule == s {
			return nil
		}
	}
	return fmt.Errorf("shape %q: want square, row or exact", rule)
}

// fits reports whether a w×h request fits the W×H mesh in either
// orientation.
func fits(w, h, W, H int) bool { return w <= W && h <= H || h <= W && w <= H }

// Shape returns the w×h request of an n-processor job on a W×H mesh under
// rule, or ok false when the rule has no shape that fits the mesh in
// either orientation.
func Shape(n, W, H int, rule string) (w, h int, ok bool) {
	if n < 1 {
		return 0, 0, false
	}
	switch rule {
	case ShapeRow:
		return n, 1, fits(n, 1, W, H)
	case ShapeSquare, ShapeExact:
		best := func(cw, ch int) bool {
			if !ok {
				return true
			}
			d, bd := abs(cw-ch), abs(w-h)
			if d != bd {
				return d < bd
			}
			if cw*ch != w*h {
				return cw*ch < w*h
			}
			return cw > w
		}
		// Only sides up to the mesh's larger side can fit.
		side := max(W, H)
		for cw := 1; cw <= side && cw <= n; cw++ {
			ch := (n + cw - 1) / cw
			if rule == ShapeExact && cw*ch != n {
				continue
			}
			if fits(cw, ch, W, H) && best(cw, ch) {
				w, h, ok = cw, ch, true
			}
		}
		return w, h, ok
	}
	return 0, 0, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
