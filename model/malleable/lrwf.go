package malleable

// lrwf is Least Remaining Work First, exact (Guha 1995 §2.6.2 and §5.2,
// after Brecht; the α → −∞ limit of the Generalized Allocation family,
// which the thesis approximates by α = −10): the active job with the least
// remaining work gets all P processors (ties: the earliest admitted).
// With caps it gets min(N_i, P) and the rest goes on in the same order.
// Under perfect efficiency it is M/G/1-SRPT on a speed-P server.
//
// mrwf is Most Remaining Work First (§4.3, α → +∞), the same in the
// opposite order.
type lrwf struct{ desc bool }

func (r lrwf) repartition(c *ctx, act []*Share) {
	c.grow(len(act))
	left := c.P
	for _, i := range byWork(c, act, r.desc) {
		s := act[i]
		s.p = min(left, s.cap)
		left -= s.p
	}
}
