package fattree

import (
	"sync"

	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// The switches view of a fat tree (policy.Family.View.Layout, Rects): a
// column per leaf switch, its nodes rising up it, the leaves of one
// parent switch side by side, the parents' groups one empty column apart.

var columns sync.Map // policy.Machine → *nodepool.Columns

func columnsOf(m policy.Machine) *nodepool.Columns {
	if l, ok := columns.Load(m); ok {
		return l.(*nodepool.Columns)
	}
	t, err := TreeOf(m)
	if err != nil {
		return nodepool.NewColumns([]int32{0, int32(m.Procs)}, func(int) bool { return false })
	}
	parent := func(l int) int32 { return t.Parent[t.Leaf[l]] }
	l, _ := columns.LoadOrStore(m, nodepool.NewColumns(t.Bound, func(l int) bool { return parent(l) != parent(l-1) }))
	return l.(*nodepool.Columns)
}

func layout(m policy.Machine) (w, h int) {
	l := columnsOf(m)
	return l.W, l.H
}

func rects(m policy.Machine, p policy.Piece, dst [][4]int32) [][4]int32 {
	return columnsOf(m).Rects(int(p.X), int(p.X)+int(p.W), dst)
}
