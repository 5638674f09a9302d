package cube

import (
	"github.com/schedlab/schedlab/model/policy"
)

// ModBuddy is the modified buddy strategy (K. Al-Dhelaan and B. Bose, "A
// new strategy for processor allocation in an N-cube multiprocessor",
// Phoenix Conf. Computers and Communications, 1989), as described by P.
// Mohapatra, C. Yu and C. R. Das, "A Lazy Scheduling Scheme for Hypercube
// Computers", 1995, §2.1: 2^n allocation bits; a k-cube request (k ≥ 1)
// gets the least α, 0 ≤ α ≤ 2^(n−k+1) − 1, such that the (k−1)-cube α^(n−k+1)
// is free and has a p-th partner α_p^(n−k+1), 1 ≤ p ≤ n−k+1, that is
// free too; the job holds the two adjacent (k−1)-cubes, a k-cube.
//
// Readings: α^(n−k+1) is the α-th aligned (k−1)-cube, the nodes whose
// n−k+1 high address bits equal α (base α·2^(k−1), mask 2^(k−1) − 1); its
// p-th partner α_p is α with the p-th lowest of those bits complemented;
// the partners are tried in increasing p, so the k-cube's free dimensions
// are the low k−1 bits plus bit k−2+p (p = 1 is the buddy). A 0-cube
// request gets the least free node (buddy). Better recognition than buddy
// (it finds k-cubes made of any two adjacent aligned (k−1)-cubes) but not
// complete (a test shows a free 2-cube it misses). Allocation is
// O(n·2^n), release O(2^k).
type ModBuddy struct{ nodes }

// NewModBuddy returns the modified buddy strategy of an all-free n-cube.
func NewModBuddy(n int) *ModBuddy { return &ModBuddy{newNodes(n)} }

// find returns the k-cube of the least α with a free partner.
func (b *ModBuddy) find(k int) (base, mask int, ok bool) {
	if k == 0 {
		x := b.lowest(0)
		return x, 0, x >= 0
	}
	low := 1<<(k-1) - 1
	top := 1 << (b.n - k + 1)
	for a := 0; a < top; a++ {
		if !b.isFree(a<<(k-1), low) {
			continue
		}
		for p := 1; p <= b.n-k+1; p++ {
			bit := 1 << (p - 1)
			if b.isFree((a^bit)<<(k-1), low) {
				return (a &^ bit) << (k - 1), bit<<(k-1) | low, true
			}
		}
	}
	return 0, 0, false
}

// Allocate gives j the k-cube of the least free α with a free partner.
func (b *ModBuddy) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := request(j, b.n)
	if !ok || 1<<k > b.free {
		return nil, false
	}
	x, m, ok := b.find(k)
	if !ok {
		return nil, false
	}
	b.take(x, m)
	return &Sub{Base: int32(x), Mask: int32(m)}, true
}

// Clone returns an independent copy.
func (b *ModBuddy) Clone() policy.Allocator { return &ModBuddy{b.clone()} }
