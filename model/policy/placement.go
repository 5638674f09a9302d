package policy

import "math/bits"

// Node numbering (the coordinate convention of every machine kind):
//
//   - flat:N   processors 0..N−1;
//   - mesh:WxH node (x, y), 0 ≤ x < W, 0 ≤ y < H, is number y·W + x;
//   - cube:n   node number = its n-bit address.
//
// NodeOf and XY convert between mesh coordinates and node numbers.

// NodeOf returns the number of mesh node (x, y) on a mesh of width w.
func NodeOf(w, x, y int) int { return y*w + x }

// XY returns the coordinates of node n on a mesh of width w.
func XY(w, n int) (x, y int) { return n % w, n / w }

// Piece is one block of a placement, in the machine's node numbering:
//
//   - flat: the range X..X+W−1 (Y = 0, H = 1, Mask = 0);
//   - mesh: the W×H submesh whose lower-left corner is (X, Y) (Mask = 0);
//   - cube: the subcube {X | s : s ⊆ Mask}, X with the Mask bits zero,
//     W = 2^popcount(Mask), Y = 0, H = 1. A basic (buddy) k-cube has
//     Mask = 2^k − 1 and X a multiple of 2^k.
//
// Every kind holds W·H nodes. The results' placement column stores pieces
// with these fields (schema.Piece).
type Piece struct {
	X, Y, W, H int32
	Mask       int32
}

// Size is the number of nodes of p.
func (p Piece) Size() int { return int(p.W) * int(p.H) }

// Range returns the flat piece of n processors starting at lo.
func Range(lo, n int) Piece { return Piece{X: int32(lo), W: int32(n), H: 1} }

// Rect returns the mesh piece of the w×h submesh with lower-left corner (x, y).
func Rect(x, y, w, h int) Piece {
	return Piece{X: int32(x), Y: int32(y), W: int32(w), H: int32(h)}
}

// Subcube returns the cube piece {base | s : s ⊆ mask}; base's mask bits
// are cleared.
func Subcube(base, mask int) Piece {
	return Piece{X: int32(base &^ mask), W: int32(1) << bits.OnesCount32(uint32(mask)), H: 1, Mask: int32(mask)}
}

// AppendNodes appends the node numbers of p, on machine m, to dst, as m's
// family numbers them (Family.Nodes: row by row on a mesh, in increasing
// order on a hypercube); a family without Nodes has pieces that are ranges
// X..X+W−1, appended in increasing order.
func (p Piece) AppendNodes(m Machine, dst []int) []int {
	if f := lookup(m.Kind); f != nil && f.Nodes != nil {
		return f.Nodes(m, p, dst)
	}
	for i := int(p.X); i < int(p.X+p.W); i++ {
		dst = append(dst, i)
	}
	return dst
}

// Nodes appends the node numbers of allocation a on machine m to dst, piece
// by piece (Allocation.Placement, Piece.AppendNodes).
func Nodes(a Allocation, m Machine, dst []int) []int {
	var buf [4]Piece
	for _, p := range a.Placement(buf[:0]) {
		dst = p.AppendNodes(m, dst)
	}
	return dst
}
