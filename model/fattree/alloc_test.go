package fattree

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// nodesOf lists an allocation's nodes, sorted.
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

type allocCase struct {
	name string
	mk   func(*Tree) policy.Allocator
}

var allocCases = []allocCase{
	{"ft-tree", func(t *Tree) policy.Allocator { return NewSlurmTree(t) }},
	{"ft-spread", func(t *Tree) policy.Allocator { return NewSpread(t) }},
	{"ft-random", func(t *Tree) policy.Allocator { return NewRandom(t, 7) }},
}

// Every allocator, under random allocations and releases: nodes inside
// the machine, never held twice, exactly the request, refused only when
// fewer nodes are free than asked (every fat-tree allocator takes any
// free nodes); the per-switch counts agree with the nodes held, and a
// clone is independent.
func TestAllocProperty(t *testing.T) {
	conf, err := LoadConf(filepath.Join("testdata", "topology.conf"))
	if err != nil {
		t.Fatal(err)
	}
	trees := []*Tree{Radix([]int{4, 3}), Radix([]int{2, 2, 2}), Radix([]int{8, 4, 2}), conf}
	for _, c := range allocCases {
		for ti, tr := range trees {
			rng := rand.New(rand.NewPCG(uint64(ti), 3))
			al := c.mk(tr)
			owner := make([]int, tr.N)
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
				want := 1 + rng.IntN(tr.N)
				if rng.IntN(2) == 0 {
					want = 1 + rng.IntN(max(1, tr.N/4))
				}
				j := &policy.Job{Procs: want, Record: int32(it)}
				a, ok := al.Allocate(j)
				if !ok {
					if tr.N-busy >= want {
						t.Fatalf("%s tree %d: refused %d nodes with %d free", c.name, ti, want, tr.N-busy)
					}
					continue
				}
				ns := nodesOf(a)
				if len(ns) != want || a.Procs() != want {
					t.Fatalf("%s: asked %d, given %d (%d listed)", c.name, want, a.Procs(), len(ns))
				}
				for _, q := range ns {
					if q < 0 || q >= tr.N || owner[q] != 0 {
						t.Fatalf("%s: node %d outside the machine or held twice", c.name, q)
					}
					owner[q] = it + 1
				}
				busy += want
				held = append(held, a)
				if al.Free() != tr.N-busy {
					t.Fatalf("%s: Free %d, want %d", c.name, al.Free(), tr.N-busy)
				}
				if it%97 == 0 {
					b := switchCounts(al)
					for s := range tr.Parent {
						n := 0
						for q := int(tr.Lo[s]); q < int(tr.Hi[s]); q++ {
							if owner[q] == 0 {
								n++
							}
						}
						if int(b.sw[s]) != n {
							t.Fatalf("%s: switch %d counts %d free, holds %d", c.name, s, b.sw[s], n)
						}
					}
					cl := al.Clone()
					if _, ok := cl.Allocate(&policy.Job{Procs: cl.Free()}); cl.Free() > 0 && !ok {
						t.Fatalf("%s: clone refused its free nodes", c.name)
					}
					if al.Free() != tr.N-busy {
						t.Fatalf("%s: allocating on a clone changed the original", c.name)
					}
				}
			}
		}
	}
}

func switchCounts(a policy.Allocator) *base {
	switch x := a.(type) {
	case *SlurmTree:
		return &x.base
	case *Spread:
		return &x.base
	case *Random:
		return &x.base
	}
	panic("unknown allocator")
}

func alloc(t *testing.T, al policy.Allocator, k int) (policy.Allocation, []int) {
	t.Helper()
	a, ok := al.Allocate(&policy.Job{Procs: k})
	if !ok {
		t.Fatalf("%d nodes refused", k)
	}
	return a, nodesOf(a)
}

func seq(lo, hi int) []int {
	var s []int
	for q := lo; q <= hi; q++ {
		s = append(s, q)
	}
	return s
}

// Slurm's tree selection worked by hand on fattree:4x3 (three leaf
// switches of 4 nodes under one top switch) and fattree:2x2x2.
func TestSlurmTreeHand(t *testing.T) {
	al := NewSlurmTree(Radix([]int{4, 3}))
	steps := []struct {
		k    int
		want []int
	}{
		{3, seq(0, 2)}, // every leaf fits; the first of the tightest (all 4 free): leaf 0
		{2, seq(4, 5)}, // leaf 0 has 1 free: leaves 1 and 2 fit with 4, the first
		{1, []int{3}},  // best fit: leaf 0's last free node
		// 5 nodes: no leaf holds 5 (2 and 4 free): the top switch; no
		// leaf covers 5: the biggest (leaf 2, nodes 8–11), then 1 more:
		// leaf 1 covers it (2 free): node 6.
		{5, append([]int{6}, seq(8, 11)...)},
	}
	var b policy.Allocation
	for i, s := range steps {
		a, got := alloc(t, al, s.k)
		if !slices.Equal(got, s.want) {
			t.Fatalf("step %d (%d nodes): %v, want %v", i, s.k, got, s.want)
		}
		if i == 1 {
			b = a
		}
	}
	al.Release(b) // leaf 1: nodes 4, 5, 7 free
	if _, got := alloc(t, al, 3); !slices.Equal(got, []int{4, 5, 7}) {
		t.Fatalf("after the release: %v, want [4 5 7]", got)
	}

	al = NewSlurmTree(Radix([]int{2, 2, 2}))
	alloc(t, al, 1) // node 0
	if _, got := alloc(t, al, 2); !slices.Equal(got, []int{2, 3}) {
		t.Fatalf("2 nodes: %v, want the first full leaf [2 3]", got)
	}
	// 3 nodes: no leaf; level 2: switch 0–3 has 1 free, switch 4–7 has 4:
	// the biggest leaf (4, 5), then node 6 from the leaf that covers 1.
	if _, got := alloc(t, al, 3); !slices.Equal(got, []int{4, 5, 6}) {
		t.Fatalf("3 nodes: %v, want [4 5 6]", got)
	}
	// 2 nodes: leaves with 1 free each (nodes 1 and 7): no leaf, no
	// level-2 switch holds 2: the top switch, leaves 0 and 3.
	if _, got := alloc(t, al, 2); !slices.Equal(got, []int{1, 7}) {
		t.Fatalf("2 nodes: %v, want [1 7]", got)
	}
}

// Spread deals nodes one per leaf switch in turn, worked by hand on
// fattree:4x3.
func TestSpreadHand(t *testing.T) {
	al := NewSpread(Radix([]int{4, 3}))
	if _, got := alloc(t, al, 5); !slices.Equal(got, []int{0, 1, 4, 5, 8}) {
		t.Fatalf("5 nodes: %v, want 2, 2, 1 per leaf [0 1 4 5 8]", got)
	}
	// free per leaf 2, 2, 3: a round of 1 each, then one more for the first leaf.
	if _, got := alloc(t, al, 4); !slices.Equal(got, []int{2, 3, 6, 9}) {
		t.Fatalf("4 nodes: %v, want [2 3 6 9]", got)
	}
}

// Random placements depend only on the seed, the job's record and the free
// nodes: the same three draw the same nodes, whatever happened before;
// another record or seed draws others.
func TestRandomDeterminism(t *testing.T) {
	tr := Radix([]int{8, 8})
	draw := func(seed uint64, rec int32, before func(*Random)) []int {
		r := NewRandom(tr, seed)
		before(r)
		a, ok := r.Allocate(&policy.Job{Procs: 10, Record: rec})
		if !ok {
			t.Fatal("refused")
		}
		return nodesOf(a)
	}
	none := func(*Random) {}
	churn := func(r *Random) { // allocate and release: the free set is back to all
		a, _ := r.Allocate(&policy.Job{Procs: 20, Record: 1})
		r.Release(a)
	}
	n1 := draw(5, 3, none)
	if n2 := draw(5, 3, churn); !slices.Equal(n1, n2) {
		t.Errorf("same seed, record and free nodes drew %v, then %v", n1, n2)
	}
	if n3 := draw(5, 4, none); slices.Equal(n1, n3) {
		t.Errorf("records 3 and 4 drew the same nodes %v", n1)
	}
	if n4 := draw(6, 3, none); slices.Equal(n1, n4) {
		t.Errorf("seeds 5 and 6 drew the same nodes %v", n1)
	}
}

// The bucketed leaf choice picks the same leaves as the scan, under random
// allocations and releases.
func TestSlurmTreeBuckets(t *testing.T) {
	for _, r := range [][]int{{4, 3}, {3, 4, 2}, {16, 4, 4}} {
		tr := Radix(r)
		rng := rand.New(rand.NewPCG(8, uint64(len(r))))
		fast, slow := NewSlurmTree(tr), NewSlurmTree(tr)
		var hf, hs []policy.Allocation
		for it := 0; it < 2000; it++ {
			if len(hf) > 0 && rng.IntN(3) == 0 {
				k := rng.IntN(len(hf))
				fast.Release(hf[k])
				slow.Release(hs[k])
				hf, hs = slices.Delete(hf, k, k+1), slices.Delete(hs, k, k+1)
				continue
			}
			j := &policy.Job{Procs: 1 + rng.IntN(tr.N/2)}
			a, ok1 := fast.Allocate(j)
			saved := bucketMax
			bucketMax = -1
			b, ok2 := slow.Allocate(j)
			bucketMax = saved
			if ok1 != ok2 || ok1 && !slices.Equal(nodesOf(a), nodesOf(b)) {
				t.Fatalf("%v, %d nodes: buckets %v, scan %v", r, j.Procs, a, b)
			}
			if ok1 {
				hf, hs = append(hf, a), append(hs, b)
			}
		}
	}
}
