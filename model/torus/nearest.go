package torus

import (
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// MC1x1 is Bender, Bunde, Demaine, Fekete, Leung, Meijer & Phillips's
// MC1x1 ("Communication-aware processor allocation for supercomputers:
// finding point sets of small average distance", Algorithmica 2008; the
// MC family of Mache, Lo & Windisch 1997), as SST's scheduler element
// implemented it (NearestAllocator "MC1x1": FreeCenterGenerator,
// LInfPointCollector, LInfDistFromCenterScorer with an all-zero
// tiebreaker). Every free node is tried as the center; from it the free
// nodes are gathered in shells of growing L∞ distance (the center, then
// distance 1, 2, …; around a torus the shells wrap) until k are found;
// the allocation's score is the sum of the L∞ distances of its k nodes
// from the center, and the center of the least score wins, the first
// (lowest-numbered) among equal scores. A job is placed whenever k nodes
// are free, exactly k nodes (when exactly k are free, all of them, as SST
// short-cuts).
//
// Readings: the last shell is usually only partly taken; which of its
// nodes SST took depended on its scan order of the shell's faces (the
// score does not); here the lowest-numbered. Scores are computed from
// box counts of the busy array (a 3-D prefix sum), not by listing each
// center's nodes: O(free nodes × radius) per job.
type MC1x1 struct{ pre prefix }

// box returns the axis range of the L∞ ball of radius r around coordinate
// c on an axis of length l: its first coordinate and length (wrapping on
// a torus, clipped on a mesh).
func ballAxis(g Geom, c, r, l int) (lo, n int) {
	if !g.Wrap {
		lo = max(c-r, 0)
		return lo, min(c+r, l-1) - lo + 1
	}
	back, fwd := min(r, (l-1)/2), min(r, l/2)
	return (c - back + l) % l, back + fwd + 1
}

// ball returns the cuboid of the L∞ ball of radius r around node n.
func ball(g Geom, n, r int) Cuboid {
	x, y, z := g.XYZ(n)
	var q Cuboid
	q.X0, q.A = ballAxis(g, x, r, g.X)
	q.Y0, q.B = ballAxis(g, y, r, g.Y)
	q.Z0, q.C = ballAxis(g, z, r, g.Z)
	return q
}

// linf is the L∞ distance between nodes a and b.
func linf(g Geom, a, b int) int {
	ax, ay, az := g.XYZ(a)
	bx, by, bz := g.XYZ(b)
	return max(g.axisDist(ax, bx, g.X), g.axisDist(ay, by, g.Y), g.axisDist(az, bz, g.Z))
}

func (m *MC1x1) clone() strategy { return &MC1x1{} }

// idealScore is the score of k nodes taken from whole L∞ balls around a
// centre with every node free and no wall: a lower bound of every
// centre's score (a ball is never larger than the unclipped one).
func idealScore(g Geom, k, maxR int) int {
	score, inside := 0, 1
	for r := 1; inside < k && r <= maxR; r++ {
		vol := 1
		for _, l := range g.Dims() {
			vol *= min(2*r+1, l)
		}
		take := min(vol, k) - inside
		score += r * take
		inside += take
	}
	return score
}

func (m *MC1x1) place(s *State, _ *policy.Job, k int, dst []policy.Piece) ([]policy.Piece, bool) {
	g := s.G
	if k > s.free {
		return dst, false
	}
	free := s.AppendFree(nil)
	if k == len(free) {
		return g.runs(free, dst), true
	}
	m.pre.update(s)
	maxR := max(g.X, g.Y, g.Z)
	ideal := idealScore(g, k, maxR)
	bestC, bestR, bestScore := -1, 0, -1
	for _, c := range free {
		if bestScore == ideal {
			break // no centre can do better than a whole ball
		}
		score, inside := 0, 1 // free nodes within the previous radius
		r := 0
		for inside < k && r < maxR {
			r++
			q := ball(g, c, r)
			f := q.Size() - m.pre.busy(g, q)
			take := min(f, k) - inside
			score += r * take
			inside += take
			if bestScore >= 0 && score > bestScore {
				break
			}
		}
		if inside < k {
			continue
		}
		if bestScore < 0 || score < bestScore {
			bestC, bestR, bestScore = c, r, score
		}
	}
	if bestC < 0 {
		return dst, false
	}
	q := ball(g, bestC, bestR)
	var nodes []int
	for _, n := range g.AppendNodes(q, nil) {
		if !s.Busy(n) {
			nodes = append(nodes, n)
		}
	}
	slices.SortFunc(nodes, func(a, b int) int {
		if da, db := linf(g, bestC, a), linf(g, bestC, b); da != db {
			return da - db
		}
		return a - b
	})
	return g.runs(nodes[:k], dst), true
}
