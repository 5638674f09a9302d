package fattree

import (
	"math"

	"github.com/schedlab/schedlab/model/policy"
)

// Tree is a fat tree's switches, as Slurm's topology/tree sees them: every
// switch covers a consecutive range of node numbers (nodes are numbered
// depth first from the root, children in order), a leaf switch has nodes,
// the others have switches.
type Tree struct {
	N      int      // nodes
	Name   []string // switch names (topology.conf's SwitchName; "" when generated)
	Parent []int32  // parent switch, −1 at the root
	Depth  []int32  // links from the root switch
	Level  []int32  // Slurm's level: 0 for leaf switches, else 1 + the largest child's
	Lo, Hi []int32  // nodes Lo..Hi−1 are under the switch
	// LeafLo, LeafHi: the leaves under the switch are LeafLo..LeafHi−1
	// (leaf indexes, in node order).
	LeafLo, LeafHi []int32
	Leaf           []int32 // switch of each leaf, in node order
	Bound          []int32 // leaf l holds nodes Bound[l]..Bound[l+1]−1
	Root           int32
}

// Switches is the number of switches.
func (t *Tree) Switches() int { return len(t.Parent) }

// Levels is the number of switch levels (the root's Slurm level + 1).
func (t *Tree) Levels() int { return int(t.Level[t.Root]) + 1 }

// Radix builds the tree of radices r (leaf switches first): a leaf switch
// has r[0] nodes, a level-i switch r[i] children. Switches are numbered
// level by level from the leaves, in node order; the root is last.
func Radix(r []int) *Tree {
	t := &Tree{N: 1}
	for _, x := range r {
		t.N *= x
	}
	width := r[0] // nodes under a switch of the current level
	count := t.N / width
	leaves := count
	first := 0
	for lv := 0; lv < len(r); lv++ {
		for i := 0; i < count; i++ {
			t.Name = append(t.Name, "")
			t.Parent = append(t.Parent, -1)
			t.Depth = append(t.Depth, int32(len(r)-1-lv))
			t.Level = append(t.Level, int32(lv))
			t.Lo = append(t.Lo, int32(i*width))
			t.Hi = append(t.Hi, int32((i+1)*width))
			span := width / r[0]
			t.LeafLo = append(t.LeafLo, int32(i*span))
			t.LeafHi = append(t.LeafHi, int32((i+1)*span))
			if lv > 0 {
				for c := 0; c < r[lv]; c++ {
					t.Parent[first-count*r[lv]+i*r[lv]+c] = int32(len(t.Parent) - 1)
				}
			}
		}
		first += count
		if lv+1 < len(r) {
			width *= r[lv+1]
			count /= r[lv+1]
		}
	}
	t.Root = int32(len(t.Parent) - 1)
	for l := 0; l < leaves; l++ {
		t.Leaf = append(t.Leaf, int32(l))
		t.Bound = append(t.Bound, int32(l*r[0]))
	}
	t.Bound = append(t.Bound, int32(t.N))
	return t
}

// leafOfNode is the leaf index of node q.
func (t *Tree) leafOfNode(q int) int {
	lo, hi := 0, len(t.Leaf)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if int(t.Bound[m]) <= q {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// Hops is the distance between nodes a and b: the switch-to-switch links
// on the tree path between their leaf switches, up to their lowest common
// switch and down (0 on one leaf switch; 2(l−1) on a uniform tree whose
// lowest common switch is on level l, leaves being level 1).
func (t *Tree) Hops(a, b int) int {
	x, y := t.Leaf[t.leafOfNode(a)], t.Leaf[t.leafOfNode(b)]
	d := 0
	for x != y {
		if t.Depth[x] >= t.Depth[y] {
			x = t.Parent[x]
		} else {
			y = t.Parent[y]
		}
		d++
	}
	return d
}

// Locality is the locality of the nodes of pieces ps (ranges of node
// numbers) in closed form from the nodes under each switch: with C_s the
// job's nodes under switch s, the ordered pairs whose lowest common switch
// is s number C_s² − Σ_children C_c² (C_s² − C_s at a leaf switch), and a
// pair's hops are depth(a) + depth(b) − 2·depth(s); so HopBytes =
// 2(n−1)·Σ_a depth(a) − 2·Σ_s depth(s)·pairs(s). O(pieces + leaves touched
// × levels). Span is the leaf switches touched.
func (t *Tree) Locality(ps []policy.Piece) policy.Locality {
	type acc struct {
		c, sq  int64 // nodes under the switch, Σ children's c²
		kids   int   // children touched
		m1, m2 int32 // the two largest leaf depths among its touched children (−1: none)
		maxd   int32 // largest leaf depth under it
	}
	touched := map[int32]*acc{}
	var n, sumDep int64
	var order []int32 // touched switches, leaves first (parents after their children)
	leaves := 0
	get := func(s int32) *acc {
		a := touched[s]
		if a == nil {
			a = &acc{m1: -1, m2: -1, maxd: -1}
			touched[s] = a
			order = append(order, s)
		}
		return a
	}
	for _, p := range ps {
		q, end := int(p.X), int(p.X)+int(p.W)
		for q < end {
			l := t.leafOfNode(q)
			e := min(end, int(t.Bound[l+1]))
			s := t.Leaf[l]
			a := get(s)
			if a.c == 0 {
				leaves++
			}
			a.c += int64(e - q)
			a.maxd = t.Depth[s]
			n += int64(e - q)
			sumDep += int64(e-q) * int64(t.Depth[s])
			q = e
		}
	}
	loc := policy.Locality{Span: leaves, MeanHops: math.NaN()}
	if n < 2 {
		return loc
	}
	// Push the counts up, deepest switches first (bucketed by depth), so
	// that a switch is complete before it is added to its parent.
	maxDepth := int32(0)
	for _, s := range order {
		maxDepth = max(maxDepth, t.Depth[s])
	}
	buckets := make([][]int32, maxDepth+1)
	for _, s := range order {
		buckets[t.Depth[s]] = append(buckets[t.Depth[s]], s)
	}
	var pairDep int64 // Σ_s depth(s)·pairs(s)
	maxHops := int32(0)
	for d := maxDepth; d >= 0; d-- {
		for i := 0; i < len(buckets[d]); i++ {
			s := buckets[d][i]
			a := touched[s]
			var pairs int64
			if t.Level[s] == 0 {
				pairs = a.c*a.c - a.c
			} else {
				pairs = a.c*a.c - a.sq
				if a.kids >= 2 {
					maxHops = max(maxHops, a.m1+a.m2-2*t.Depth[s])
				}
			}
			pairDep += int64(t.Depth[s]) * pairs
			if par := t.Parent[s]; par >= 0 {
				pa, isNew := touched[par], false
				if pa == nil {
					pa = get(par)
					isNew = true
				}
				pa.c += a.c
				pa.sq += a.c * a.c
				pa.kids++
				pa.maxd = max(pa.maxd, a.maxd)
				if a.maxd > pa.m1 {
					pa.m1, pa.m2 = a.maxd, pa.m1
				} else if a.maxd > pa.m2 {
					pa.m2 = a.maxd
				}
				if isNew {
					pd := t.Depth[par]
					buckets[pd] = append(buckets[pd], par)
				}
			}
		}
	}
	hb := 2*(n-1)*sumDep - 2*pairDep
	loc.HopBytes = float64(hb)
	loc.MeanHops = float64(hb) / float64(n*(n-1))
	loc.MaxHops = int(maxHops)
	return loc
}

func nan() float64 { return math.NaN() }
