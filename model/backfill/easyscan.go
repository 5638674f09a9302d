package backfill

import (
	"fmt"
	"math"

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
	q.procs[i], q.ests[i] = math.MaxInt32, math.Inf(1)
	if k := i / blockSize; (k+1)*blockSize <= q.dirty || len(q.jobs) <= q.dirty {
		b.summarise(q, k)
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

// easyRun is EASY's set of running jobs in order of estimated end, then
// job ID (the order of runSet). Its entries hold no pointer, so that
// moving them is a plain copy.
type easyRun []runEntry

// search is the position of (end, j) in r.
func (r easyRun) search(end float64, j *policy.Job) int {
	lo, hi := 0, len(r)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if e := r[m].end; e < end || e == end && r[m].id < j.ID {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// add inserts running job j with estimated end end.
func (r *easyRun) add(j *policy.Job, end float64) {
	i := r.search(end, j)
	*r = append(*r, runEntry{})
	copy((*r)[i+1:], (*r)[i:])
	(*r)[i] = runEntry{end, j.ID, int32(j.Alloc.Procs()), j.Index}
}

// remove removes running job j, whose estimated end is end.
func (r *easyRun) remove(j *policy.Job, end float64) {
	for i := r.search(end, j); i < len(*r); i++ {
		if (*r)[i].index == j.Index {
			*r = append((*r)[:i], (*r)[i+1:]...)
			return
		}
	}
	panic(fmt.Sprintf("backfill: finished job %d was not running", j.ID))
}

// move moves running job j from estimated end old to estimated end end
// (a corrected prediction), shifting only the entries in between.
func (r easyRun) move(j *policy.Job, old, end float64) {
	i := r.search(old, j)
	for r[i].index != j.Index {
		i++
	}
	e := r[i]
	e.end = end
	if end > old {
		k := r.search(end, j) // after e's new place, e still counted
		copy(r[i:k-1], r[i+1:k])
		r[k-1] = e
	} else {
		k := r.search(end, j) // e's new place, at most i
		copy(r[k+1:i+1], r[k:i])
		r[k] = e
	}
}
