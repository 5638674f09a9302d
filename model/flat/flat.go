// Package flat models a flat machine, flat:N: N interchangeable processors
// with no topology.
//
// Two allocators:
//
//   - count: any free processors (ProcSimity's and Batsim/batsched's "basic"
//     selection). It keeps the free processors on a stack, so allocating k
//     processors costs O(k); it hands out the most recently freed ones first.
//   - contig: the first-fit contiguous range of processor numbers on a line
//     (batsched's "contiguous" selection): the lowest start index whose next
//     k processors are all free. Kept for comparison: on a flat machine
//     contiguity is not needed, and it fragments (a job can be refused while
//     enough processors are free).
//
// Both implement policy.NodeLister, so the engine's checker can prove that
// no processor is held twice, and policy.Placer, so that placements are
// recorded as ranges in O(pieces).
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
			Doc:   "any free processors (ProcSimity/batsched \"basic\"); a free-processor stack, O(k) per allocation",
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

// Count is the "count" allocator: any free processors.
type Count struct {
	free []int32 // stack of free processor numbers
	size int
	pool [33][]*Procs // released allocations by capacity class, for reuse
	// clone is set on copies made by Clone. A planning copy may be asked to
	// release the allocations of running jobs, which the original still
	// owns: it must leave them intact rather than recycle them.
	clone bool
}

// NewCount returns a count allocator for n processors, all free.
func NewCount(n int) *Count {
	c := &Count{free: make([]int32, n), size: n}
	for i := range c.free {
		c.free[i] = int32(n - 1 - i) // processor 0 on top
	}
	return c
}

// Procs is an allocation of the count allocator: a list of processor
// numbers. Its storage is recycled once released by the allocator that made
// it: an allocation must not be used after that Release. (Releasing it on a
// Clone leaves it intact.)
type Procs struct{ list []int32 }

// Procs implements policy.Allocation.
func (p *Procs) Procs() int { return len(p.list) }

// Nodes implements policy.NodeLister.
func (p *Procs) Nodes(dst []int) []int {
	for _, q := range p.list {
		dst = append(dst, int(q))
	}
	return dst
}

// Placement implements policy.Placer: the processors in the order held,
// runs of consecutive numbers (ascending or descending, as the stack hands
// them out) coalesced into ranges, in O(k) without sorting. The pieces
// partition the processors held; they are not sorted.
func (p *Procs) Placement(dst []policy.Piece) []policy.Piece {
	l := p.list
	for i := 0; i < len(l); {
		k := i + 1
		switch {
		case k < len(l) && l[k] == l[i]+1:
			for k < len(l) && l[k] == l[k-1]+1 {
				k++
			}
			dst = append(dst, policy.Range(int(l[i]), k-i))
		case k < len(l) && l[k] == l[i]-1:
			for k < len(l) && l[k] == l[k-1]-1 {
				k++
			}
			dst = append(dst, policy.Range(int(l[k-1]), k-i))
		default:
			dst = append(dst, policy.Range(int(l[i]), 1))
		}
		i = k
	}
	return dst
}

// Allocate takes j.Procs processors off the free stack.
func (c *Count) Allocate(j *policy.Job) (policy.Allocation, bool) {
	k := j.Procs
	if k <= 0 || k > len(c.free) {
		return nil, false
	}
	n := len(c.free) - k
	cl := bits.Len(uint(k - 1)) // capacity class: 1<<cl >= k
	var a *Procs
	if p := c.pool[cl]; len(p) > 0 {
		a = p[len(p)-1]
		c.pool[cl] = p[:len(p)-1]
		a.list = a.list[:k]
	} else {
		a = &Procs{list: make([]int32, k, 1<<cl)}
	}
	copy(a.list, c.free[n:])
	c.free = c.free[:n]
	return a, true
}

// Release pushes the processors of a back on the free stack.
func (c *Count) Release(a policy.Allocation) {
	p := a.(*Procs)
	c.free = append(c.free, p.list...)
	if c.clone {
		return
	}
	cl := bits.Len(uint(cap(p.list) - 1))
	p.list = p.list[:0]
	c.pool[cl] = append(c.pool[cl], p)
}

// Free is the number of free processors.
func (c *Count) Free() int { return len(c.free) }

// Size is the number of processors.
func (c *Count) Size() int { return c.size }

// Clone returns an independent copy.
func (c *Count) Clone() policy.Allocator {
	return &Count{free: append(make([]int32, 0, c.size), c.free...), size: c.size, clone: true}
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

// Nodes implements policy.NodeLister.
func (r Range) Nodes(dst []int) []int {
	for q := r.Start; q < r.Start+r.N; q++ {
		dst = append(dst, q)
	}
	return dst
}

// Placement implements policy.Placer: one range.
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

// Free is the number of free processors.
func (c *Contig) Free() int { return c.free }

// Size is the number of processors.
func (c *Contig) Size() int { return c.size }

// Clone returns an independent copy.
func (c *Contig) Clone() policy.Allocator {
	return &Contig{holes: append([]Range(nil), c.holes...), free: c.free, size: c.size}
}
