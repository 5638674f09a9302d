package engine

import (
	"sort"

	"github.com/schedlab/schedlab/model/policy"
)

// recordPlacement records a as job i's placement (Options.Placement).
func (e *sim) recordPlacement(i int32, a policy.Allocation) {
	r := e.res
	off := len(r.Pieces)
	switch pl := a.(type) {
	case policy.Placer:
		r.Pieces = pl.Placement(r.Pieces)
	case policy.NodeLister:
		e.scratch = pl.Nodes(e.scratch[:0])
		r.Pieces = appendRanges(r.Pieces, e.scratch)
	}
	r.pieceOff[i] = int32(off)
	r.pieceLen[i] = int32(len(r.Pieces) - off)
}

// appendRanges appends the processor numbers of nodes (sorted in place) as
// flat ranges.
func appendRanges(dst []policy.Piece, nodes []int) []policy.Piece {
	if !sort.IntsAreSorted(nodes) {
		sort.Ints(nodes)
	}
	for i := 0; i < len(nodes); {
		k := i
		for k+1 < len(nodes) && nodes[k+1] == nodes[k]+1 {
			k++
		}
		dst = append(dst, policy.Range(nodes[i], k-i+1))
		i = k + 1
	}
	return dst
}

// logEvent logs an event of job i now; for a suspension or a migration,
// called before the job leaves its placement, it keeps that placement.
func (e *sim) logEvent(i int32, kind EventKind) {
	r := e.res
	r.Events = append(r.Events, Event{Time: e.now, Index: i, Kind: kind})
	if r.pieceOff != nil {
		var left [2]int32
		if kind != Resumed {
			left = [2]int32{r.pieceOff[i], r.pieceLen[i]}
		}
		r.eventPieces = append(r.eventPieces, left)
	}
}
