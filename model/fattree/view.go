package fattree

import (
	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// The switches view of a fat tree (policy.Family.View.Layout, Rects): a
// column per leaf switch, its nodes rising up it, the leaves of one
// parent switch side by side, the parents' groups one empty column apart.
var layout, rects = nodepool.View(func(m policy.Machine) *nodepool.Columns {
	return nodepool.ColumnsOf(m, func() *nodepool.Columns {
		t, err := TreeOf(m)
		if err != nil {
			return nodepool.NewColumns([]int32{0, int32(m.Procs)}, func(int) bool { return false })
		}
		parent := func(l int) int32 { return t.Parent[t.Leaf[l]] }
		return nodepool.NewColumns(t.Bound, func(l int) bool { return parent(l) != parent(l-1) })
	})
})
