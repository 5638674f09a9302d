package flat

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

func job(procs int) *policy.Job { return &policy.Job{Procs: procs} }

func TestContigGolden(t *testing.T) {
	// flat:16. Allocate 4, 4, 4 → 0-3, 4-7, 8-11. Release 4-7; a 2-job goes
	// first-fit into the hole at 4-5; a 3-job does not fit in 6-7 and goes to
	// 12-14; a 2-job takes 6-7. Releasing 0-3 and then 4-5 and 6-7 merges
	// back into 0-7; an 8-job then fits at 0-7, a 2-job does not fit (only 15
	// and nothing else is free).
	c := NewContig(16)
	a := func(k int) Range {
		r, ok := c.Allocate(job(k))
		if !ok {
			t.Fatalf("allocate %d failed, holes %v", k, c.holes)
		}
		return r.(Range)
	}
	r1, r2, r3 := a(4), a(4), a(4)
	c.Release(r2)
	r4 := a(2)
	r5 := a(3)
	r6 := a(2)
	got := fmt.Sprint(r1, r3, r4, r5, r6)
	if want := "{0 4} {8 4} {4 2} {12 3} {6 2}"; got != want {
		t.Errorf("ranges %s, want %s", got, want)
	}
	c.Release(r1)
	c.Release(r6)
	c.Release(r4)
	if fmt.Sprint(c.holes) != "[{0 8} {15 1}]" || c.Free() != 9 {
		t.Errorf("holes %v free %d, want [{0 8} {15 1}] 9", c.holes, c.Free())
	}
	if r := a(8); r != (Range{0, 8}) {
		t.Errorf("8-job at %v, want {0 8}", r)
	}
	if _, ok := c.Allocate(job(2)); ok {
		t.Errorf("2-job fitted with holes %v", c.holes)
	}
	if c.Free() != 1 {
		t.Errorf("free %d, want 1", c.Free())
	}
}

// TestNoProcessorHeldTwice allocates and releases at random and checks that
// the allocations are disjoint, the free count is exact, and a clone is
// independent.
func TestNoProcessorHeldTwice(t *testing.T) {
	for _, spec := range Allocators() {
		t.Run(spec.Name, func(t *testing.T) {
			const n = 64
			al, err := spec.New(policy.Machine{Kind: policy.Flat, Procs: n}, policy.Params{})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 2))
			owner := make([]int, n)
			var held []policy.Allocation
			busy := 0
			for step := 1; step <= 20000; step++ {
				if len(held) > 0 && r.IntN(2) == 0 {
					k := r.IntN(len(held))
					a := held[k]
					for _, q := range policy.Nodes(a, policy.Machine{}, nil) {
						owner[q] = 0
					}
					busy -= a.Procs()
					al.Release(a) // a is invalid from here on
					held = append(held[:k], held[k+1:]...)
				} else {
					k := 1 + r.IntN(16)
					a, ok := al.Allocate(job(k))
					if !ok {
						if spec.Name == "count" && k <= n-busy {
							t.Fatalf("step %d: count refused %d with %d free", step, k, n-busy)
						}
						continue
					}
					nodes := policy.Nodes(a, policy.Machine{}, nil)
					if len(nodes) != k || a.Procs() != k {
						t.Fatalf("asked %d, got %d nodes", k, len(nodes))
					}
					for _, q := range nodes {
						if owner[q] != 0 {
							t.Fatalf("step %d: processor %d held twice", step, q)
						}
						owner[q] = step
					}
					if spec.Name == "contig" && nodes[k-1]-nodes[0] != k-1 {
						t.Fatalf("contig gave non-contiguous %v", nodes)
					}
					held = append(held, a)
					busy += k
				}
				if al.Free() != n-busy {
					t.Fatalf("step %d: Free %d, want %d", step, al.Free(), n-busy)
				}
			}
			cl := al.Clone()
			free := al.Free()
			for cl.Free() > 0 {
				if _, ok := cl.Allocate(job(1)); !ok {
					t.Fatalf("clone refused 1 processor with %d free", cl.Free())
				}
			}
			if al.Free() != free {
				t.Errorf("allocating on the clone changed the original")
			}
		})
	}
}

func TestParams(t *testing.T) {
	for _, spec := range Allocators() {
		if _, err := spec.New(policy.Machine{Kind: policy.Flat, Procs: 4}, policy.Params{"x": "1"}); err == nil {
			t.Errorf("%s accepted an unknown parameter", spec.Name)
		}
	}
}

// TestCloneReleaseLeavesOriginal plans on a clone, as a backfilling
// scheduler may (Allocator.Clone is "for what-if planning"): releasing a
// running job's allocation on the clone must not change that allocation or
// the original allocator.
func TestCloneReleaseLeavesOriginal(t *testing.T) {
	for _, spec := range Allocators() {
		t.Run(spec.Name, func(t *testing.T) {
			al, err := spec.New(policy.Machine{Kind: policy.Flat, Procs: 8}, policy.Params{})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := al.Allocate(job(3))
			b, _ := al.Allocate(job(2))
			before := fmt.Sprint(policy.Nodes(a, policy.Machine{}, nil))
			cl := al.Clone()
			cl.Release(a)
			if cl.Free() != 6 || al.Free() != 3 {
				t.Fatalf("clone free %d, original free %d; want 6 and 3", cl.Free(), al.Free())
			}
			// The clone reuses nothing of a: allocate on it until full.
			for cl.Free() > 0 {
				if _, ok := cl.Allocate(job(1)); !ok {
					t.Fatal("clone refused a free processor")
				}
			}
			if got := fmt.Sprint(policy.Nodes(a, policy.Machine{}, nil)); got != before || a.Procs() != 3 {
				t.Fatalf("allocation changed by the clone: %s (%d procs), was %s", got, a.Procs(), before)
			}
			al.Release(a)
			al.Release(b)
			if al.Free() != 8 {
				t.Fatalf("original free %d after releasing everything, want 8", al.Free())
			}
		})
	}
}

// TestCountLowestFirst checks the count allocator against a plain set of
// free processors on a machine of several words (the last one partial):
// every allocation takes the lowest-numbered free processors, its
// placement is its nodes as ascending, non-adjacent ranges, and a clone
// plans independently.
func TestCountLowestFirst(t *testing.T) {
	const n = 200
	c := NewCount(n)
	free := make([]bool, n)
	for i := range free {
		free[i] = true
	}
	r := rand.New(rand.NewPCG(3, 4))
	var held []policy.Allocation
	for step := 0; step < 20000; step++ {
		if len(held) > 0 && r.IntN(2) == 0 {
			k := r.IntN(len(held))
			for _, q := range policy.Nodes(held[k], policy.Machine{}, nil) {
				free[q] = true
			}
			c.Release(held[k])
			held = append(held[:k], held[k+1:]...)
			continue
		}
		k := 1 + r.IntN(120)
		var want []int
		for q := 0; q < n && len(want) < k; q++ {
			if free[q] {
				want = append(want, q)
			}
		}
		a, ok := c.Allocate(job(k))
		if ok != (len(want) == k) {
			t.Fatalf("step %d: allocate %d with %d free: ok=%v", step, k, c.Free()+k, ok)
		}
		if !ok {
			continue
		}
		got := policy.Nodes(a, policy.Machine{}, nil)
		if fmt.Sprint(got) != fmt.Sprint(want) || a.Procs() != k {
			t.Fatalf("step %d: got %v, want %v", step, got, want)
		}
		var fromPieces []int
		pl := a.Placement(nil)
		for i, p := range pl {
			if i > 0 && pl[i-1].X+pl[i-1].W >= p.X {
				t.Fatalf("step %d: pieces %v not ascending and apart", step, pl)
			}
			fromPieces = p.AppendNodes(policy.Machine{Kind: policy.Flat, Procs: n}, fromPieces)
		}
		if fmt.Sprint(fromPieces) != fmt.Sprint(want) {
			t.Fatalf("step %d: placement %v, nodes %v", step, pl, want)
		}
		for _, q := range want {
			free[q] = false
		}
		held = append(held, a)
		if step%1000 == 0 {
			cl := c.Clone()
			f := c.Free()
			for _, h := range held {
				cl.Release(h)
			}
			if cl.Free() != n || c.Free() != f {
				t.Fatalf("clone free %d (want %d), original %d (want %d)", cl.Free(), n, c.Free(), f)
			}
			if b, ok := cl.Allocate(job(n)); !ok || fmt.Sprint(b.Placement(nil)) != fmt.Sprint([]policy.Piece{policy.Range(0, n)}) {
				t.Fatalf("clone: whole machine not one range")
			}
		}
	}
	if err := c.Feasible(job(n + 1)); err == nil {
		t.Error("a job larger than the machine is feasible")
	}
	if err := c.Feasible(job(n)); err != nil {
		t.Error(err)
	}
}
