// Package flat models a flat machine, flat:N: N interchangeable processors
// with no topology.
//
// Two allocators:
//
//   - count: any free processors (ProcSimity's and Batsim/batsched's "basic"
//     selection), the lowest-numbered first (as batsched takes the leftmost
//     free machines). The free processors are a bitmap: an allocation is a
//     few ranges, and costs O(ranges + words scanned) rather than O(k). Only
//     the count matters to a schedule: which processors a job gets never
//     changes when it starts.
//   - contig: the first-fit contiguous range of processor numbers on a line
//     (batsched's "contiguous" selection): the lowest start index whose next
//     k processors are all free. Kept for comparison: on a flat machine
//     contiguity is not needed, and it fragments (a job can be refused while
//     enough processors are free).
//
// Both place jobs as ranges (Allocation.Placement, O(pieces)), and reject a
// job larger than the machine (Feasible) rather than leave it waiting
// forever.
package flat

import (
	"fmt"
	"math/bits"

	"github.com/schedlab/schedlab/model/policy"
)

// Allocators returns the flat machine's allocators for the catalog.
func Allocators() []policy.AllocatorSpec {
	return []policy.AllocatorSpec{
		{
			Name:  "count",
			Doc:   "any free processors (ProcSimity/batsched \"basic\"), lowest-numbered first; a free-processor bitmap, O(ranges) per allocation",
			Kinds: []string{policy.Flat},
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check(); err != nil {
					return nil, err
				}
				if m.Kind != policy.Flat {
					return nil, fmt.Errorf("count: machine %s is not flat", m)
				}
				return NewCount(m.Procs), nil
			},
		},
		{
			Name:  "contig",
			Doc:   "first-fit contiguous range of processor numbers on a line (batsched \"contiguous\"), lowest start first",
			Kinds: []string{policy.Flat},
			New: func(m policy.Machine, p policy.Params) (policy.Allocator, error) {
				if err := p.Check(); err != nil {
					return nil, err
				}
				if m.Kind != policy.Flat {
					return nil, fmt.Errorf("contig: machine %s is not flat", m)
				}
				return NewContig(m.Procs), nil
			},
		},
	}
}

// Count is the "count" allocator: any free processors, the
// lowest-numbered first. The free processors are a bitmap, so an allocation
// costs O(pieces + words scanned), not O(k), and holds few ranges; a clone
// copies N/64 words.
type Count struct {
	bits []uint64 // bit q%64 of word q/64 set: processor q free
	free int
	size int
	lo   int      // every word below lo is zero
	pool []*Procs // released allocations, for reuse
	// clone is set on copies made by Clone. A planning copy may be asked to
	// release the allocations of running jobs, which the original still
	// owns: it must leave them intact rather than recycle them.
	clone bool
}

// NewCount returns a count allocator for n processors, all free.
func NewCount(n int) *Count {
	c := &Count{bits: make([]uint64, (n+63)/64), free: n, size: n}
	if n > 0 {
		c.set(0, n)
	}
	return c
}

// span is the processors lo..lo+n−1.
type span struct{ lo, n int32 }

// Procs is an allocation of the count allocator: ranges of processor
// numbers, in increasing order, never adjacent. Its storage is recycled
// once released by the allocator that made it: an allocation must not be
// used after that Release. (Releasing it on a Clone leaves it intact.)
type Procs struct {
	runs []span
	n    int
}

// Procs implements policy.Allocation.
func (p *Procs) Procs() int { return p.n }

// add appends the processors lo..lo+n−1, extending the last run when they
// follow it.
func (p *Procs) add(lo, n int32) {
	if r := len(p.runs) - 1; r >= 0 && p.runs[r].lo+p.runs[r].n == lo {
		p.runs[r].n += n
		return
	}
	p.runs = append(p.runs, span{lo, n})
}

// Placement implements policy.Allocation: the ranges held, in increasing
// order, O(pieces).
func (p *Procs) Placement(dst []policy.Piece) []policy.Piece {
	for _, r := range p.runs {
		dst = append(dst, policy.Range(int(r.lo), int(r.n)))
	}
	return dst
}

// Allocate takes the j.Procs lowest-numbered free processors.
func (c *Count) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k := j.Procs
	if k <= 0 || k > c.free {
		return nil, false
	}
	var a *Procs
	if n := len(c.pool); n > 0 {
		a = c.pool[n-1]
		c.pool = c.pool[:n-1]
	} else {
		a = &Procs{}
	}
	need := k
	i := c.lo
	for ; ; i++ {
		w := c.bits[i]
		if w == 0 {
			continue
		}
		q := int32(i << 6)
		if w == ^uint64(0) && need >= 64 {
			// A whole word: extend the last run or start one.
			c.bits[i] = 0
			a.add(q, 64)
			if need -= 64; need == 0 {
				i++
				break
			}
			continue
		}
		for w != 0 {
			s := bits.TrailingZeros64(w)
			l := bits.TrailingZeros64(^(w >> uint(s))) // the run of free processors from s
			if l > need {
				l = need
			}
			w &^= (1<<uint(l) - 1) << uint(s) // l < 64 (a whole free word with need ≥ 64 took the branch above)
			a.add(q+int32(s), int32(l))
			if need -= l; need == 0 {
				break
			}
		}
		c.bits[i] = w
		if need == 0 {
			break
		}
	}
	c.lo = i
	c.free -= k
	a.n = k
	return a, true
}

// set marks processors lo..lo+n−1 (n ≥ 1) free.
func (c *Count) set(lo, n int) {
	i, j := lo>>6, (lo+n-1)>>6
	first := ^uint64(0) << uint(lo&63)
	last := ^uint64(0) >> uint(63-(lo+n-1)&63)
	if i == j {
		c.bits[i] |= first & last
		return
	}
	c.bits[i] |= first
	for k := i + 1; k < j; k++ {
		c.bits[k] = ^uint64(0)
	}
	c.bits[j] |= last
}

// Release marks the processors of a free again.
func (c *Count) Release(a policy.Allocation) {
	p := a.(*Procs)
	for _, r := range p.runs {
		c.set(int(r.lo), int(r.n))
	}
	if len(p.runs) > 0 {
		c.lo = min(c.lo, int(p.runs[0].lo)>>6)
	}
	c.free += p.n
	if c.clone {
		return
	}
	p.runs, p.n = p.runs[:0], 0
	c.pool = append(c.pool, p)
}

// Feasible implements policy.Allocator: a job larger than the machine
// can never be placed.
func (c *Count) Feasible(j *policy.Job) error { return feasible(j, c.size) }

func feasible(j *policy.Job, size int) error {
	if j.Procs > size {
		return fmt.Errorf("needs %d processors, machine has %d", j.Procs, size)
	}
	return nil
}

// Free is the number of free processors.
func (c *Count) Free() int { return c.free }

// Size is the number of processors.
func (c *Count) Size() int { return c.size }

// Clone returns an independent copy.
func (c *Count) Clone() policy.Allocator {
	return &Count{bits: append([]uint64(nil), c.bits...), free: c.free, size: c.size, lo: c.lo, clone: true}
}

// Contig is the "contig" allocator: first-fit contiguous ranges.
type Contig struct {
	holes []Range // free ranges, sorted by start, never adjacent
	free  int
	size  int
}

// Range is an allocation of the contig allocator: processors
// Start..Start+N-1.
type Range struct{ Start, N int }

// Procs implements policy.Allocation.
func (r Range) Procs() int { return r.N }

// Placement implements policy.Allocation: one range.
func (r Range) Placement(dst []policy.Piece) []policy.Piece {
	return append(dst, policy.Range(r.Start, r.N))
}

// NewContig returns a contig allocator for n processors, all free.
func NewContig(n int) *Contig {
	return &Contig{holes: []Range{{0, n}}, free: n, size: n}
}

// Allocate gives j the lowest-numbered run of j.Procs free processors.
func (c *Contig) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k := j.Procs
	if k <= 0 || k > c.free {
		return nil, false
	}
	for i, h := range c.holes {
		if h.N < k {
			continue
		}
		r := Range{h.Start, k}
		if h.N == k {
			c.holes = append(c.holes[:i], c.holes[i+1:]...)
		} else {
			c.holes[i] = Range{h.Start + k, h.N - k}
		}
		c.free -= k
		return r, true
	}
	return nil, false
}

// Release returns a range to the free list, merging it with its neighbours.
func (c *Contig) Release(a policy.Allocation) {
	r := a.(Range)
	c.free += r.N
	// first hole starting after r
	lo, hi := 0, len(c.holes)
	for lo < hi {
		m := (lo + hi) / 2
		if c.holes[m].Start < r.Start {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo
	mergePrev := i > 0 && c.holes[i-1].Start+c.holes[i-1].N == r.Start
	mergeNext := i < len(c.holes) && r.Start+r.N == c.holes[i].Start
	switch {
	case mergePrev && mergeNext:
		c.holes[i-1].N += r.N + c.holes[i].N
		c.holes = append(c.holes[:i], c.holes[i+1:]...)
	case mergePrev:
		c.holes[i-1].N += r.N
	case mergeNext:
		c.holes[i] = Range{r.Start, r.N + c.holes[i].N}
	default:
		c.holes = append(c.holes, Range{})
		copy(c.holes[i+1:], c.holes[i:])
		c.holes[i] = r
	}
}

// Feasible implements policy.Allocator: a job larger than the machine
// can never be placed.
func (c *Contig) Feasible(j *policy.Job) error { return feasible(j, c.size) }

// Free is the number of free processors.
func (c *Contig) Free() int { return c.free }

// Size is the number of processors.
func (c *Contig) Size() int { return c.size }

// Clone returns an independent copy.
func (c *Contig) Clone() policy.Allocator {
	return &Contig{holes: append([]Range(nil), c.holes...), free: c.free, size: c.size}
}
