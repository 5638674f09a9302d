package nodepool

import (
	"sort"
	"sync"

	"github.com/schedlab/schedlab/model/policy"
)

// Columns lays a machine's nodes out for a placement view: columns of
// consecutive node numbers (a leaf switch's, a router's) side by side,
// node numbers rising up each column, an empty column where a group (a
// level-2 switch's leaves, a dragonfly group's routers) ends.
type Columns struct {
	Bound []int32 // column c holds nodes Bound[c]..Bound[c+1]−1 (len: columns + 1)
	X     []int32 // the x of column c in the layout
	W, H  int     // the layout's size: its x extent and the tallest column
}

// NewColumns lays out the columns of bound (as Columns.Bound), starting a
// new group, one empty column apart, at each column c where newGroup(c)
// (c > 0).
func NewColumns(bound []int32, newGroup func(c int) bool) *Columns {
	n := len(bound) - 1
	l := &Columns{Bound: bound, X: make([]int32, n)}
	x := int32(0)
	for c := range n {
		if c > 0 && newGroup(c) {
			x++
		}
		l.X[c] = x
		x++
		l.H = max(l.H, int(bound[c+1]-bound[c]))
	}
	l.W = int(x)
	return l
}

// Rects appends the rectangles (x, y, w, h; y = 0 the lowest node of a
// column) of nodes lo..hi−1: a run per column, merged with the run to its
// left when it spans the same rows of the adjacent column.
func (l *Columns) Rects(lo, hi int, dst [][4]int32) [][4]int32 {
	if lo >= hi || lo < 0 || hi > int(l.Bound[len(l.Bound)-1]) {
		return dst
	}
	first := len(dst)
	c := sort.Search(len(l.Bound)-1, func(i int) bool { return int(l.Bound[i+1]) > lo })
	for n := lo; n < hi; c++ {
		end := min(hi, int(l.Bound[c+1]))
		r := [4]int32{l.X[c], int32(n) - l.Bound[c], 1, int32(end - n)}
		if k := len(dst) - 1; k >= first && dst[k][1] == r[1] && dst[k][3] == r[3] && dst[k][0]+dst[k][2] == r[0] {
			dst[k][2]++
		} else {
			dst = append(dst, r)
		}
		n = end
	}
	return dst
}

var layouts sync.Map // policy.Machine → *Columns

// ColumnsOf returns the layout of machine m, which build makes the first
// time it is asked for (one per machine of a process).
func ColumnsOf(m policy.Machine, build func() *Columns) *Columns {
	if l, ok := layouts.Load(m); ok {
		return l.(*Columns)
	}
	l, _ := layouts.LoadOrStore(m, build())
	return l.(*Columns)
}

// View returns a family's View.Layout and View.Rects for the layout
// of each machine that columns gives, the pieces being ranges of node
// numbers (policy.Range).
func View(columns func(policy.Machine) *Columns) (layout func(policy.Machine) (int, int), rects func(policy.Machine, policy.Piece, [][4]int32) [][4]int32) {
	layout = func(m policy.Machine) (int, int) {
		l := columns(m)
		return l.W, l.H
	}
	rects = func(m policy.Machine, p policy.Piece, dst [][4]int32) [][4]int32 {
		return columns(m).Rects(int(p.X), int(p.X)+int(p.W), dst)
	}
	return layout, rects
}
