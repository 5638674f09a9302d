package engine

import "cmp"

// indexHeap is an indexed min-heap of entries ordered by (key, tie, i).
// The keys live in the entries, so that sifting never touches the (large,
// cold) job array, and they are compared with the key type's own operators
// (no interface or function call). pos[i] is entry i's place in h, so that
// an entry can be re-keyed (update) or withdrawn (remove) in O(log n); a
// heap whose entries are never addressed (the timers) pushes them all as
// entry 0 with a one-slot pos.
type indexHeap[K cmp.Ordered] struct {
	h   []heapEntry[K]
	pos []int32
}

type heapEntry[K cmp.Ordered] struct {
	key K
	tie int64
	i   int32
}

func (a *heapEntry[K]) less(b *heapEntry[K]) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if a.tie != b.tie {
		return a.tie < b.tie
	}
	return a.i < b.i
}

// min returns the least entry's key; the heap must not be empty.
func (c *indexHeap[K]) min() K { return c.h[0].key }

func (c *indexHeap[K]) swap(x, y int) {
	c.h[x], c.h[y] = c.h[y], c.h[x]
	c.pos[c.h[x].i] = int32(x)
	c.pos[c.h[y].i] = int32(y)
}

func (c *indexHeap[K]) up(k int) {
	for k > 0 {
		p := (k - 1) / 2
		if !c.h[k].less(&c.h[p]) {
			break
		}
		c.swap(k, p)
		k = p
	}
}

func (c *indexHeap[K]) down(k int) bool {
	k0 := k
	n := len(c.h)
	for {
		l := 2*k + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && c.h[r].less(&c.h[l]) {
			m = r
		}
		if !c.h[m].less(&c.h[k]) {
			break
		}
		c.swap(k, m)
		k = m
	}
	return k > k0
}

// push adds entry i with key and tie.
func (c *indexHeap[K]) push(i int32, key K, tie int64) {
	c.h = append(c.h, heapEntry[K]{key, tie, i})
	c.pos[i] = int32(len(c.h) - 1)
	c.up(len(c.h) - 1)
}

// pop withdraws the least entry and returns it.
func (c *indexHeap[K]) pop() int32 {
	return c.remove(0)
}

// remove withdraws the entry at heap place k and returns it.
func (c *indexHeap[K]) remove(k int) int32 {
	i := c.h[k].i
	last := len(c.h) - 1
	if k != last {
		c.swap(k, last)
	}
	c.h = c.h[:last]
	if k < last {
		c.fix(k)
	}
	c.pos[i] = -1
	return i
}

// update sets entry i's key and restores the heap.
func (c *indexHeap[K]) update(i int32, key K) {
	k := int(c.pos[i])
	c.h[k].key = key
	c.fix(k)
}

// fix restores the heap after the key at place k changed.
func (c *indexHeap[K]) fix(k int) {
	if !c.down(k) {
		c.up(k)
	}
}
