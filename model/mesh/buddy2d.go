package mesh

import (
	"fmt"
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// Buddy2D is Li & Cheng's two-dimensional buddy system (Li & Cheng 1991,
// "A Two-Dimensional Buddy System for Dynamic Resource Allocation in a
// Partitionable Mesh Connected System", as described by Chu 1995 §2.4.1)
// on a 2^R×2^R mesh. Free blocks B(x,y,k), squares of side 2^k aligned on
// multiples of 2^k, are kept in free block lists FBL_0..FBL_R (FBL_R holds
// the whole mesh at first). A w×h request gets a block of side 2^i,
// i = ⌈log2 max(w,h)⌉: the first block of the first non-empty FBL_j,
// j ≥ i, split down to side 2^i; the job holds the whole block (internal
// fragmentation). A release returns the block to its list and merges it
// with its three buddies, level after level, while all are free. Buddy
// alignment makes it fail on requests that a free, unaligned submesh
// could hold.
//
// Readings of the ambiguities:
//
//   - Chu describes one level of splitting (B(x,y,j) into four buddies of
//     side 2^(j−1)); a buddy system splits recursively, and so does this
//     one: the first buddy B(x,y,k−1) is split again until its side is
//     2^i, so the job gets the lower-left block of side 2^i of B(x,y,j).
//   - At each split the three other buddies are appended to the tail of
//     FBL_(k−1) in Li & Cheng's order of the buddies: lower right
//     B(x+2^(k−1),y), upper left B(x,y+2^(k−1)), upper right
//     B(x+2^(k−1),y+2^(k−1)); so the lists are first-in first-out, and a
//     list's first block is its oldest.
//   - A released block that cannot merge is appended to the tail of its
//     list; a merged block is appended to the tail of the list above (or
//     merges further).
//
// The lists are doubly linked through per-level arrays indexed by block,
// so that a merge removes a buddy in O(1): allocation and release take
// O(R) = O(log N) steps.
type Buddy2D struct {
	r     int          // the mesh is 2^r × 2^r
	lists []buddyLevel // lists[k] is FBL_k
}

// buddyLevel is one free block list: the blocks of side 2^k, numbered
// (y>>k)·(2^(r−k)) + (x>>k), linked in list order.
type buddyLevel struct {
	head, tail int32
	next, prev []int32 // next[b] = −2 when b is not in the list; −1 ends it
}

// buddyNotFree marks, in next, a block that is not in its list.
const buddyNotFree = -2

// NewBuddy2D returns the buddy system of an all-free side×side mesh; side
// must be a power of two.
func NewBuddy2D(side int) (*Buddy2D, error) {
	if side < 1 || side&(side-1) != 0 {
		return nil, fmt.Errorf("the 2-D buddy system needs a power-of-two side, not %d", side)
	}
	r := bits.TrailingZeros(uint(side))
	b := &Buddy2D{r: r, lists: make([]buddyLevel, r+1)}
	for k := range b.lists {
		n := 1 << (2 * (r - k))
		l := &b.lists[k]
		l.head, l.tail = -1, -1
		l.next, l.prev = make([]int32, n), make([]int32, n)
		for i := range l.next {
			l.next[i] = buddyNotFree
		}
	}
	b.lists[r].push(0)
	return b, nil
}

// Buddy2DMachines reports whether the 2-D buddy system runs on mesh m: it
// needs a square mesh whose side is a power of two.
func Buddy2DMachines(m policy.Machine) error {
	if m.Width != m.Height || m.Width < 1 || m.Width&(m.Width-1) != 0 {
		return fmt.Errorf("the 2-D buddy system needs a square mesh with a power-of-two side (2^R×2^R); %s is not", m)
	}
	return nil
}

func (l *buddyLevel) in(b int32) bool { return l.next[b] != buddyNotFree }

func (l *buddyLevel) push(b int32) {
	l.next[b], l.prev[b] = -1, l.tail
	if l.tail >= 0 {
		l.next[l.tail] = b
	} else {
		l.head = b
	}
	l.tail = b
}

func (l *buddyLevel) remove(b int32) {
	n, p := l.next[b], l.prev[b]
	if p >= 0 {
		l.next[p] = n
	} else {
		l.head = n
	}
	if n >= 0 {
		l.prev[n] = p
	} else {
		l.tail = p
	}
	l.next[b] = buddyNotFree
}

// block returns the number of the level-k block at (x, y), and back.
func (b *Buddy2D) block(k, x, y int) int32 {
	return int32((y>>k)<<(b.r-k) | x>>k)
}

func (b *Buddy2D) base(k int, n int32) (x, y int) {
	side := 1 << (b.r - k)
	return (int(n) % side) << k, (int(n) / side) << k
}

// buddyOrder returns ⌈log2 max(w, h)⌉.
func buddyOrder(w, h int) int { return bits.Len(uint(max(w, h) - 1)) }

// Find returns the lower-left block of side 2^i of the first block of the
// first non-empty list FBL_j, j ≥ i.
func (b *Buddy2D) Find(_ *State, _ *policy.Job, w, h int) (Rect, bool) {
	i := buddyOrder(w, h)
	for j := i; j <= b.r; j++ {
		if l := &b.lists[j]; l.head >= 0 {
			x, y := b.base(j, l.head)
			return Rect{x, y, 1 << i, 1 << i}, true
		}
	}
	return Rect{}, false
}

// Allocated takes rectangle r, a block of side 2^i, out of the lists: the
// free block holding it is removed and split down to r, the other buddies
// appended at each level.
func (b *Buddy2D) Allocated(_ *State, r Rect) {
	i := bits.TrailingZeros(uint(r.W))
	j := i
	for j <= b.r && !b.lists[j].in(b.block(j, r.X, r.Y)) {
		j++
	}
	if r.W != r.H || r.W != 1<<i || r.X%r.W != 0 || r.Y%r.W != 0 || j > b.r {
		panic(fmt.Sprintf("2dbs: %v is not a free buddy block", r))
	}
	b.lists[j].remove(b.block(j, r.X, r.Y))
	for k := j; k > i; k-- {
		x, y := b.base(k, b.block(k, r.X, r.Y))
		half := 1 << (k - 1)
		l := &b.lists[k-1]
		for _, q := range [3][2]int{{x + half, y}, {x, y + half}, {x + half, y + half}} {
			// The buddy holding r is split further; the first buddy
			// B(x,y,k−1) when r is the block Find returned.
			if q[0] <= r.X && r.X < q[0]+half && q[1] <= r.Y && r.Y < q[1]+half {
				q = [2]int{x, y}
			}
			l.push(b.block(k-1, q[0], q[1]))
		}
	}
}

// Released returns the block r to its list, merging it with its buddies
// while all four are free.
func (b *Buddy2D) Released(_ *State, r Rect) {
	k := bits.TrailingZeros(uint(r.W))
	x, y := r.X, r.Y
	for ; k < b.r; k++ {
		half := 1 << k
		px, py := x&^(2*half-1), y&^(2*half-1) // the parent's base
		l := &b.lists[k]
		var buddies [3]int32
		n := 0
		for _, q := range [4][2]int{{px, py}, {px + half, py}, {px, py + half}, {px + half, py + half}} {
			if q[0] == x && q[1] == y {
				continue
			}
			buddies[n] = b.block(k, q[0], q[1])
			n++
		}
		if !l.in(buddies[0]) || !l.in(buddies[1]) || !l.in(buddies[2]) {
			break
		}
		for _, q := range buddies {
			l.remove(q)
		}
		x, y = px, py
	}
	b.lists[k].push(b.block(k, x, y))
}

// Clone returns an independent copy of the lists.
func (b *Buddy2D) Clone() Strategy {
	c := &Buddy2D{r: b.r, lists: make([]buddyLevel, len(b.lists))}
	for k, l := range b.lists {
		c.lists[k] = buddyLevel{head: l.head, tail: l.tail,
			next: append([]int32(nil), l.next...), prev: append([]int32(nil), l.prev...)}
	}
	return c
}

// FreeBlocks returns the free blocks of FBL_k in list order (for tests and
// reports).
func (b *Buddy2D) FreeBlocks(k int) []Rect {
	var out []Rect
	l := &b.lists[k]
	for n := l.head; n >= 0; n = l.next[n] {
		x, y := b.base(k, n)
		out = append(out, Rect{x, y, 1 << k, 1 << k})
	}
	return out
}
