package malleable

import (
	"cmp"
	"math"
	"slices"
)

// fill shares r processors among the active jobs in proportion to the
// weights w (≥ 0), none above its limit lim (water-filling): out_i =
// min(lim_i, θ·w_i) with Σout = r, unless every job of positive weight
// reaches its limit, when the rest stays idle. A job of weight 0 gets 0.
// O(n) when no limit is finite, else O(n log n): the jobs are taken by
// increasing lim_i/w_i (ties: admission order), each capped while its
// limit is below the current level θ = r_left/w_left.
func fill(c *ctx, act []*Share, r float64, w, lim, out []float64) {
	W := 0.0
	finite := false
	for i := range act {
		out[i] = 0
		if w[i] > 0 {
			W += w[i]
			finite = finite || !math.IsInf(lim[i], 1)
		}
	}
	if W == 0 || r <= 0 {
		return
	}
	if !finite {
		for i := range act {
			if w[i] > 0 {
				out[i] = r * w[i] / W
			}
		}
		return
	}
	idx := c.idx[:0]
	for i := range act {
		if w[i] > 0 {
			idx = append(idx, int32(i))
		}
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if x := cmp.Compare(lim[a]/w[a], lim[b]/w[b]); x != 0 {
			return x
		}
		return cmp.Compare(act[a].seq, act[b].seq)
	})
	// suf[k]: the weight of idx[k:], summed from the smallest (subtracting
	// capped weights from W would cancel).
	suf := c.suf[:len(idx)+1]
	suf[len(idx)] = 0
	for k := len(idx) - 1; k >= 0; k-- {
		suf[k] = suf[k+1] + w[idx[k]]
	}
	for k, i := range idx {
		theta := r / suf[k]
		if lim[i] <= theta*w[i] {
			out[i] = lim[i]
			r = max(0, r-lim[i])
			continue
		}
		for _, j := range idx[k:] {
			out[j] = theta * w[j]
		}
		return
	}
}

// byWork sorts the active jobs' places into c.idx by remaining work,
// increasing (or decreasing when desc), ties in admission order.
func byWork(c *ctx, act []*Share, desc bool) []int32 {
	idx := c.idx[:len(act)]
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		x := cmp.Compare(act[a].w, act[b].w)
		if desc {
			x = -x
		}
		if x != 0 {
			return x
		}
		return cmp.Compare(act[a].seq, act[b].seq)
	})
	return idx
}
