package backfill

import "math"

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
}

// update brings the summaries of q up to date: those of the blocks from
// q.dirty on are recomputed.
func (b *blocks) update(q *queue) {
	n := len(q.jobs)
	nb := (n + blockSize - 1) / blockSize
	for len(b.minP) < nb {
		b.minP = append(b.minP, 0)
		b.minEst = append(b.minEst, 0)
	}
	b.minP, b.minEst = b.minP[:nb], b.minEst[:nb]
	for k := q.dirty / blockSize; k < nb; k++ {
		b.summarise(q, k)
	}
	q.dirty = n
}

// summarise computes the summary of block k of q.
func (b *blocks) summarise(q *queue, k int) {
	lo, hi := k*blockSize, min((k+1)*blockSize, len(q.jobs))
	p, e := int32(math.MaxInt32), math.Inf(1)
	for i := lo; i < hi; i++ {
		p = min(p, q.procs[i])
		e = min(e, q.ests[i])
	}
	b.minP[k], b.minEst[k] = p, e
}

// kill marks the job at absolute position i of q as started: it never
// fits again. The summary of its block is recomputed unless it is dirty.
func (b *blocks) kill(q *queue, i int) {
	q.procs[i], q.ests[i] = math.MaxInt32, math.Inf(1)
	if k := i / blockSize; (k+1)*blockSize <= q.dirty || len(q.jobs) <= q.dirty {
		b.summarise(q, k)
	}
}
