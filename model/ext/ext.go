// Package ext is the external scheduler: a process, written in any
// language, that takes the scheduling decisions of a run over the
// protocol of docs/protocol.md (newline-delimited JSON on its standard
// input and output, one round trip per instant). The scheduler spec
// ext:cmd='python3 my_sched.py' starts it; the engine checks every
// decision, and any error (an invalid start, a malformed reply, a crash, a
// silent process) fails the run with one line naming the command, the
// simulated time and the offending message.
package ext

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/schedlab/schedlab/model/policy"
)

// Version is the protocol version this engine speaks.
const Version = 1

// DefaultTimeout bounds the wait for each reply when timeout= is not given.
const DefaultTimeout = 60 * time.Second

// Spec is ext's registry entry. It is run only when named (cmd= is
// required): never among the default pairs.
func Spec() policy.SchedulerSpec {
	return policy.SchedulerSpec{
		Name: "ext",
		Doc:  "an external scheduler: a process speaking the protocol of docs/protocol.md (newline-delimited JSON on its stdin and stdout, one round trip per instant); run only when named; other key=value parameters are passed to the process",
		Params: []policy.Param{
			{Name: "cmd", Default: "(required)", Doc: "the command, run by /bin/sh -c; quote it: cmd='python3 my_sched.py'"},
			{Name: "socket", Default: "", Doc: "instead of cmd: the path of a Unix socket on which a scheduler already running listens (a notebook, an agent); the engine connects to it"},
			{Name: "timeout", Default: "60", Doc: "seconds the process may take to answer one message"},
			{Name: "pin", Default: "true", Doc: "run the process and the engine's thread on one CPU (Linux; they take turns, and a round trip then costs about half); pin=false for a process that computes on several threads; with socket=, the engine's thread is pinned and the handshake names its CPU (cpu), for the scheduler to join it"},
		},
		Named: true,
		New: func(m policy.Machine, p policy.Params) (policy.Scheduler, error) {
			s, err := New(m, p)
			if err != nil {
				return nil, fmt.Errorf("ext: %w", err)
			}
			return s, nil
		},
	}
}

// Job states, by index.
const (
	unseen  = iota // not arrived (or unknown)
	waiting        // submitted, not started
	running        // started
	done           // completed
)

// Scheduler is the engine's side of one external scheduler process. The
// process is started at the first Schedule call (building a Scheduler
// starts nothing, so that parameters can be checked); Close ends it, and
// whoever runs the engine calls it after the run (the experiment runner
// does; engine.Run alone does not).
type Scheduler struct {
	cmd     string // the command, or the socket's path
	socket  bool   // cmd is a socket's path
	timeout time.Duration
	pin     bool
	m       policy.Machine
	opts    policy.Params // the parameters other than cmd, timeout and pin

	unpin   func() // undoes the pinning, nil when not pinned
	cpu     int    // the CPU pinned to
	fit     bool   // the process asked only for instants where a waiting job may fit
	minFree int64  // and, until its next message, where this many processors are free (min_free)
	needs   needHeap

	p     *proc
	err   error
	now   float64
	state []uint8
	jobs  []*policy.Job // by index, once arrived
	wait  int           // jobs waiting

	arrived []*policy.Job // since the last message
	ended   []int32       // since the last message
	endedAt []float64     // their completion times
	asked   int           // instant messages sent
	buf     []byte
	closed  bool
}

// New returns an external scheduler for machine m from its parameters:
// cmd (required), timeout (seconds, default 60), and any others, passed to
// the process.
func New(m policy.Machine, p policy.Params) (*Scheduler, error) {
	cmd, sock := strings.TrimSpace(p["cmd"]), strings.TrimSpace(p["socket"])
	switch {
	case cmd != "" && sock != "":
		return nil, fmt.Errorf("parameters cmd and socket: give one, not both")
	case cmd == "" && sock == "":
		return nil, fmt.Errorf("parameter cmd is required (ext:cmd='python3 my_sched.py'), or socket")
	case sock != "":
		cmd = sock
	}
	sec, err := p.Float("timeout", DefaultTimeout.Seconds())
	if err != nil {
		return nil, err
	}
	if !(sec > 0) || math.IsInf(sec, 1) {
		return nil, fmt.Errorf("parameter timeout=%q: want a positive number of seconds", p["timeout"])
	}
	pinned, err := p.Choice("pin", "true", "true", "false")
	if err != nil {
		return nil, err
	}
	opts := policy.Params{}
	for k, v := range p {
		if k != "cmd" && k != "socket" && k != "timeout" && k != "pin" {
			opts[k] = v
		}
	}
	return &Scheduler{cmd: cmd, socket: sock != "", timeout: time.Duration(sec * float64(time.Second)), pin: pinned == "true", m: m, opts: opts}, nil
}

// Submit records an arrival, sent with the next message.
func (s *Scheduler) Submit(j *policy.Job) {
	for int(j.Index) >= len(s.state) {
		s.state = append(s.state, unseen)
		s.jobs = append(s.jobs, nil)
	}
	s.state[j.Index] = waiting
	s.jobs[j.Index] = j
	s.wait++
	s.arrived = append(s.arrived, j)
	if s.fit {
		s.needs.push(int64(j.Need()), j.Index)
	}
}

// Finished records a completion, sent with the next message.
func (s *Scheduler) Finished(j *policy.Job) {
	s.state[j.Index] = done
	s.ended = append(s.ended, j.Index)
	s.endedAt = append(s.endedAt, j.End)
}

// Waiting is the number of jobs arrived and not started.
func (s *Scheduler) Waiting() int { return s.wait }

// Err is the error that stopped the run, nil while all is well
// (policy.Failing).
func (s *Scheduler) Err() error { return s.err }

// Schedule sends the instant's message (its completions and arrivals, the
// free processors, the time), reads the reply and starts the jobs it
// names, in order, checking each.
func (s *Scheduler) Schedule(sys policy.System) {
	if s.err != nil || s.closed {
		return
	}
	s.now = sys.Now()
	if s.p == nil {
		if err := s.start(); err != nil {
			s.fail(err)
			return
		}
	}
	free := sys.Capacity().Free()
	if s.fit && (int64(free) < s.minFree || !s.mayFit(free)) {
		return // nothing can start, or the process said it would start nothing: the events go with the next message
	}
	s.buf = s.instant(s.buf[:0], free)
	clear(s.arrived)
	s.arrived = s.arrived[:0]
	s.ended = s.ended[:0]
	s.endedAt = s.endedAt[:0]
	s.asked++
	line, err := s.p.roundTrip(s.buf, s.timeout)
	if err != nil {
		s.fail(s.errorf("%v", err))
		return
	}
	rp, err := parseReply(line)
	if err != nil {
		s.fail(s.errorf("malformed reply %s: %v", show(line), err))
		return
	}
	switch {
	case rp.hasMin && !s.fit:
		s.fail(s.errorf("reply %s: min_free needs \"ask\":\"fit\" in the handshake", show(line)))
		return
	case rp.minFree > int64(sys.Capacity().Size()):
		s.fail(s.errorf("reply %s: min_free %d exceeds the machine's %d processors", show(line), rp.minFree, sys.Capacity().Size()))
		return
	}
	s.minFree = rp.minFree
	for _, id := range rp.starts {
		if err := s.startJob(sys, id); err != nil {
			s.fail(s.errorf("reply %s: %v", show(line), err))
			return
		}
	}
	if rp.hasWake {
		if !(rp.wake > s.now) || math.IsInf(rp.wake, 0) {
			s.fail(s.errorf("reply %s: wake %s is not after the current time", show(line), num(rp.wake)))
			return
		}
		sys.Wake(rp.wake)
	}
}

// mayFit reports whether some waiting job needs at most free processors
// (a necessary condition for a start, on every machine).
func (s *Scheduler) mayFit(free int) bool {
	h := &s.needs
	for len(h.a) > 0 && s.state[h.a[0].index] != waiting {
		h.pop()
	}
	return len(h.a) > 0 && h.a[0].need <= int64(free)
}

// startJob starts job id, which must be waiting and fit.
func (s *Scheduler) startJob(sys policy.System, id int64) error {
	st := uint8(unseen)
	if id >= 0 && id < int64(len(s.state)) {
		st = s.state[id]
	}
	switch st {
	case unseen:
		return fmt.Errorf("job %d is unknown (no such job has arrived)", id)
	case running:
		return fmt.Errorf("job %d is already running", id)
	case done:
		return fmt.Errorf("job %d has already completed", id)
	}
	j := s.jobs[id]
	free := sys.Capacity().Free()
	if !sys.Start(j) {
		return fmt.Errorf("job %d (%d processors) does not fit (%d free)", id, j.Need(), free)
	}
	s.state[id] = running
	s.wait--
	return nil
}

// Close ends the process: the end message, then its exit, within the
// timeout. An error says how it did not end well. Close is idempotent; on
// a failed run it only makes sure the process is gone.
func (s *Scheduler) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.unpin != nil {
		defer s.unpin()
	}
	if s.p == nil {
		return nil
	}
	defer s.p.kill()
	if s.err != nil {
		return nil
	}
	s.buf = append(s.buf[:0], `{"type":"end","time":`...)
	s.buf = appendNum(s.buf, s.now)
	if s.fit { // the completions not reported yet
		s.buf = s.appendDone(s.buf)
	}
	s.buf = append(s.buf, "}\n"...)
	if err := s.p.end(s.buf, s.timeout); err != nil {
		s.err = s.errorf("at the end of the run: %v", err)
		return s.err
	}
	return nil
}

func (s *Scheduler) fail(err error) {
	if s.err == nil {
		s.err = err
	}
	if s.p != nil {
		s.p.kill()
	}
}

// errorf prefixes an error with the process and the simulated time.
func (s *Scheduler) errorf(format string, a ...any) error {
	what := "ext"
	if s.socket {
		what = "ext socket"
	}
	return fmt.Errorf("%s %q: t=%s: %s", what, s.cmd, num(s.now), fmt.Sprintf(format, a...))
}

// start starts the process and shakes hands.
func (s *Scheduler) start() error {
	if s.pin {
		s.unpin, s.cpu = pin() // before the fork: the process inherits the CPU
	}
	start, verb := startProc, "start"
	if s.socket {
		start, verb = dial, "connect"
	}
	p, err := start(s.cmd, s.timeout)
	if err != nil {
		return s.errorf("cannot %s: %v", verb, err)
	}
	s.p = p
	line, err := p.roundTrip(s.hello(nil), s.timeout)
	if err != nil {
		return s.errorf("%v", err)
	}
	var h struct {
		Protocol *int   `json:"protocol"`
		Ask      string `json:"ask"`
	}
	if json := bytes.TrimSpace(line); len(json) == 0 || json[0] != '{' || unmarshal(json, &h) != nil || h.Protocol == nil {
		return s.errorf("malformed handshake reply %s: want {\"protocol\":%d}", show(line), Version)
	}
	if *h.Protocol != Version {
		return s.errorf("handshake reply %s: protocol %d, this engine speaks %d", show(line), *h.Protocol, Version)
	}
	switch h.Ask {
	case "", "every":
	case "fit":
		s.fit = true
		for _, j := range s.arrived { // before the handshake
			s.needs.push(int64(j.Need()), j.Index)
		}
	default:
		return s.errorf("handshake reply %s: ask %q: want \"every\" or \"fit\"", show(line), h.Ask)
	}
	return nil
}

// hello appends the handshake message.
func (s *Scheduler) hello(b []byte) []byte {
	m := s.m
	b = append(b, `{"type":"hello","protocol":`...)
	b = strconv.AppendInt(b, Version, 10)
	b = append(b, `,"machine":`...)
	b = strconv.AppendQuote(b, m.String())
	b = append(b, `,"kind":`...)
	b = strconv.AppendQuote(b, m.Kind)
	b = append(b, `,"request":`...)
	b = strconv.AppendQuote(b, policy.RequestOf(m.Kind))
	b = append(b, `,"procs":`...)
	b = strconv.AppendInt(b, int64(m.Procs), 10)
	b = append(b, `,"width":`...)
	b = strconv.AppendInt(b, int64(m.Width), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(m.Height), 10)
	b = append(b, `,"dim":`...)
	b = strconv.AppendInt(b, int64(m.Dim), 10)
	if s.socket && s.unpin != nil {
		b = append(b, `,"cpu":`...)
		b = strconv.AppendInt(b, int64(s.cpu), 10)
	}
	b = append(b, `,"options":{`...)
	keys := make([]string, 0, len(s.opts))
	for k := range s.opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, s.opts[k])
	}
	return append(b, "}}\n"...)
}

// instant appends the message of the current instant.
func (s *Scheduler) instant(b []byte, free int) []byte {
	b = append(b, `{"type":"instant","time":`...)
	b = appendNum(b, s.now)
	b = append(b, `,"free":`...)
	b = strconv.AppendInt(b, int64(free), 10)
	b = s.appendDone(b)
	b = append(b, `,"jobs":[`...)
	for i, j := range s.arrived {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJob(b, j)
	}
	return append(b, "]}\n"...)
}

// appendDone appends the done member (and done_time with ask=fit).
func (s *Scheduler) appendDone(b []byte) []byte {
	b = append(b, `,"done":[`...)
	for i, id := range s.ended {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(id), 10)
	}
	if s.fit {
		b = append(b, `],"done_time":[`...)
		for i, t := range s.endedAt {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNum(b, t)
		}
	}
	return append(b, ']')
}

// appendJob appends one arriving job's object.
func appendJob(b []byte, j *policy.Job) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, int64(j.Index), 10)
	b = append(b, `,"job":`...)
	b = strconv.AppendInt(b, j.ID, 10)
	b = append(b, `,"record":`...)
	b = strconv.AppendInt(b, int64(j.Record), 10)
	b = append(b, `,"submit":`...)
	b = appendNum(b, j.Submit)
	b = append(b, `,"procs":`...)
	b = strconv.AppendInt(b, int64(j.Procs), 10)
	b = append(b, `,"need":`...)
	b = strconv.AppendInt(b, int64(j.Need()), 10)
	if j.Width > 0 && j.Height > 0 {
		b = append(b, `,"w":`...)
		b = strconv.AppendInt(b, int64(j.Width), 10)
		b = append(b, `,"h":`...)
		b = strconv.AppendInt(b, int64(j.Height), 10)
	}
	b = append(b, `,"estimate":`...)
	b = appendNum(b, j.Estimate)
	b = append(b, `,"user":`...)
	b = strconv.AppendInt(b, j.User, 10)
	if j.Window != nil {
		b = append(b, `,"priority":`...)
		b = strconv.AppendInt(b, int64(j.Window.Priority), 10)
		b = append(b, `,"deadline":`...)
		b = appendNum(b, j.Window.Deadline)
	}
	if mj := j.Malleable; mj != nil {
		b = append(b, `,"work":`...)
		b = appendNum(b, mj.Work)
		b = append(b, `,"efficiency":`...)
		b = appendNum(b, mj.Efficiency)
		b = append(b, `,"max_par":`...)
		b = strconv.AppendInt(b, int64(mj.MaxPar), 10)
	}
	return append(b, '}')
}

// appendNum appends f as a JSON number: an integer when f is one (below
// 2^53), else the shortest decimal that reads back as f; null for NaN and
// infinities, which JSON cannot write.
func appendNum(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return append(b, "null"...)
	case f == math.Trunc(f) && math.Abs(f) < 1<<53:
		return strconv.AppendInt(b, int64(f), 10)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

func num(f float64) string { return string(appendNum(nil, f)) }

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	q, _ := marshal(s)
	return append(b, q...)
}

// show quotes an offending message for an error, cut to 200 bytes.
func show(line []byte) string {
	line = bytes.TrimRight(line, "\r\n")
	if len(line) > 200 {
		return string(line[:200]) + "…"
	}
	return string(line)
}

// proc is one running external process.
type proc struct {
	cmd    *exec.Cmd // nil for a socket
	sock   int       // the socket's descriptor
	in     *os.File  // its stdin
	out    *os.File  // its stdout
	r      *bufio.Reader
	stderr *tail
	exited chan struct{} // closed once it has exited
	status error         // its exit status, once exited
	due    atomic.Int64  // when the reply awaited is due (Unix ns), 0 when none is
	late   atomic.Bool   // the watchdog killed the process: a reply was late
	once   sync.Once
	shut   sync.Once // a socket's shutdown
}

var (
	liveMu sync.Mutex
	live   = map[*proc]bool{}
)

// KillAll kills every external process still running (and its process
// group): the commands call it on SIGINT and SIGTERM.
func KillAll() {
	liveMu.Lock()
	ps := make([]*proc, 0, len(live))
	for p := range live {
		ps = append(ps, p)
	}
	liveMu.Unlock()
	for _, p := range ps {
		p.kill()
	}
}

// startProc starts cmd under /bin/sh -c in a process group of its own,
// with a watchdog that kills it when a reply is late (armed by roundTrip).
// The pipes are blocking: a read waits in the kernel, not in the Go
// scheduler, which halves the cost of a round trip.
func startProc(cmd string, timeout time.Duration) (*proc, error) {
	in, err := pipe()
	if err != nil {
		return nil, err
	}
	out, err := pipe()
	if err != nil {
		in[0].Close()
		in[1].Close()
		return nil, err
	}
	c := exec.Command("/bin/sh", "-c", cmd)
	c.Stdin, c.Stdout = in[0], out[1]
	p := &proc{cmd: c, in: in[1], out: out[0], r: bufio.NewReaderSize(out[0], 64<<10), stderr: &tail{}, exited: make(chan struct{})}
	c.Stderr = p.stderr
	c.WaitDelay = time.Second // a descendant that escaped the group may hold stderr open
	c.SysProcAttr = sysProcAttr()
	err = c.Start()
	in[0].Close()
	out[1].Close()
	if err != nil {
		in[1].Close()
		out[0].Close()
		return nil, err
	}
	liveMu.Lock()
	live[p] = true
	liveMu.Unlock()
	go func() {
		p.status = c.Wait()
		close(p.exited)
	}()
	go p.watch(timeout)
	return p, nil
}

// dial connects to the Unix socket at path, a blocking descriptor (as the
// pipes are), with a watchdog as startProc's.
func dial(path string, timeout time.Duration) (*proc, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	f := os.NewFile(uintptr(fd), path)
	p := &proc{sock: fd, in: f, out: f, r: bufio.NewReaderSize(f, 64<<10), stderr: &tail{}, exited: make(chan struct{})}
	liveMu.Lock()
	live[p] = true
	liveMu.Unlock()
	go p.watch(timeout)
	return p, nil
}

// pipe returns a blocking pipe (read end, write end), closed on exec.
func pipe() ([2]*os.File, error) {
	var fd [2]int
	if err := syscall.Pipe2(fd[:], syscall.O_CLOEXEC); err != nil {
		return [2]*os.File{}, err
	}
	return [2]*os.File{os.NewFile(uintptr(fd[0]), "|0"), os.NewFile(uintptr(fd[1]), "|1")}, nil
}

// watch kills the process when a reply is due (p.due, armed by roundTrip)
// and has not come, until the process exits.
func (p *proc) watch(timeout time.Duration) {
	tick := time.NewTicker(min(timeout/8, 250*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-p.exited:
			return
		case now := <-tick.C:
			if due := p.due.Load(); due != 0 && now.UnixNano() > due {
				p.late.Store(true)
				p.killGroup()
			}
		}
	}
}

// roundTrip writes msg and reads one reply line within timeout.
func (p *proc) roundTrip(msg []byte, timeout time.Duration) ([]byte, error) {
	p.due.Store(time.Now().Add(timeout).UnixNano())
	defer p.due.Store(0)
	if _, err := p.in.Write(msg); err != nil {
		if p.late.Load() {
			return nil, fmt.Errorf("no reply within %v (the process does not read its input)", timeout)
		}
		return nil, p.gone("without replying") // it may have exited before or after the write
	}
	line, err := p.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = p.r.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	switch {
	case p.late.Load():
		return nil, fmt.Errorf("no reply within %v", timeout)
	case err == nil:
		return line, nil
	case err == io.EOF && len(line) > 0:
		return nil, fmt.Errorf("reply %s: no newline at the end of its output", show(line))
	}
	return nil, p.gone("without replying")
}

// gone describes a process whose output ended: it exited (with its status
// and its stderr's last line), or it closed its output and still runs.
func (p *proc) gone(when string) error {
	if p.cmd == nil {
		return fmt.Errorf("the scheduler closed the connection %s", when)
	}
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		return fmt.Errorf("the process closed its output %s", when)
	}
	status := "exit status 0"
	if p.status != nil {
		status = p.status.Error()
	}
	msg := fmt.Sprintf("the process exited (%s) %s", status, when)
	if last := p.stderr.last(); last != "" {
		msg += "; its stderr ends: " + last
	}
	return errors.New(msg)
}

// end sends the end message, closes the process's input and waits for it
// to exit.
func (p *proc) end(msg []byte, timeout time.Duration) error {
	p.in.Write(msg) // a process that exits before reading it has ended too
	if p.cmd == nil {
		return nil // the socket is closed by kill
	}
	p.in.Close()
	select {
	case <-p.exited:
	case <-time.After(timeout):
		return fmt.Errorf("the process did not exit within %v", timeout)
	}
	if p.status != nil {
		msg := fmt.Sprintf("the process exited (%v)", p.status)
		if last := p.stderr.last(); last != "" {
			msg += "; its stderr ends: " + last
		}
		return errors.New(msg)
	}
	return nil
}

// kill kills the process's group, waits for it and releases its pipes.
func (p *proc) kill() {
	p.once.Do(func() {
		p.killGroup()
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second): // never expected after SIGKILL; do not hang an interrupt
		}
		p.in.Close()
		if p.out != p.in {
			p.out.Close()
		}
		liveMu.Lock()
		delete(live, p)
		liveMu.Unlock()
	})
}

// killGroup kills the process and the rest of its group.
func (p *proc) killGroup() {
	if p.cmd == nil {
		p.shut.Do(func() {
			syscall.Shutdown(p.sock, syscall.SHUT_RDWR) // wakes a blocked read
			close(p.exited)
		})
		return
	}
	if pid := p.cmd.Process.Pid; pid > 0 {
		syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// tail keeps the last 4 KiB written to it (the process's stderr).
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = append(t.b[:0], t.b[len(t.b)-4096:]...)
	}
	t.mu.Unlock()
	return len(p), nil
}

// last is the last non-empty line written, cut to 200 bytes.
func (t *tail) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return show([]byte(strings.TrimSpace(lines[len(lines)-1])))
}

// needHeap is a min-heap of waiting jobs by need (entries of jobs no longer
// waiting are dropped when they reach the top).
type needHeap struct{ a []needEntry }

type needEntry struct {
	need  int64
	index int32
}

func (h *needHeap) push(need int64, index int32) {
	h.a = append(h.a, needEntry{need, index})
	for i := len(h.a) - 1; i > 0; {
		p := (i - 1) / 2
		if h.a[p].need <= h.a[i].need {
			break
		}
		h.a[p], h.a[i] = h.a[i], h.a[p]
		i = p
	}
}

func (h *needHeap) pop() {
	n := len(h.a) - 1
	h.a[0] = h.a[n]
	h.a = h.a[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && h.a[l].need < h.a[m].need {
			m = l
		}
		if r := l + 1; r < n && h.a[r].need < h.a[m].need {
			m = r
		}
		if m == i {
			return
		}
		h.a[i], h.a[m] = h.a[m], h.a[i]
		i = m
	}
}
