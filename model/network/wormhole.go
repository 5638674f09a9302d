package network

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/model/policy"
)

// WormholeModel is a packet-level simulation of a wormhole-routed W×H mesh
// (Bani-Mohammad et al. 2006 §4.1), shared by the jobs running on it.
//
// # What is modelled
//
// Resources are the directed links between neighbouring nodes (four per
// node, fewer on the edges) and one ejection channel per node. Routing is
// dimension-ordered XY: along x to the destination's column, then along
// y. A packet leaves its source at time s; its header is routed through
// the source node (t_s), takes the link to the next node when that link
// is free (crossing it in 1 time unit), is routed again (t_s), and so on;
// at the destination it takes the ejection channel when free (no routing:
// the node is the packet's) and the tail is delivered P_len − 1 time units
// after the header. On an empty network a packet over distance D thus
// takes D·(t_s+1) + P_len − 1 (ZeroLoad). A header that finds its link or
// ejection channel held waits, in a FIFO queue per resource, and its
// packet keeps every link it holds: wormhole routing's blocking. A packet
// releases its whole path (links and ejection channel) when its tail is
// delivered.
//
// # What is not
//
//   - Flit buffers: a packet holds every link its header took until its
//     tail is delivered, as if its worm were at least as long as its path
//     (real wormhole routers release a link once the tail has crossed it;
//     with P_len = 8 flits and paths of a few hops the difference is a few
//     time units per packet). Body flits never stall separately.
//   - Virtual channels: one channel per link, no multiplexing.
//   - Deadlock: XY routing orders the channels a packet takes (all x
//     links, then all y links, then the ejection channel), so no cycle of
//     waiting packets exists and the simulation cannot deadlock; ejection
//     channels are always released P_len − 1 after they are taken.
//   - Injection: a node sends one packet at a time (the next leaves when
//     the previous is delivered), so injection channels never contend.
//   - Processing: packets are generated and consumed instantly.
//
// # Coupling with the engine
//
// The engine calls Rates at each of its event instants. The model then
// brings the network to that instant (every packet event before it), adds
// the jobs just started (their first round's packets leave now), and
// forecasts: it simulates on, the set of running jobs fixed, until the
// earliest instant T at which a running job would complete (its
// communication's end plus its service time). That forecast is exact up
// to the engine's next event, which comes at T (a completion) or before
// (an arrival); at T the network state is kept, before T the model goes
// back to the state it saved at this instant and simulates up to the new
// one. A job still communicating gets rate 0 (it ends at +∞ until its
// communication's end is known); a job whose communication ends at c gets
// the rate that drains its remaining service time by c + Run. Every job
// therefore completes exactly at its communication's end plus its service
// time, and that end moves whenever other jobs' packets change the
// contention it meets.
//
// Jobs must not be suspended or migrated while they communicate (Rates
// panics): their packets would be in flight from nodes given to others.
type WormholeModel struct {
	W, H int
	p    Params

	cur, snap *net
	done      map[int]Stats    // jobs that left: their final communication
	left      map[int]struct{} // jobs that left since the last Rates call
	joined    []*policy.Job    // jobs started since the last Rates call
	rem       map[int]*service // running jobs: their remaining service time
	nodes     []int32

	// Work done, for benchmarks: packet events processed, forecasts, and
	// returns to a saved state.
	Events, Forecasts, Rewinds int64
}

// NewWormhole returns the wormhole model on a W×H mesh.
func NewWormhole(W, H int, p Params) *WormholeModel {
	return &WormholeModel{W: W, H: H, p: p, cur: newNet(W, H), done: map[int]Stats{}, left: map[int]struct{}{}, rem: map[int]*service{}}
}

// Stats implements Model.
func (m *WormholeModel) Stats(i int) Stats {
	if s, ok := m.done[i]; ok {
		return s
	}
	for k := range m.cur.jobs {
		if m.cur.jobs[k].index == i {
			return m.cur.jobs[k].st
		}
	}
	return Stats{}
}

// service is a running job's remaining service time, drained at the rate
// the model set last and brought up to date at every Rates call. (The
// engine's Remaining gives the same quantity, brought up to date only when
// the rate changes: the end times would differ in their last bits.)
type service struct{ rem, since, rate float64 }

// Started implements policy.ProgressModel: j joins the network at the
// next Rates call.
func (m *WormholeModel) Started(j *policy.Job, _ policy.Progress) {
	if _, ok := m.left[int(j.Record)]; ok {
		delete(m.left, int(j.Record)) // suspended and resumed between two calls: it never left
		return
	}
	m.joined = append(m.joined, j)
}

// Left implements policy.ProgressModel: j leaves the network at the next
// Rates call.
func (m *WormholeModel) Left(j *policy.Job, _ policy.Progress) {
	if k := slices.Index(m.joined, j); k >= 0 {
		m.joined = slices.Delete(m.joined, k, k+1) // it never joined
		return
	}
	m.left[int(j.Record)] = struct{}{}
}

// Rates implements policy.ProgressModel (see the type's doc).
func (m *WormholeModel) Rates(p policy.Progress, running []*policy.Job, rate []float64) {
	now := p.Now()
	m.sync(now)
	n := m.cur
	// Jobs that left.
	if len(m.left) > 0 {
		for k := 0; k < len(n.jobs); {
			jb := &n.jobs[k]
			if _, ok := m.left[jb.index]; !ok {
				k++
				continue
			}
			if !jb.commDone {
				panic(fmt.Sprintf("network: job index %d left at t=%g during its communication (suspension and migration are not modelled)", jb.index, now))
			}
			m.done[jb.index] = jb.st
			delete(m.rem, jb.index)
			n.remove(k)
		}
		clear(m.left)
	}
	// Jobs just started.
	for _, j := range m.joined {
		m.rem[int(j.Record)] = &service{rem: j.Run, since: now, rate: 1}
		m.nodes = Nodes(j.Alloc, m.W, m.nodes[:0])
		n.add(int(j.Record), j.Run, append([]int32(nil), m.nodes...), Rounds(m.p.Seed, int(j.Record), m.p.Msgs), now, m.p)
	}
	clear(m.joined)
	m.joined = m.joined[:0]
	// Save the state at now, then forecast.
	if m.snap == nil {
		m.snap = newNet(m.W, m.H)
	}
	m.snap.copyFrom(n)
	m.Forecasts++
	m.Events += n.forecast(now, m.p)
	// Rates: a job still communicating stalls; one whose communication
	// ends at c drains its remaining work by c + Run.
	for k, j := range running {
		sv := m.rem[int(j.Record)]
		sv.rem = max(0, sv.rem-sv.rate*(now-sv.since))
		sv.since = now
		jb := n.job(int(j.Record))
		r := 0.0
		if jb.commDone {
			r = rate[k] // no communication: the engine's own rate (1)
			if jb.st.Comm != 0 {
				r = rateFor(sv.rem, now, jb.tc+jb.run)
			}
		}
		rate[k], sv.rate = r, r
	}
}

// sync brings the network to now: on from its time, or, when a forecast
// went past now, back to the state saved at the last call and on from
// there (unless no packet event happened in between).
func (m *WormholeModel) sync(now float64) {
	n := m.cur
	switch {
	case now > n.t:
		m.Events += n.advance(now, m.p)
	case now < n.t:
		if n.last < now {
			n.t = now // nothing happened between now and the forecast's end
			return
		}
		m.Rewinds++
		m.cur, m.snap = m.snap, m.cur
		m.Events += m.cur.advance(now, m.p)
	}
}

// Resources: link (node, dir) is node·4 + dir; ejection channel of node v
// is 4·N + v.
const (
	dirXPlus = iota
	dirXMinus
	dirYPlus
	dirYMinus
)

// Event kinds.
const (
	evRequest uint8 = iota // the header wants its next link or ejection channel
	evDeliver              // the tail is delivered: the path is released
)

type event struct {
	t    float64
	seq  uint64
	src  int32 // the packet: its source node
	kind uint8
}

// packet is the one packet in flight from a source node.
type packet struct {
	dst, cur     int32
	cx, cy       int32 // the header's node, as coordinates
	dx, dy       int32 // the destination's
	hops         int32
	waitNext     int32 // next packet in the resource's queue, −1 none
	send, waited float64
}

// job is a running job's communication.
type job struct {
	index       int
	run         float64 // service time
	nodes       []int32 // rank order (shared, read-only)
	rounds      int     // rounds left, the current one included
	quota       int32   // packets each node sends per round
	outstanding int     // packets of the current round not yet delivered
	start, tc   float64 // start; end of communication when commDone
	commDone    bool
	st          Stats
}

// net is the network's state at time t: every event before t processed.
//
// The pending events are taken in (time, push order), a total order: any
// correct priority queue gives the same results bit for bit
// (TestWormholeResultsFixed). Every event is pushed at the current time
// plus one of four fixed delays (classes: t_s after a send, 1 + t_s after
// a hop to a router, 1 after the hop to the destination, P_len − 1 from
// the ejection channel to the tail's delivery), and the current time
// never decreases, so the events of one class are pushed in (time, push
// order): each class is a FIFO queue, and the next event is the least of
// the four queues' heads. Pushing and taking cost O(1), against a binary
// heap's O(log n), which took half of the time.
type net struct {
	W, N         int
	t, last      float64 // last: time of the last event processed
	owner        []int32 // resource → packet (source node) holding it, −1 free
	qHead, qTail []int32 // resource → FIFO of waiting packets
	pk           []packet
	nodeJob      []int32 // node → position in jobs, −1 idle
	rank, sent   []int32 // node → rank in its job, packets sent this round
	jobs         []job
	q            [nClasses]fifo // pending events, by class
	seq          uint64
	xOf, yOf     []int32 // node → coordinates (read-only, shared by copies)
}

// Event classes: the delay after the current time at which an event is
// pushed.
const (
	clSend    = iota // a packet's first request, t_s after it is sent
	clHop            // the next request, 1 + t_s after a hop to a router
	clArrive         // the request for the ejection channel, 1 after the last hop
	clDeliver        // the tail's delivery, P_len − 1 after the ejection channel
	nClasses
)

// fifo is a ring buffer of events (at most one per node).
type fifo struct {
	buf        []event // len: a power of two ≥ nodes
	head, size int
}

func (f *fifo) front() *event { return &f.buf[f.head] }

func (f *fifo) push(e event) {
	f.buf[(f.head+f.size)&(len(f.buf)-1)] = e
	f.size++
}

func (f *fifo) pop() {
	f.head = (f.head + 1) & (len(f.buf) - 1)
	f.size--
}

// copyFrom makes f a copy of o (its live events only).
func (f *fifo) copyFrom(o *fifo) {
	f.head, f.size = o.head, o.size
	m := len(f.buf) - 1
	for i := 0; i < o.size; i++ {
		k := (o.head + i) & m
		f.buf[k] = o.buf[k]
	}
}

func newNet(W, H int) *net {
	N := W * H
	n := &net{W: W, N: N, owner: make([]int32, 5*N), qHead: make([]int32, 5*N), qTail: make([]int32, 5*N),
		pk: make([]packet, N), nodeJob: make([]int32, N), rank: make([]int32, N), sent: make([]int32, N),
		xOf: make([]int32, N), yOf: make([]int32, N)}
	size := 1
	for size < N {
		size *= 2
	}
	for c := range n.q {
		n.q[c].buf = make([]event, size)
	}
	for i := range n.owner {
		n.owner[i], n.qHead[i], n.qTail[i] = -1, -1, -1
	}
	for i := range n.nodeJob {
		n.nodeJob[i] = -1
		n.xOf[i], n.yOf[i] = int32(i%W), int32(i/W)
	}
	return n
}

// copyFrom makes n a copy of o, reusing n's buffers.
func (n *net) copyFrom(o *net) {
	n.W, n.N, n.t, n.last, n.seq = o.W, o.N, o.t, o.last, o.seq
	copy(n.owner, o.owner)
	copy(n.qHead, o.qHead)
	copy(n.qTail, o.qTail)
	copy(n.pk, o.pk)
	copy(n.nodeJob, o.nodeJob)
	copy(n.rank, o.rank)
	copy(n.sent, o.sent)
	n.xOf, n.yOf = o.xOf, o.yOf
	n.jobs = append(n.jobs[:0], o.jobs...)
	for c := range n.q {
		n.q[c].copyFrom(&o.q[c])
	}
}

func (n *net) job(index int) *job {
	for k := range n.jobs {
		if n.jobs[k].index == index {
			return &n.jobs[k]
		}
	}
	panic(fmt.Sprintf("network: no job index %d", index))
}

// add starts a job's communication at t.
func (n *net) add(index int, run float64, nodes []int32, rounds int, t float64, p Params) {
	k := int32(len(n.jobs))
	n.jobs = append(n.jobs, job{index: index, run: run, nodes: nodes, start: t})
	jb := &n.jobs[k]
	for r, v := range nodes {
		if n.nodeJob[v] >= 0 {
			panic(fmt.Sprintf("network: node %d given to job index %d while job index %d holds it", v, index, n.jobs[n.nodeJob[v]].index))
		}
		n.nodeJob[v], n.rank[v] = k, int32(r)
	}
	if len(nodes) < 2 {
		jb.commDone, jb.tc = true, t
		return
	}
	jb.st.Rounds = rounds
	if p.Unit == UnitMsg {
		jb.rounds, jb.quota = 1, int32(rounds) // one round of R messages per node
	} else {
		jb.rounds, jb.quota = rounds, int32(len(nodes)-1)
	}
	n.startRound(k, t, p)
}

// remove drops job k (its communication over), moving the last job to k.
func (n *net) remove(k int) {
	for _, v := range n.jobs[k].nodes {
		n.nodeJob[v] = -1
	}
	last := len(n.jobs) - 1
	if k != last {
		n.jobs[k] = n.jobs[last]
		for _, v := range n.jobs[k].nodes {
			n.nodeJob[v] = int32(k)
		}
	}
	n.jobs = n.jobs[:last]
}

func (n *net) startRound(k int32, t float64, p Params) {
	jb := &n.jobs[k]
	jb.outstanding = len(jb.nodes) * int(jb.quota)
	for _, v := range jb.nodes {
		n.sent[v] = 0
		n.send(v, t, p)
	}
}

// send launches src's next packet of the round at t: rank k sends to
// k+1, k+2, … (mod n, skipping k).
func (n *net) send(src int32, t float64, p Params) {
	jb := &n.jobs[n.nodeJob[src]]
	c := int32(len(jb.nodes))
	n.sent[src]++
	dst := jb.nodes[(n.rank[src]+(n.sent[src]-1)%(c-1)+1)%c]
	n.pk[src] = packet{dst: dst, cur: src, cx: n.xOf[src], cy: n.yOf[src], dx: n.xOf[dst], dy: n.yOf[dst], waitNext: -1, send: t}
	n.push(clSend, t+p.Ts, src, evRequest)
}

// forecast simulates from now, the jobs fixed, until the earliest
// completion T of a running job (communication end + service time), and
// leaves the network at T. It returns the events processed.
func (n *net) forecast(now float64, p Params) int64 {
	T := math.Inf(1)
	for k := range n.jobs {
		if jb := &n.jobs[k]; jb.commDone {
			T = min(T, jb.tc+jb.run)
		}
	}
	var evs int64
	for c := n.next(); c >= 0 && n.q[c].front().t < T; c = n.next() {
		if k := n.step(c, p); k >= 0 {
			jb := &n.jobs[k]
			T = min(T, jb.tc+jb.run)
		}
		evs++
	}
	if math.IsInf(T, 1) {
		T = now
	}
	n.t = max(n.t, T)
	return evs
}

// advance processes every event before t and sets the time to t.
func (n *net) advance(t float64, p Params) int64 {
	var evs int64
	for c := n.next(); c >= 0 && n.q[c].front().t < t; c = n.next() {
		n.step(c, p)
		evs++
	}
	n.t = t
	return evs
}

// next returns the class whose head is the next event, −1 when none is
// pending.
func (n *net) next() int {
	c := -1
	for k := range n.q {
		if n.q[k].size > 0 && (c < 0 || n.q[k].front().less(n.q[c].front())) {
			c = k
		}
	}
	return c
}

// step processes the next event, the head of class c; it returns the
// position of the job whose communication it ended, or −1.
func (n *net) step(c int, p Params) int {
	e := *n.q[c].front()
	n.q[c].pop()
	n.last = e.t
	src := e.src
	pk := &n.pk[src]
	switch e.kind {
	case evRequest:
		r := n.route(pk)
		if n.owner[r] < 0 {
			n.take(src, r, e.t, p)
			return -1
		}
		pk.waited = e.t
		pk.waitNext = -1
		if n.qTail[r] < 0 {
			n.qHead[r] = src
		} else {
			n.pk[n.qTail[r]].waitNext = src
		}
		n.qTail[r] = src
		return -1
	}
	// Delivered: release the path, then the source sends on.
	t := e.t
	x, y := n.xOf[src], n.yOf[src]
	dx, dy := pk.dx, pk.dy
	for x != dx || y != dy {
		v := y*int32(n.W) + x
		switch {
		case x < dx:
			n.release(v*4+dirXPlus, t, p)
			x++
		case x > dx:
			n.release(v*4+dirXMinus, t, p)
			x--
		case y < dy:
			n.release(v*4+dirYPlus, t, p)
			y++
		default:
			n.release(v*4+dirYMinus, t, p)
			y--
		}
	}
	n.release(int32(4*n.N)+pk.dst, t, p)
	k := n.nodeJob[src]
	jb := &n.jobs[k]
	jb.st.Packets++
	jb.st.Hops += int64(pk.hops)
	jb.st.Latency += t - pk.send
	jb.outstanding--
	if n.sent[src] < jb.quota {
		n.send(src, t, p)
	}
	if jb.outstanding > 0 {
		return -1
	}
	jb.rounds--
	if jb.rounds > 0 {
		n.startRound(k, t, p)
		return -1
	}
	jb.commDone, jb.tc = true, t
	jb.st.Comm = t - jb.start
	return int(k)
}

// route is the resource the packet's header wants: the XY link out of its
// node, or the ejection channel at its destination.
func (n *net) route(pk *packet) int32 {
	if pk.cur == pk.dst {
		return int32(4*n.N) + pk.dst
	}
	x, y, dx, dy := pk.cx, pk.cy, pk.dx, pk.dy
	switch {
	case x < dx:
		return pk.cur*4 + dirXPlus
	case x > dx:
		return pk.cur*4 + dirXMinus
	case y < dy:
		return pk.cur*4 + dirYPlus
	}
	return pk.cur*4 + dirYMinus
}

// take gives resource r to src's packet at t and moves its header on.
func (n *net) take(src, r int32, t float64, p Params) {
	n.owner[r] = src
	pk := &n.pk[src]
	if r >= int32(4*n.N) {
		n.push(clDeliver, t+float64(p.Plen-1), src, evDeliver) // header delivered now, tail P_len−1 later
		return
	}
	switch r & 3 {
	case dirXPlus:
		pk.cur++
		pk.cx++
	case dirXMinus:
		pk.cur--
		pk.cx--
	case dirYPlus:
		pk.cur += int32(n.W)
		pk.cy++
	default:
		pk.cur -= int32(n.W)
		pk.cy--
	}
	pk.hops++
	if pk.cur == pk.dst {
		n.push(clArrive, t+1, src, evRequest) // the destination takes it: no routing
	} else {
		n.push(clHop, t+1+p.Ts, src, evRequest)
	}
}

// release frees resource r at t, giving it to the first packet waiting.
func (n *net) release(r int32, t float64, p Params) {
	n.owner[r] = -1
	q := n.qHead[r]
	if q < 0 {
		return
	}
	n.qHead[r] = n.pk[q].waitNext
	if n.qHead[r] < 0 {
		n.qTail[r] = -1
	}
	jb := &n.jobs[n.nodeJob[q]]
	jb.st.Blocked += t - n.pk[q].waited
	n.take(q, r, t, p)
}

// push adds src's next event, at t in class c.
func (n *net) push(c int, t float64, src int32, kind uint8) {
	n.seq++
	n.q[c].push(event{t: t, seq: n.seq, src: src, kind: kind})
}

func (e *event) less(f *event) bool { return e.t < f.t || e.t == f.t && e.seq < f.seq }
