// Package dragonfly is the dragonfly machine family (Kim, Dally, Scott &
// Abts, "Technology-Driven, Highly-Scalable Dragonfly Topology", ISCA
// 2008): g groups of a routers, p nodes per router, h global links per
// router; the routers of a group are linked all to all, and every two
// groups by one global link. Jobs ask for a node count; placements are
// ranges of node numbers (group by group, router by router); the distance
// is the number of router-to-router hops of a minimal route.
package dragonfly

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/model/policy"
)

// Kind is the dragonfly family's machine kind.
const Kind = "dragonfly"

// MaxNodes bounds a dragonfly's nodes.
const MaxNodes = 1 << 24

func init() { policy.RegisterFamily(Family()) }

// Family returns the dragonfly family's descriptor.
func Family() policy.Family {
	f := policy.Family{
		Kind: Kind, Syntax: "dragonfly:g=G,a=A,p=P,h=H", Order: 70,
		Doc:     "a dragonfly: G groups of A routers linked all to all, P nodes per router, H global links per router, one global link between every two groups (G−1 ≤ A·H)",
		Request: policy.RequestCount,
		Parse:   parse,
		Format: func(m policy.Machine) string {
			return fmt.Sprintf("g=%d,a=%d,p=%d,h=%d", m.Param[0], m.Param[1], m.Param[2], m.Param[3])
		},
		Words: func(m policy.Machine) string {
			return fmt.Sprintf("a dragonfly of %d nodes (%d groups × %d routers × %d nodes)", m.Procs, m.Param[0], m.Param[1], m.Param[2])
		},
		Allocators: Allocators,
		Placements: true,
		Dispersion: func(m policy.Machine, ps []policy.Piece) float64 { return Of(m).Locality(ps).MeanHops },
		Locality:   func(m policy.Machine, ps []policy.Piece) policy.Locality { return Of(m).Locality(ps) },
		Hops:       func(m policy.Machine) func(a, b int) int { return Of(m).Hops },
		Valid: func(m policy.Machine, p policy.Piece) bool {
			return p.W >= 1 && p.H == 1 && p.X >= 0 && p.Y == 0 && p.Mask == 0 && int(p.X)+int(p.W) <= m.Procs
		},
	}
	f.View.Layout, f.View.Rects = layout, rects
	f.View.Note = "a column per router (its nodes from the bottom up), the routers of one group side by side, a gap between groups"
	f.View.Axis = "node number (group by group, router by router)"
	f.View.How = "a strip per node number: group i holds nodes i·A·P..(i+1)·A·P−1 and router r nodes r·P..r·P+P−1; rectangles are each job's node ranges"
	return f
}

// parse reads "g=G,a=A,p=P,h=H" (the keys in any order, each once).
func parse(arg string) (policy.Machine, error) {
	keys := "gaph"
	var v [4]int
	var seen [4]bool
	for _, kv := range strings.Split(arg, ",") {
		k, s, ok := strings.Cut(kv, "=")
		i := strings.Index(keys, k)
		if !ok || len(k) != 1 || i < 0 {
			return policy.Machine{}, fmt.Errorf("dragonfly parameter %q: want g=G,a=A,p=P,h=H", kv)
		}
		if seen[i] {
			return policy.Machine{}, fmt.Errorf("dragonfly parameter %s given twice", k)
		}
		seen[i] = true
		lo := 1
		if k == "h" {
			lo = 0
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > MaxNodes {
			return policy.Machine{}, fmt.Errorf("dragonfly parameter %s=%q: want an integer in %d..%d", k, s, lo, MaxNodes)
		}
		v[i] = n
	}
	for i, ok := range seen {
		if !ok {
			return policy.Machine{}, fmt.Errorf("dragonfly parameter %c missing: want g=G,a=A,p=P,h=H", keys[i])
		}
	}
	g, a, p, h := v[0], v[1], v[2], v[3]
	if g-1 > a*h {
		return policy.Machine{}, fmt.Errorf("dragonfly parameter g=%d: at most a·h + 1 = %d groups (one global link between every two groups)", g, a*h+1)
	}
	if g*a > MaxNodes || g*a*p > MaxNodes {
		return policy.Machine{}, fmt.Errorf("dragonfly g=%d,a=%d,p=%d: more than %d nodes", g, a, p, MaxNodes)
	}
	return policy.Machine{Kind: Kind, Procs: g * a * p, Param: v}, nil
}

// Dragonfly is a dragonfly's shape. Node q is on router q/P, router r in
// group r/A (its local index r mod A). Group i's global ports are numbered
// 0..A·H−1, port j on its local router j/H; port j links to the j-th
// other group in increasing order (group j when j < i, else j+1), so
// groups i < t are linked by port t−1 of i and port i of t (ports from
// G−1 on are unused: the "absolute" arrangement with one link per pair of
// groups).
type Dragonfly struct{ G, A, P, H int }

// Of returns the shape of dragonfly machine m.
func Of(m policy.Machine) Dragonfly {
	return Dragonfly{m.Param[0], m.Param[1], m.Param[2], m.Param[3]}
}

// Nodes is the number of nodes.
func (d Dragonfly) Nodes() int { return d.G * d.A * d.P }

// Link is the local index of the router of group i holding its global link
// to group t ≠ i.
func (d Dragonfly) Link(i, t int) int {
	j := t
	if t > i {
		j = t - 1
	}
	return j / d.H
}

// Hops is the distance between nodes x and y under minimal routing: 0 on
// one router (the node-to-router links are not counted), 1 between two
// routers of a group (all to all), and between groups the local hop to
// the router holding the global link (if x's router is not it), the global
// hop, and the local hop from the far end (if y's router is not it): 1 to
// 3.
func (d Dragonfly) Hops(x, y int) int {
	rx, ry := x/d.P, y/d.P
	if rx == ry {
		return 0
	}
	gx, gy := rx/d.A, ry/d.A
	if gx == gy {
		return 1
	}
	h := 1
	if rx%d.A != d.Link(gx, gy) {
		h++
	}
	if ry%d.A != d.Link(gy, gx) {
		h++
	}
	return h
}

// Locality is the locality of the nodes of pieces ps in closed form from
// the nodes per router and per group: with c_r the job's nodes on router
// r and C_i on group i, the ordered pairs inside group i on different
// routers number C_i² − Σ c_r² (1 hop each), and those between groups i
// and t sum 3·C_i·C_t − c_(i→t)·C_t − C_i·c_(t→i) hops (c_(i→t): the nodes
// on i's router linked to t). O(pieces + routers touched + groups
// touched²). Span is the groups touched.
func (d Dragonfly) Locality(ps []policy.Piece) policy.Locality {
	type grp struct {
		c, sq   int64
		routers map[int]int64 // local router → nodes
	}
	gs := map[int]*grp{}
	var order []int
	var n int64
	for _, p := range ps {
		q, end := int(p.X), int(p.X)+int(p.W)
		for q < end {
			r := q / d.P
			e := min(end, (r+1)*d.P)
			i := r / d.A
			g := gs[i]
			if g == nil {
				g = &grp{routers: map[int]int64{}}
				gs[i] = g
				order = append(order, i)
			}
			c := int64(e - q)
			g.routers[r%d.A] += c
			g.c += c
			n += c
			q = e
		}
	}
	loc := policy.Locality{Span: len(order), MeanHops: math.NaN()}
	if n < 2 {
		return loc
	}
	var hb int64
	maxHops := 0
	for _, i := range order {
		g := gs[i]
		var sq int64
		for _, c := range g.routers {
			sq += c * c
		}
		hb += g.c*g.c - sq
		if len(g.routers) > 1 {
			maxHops = max(maxHops, 1)
		}
	}
	// other reports whether group g has nodes on a router other than r.
	other := func(g *grp, r int) int {
		if len(g.routers) > 1 {
			return 1
		}
		if _, ok := g.routers[r]; ok {
			return 0
		}
		return 1
	}
	for x := 0; x < len(order); x++ {
		i := order[x]
		gi := gs[i]
		for y := x + 1; y < len(order); y++ {
			t := order[y]
			gt := gs[t]
			li, lt := d.Link(i, t), d.Link(t, i)
			hb += 2 * (3*gi.c*gt.c - gi.routers[li]*gt.c - gi.c*gt.routers[lt])
			maxHops = max(maxHops, 1+other(gi, li)+other(gt, lt))
		}
	}
	loc.HopBytes = float64(hb)
	loc.MeanHops = float64(hb) / float64(n*(n-1))
	loc.MaxHops = maxHops
	return loc
}
