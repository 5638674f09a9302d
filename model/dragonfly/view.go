package dragonfly

import (
	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// The groups view of a dragonfly (policy.Family.View.Layout, Rects): a
// column per router, its P nodes rising up it, the A routers of a group
// side by side, the groups one empty column apart.
var layout, rects = nodepool.View(func(m policy.Machine) *nodepool.Columns {
	return nodepool.ColumnsOf(m, func() *nodepool.Columns {
		d := Of(m)
		bound := make([]int32, d.G*d.A+1)
		for r := range bound {
			bound[r] = int32(r * d.P)
		}
		return nodepool.NewColumns(bound, func(r int) bool { return r%d.A == 0 })
	})
})
