package backfill

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// blockSize is the number of queue positions a block summary covers.
const blockSize = 32

// blocks summarises a queue by blocks of blockSize positions (absolute
// positions in queue.jobs, block k covering [k·blockSize, (k+1)·blockSize)
// cut at the queue's end): the smallest processor request and the
// smallest estimate in each. EASY's scan for backfill candidates skips a
// block whose smallest request exceeds the free processors, or exceeds the
// extra processors while its smallest estimate ends after the shadow time:
// no job in it can start. On a deep queue (thousands of jobs on
// RICC-2010-2) most blocks are skipped. The started jobs still in the
// queue are marked by kill (request MaxInt32, estimate +Inf), so that
// they never count.
type blocks struct {
	minP   []int32
	minEst []float64
	// nP and nEst count the jobs of each block at its minima (inserted).
	nP, nEst []int32
}

// update brings the summaries of q up to date: those of the blocks from
// q.dirty on are recomputed.
func (b *blocks) update(q *queue) {
	n := len(q.jobs)
	if q.dirty >= n {
		return
	}
	nb := (n + blockSize - 1) / blockSize
	b.grow(nb)
	for k := q.dirty / blockSize; k < nb; k++ {
		b.summarise(q, k)
	}
	q.dirty = n
}

// inserted updates the summaries, up to date before, after an insertion
// at absolute position lo of q: each block after lo's gains the last job
// of the block before and loses its own last one, so its summary needs
// recomputing only when that one was the last to hold its minimum.
func (b *blocks) inserted(q *queue, lo int) {
	n := len(q.jobs)
	nb := (n + blockSize - 1) / blockSize
	grown := len(b.minP) < nb // the last block is new: one job
	b.grow(nb)
	k0 := lo / blockSize
	b.summarise(q, k0)
	for k := k0 + 1; k < nb; k++ {
		if k == nb-1 && grown {
			b.summarise(q, k)
			continue
		}
		in, out := k*blockSize, (k+1)*blockSize
		p, e := q.procs[in], q.ests[in]
		switch {
		case p < b.minP[k]:
			b.minP[k], b.nP[k] = p, 1
		case p == b.minP[k]:
			b.nP[k]++
		}
		switch {
		case e < b.minEst[k]:
			b.minEst[k], b.nEst[k] = e, 1
		case e == b.minEst[k]:
			b.nEst[k]++
		}
		if out >= n {
			continue
		}
		if q.procs[out] == b.minP[k] {
			b.nP[k]--
		}
		if q.ests[out] == b.minEst[k] {
			b.nEst[k]--
		}
		if b.nP[k] == 0 || b.nEst[k] == 0 {
			b.summarise(q, k)
		}
	}
	q.dirty = n
}

// grow sizes the summaries for nb blocks.
func (b *blocks) grow(nb int) {
	for len(b.minP) < nb {
		b.minP = append(b.minP, 0)
		b.minEst = append(b.minEst, 0)
		b.nP = append(b.nP, 0)
		b.nEst = append(b.nEst, 0)
	}
	b.minP, b.minEst, b.nP, b.nEst = b.minP[:nb], b.minEst[:nb], b.nP[:nb], b.nEst[:nb]
}

// summarise computes the summary of block k of q.
func (b *blocks) summarise(q *queue, k int) {
	lo, hi := k*blockSize, min((k+1)*blockSize, len(q.jobs))
	p, e := int32(math.MaxInt32), math.Inf(1)
	np, ne := int32(0), int32(0)
	for i := lo; i < hi; i++ {
		switch pi := q.procs[i]; {
		case pi < p:
			p, np = pi, 1
		case pi == p:
			np++
		}
		switch ei := q.ests[i]; {
		case ei < e:
			e, ne = ei, 1
		case ei == e:
			ne++
		}
	}
	b.minP[k], b.minEst[k], b.nP[k], b.nEst[k] = p, e, np, ne
}

// kill marks the job at absolute position i of q as started: it never
// fits again. The summary of its block is recomputed unless it is dirty.
func (b *blocks) kill(q *queue, i int) {
	p, e := q.procs[i], q.ests[i]
	q.procs[i], q.ests[i] = math.MaxInt32, math.Inf(1)
	if k := i / blockSize; (k+1)*blockSize <= q.dirty || len(q.jobs) <= q.dirty {
		if p == b.minP[k] {
			b.nP[k]--
		}
		if e == b.minEst[k] {
			b.nEst[k]--
		}
		if b.nP[k] == 0 || b.nEst[k] == 0 {
			b.summarise(q, k) // k's last job at a minimum
		}
	}
}

// runEntry is a running job in EASY's running set: its estimated end and
// the processors it holds, kept inline so that the walk for the shadow
// time reads no job.
type runEntry struct {
	end   float64
	id    int64 // Job.ID
	procs int32
	index int32 // Job.Index
}

// runChunkSize is the largest number of entries of a chunk of easyRun.
const runChunkSize = 128

// easyRun is EASY's set of running jobs in order of estimated end, then
// job ID (the order of runSet), in chunks of at most runChunkSize entries
// with the processors each chunk holds, so that the walk for the shadow
// time passes a chunk whose processors do not make the head fit at once,
// and a job starting or ending moves only the entries of its chunk. The
// entries hold no pointer, so that moving them is a plain copy.
type easyRun struct {
	c []*runChunk
}

// runChunk is a chunk of easyRun: entries in order, never none, and the
// sum of their processors.
type runChunk struct {
	e     []runEntry
	procs int
}

// before reports whether entry r sorts before (end, id).
func (r *runEntry) before(end float64, id int64) bool {
	return r.end < end || r.end == end && r.id < id
}

// chunk is the index of the chunk where (end, id) belongs: the first
// whose last entry does not sort before it, or the last chunk.
func (r *easyRun) chunk(end float64, id int64) int {
	lo, hi := 0, len(r.c)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		c := r.c[m]
		if c.e[len(c.e)-1].before(end, id) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// search is the position of (end, id) in chunk c.
func (c *runChunk) search(end float64, id int64) int {
	lo, hi := 0, len(c.e)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c.e[m].before(end, id) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// add inserts running job j with estimated end end.
func (r *easyRun) add(j *policy.Job, end float64) {
	e := runEntry{end, j.ID, int32(j.Alloc.Procs()), j.Index}
	if len(r.c) == 0 {
		r.c = append(r.c, &runChunk{e: make([]runEntry, 0, runChunkSize)})
	}
	k := r.chunk(end, j.ID)
	c := r.c[k]
	i := c.search(end, j.ID)
	c.e = slices.Insert(c.e, i, e)
	c.procs += int(e.procs)
	if len(c.e) > runChunkSize { // split
		h := len(c.e) / 2
		d := &runChunk{e: make([]runEntry, len(c.e)-h, runChunkSize)}
		copy(d.e, c.e[h:])
		c.e = c.e[:h]
		for _, x := range d.e {
			d.procs += int(x.procs)
		}
		c.procs -= d.procs
		r.c = slices.Insert(r.c, k+1, d)
	}
}

// remove removes running job j, whose estimated end is end.
func (r *easyRun) remove(j *policy.Job, end float64) {
	if len(r.c) > 0 {
		for k := r.chunk(end, j.ID); k < len(r.c); k++ {
			c := r.c[k]
			for i := c.search(end, j.ID); i < len(c.e); i++ {
				if c.e[i].index == j.Index {
					c.procs -= int(c.e[i].procs)
					c.e = slices.Delete(c.e, i, i+1)
					if len(c.e) == 0 {
						r.c = slices.Delete(r.c, k, k+1)
					}
					return
				}
			}
		}
	}
	panic(fmt.Sprintf("backfill: finished job %d was not running", j.ID))
}

// move moves running job j from estimated end old to estimated end end
// (a corrected prediction).
func (r *easyRun) move(j *policy.Job, old, end float64) {
	r.remove(j, old)
	r.add(j, end)
}
