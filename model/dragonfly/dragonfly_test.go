package dragonfly

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// graph builds the explicit router graph of a dragonfly from its
// parameters: routers g·A + l, all to all inside a group, and group i's
// global ports 0..A·H−1 (port j on local router j/H) joined to the other
// groups in increasing order, each pair of groups once. It returns the
// local and the global adjacency lists.
func graph(G, A, H int) (local, global [][]int) {
	local = make([][]int, G*A)
	global = make([][]int, G*A)
	for g := 0; g < G; g++ {
		for x := 0; x < A; x++ {
			for y := 0; y < A; y++ {
				if x != y {
					local[g*A+x] = append(local[g*A+x], g*A+y)
				}
			}
		}
	}
	for g := 0; g < G; g++ {
		for t := g + 1; t < G; t++ {
			// each group's ports go to the other groups in increasing
			// order: t is g's port t−1 (g itself skipped), g is t's port g
			pg, pt := t-1, g
			a, b := g*A+pg/H, t*A+pt/H
			global[a] = append(global[a], b)
			global[b] = append(global[b], a)
		}
	}
	return local, global
}

// minimal is the BFS distance from router s to every router along
// local*–global–local* paths (at most one global link: minimal routing).
func minimal(local, global [][]int, s int) []int {
	n := len(local)
	d := make([]int, 2*n) // state r: no global hop yet; n + r: after it
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int{s}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		r, used := v%n, v >= n
		next := func(w int) {
			if d[w] < 0 {
				d[w] = d[v] + 1
				q = append(q, w)
			}
		}
		for _, w := range local[r] {
			if used {
				next(n + w)
			} else {
				next(w)
			}
		}
		if !used {
			for _, w := range global[r] {
				next(n + w)
			}
		}
	}
	out := make([]int, n)
	for r := range out {
		a, b := d[r], d[n+r]
		switch {
		case a < 0:
			out[r] = b
		case b < 0:
			out[r] = a
		default:
			out[r] = min(a, b)
		}
	}
	return out
}

var shapes = []Dragonfly{{3, 2, 2, 1}, {5, 2, 1, 2}, {9, 4, 2, 2}, {4, 3, 2, 1}, {1, 3, 2, 0}, {2, 1, 3, 1}}

// Hops equals the BFS distance of minimal routing between the nodes'
// routers in the explicit router graph.
func TestHopsBFS(t *testing.T) {
	for _, d := range shapes {
		local, global := graph(d.G, d.A, d.H)
		for x := 0; x < d.Nodes(); x++ {
			dist := minimal(local, global, x/d.P)
			for y := 0; y < d.Nodes(); y++ {
				if got, want := d.Hops(x, y), dist[y/d.P]; got != want {
					t.Fatalf("%+v: hops(%d,%d) = %d, BFS %d", d, x, y, got, want)
				}
			}
		}
	}
	// Worked by hand on g=3,a=2,p=2,h=1: global links router 0–2, 1–4, 3–5.
	d := Dragonfly{3, 2, 2, 1}
	for _, c := range []struct{ x, y, h int }{{0, 1, 0}, {0, 2, 1}, {0, 4, 1}, {0, 6, 2}, {2, 6, 3}, {2, 8, 1}, {6, 10, 1}, {4, 8, 3}} {
		if h := d.Hops(c.x, c.y); h != c.h {
			t.Errorf("hops(%d,%d) = %d, want %d", c.x, c.y, h, c.h)
		}
	}
}

// Locality's closed form equals brute-force pairwise sums.
func TestLocalityBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, d := range shapes {
		for it := 0; it < 300; it++ {
			var ps []policy.Piece
			p := rng.Float64()
			for q := 0; q < d.Nodes(); q++ {
				if rng.Float64() < p {
					if k := len(ps) - 1; k >= 0 && int(ps[k].X+ps[k].W) == q {
						ps[k].W++
					} else {
						ps = append(ps, policy.Range(q, 1))
					}
				}
			}
			rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
			var nodes []int
			for _, pc := range ps {
				for q := int(pc.X); q < int(pc.X+pc.W); q++ {
					nodes = append(nodes, q)
				}
			}
			want := policy.Locality{MeanHops: math.NaN()}
			groups := map[int]bool{}
			for _, a := range nodes {
				groups[a/(d.A*d.P)] = true
				for _, b := range nodes {
					if a != b {
						h := d.Hops(a, b)
						want.HopBytes += float64(h)
						want.MaxHops = max(want.MaxHops, h)
					}
				}
			}
			want.Span = len(groups)
			if n := len(nodes); n > 1 {
				want.MeanHops = want.HopBytes / float64(n*(n-1))
			}
			got := d.Locality(ps)
			if got.MaxHops != want.MaxHops || got.Span != want.Span || got.HopBytes != want.HopBytes ||
				!(math.IsNaN(got.MeanHops) && math.IsNaN(want.MeanHops) || math.Abs(got.MeanHops-want.MeanHops) < 1e-9) {
				t.Fatalf("%+v %v: locality %+v, brute force %+v", d, ps, got, want)
			}
		}
	}
}

// Bad specs give one line naming the parameter; good ones read back.
func TestParse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"dragonfly:g=9,a=4,p=2", "dragonfly parameter h missing"},
		{"dragonfly:g=9,a=4,p=2,h=2,g=3", "dragonfly parameter g given twice"},
		{"dragonfly:g=9,a=4,p=x,h=2", `dragonfly parameter p="x": want an integer in 1..`},
		{"dragonfly:g=9,a=0,p=2,h=2", `dragonfly parameter a="0"`},
		{"dragonfly:g=9,a=4,p=2,h=-1", `dragonfly parameter h="-1": want an integer in 0..`},
		{"dragonfly:g=10,a=4,p=2,h=2", "dragonfly parameter g=10: at most a·h + 1 = 9 groups"},
		{"dragonfly:g=9,a=4,q=2,h=2", `dragonfly parameter "q=2"`},
		{"dragonfly:", `dragonfly parameter ""`},
		{"dragonfly:g=257,a=16,p=8192,h=16", "more than 16777216 nodes"},
	} {
		_, err := policy.ParseMachine(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want %s", c.in, err, c.want)
		}
	}
	m, err := policy.ParseMachine("dragonfly:p=2,h=2,a=4,g=9")
	if err != nil || m.Procs != 72 || m.String() != "dragonfly:g=9,a=4,p=2,h=2" || Of(m) != (Dragonfly{9, 4, 2, 2}) {
		t.Errorf("%+v %v", m, err)
	}
}

func nodesOf(a policy.Allocation) []int {
	var out []int
	for _, p := range a.Placement(nil) {
		for q := int(p.X); q < int(p.X+p.W); q++ {
			out = append(out, q)
		}
	}
	slices.Sort(out)
	return out
}

var allocCases = []struct {
	name string
	mk   func(Dragonfly) policy.Allocator
}{
	{"df-simple", func(d Dragonfly) policy.Allocator { return NewSimple(d) }},
	{"df-spread", func(d Dragonfly) policy.Allocator { return NewSpread(d) }},
	{"df-hybrid", func(d Dragonfly) policy.Allocator { return NewHybrid(d) }},
	{"df-random", func(d Dragonfly) policy.Allocator { return NewRandom(d, 3) }},
	{"df-slurm", func(d Dragonfly) policy.Allocator { return NewBestFit(d) }},
}

// Every allocator, under random allocations and releases: nodes inside
// the machine, never held twice, exactly the request, refused only when
// fewer nodes are free than asked; the group counts agree with the nodes
// held; a clone is independent.
func TestAllocProperty(t *testing.T) {
	for _, c := range allocCases {
		for si, d := range shapes {
			rng := rand.New(rand.NewPCG(uint64(si), 9))
			al := c.mk(d)
			n := d.Nodes()
			owner := make([]int, n)
			var held []policy.Allocation
			busy := 0
			for it := 0; it < 3000; it++ {
				if len(held) > 0 && rng.IntN(3) == 0 {
					k := rng.IntN(len(held))
					for _, q := range nodesOf(held[k]) {
						owner[q] = 0
					}
					busy -= held[k].Procs()
					al.Release(held[k])
					held = slices.Delete(held, k, k+1)
					continue
				}
				want := 1 + rng.IntN(n)
				if rng.IntN(2) == 0 {
					want = 1 + rng.IntN(max(1, d.A*d.P))
				}
				a, ok := al.Allocate(&policy.Job{Procs: want, Record: int32(it)})
				if !ok {
					if n-busy >= want {
						t.Fatalf("%s %+v: refused %d nodes with %d free", c.name, d, want, n-busy)
					}
					continue
				}
				ns := nodesOf(a)
				if len(ns) != want || a.Procs() != want {
					t.Fatalf("%s: asked %d, given %d (%d listed)", c.name, want, a.Procs(), len(ns))
				}
				for _, q := range ns {
					if q < 0 || q >= n || owner[q] != 0 {
						t.Fatalf("%s: node %d outside the machine or held twice", c.name, q)
					}
					owner[q] = it + 1
				}
				busy += want
				held = append(held, a)
				if al.Free() != n-busy {
					t.Fatalf("%s: Free %d, want %d", c.name, al.Free(), n-busy)
				}
				if it%97 == 0 {
					b := baseOf(al)
					for g := 0; g < d.G; g++ {
						f := 0
						for q := g * d.A * d.P; q < (g+1)*d.A*d.P; q++ {
							if owner[q] == 0 {
								f++
							}
						}
						if int(b.grp[g]) != f {
							t.Fatalf("%s: group %d counts %d free, holds %d", c.name, g, b.grp[g], f)
						}
					}
					cl := al.Clone()
					if _, ok := cl.Allocate(&policy.Job{Procs: cl.Free()}); cl.Free() > 0 && !ok {
						t.Fatalf("%s: clone refused its free nodes", c.name)
					}
					if al.Free() != n-busy {
						t.Fatalf("%s: allocating on a clone changed the original", c.name)
					}
				}
			}
		}
	}
}

func baseOf(a policy.Allocator) *base {
	switch x := a.(type) {
	case *Simple:
		return &x.base
	case *Spread:
		return &x.base
	case *Hybrid:
		return &x.base
	case *Random:
		return &x.base
	case *BestFit:
		return &x.base
	}
	panic("unknown allocator")
}

// The allocators worked by hand on dragonfly:g=3,a=2,p=2,h=1 (groups of
// nodes 0–3, 4–7, 8–11; routers of 2 nodes).
func TestAllocHand(t *testing.T) {
	d := Dragonfly{3, 2, 2, 1}
	run := func(al policy.Allocator, steps []struct {
		k    int
		want []int
	}) []policy.Allocation {
		var out []policy.Allocation
		for i, s := range steps {
			a, ok := al.Allocate(&policy.Job{Procs: s.k})
			if !ok {
				t.Fatalf("%T step %d: %d nodes refused", al, i, s.k)
			}
			if got := nodesOf(a); !slices.Equal(got, s.want) {
				t.Fatalf("%T step %d (%d nodes): %v, want %v", al, i, s.k, got, s.want)
			}
			out = append(out, a)
		}
		return out
	}
	type step = struct {
		k    int
		want []int
	}
	simple := NewSimple(d)
	held := run(simple, []step{{3, []int{0, 1, 2}}, {2, []int{3, 4}}})
	simple.Release(held[0])
	run(simple, []step{{4, []int{0, 1, 2, 5}}})

	// Spread: 4 nodes over 3 groups of 4 free: a round of one each, then
	// group 0 one more; then 5 over 2, 3, 3 free: a round, then groups 0
	// and 1 one more.
	run(NewSpread(d), []step{{4, []int{0, 1, 4, 8}}, {5, []int{2, 3, 5, 6, 9}}})

	// Hybrid: 1 node on the router with the most free (router 0); 2 on
	// router 1 (the first with 2 free); 3 nodes (> P) in the group with
	// the most free (group 1), dealt over its routers 2, 1; 5 nodes (>
	// A·P) spread over the groups (1, 1, 3 free... dealt 1, 1, 3).
	run(NewHybrid(d), []step{{1, []int{0}}, {2, []int{2, 3}}, {3, []int{4, 5, 6}}, {5, []int{1, 7, 8, 9, 10}}})

	// Best fit: 1 node on router 0 (all tie at 2 free: the first); 1 more
	// on router 0 (1 free: the tightest); 2 on router 1; 3 nodes (> P):
	// the fullest routers with free nodes first: router 2 (2 free, the
	// first of the ties), then router 3; after releasing router 0's first
	// job, 1 node goes back to router 0 (1 free, the tightest).
	bf := NewBestFit(d)
	held = run(bf, []step{{1, []int{0}}, {1, []int{1}}, {2, []int{2, 3}}, {3, []int{4, 5, 6}}})
	bf.Release(held[0])
	run(bf, []step{{1, []int{0}}, {1, []int{7}}, {4, []int{8, 9, 10, 11}}})
}

// Random placements depend only on the seed, the job's record and the
// free nodes.
func TestRandomDeterminism(t *testing.T) {
	d := Dragonfly{5, 2, 4, 2}
	draw := func(seed uint64, rec int32) []int {
		a, _ := NewRandom(d, seed).Allocate(&policy.Job{Procs: 7, Record: rec})
		return nodesOf(a)
	}
	if a, b := draw(1, 2), draw(1, 2); !slices.Equal(a, b) {
		t.Errorf("same seed and record: %v, %v", a, b)
	}
	if a, b := draw(1, 2), draw(1, 3); slices.Equal(a, b) {
		t.Errorf("records 2 and 3 drew the same %v", a)
	}
}
