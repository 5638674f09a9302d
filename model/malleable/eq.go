package malleable

// eq is Equipartition (Guha 1995 §4.2, the thesis's baseline): p_i = P/n
// for the n active jobs. With caps (§7.5) it is water-filling: "give each
// job P/n, except a job with N_i < P/n gets N_i; the equipartition value
// is recursively re-computed for the remaining jobs"; when ΣN_i < P the
// processors left over stay idle (our reading: §7.5 does not say).
type eq struct{}

func (eq) repartition(c *ctx, act []*Share) {
	c.grow(len(act))
	for i, a := range act {
		c.w[i] = 1
		c.lim[i] = a.cap
	}
	fill(c, act, c.P, c.w, c.lim, c.out)
	for i, a := range act {
		a.p = c.out[i]
	}
}
