package dragonfly

import (
	"sync"

	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// The groups view of a dragonfly (policy.Family.View.Layout, Rects): a
// column per router, its P nodes rising up it, the A routers of a group
// side by side, the groups one empty column apart.

var columns sync.Map // policy.Machine → *nodepool.Columns

func columnsOf(m policy.Machine) *nodepool.Columns {
	if l, ok := columns.Load(m); ok {
		return l.(*nodepool.Columns)
	}
	d := Of(m)
	bound := make([]int32, d.G*d.A+1)
	for r := range bound {
		bound[r] = int32(r * d.P)
	}
	l, _ := columns.LoadOrStore(m, nodepool.NewColumns(bound, func(r int) bool { return r%d.A == 0 }))
	return l.(*nodepool.Columns)
}

func layout(m policy.Machine) (w, h int) {
	l := columnsOf(m)
	return l.W, l.H
}

func rects(m policy.Machine, p policy.Piece, dst [][4]int32) [][4]int32 {
	return columnsOf(m).Rects(int(p.X), int(p.X)+int(p.W), dst)
}
