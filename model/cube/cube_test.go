package cube

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// newByName builds a registered allocator on cube:n.
func newByName(t testing.TB, name string, n int) policy.Allocator {
	t.Helper()
	for _, s := range Allocators() {
		if s.Name == name {
			a, err := s.New(policy.Machine{Kind: policy.Cube, Dim: n, Procs: 1 << n}, policy.Params{})
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	t.Fatalf("no allocator %q", name)
	return nil
}

// names lists the registered allocators.
func names() []string {
	var out []string
	for _, s := range Allocators() {
		out = append(out, s.Name)
	}
	return out
}

// bruteFree reports whether the free nodes (busy[v] false) hold a
// k-subcube, by trying every mask of k bits and every base.
func bruteFree(n, k int, busy []bool) bool {
	for mask := 0; mask < 1<<n; mask++ {
		if bits.OnesCount(uint(mask)) != k {
			continue
		}
		for base := 0; base < 1<<n; base++ {
			if base&mask != 0 {
				continue
			}
			ok := true
			for s := 0; ; s = (s - mask) & mask {
				if busy[base|s] {
					ok = false
					break
				}
				if s == mask {
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// checkSub verifies that a is a k-subcube of the n-cube, from its node
// list alone: 2^k distinct addresses that agree on n−k fixed bits and take
// every value on the other k; and that its placement says the same.
func checkSub(t *testing.T, n, k int, a policy.Allocation) []int {
	t.Helper()
	ns := policy.Nodes(a, cubeMachine, nil)
	if len(ns) != 1<<k || a.Procs() != 1<<k {
		t.Fatalf("%d nodes, Procs %d, want a %d-cube", len(ns), a.Procs(), k)
	}
	and, or := 1<<n-1, 0
	seen := map[int]bool{}
	for _, v := range ns {
		if v < 0 || v >= 1<<n || seen[v] {
			t.Fatalf("node %d out of range or repeated in %v", v, ns)
		}
		seen[v] = true
		and &= v
		or |= v
	}
	free := and ^ or // the bits that vary
	if bits.OnesCount(uint(free)) != k {
		t.Fatalf("nodes %v vary on %d bits, want %d (fixed bits %d)", ns, bits.OnesCount(uint(free)), k, n-k)
	}
	pl := a.Placement(nil)
	if len(pl) != 1 || pl[0] != policy.Subcube(and, free) {
		t.Fatalf("placement %v, want base %d mask %d", pl, and, free)
	}
	return ns
}

// complete is the set of allocators with complete subcube recognition.
var complete = map[string]bool{"multigray": true, "freelist": true}

// Random allocate/release sequences on small cubes: every allocation is a
// real subcube of the requested dimension, no node is held twice, Free
// agrees with the nodes held, and the complete-recognition allocators
// refuse a request only when an exhaustive search finds no free subcube of
// its dimension. Clones replay the same decisions.
func TestRandomAgainstBruteForce(t *testing.T) {
	for _, name := range names() {
		for n := 0; n <= 6; n++ {
			t.Run(fmt.Sprintf("%s/cube:%d", name, n), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(n), 7))
				a := newByName(t, name, n)
				busy := make([]bool, 1<<n)
				type held struct {
					a     policy.Allocation
					nodes []int
				}
				var hs []held
				misses := 0
				for step := 0; step < 3000; step++ {
					if len(hs) > 0 && r.IntN(5) < 2 {
						i := r.IntN(len(hs))
						a.Release(hs[i].a)
						for _, v := range hs[i].nodes {
							busy[v] = false
						}
						hs = slices.Delete(hs, i, i+1)
					} else {
						k := r.IntN(n + 1)
						procs := 1 << k
						if k > 0 && r.IntN(2) == 0 {
							procs = 1<<(k-1) + 1 + r.IntN(1<<(k-1)) // a size that rounds up to 2^k
						}
						j := &policy.Job{Procs: procs}
						before := a.Clone()
						al, ok := a.Allocate(j)
						exists := bruteFree(n, k, busy)
						if ok {
							ns := checkSub(t, n, k, al)
							for _, v := range ns {
								if busy[v] {
									t.Fatalf("step %d: node %d given twice", step, v)
								}
								busy[v] = true
							}
							hs = append(hs, held{al, ns})
							// A clone taken before decides the same.
							if cl, ok2 := before.Allocate(j); !ok2 || !slices.Equal(policy.Nodes(cl, cubeMachine, nil), ns) {
								t.Fatalf("step %d: the clone decided differently", step)
							}
						} else if exists {
							if complete[name] {
								t.Fatalf("step %d: %s refused a %d-cube although one is free", step, name, k)
							}
							misses++
						}
					}
					nb := 0
					for _, b := range busy {
						if b {
							nb++
						}
					}
					if a.Free() != 1<<n-nb || a.Size() != 1<<n {
						t.Fatalf("step %d: Free %d Size %d, %d nodes busy", step, a.Free(), a.Size(), nb)
					}
				}
				t.Logf("%d misses of a free subcube", misses)
			})
		}
	}
}

// A request above 2^n is infeasible and refused; 2^n exactly is fine.
func TestFeasibility(t *testing.T) {
	for _, name := range names() {
		a := newByName(t, name, 4)
		f := a
		if err := f.Feasible(&policy.Job{Procs: 17}); err == nil {
			t.Errorf("%s: 17 processors on cube:4 feasible", name)
		}
		if _, ok := a.Allocate(&policy.Job{Procs: 17}); ok {
			t.Errorf("%s: 17 processors on cube:4 allocated", name)
		}
		if err := f.Feasible(&policy.Job{Procs: 16}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		al, ok := a.Allocate(&policy.Job{Procs: 9})
		if !ok || al.Procs() != 16 {
			t.Errorf("%s: 9 processors on cube:4: %v %v, want the whole 16-node cube", name, al, ok)
		}
	}
}

// seq allocates the given processor counts in order (all must succeed)
// and returns the allocations.
func seq(t *testing.T, a policy.Allocator, procs ...int) []*Sub {
	t.Helper()
	var out []*Sub
	for _, p := range procs {
		al, ok := a.Allocate(&policy.Job{Procs: p})
		if !ok {
			t.Fatalf("%d processors refused", p)
		}
		out = append(out, al.(*Sub))
	}
	return out
}

func pats(n int, ss ...*Sub) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Pattern(n))
	}
	return out
}

// Buddy on a 3-cube, worked by hand from Knuth's Algorithms R and S.
//
//	1-cube: F_3 = {***} split: 1** → F_2, 01* → F_1, job gets 00*.
//	0-cube: F_0 empty, F_1 = {01*}: split, 011 → F_0, job gets 010.
//	1-cube: F_1 empty, F_2 = {1**}: split, 11* → F_1, job gets 10*.
//	release 010: buddy 011 free in F_0 → merge 01*; its buddy 00* busy.
//	2-cube: F_2 empty, nothing larger: refused although 01* ∪ 11* = *1*
//	is a free 2-cube (buddy misses it).
func TestBuddyByHand(t *testing.T) {
	b := NewBuddy(3)
	got := seq(t, b, 2, 1, 2)
	if want := []string{"00*", "010", "10*"}; !slices.Equal(pats(3, got...), want) {
		t.Fatalf("allocations %v, want %v", pats(3, got...), want)
	}
	b.Release(got[1])
	if f1 := b.FreeList(1); !slices.Equal(f1, []int{2, 6}) {
		t.Fatalf("F_1 = %v, want [010 110] = [2 6]", f1)
	}
	if _, ok := b.Allocate(&policy.Job{Procs: 4}); ok {
		t.Fatal("buddy found a 2-cube among 01* and 11*")
	}
	if !bruteFree(3, 2, busyOf(3, got[0], got[2])) {
		t.Fatal("brute force finds no free 2-cube")
	}
	// Releasing everything merges back to the whole cube.
	b.Release(got[0])
	b.Release(got[2])
	if b.FreeList(3)[0] != 0 || b.Free() != 8 {
		t.Fatalf("F_3 = %v, free %d", b.FreeList(3), b.Free())
	}
	for k := 0; k < 3; k++ {
		if len(b.FreeList(k)) != 0 {
			t.Fatalf("F_%d = %v after all released", k, b.FreeList(k))
		}
	}
}

// busyOf marks the nodes of the given subcubes busy.
func busyOf(n int, ss ...*Sub) []bool {
	busy := make([]bool, 1<<n)
	for _, s := range ss {
		for _, v := range policy.Nodes(s, cubeMachine, nil) {
			busy[v] = true
		}
	}
	return busy
}

// Where buddy (best fit by size) and the bitmap (lowest address) choose
// different blocks: 0-cubes 000 and 001, a 0-cube 010 (011 → F_0), then
// release 000 and 001 (they merge to 00*, F_1 = {00*}); now F_0 = {011}:
// a 0-cube gets 011 from buddy (F_0 first), 000 from the bitmap (lowest).
func TestBuddyBestFitBySize(t *testing.T) {
	b, m := NewBuddy(3), NewBuddyBitmap(3)
	gb, gm := seq(t, b, 1, 1, 1), seq(t, m, 1, 1, 1)
	for i := 0; i < 2; i++ {
		b.Release(gb[i])
		m.Release(gm[i])
	}
	if x := seq(t, b, 1)[0].Pattern(3); x != "011" {
		t.Errorf("buddy gave %s, want 011 (F_0 before splitting F_1's 00*)", x)
	}
	if x := seq(t, m, 1)[0].Pattern(3); x != "000" {
		t.Errorf("bitmap gave %s, want 000 (the lowest free node)", x)
	}
}

// The BRGC windows: on the 3-cube the 2-cube windows are positions 0..3
// (nodes 000 001 011 010: 0**), 2..5 (011 010 110 111: *1*), 4..7 (1**)
// and 6..1 wrapping (101 100 000 001: *0*).
func TestGrayWindows(t *testing.T) {
	want := []string{"0**", "*1*", "1**", "*0*"}
	for m, w := range want {
		b, mk := window(3, 2, m)
		if got := (&Sub{Base: int32(b), Mask: int32(mk)}).Pattern(3); got != w {
			t.Errorf("window %d: %s, want %s", m, got, w)
		}
		// The window's nodes are exactly the Gray codes of its positions.
		var pos []int
		for i := m * 2; i < m*2+4; i++ {
			pos = append(pos, gray(i%8))
		}
		slices.Sort(pos)
		if got := policy.Nodes(&Sub{Base: int32(b), Mask: int32(mk)}, cubeMachine, nil); !slices.Equal(got, pos) {
			t.Errorf("window %d: nodes %v, positions give %v", m, got, pos)
		}
	}
}

// Gray misses a free subcube that is not a window of the BRGC. On the
// 3-cube with 000 and 110 busy, the 2-cube windows 0**, *1*, 1** and *0*
// each hold one of them, while **1 (001 011 101 111) is free: the only
// free 2-cube (its free bits are 1 and 2, which no window of the single
// code has). MultiGray finds it (a code whose prefix set is {1, 2}).
func TestGrayMisses(t *testing.T) {
	g := NewGray(3)
	g.take(0, 0)
	g.take(6, 0)
	if _, ok := g.Allocate(&policy.Job{Procs: 4}); ok {
		t.Fatal("gray found a 2-cube with 000 and 110 busy")
	}
	if !bruteFree(3, 2, busyOf(3, &Sub{Base: 0}, &Sub{Base: 6})) {
		t.Fatal("brute force finds no free 2-cube")
	}
	mg := NewMultiGray(3)
	mg.take(0, 0)
	mg.take(6, 0)
	al, ok := mg.Allocate(&policy.Job{Procs: 4})
	if !ok || al.(*Sub).Pattern(3) != "**1" {
		t.Fatalf("multigray: %v %v, want **1", al, ok)
	}
}

// Modified buddy builds a k-cube from an aligned (k−1)-cube and a partner,
// so its k-cubes always have the low k−1 bits free: on the 3-cube with 001
// and 111 busy, the only free 2-cube is **0 (free bits 1 and 2), which it
// misses.
func TestModBuddyMisses(t *testing.T) {
	b := NewModBuddy(3)
	b.take(1, 0)
	b.take(7, 0)
	if _, ok := b.Allocate(&policy.Job{Procs: 4}); ok {
		t.Fatal("modbuddy found a 2-cube with 001 and 111 busy")
	}
	if !bruteFree(3, 2, busyOf(3, &Sub{Base: 1}, &Sub{Base: 7})) {
		t.Fatal("brute force finds no free 2-cube")
	}
	// With 000, 011, 101 and 110 busy the free nodes 001, 010, 100 and
	// 111 (odd weight) are pairwise non-adjacent: a 1-cube is refused, and
	// brute force agrees.
	c := NewModBuddy(3)
	for _, v := range []int{0, 3, 5, 6} {
		c.take(v, 0)
	}
	_, ok := c.Allocate(&policy.Job{Procs: 2})
	if ok || bruteFree(3, 1, busyOf(3, &Sub{Base: 0}, &Sub{Base: 3}, &Sub{Base: 5}, &Sub{Base: 6})) {
		t.Fatal("a 1-cube among nodes of even weight")
	}
	// With 000 busy, the 1-cube request gets α = 1 (node 001) and its first
	// free partner p = 2 (node 011): 0*1, not the buddy 000 which is busy.
	d := NewModBuddy(3)
	d.take(0, 0)
	al, ok := d.Allocate(&policy.Job{Procs: 2})
	if !ok || al.(*Sub).Pattern(3) != "0*1" {
		t.Fatalf("modbuddy: %v, want 0*1", al)
	}
}

// The symmetric chain decomposition behind MultiGray: C(n, ⌊n/2⌋) chains,
// every subset in exactly one, each chain adding one element at a time
// and symmetric (|first| + |last| = n); and the codes' prefix sets cover
// every subset.
func TestSymmetricChains(t *testing.T) {
	binom := func(n, k int) int {
		r := 1
		for i := 1; i <= k; i++ {
			r = r * (n - k + i) / i
		}
		return r
	}
	for n := 0; n <= 10; n++ {
		ch := symmetricChains(n)
		if len(ch) != binom(n, n/2) {
			t.Errorf("n=%d: %d chains, want %d", n, len(ch), binom(n, n/2))
		}
		seen := make([]int, 1<<n)
		for _, c := range ch {
			for i, s := range c {
				seen[s]++
				if i > 0 && (c[i-1]&^s != 0 || bits.OnesCount(uint(s^c[i-1])) != 1) {
					t.Errorf("n=%d: chain %v does not add one element at a time", n, c)
				}
			}
			if bits.OnesCount(uint(c[0]))+bits.OnesCount(uint(c[len(c)-1])) != n {
				t.Errorf("n=%d: chain %v is not symmetric", n, c)
			}
		}
		covered := make([]bool, 1<<n)
		for _, code := range chainCodes(n) {
			set := 0
			covered[0] = true
			for _, d := range code.perm {
				set |= 1 << d
				covered[set] = true
			}
		}
		for s := range seen {
			if seen[s] != 1 || !covered[s] {
				t.Errorf("n=%d: subset %b in %d chains, prefix of a code %v", n, s, seen[s], covered[s])
			}
		}
		if n > 0 && !slices.Equal(chainCodes(n)[0].perm, NewGray(n).codes[0].perm) {
			t.Errorf("n=%d: the first code is not the BRGC", n)
		}
	}
}

// Merging pairs of adjacent free cubes can leave the whole free cube in
// pieces no two of which merge: 00*, *10, 1*1, 011 and 100 on the 3-cube.
// A 3-cube request then finds no listed cube large enough, rebuilds the
// lists from the free nodes and gets the whole cube.
func TestFreeListRebuild(t *testing.T) {
	f := NewFreeList(3)
	f.lists[3] = nil
	f.lists[1] = []Sub{{Base: 0, Mask: 1}, {Base: 2, Mask: 4}, {Base: 5, Mask: 2}}
	f.lists[0] = []Sub{{Base: 3}, {Base: 4}}
	al, ok := f.Allocate(&policy.Job{Procs: 8})
	if !ok || al.(*Sub).Pattern(3) != "***" {
		t.Fatalf("freelist: %v %v, want ***", al, ok)
	}
}

// A released cube merges with an adjacent free cube that is not its
// buddy: *10 and *11 (free bit 2) merge into *1*, which merges with *0*
// into the whole cube.
func TestFreeListMergesNonBuddies(t *testing.T) {
	f := NewFreeList(3)
	f.take(0, 7)
	f.lists[3] = nil
	f.Release(&Sub{Base: 2, Mask: 4}) // *10
	f.Release(&Sub{Base: 3, Mask: 4}) // *11
	if l := f.Lists(); len(l[1]) != 0 || len(l[2]) != 1 || l[2][0].Pattern(3) != "*1*" {
		t.Fatalf("lists %v, want F_2 = {*1*}", l)
	}
	f.Release(&Sub{Base: 0, Mask: 5}) // *0*
	if l := f.Lists(); len(l[2]) != 0 || len(l[3]) != 1 || f.Free() != 8 {
		t.Fatalf("lists %v, want F_3 = {***}", l)
	}
	// Decomposition: a 0-cube from *** gets 000 and lists 1** (F_2),
	// 01* (F_1), 001 (F_0).
	al, _ := f.Allocate(&policy.Job{Procs: 1})
	l := f.Lists()
	if al.(*Sub).Pattern(3) != "000" || l[2][0].Pattern(3) != "1**" || l[1][0].Pattern(3) != "01*" || l[0][0].Pattern(3) != "001" {
		t.Fatalf("got %v, lists %v", al, l)
	}
}

// cubeMachine is a hypercube for listing subcubes' nodes (Family.Nodes
// does not depend on the dimension).
var cubeMachine = policy.Machine{Kind: Kind, Dim: 10, Procs: 1 << 10}
