package cube

import (
	"github.com/schedlab/schedlab/model/policy"
)

// MultiGrayMaxDim is the largest dimension MultiGray is offered on: its
// search visits C(n, ⌊n/2⌋)·2^(n−k+1) windows (3.8 million for a failed
// 1-cube request on a 12-cube).
const MultiGrayMaxDim = 12

// MultiGray is the multiple-Gray-code strategy (M.-S. Chen and K. G.
// Shin, "Processor allocation in an N-cube multiprocessor using Gray
// codes", IEEE Trans. Comput. C-36(12), 1987), as described by P.
// Mohapatra, C. Yu and C. R. Das, "A Lazy Scheduling Scheme for Hypercube
// Computers", 1995, §2.1: C(n, ⌊n/2⌋) Gray codes give complete subcube
// recognition; a request is searched as in Gray in each code in turn, and
// gets the first free window found. Allocation is O(C(n, ⌊n/2⌋)·2^n),
// release O(2^k).
//
// The codes (our construction; the paper gives only their number): each
// is the BRGC with its bits assigned to the node dimensions in the order
// of a permutation π (code bit b is dimension π(b)). An aligned window of
// 2^k positions of such a code is a subcube whose free dimensions are the
// prefix set {π(0), ..., π(k−1)}, at every value of the fixed bits. The
// permutations come from a symmetric chain decomposition of the subsets of
// the n dimensions (de Bruijn, van Ebbenhorst Tengbergen and Kruyswijk,
// 1951), which has exactly C(n, ⌊n/2⌋) chains: each chain S_1 ⊂ S_2 ⊂ …,
// adding one dimension at a time, is extended to a permutation (the
// dimensions of S_1 in increasing order, then those the chain adds, then
// the rest in increasing order), whose prefix sets include every set of
// the chain. Every set of free dimensions is in some chain, so every free
// subcube is an aligned window of some code: recognition is complete (a
// property test checks it against an exhaustive search). The first code
// is the identity, the single BRGC of Gray.
type MultiGray struct {
	Gray
}

// NewMultiGray returns the multiple-Gray-code strategy of an all-free
// n-cube.
func NewMultiGray(n int) *MultiGray {
	return &MultiGray{Gray{nodes: newNodes(n), codes: chainCodes(n)}}
}

// chainCodes returns the C(n, ⌊n/2⌋) codes of a symmetric chain
// decomposition of the subsets of {0..n−1}.
func chainCodes(n int) []grayCode {
	chains := symmetricChains(n)
	codes := make([]grayCode, len(chains))
	for i, ch := range chains {
		var perm []int8
		used := 0
		add := func(set int) {
			for d := 0; d < n; d++ {
				if set&(1<<d) != 0 && used&(1<<d) == 0 {
					perm = append(perm, int8(d))
					used |= 1 << d
				}
			}
		}
		for _, set := range ch {
			add(set)
		}
		add(1<<n - 1)
		codes[i] = grayCode{perm}
	}
	return codes
}

// symmetricChains returns a symmetric chain decomposition of the subsets
// of {0..n−1} (as bit sets), built recursively: each chain C_1 ⊂ … ⊂ C_m
// of {0..n−2} gives C_1 ⊂ … ⊂ C_m ⊂ C_m ∪ {n−1} and, when m ≥ 2,
// C_1 ∪ {n−1} ⊂ … ⊂ C_(m−1) ∪ {n−1}. The first chain is ∅ ⊂ {0} ⊂ {0,1}
// ⊂ … (the identity permutation).
func symmetricChains(n int) [][]int {
	chains := [][]int{{0}}
	for d := 0; d < n; d++ {
		var out [][]int
		for _, c := range chains {
			long := append(append([]int(nil), c...), c[len(c)-1]|1<<d)
			out = append(out, long)
			if len(c) >= 2 {
				short := make([]int, len(c)-1)
				for i := range short {
					short[i] = c[i] | 1<<d
				}
				out = append(out, short)
			}
		}
		chains = out
	}
	return chains
}

// Allocate gives j the first free window of the codes, in code order.
func (g *MultiGray) Allocate(j *policy.Job) (policy.Allocation, bool) {
	return g.allocate(g.codes, j)
}

// Clone returns an independent copy.
func (g *MultiGray) Clone() policy.Allocator {
	return &MultiGray{Gray{nodes: g.clone(), codes: g.codes}}
}

// Codes returns the permutations of the codes (for tests and reports).
func (g *MultiGray) Codes() [][]int8 {
	out := make([][]int8, len(g.codes))
	for i, c := range g.codes {
		out[i] = c.perm
	}
	return out
}
