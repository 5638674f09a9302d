package engine

import "github.com/schedlab/schedlab/model/policy"

// recordPlacement records a as job i's placement (Options.Placement).
func (e *sim) recordPlacement(i int32, a policy.Allocation) {
	r := e.res
	off := len(r.Pieces)
	r.Pieces = a.Placement(r.Pieces)
	r.pieceOff[i] = int32(off)
	r.pieceLen[i] = int32(len(r.Pieces) - off)
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
