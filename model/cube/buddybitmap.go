package cube

import (
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// BuddyBitmap is the buddy strategy in its bitmap form (K. C. Knowlton, "A
// fast storage allocator", CACM 8(10), 1965; the allocator of the nCUBE),
// as described by P. Mohapatra, C. Yu and C. R. Das, "A Lazy Scheduling
// Scheme for Hypercube Computers", 1995, §2.1: 2^n allocation bits, one
// per node; a k-cube request gets the nodes [m·2^k, (m+1)·2^k − 1] of the
// least integer m for which they are all free. Release clears the bits.
//
// It finds the same kind of subcube as Buddy (aligned basic k-cubes) but
// not always the same one: Buddy takes a block of F_k before splitting a
// larger one (best fit by size), BuddyBitmap the lowest-addressed aligned
// free block. Allocation is O(2^n) (here O(2^n/64) word operations),
// release O(2^k).
type BuddyBitmap struct{ nodes }

// NewBuddyBitmap returns the bitmap buddy strategy of an all-free n-cube.
func NewBuddyBitmap(n int) *BuddyBitmap { return &BuddyBitmap{newNodes(n)} }

// aligned[k] has a bit at every multiple of 2^k in a word (k < 6).
var aligned = [6]uint64{
	^uint64(0), 0x5555555555555555, 0x1111111111111111,
	0x0101010101010101, 0x0001000100010001, 0x0000000100000001,
}

// lowest returns the base of the lowest aligned free k-cube, −1 if none.
func (s *nodes) lowest(k int) int {
	if k < 6 {
		for i, w := range s.busy {
			f := ^w
			for t := 0; t < k; t++ {
				f &= f >> (1 << t)
			}
			if f &= aligned[k]; f != 0 {
				return i<<6 | bits.TrailingZeros64(f)
			}
		}
		return -1
	}
	step := 1 << (k - 6)
	for i := 0; i < len(s.busy); i += step {
		ok := true
		for _, w := range s.busy[i : i+step] {
			if w != 0 {
				ok = false
				break
			}
		}
		if ok {
			return i << 6
		}
	}
	return -1
}

// Allocate gives j the lowest-addressed aligned free k-cube.
func (b *BuddyBitmap) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k, ok := request(j, b.n)
	if !ok || 1<<k > b.free {
		return nil, false
	}
	x := b.lowest(k)
	if x < 0 {
		return nil, false
	}
	b.take(x, 1<<k-1)
	return &Sub{Base: int32(x), Mask: 1<<k - 1}, true
}

// Clone returns an independent copy.
func (b *BuddyBitmap) Clone() policy.Allocator { return &BuddyBitmap{b.clone()} }
