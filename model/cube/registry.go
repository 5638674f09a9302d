package cube

import (
	"fmt"

	"github.com/schedlab/schedlab/model/policy"
)

// strategy is one line of the registry.
type strategy struct {
	name, doc string
	max       int // largest dimension offered
	new       func(n int) policy.Allocator
}

// lazyPaper is how the registry cites the survey every allocator is
// described in.
const lazyPaper = "Mohapatra, Yu & Das, \"A Lazy Scheduling Scheme for Hypercube Computers\", 1995"

// strategies lists the hypercube allocators; each has its own file.
var strategies = []strategy{
	{name: "buddy", max: MaxDim, new: func(n int) policy.Allocator { return NewBuddy(n) },
		doc: "Knuth's buddy system: free lists F_0..F_n of basic subcubes, the first block of F_k else a larger one split; released blocks merge with their buddies; O(n) (" + lazyPaper + " §3.2, the allocator under every scheduler)"},
	{name: "buddy-bitmap", max: MaxDim, new: func(n int) policy.Allocator { return NewBuddyBitmap(n) },
		doc: "Knowlton's buddy strategy (nCUBE): 2^n allocation bits, the lowest aligned free k-cube [m·2^k, (m+1)·2^k−1]; O(2^n) (" + lazyPaper + " §2.1)"},
	{name: "gray", max: MaxDim, new: func(n int) policy.Allocator { return NewGray(n) },
		doc: "Chen & Shin's Gray code: allocation bits in binary-reflected Gray code order, the least free window of 2^k positions starting at a multiple of 2^(k−1); O(2^n) (" + lazyPaper + " §2.1)"},
	{name: "multigray", max: MultiGrayMaxDim, new: func(n int) policy.Allocator { return NewMultiGray(n) },
		doc: "Chen & Shin's multiple Gray codes: C(n,⌊n/2⌋) codes (from a symmetric chain decomposition), searched in turn; complete recognition; O(C(n,⌊n/2⌋)·2^n); n ≤ 12 (" + lazyPaper + " §2.1)"},
	{name: "modbuddy", max: MaxDim, new: func(n int) policy.Allocator { return NewModBuddy(n) },
		doc: "Al-Dhelaan & Bose's modified buddy: the least free aligned (k−1)-cube α with a free p-th partner α_p, 1 ≤ p ≤ n−k+1; O(n·2^n) (" + lazyPaper + " §2.1)"},
	{name: "freelist", max: FreeListMaxDim, new: func(n int) policy.Allocator { return NewFreeList(n) },
		doc: "Kim, Das & Lin's free lists: n+1 lists of free subcubes of any orientation, a larger one decomposed when needed, released cubes merged with every adjacent free cube; complete recognition; n ≤ 16 (" + lazyPaper + " §2.1, Fig. 10)"},
}

// Allocators returns the registry entries of the hypercube allocators.
func Allocators() []policy.AllocatorSpec {
	out := make([]policy.AllocatorSpec, 0, len(strategies))
	for _, s := range strategies {
		s := s
		ok := machines(s.max)
		out = append(out, policy.AllocatorSpec{
			Name: s.name, Doc: s.doc, Kinds: []string{policy.Cube}, Machines: ok,
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check(); err != nil {
					return nil, err
				}
				if err := ok(m); err != nil {
					return nil, fmt.Errorf("%s: %w", s.name, err)
				}
				return s.new(m.Dim), nil
			},
		})
	}
	return out
}
