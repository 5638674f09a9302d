package ext

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/ext/exttest"
	"github.com/schedlab/schedlab/model/flat"
	"github.com/schedlab/schedlab/model/policy"
)

// The test binary is its own external scheduler (exttest.Main).
func TestMain(m *testing.M) {
	exttest.Main()
	os.Exit(m.Run())
}

func childCmd(mode string) string { return exttest.Cmd(mode) }

// tiny is three jobs on flat:4; FCFS starts job 0 at 0, job 1 at 10 and
// job 2 (blocked behind job 1) at 15.
func tiny() []policy.Job {
	return []policy.Job{
		{ID: 1, Submit: 0, Run: 10, Estimate: 20, Procs: 2, User: 1},
		{ID: 2, Submit: 0, Run: 5, Estimate: 5, Procs: 4, User: 2, Window: &policy.Window{Priority: 1, Deadline: 100}},
		{ID: 3, Record: 2, Submit: 3, Run: 1, Estimate: 2.5, Procs: 1, User: -1},
	}
}

// run replays jobs on flat:procs with ext:cmd=cmd plus params, closing the
// scheduler as the runner does.
func run(t *testing.T, cmd string, jobs []policy.Job, procs int, params policy.Params) (*engine.Result, error) {
	t.Helper()
	m := policy.Machine{Kind: policy.Flat, Procs: procs}
	p := policy.Params{"cmd": cmd}
	for k, v := range params {
		p[k] = v
	}
	s, err := New(m, p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := engine.Run(jobs, m, flat.NewCount(procs), s, engine.Options{Check: true})
	if err == nil {
		err = s.Close()
	}
	return res, err
}

// The exact lines both ways of a tiny run, and its schedule.
func TestGoldenExchange(t *testing.T) {
	log := t.TempDir() + "/log"
	res, err := run(t, "EXT_LOG="+log+" "+childCmd("fcfs"), tiny(), 4, policy.Params{"seed": "7"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := `> {"type":"hello","protocol":1,"machine":"flat:4","kind":"flat","request":"count","procs":4,"width":0,"height":0,"dim":0,"options":{"seed":"7"}}
< {"protocol":1}
> {"type":"instant","time":0,"free":4,"done":[],"jobs":[{"id":0,"job":1,"record":0,"submit":0,"procs":2,"need":2,"estimate":20,"user":1},{"id":1,"job":2,"record":0,"submit":0,"procs":4,"need":4,"estimate":5,"user":2,"priority":1,"deadline":100}]}
< {"start":[0]}
> {"type":"instant","time":3,"free":2,"done":[],"jobs":[{"id":2,"job":3,"record":2,"submit":3,"procs":1,"need":1,"estimate":2.5,"user":-1}]}
< {"start":[]}
> {"type":"instant","time":10,"free":4,"done":[0],"jobs":[]}
< {"start":[1]}
> {"type":"instant","time":15,"free":4,"done":[1],"jobs":[]}
< {"start":[2]}
> {"type":"instant","time":16,"free":4,"done":[2],"jobs":[]}
< {"start":[]}
> {"type":"end","time":16}
`
	if string(got) != want {
		t.Errorf("exchange:\n%s\nwant:\n%s", got, want)
	}
	for i, start := range []float64{0, 10, 15} {
		if res.Jobs[i].Start != start {
			t.Errorf("job %d starts at %g, want %g", i, res.Jobs[i].Start, start)
		}
	}
}

// With "ask":"fit" the process is asked only at instants where a waiting
// job may fit (by count): on flat:4, job 3's arrival at 1 (nothing fits
// in 0 free) and the last completion (nothing waits) are not asked, and
// their events come with the next message (the end, for the last). The
// schedule is FCFS's.
func TestAskFit(t *testing.T) {
	log := t.TempDir() + "/log"
	jobs := []policy.Job{
		{ID: 1, Submit: 0, Run: 10, Estimate: 10, Procs: 4, User: 1},
		{ID: 2, Submit: 0, Run: 2, Estimate: 2, Procs: 1, User: 1},
		{ID: 3, Submit: 1, Run: 1, Estimate: 1, Procs: 4, User: 1},
	}
	res, err := run(t, "EXT_LOG="+log+" "+childCmd("fcfs-fit"), jobs, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := `> {"type":"hello","protocol":1,"machine":"flat:4","kind":"flat","request":"count","procs":4,"width":0,"height":0,"dim":0,"options":{}}
< {"protocol":1,"ask":"fit"}
> {"type":"instant","time":0,"free":4,"done":[],"done_time":[],"jobs":[{"id":0,"job":1,"record":0,"submit":0,"procs":4,"need":4,"estimate":10,"user":1},{"id":1,"job":2,"record":0,"submit":0,"procs":1,"need":1,"estimate":2,"user":1}]}
< {"start":[0]}
> {"type":"instant","time":10,"free":4,"done":[0],"done_time":[10],"jobs":[{"id":2,"job":3,"record":0,"submit":1,"procs":4,"need":4,"estimate":1,"user":1}]}
< {"start":[1]}
> {"type":"instant","time":12,"free":4,"done":[1],"done_time":[12],"jobs":[]}
< {"start":[2]}
> {"type":"end","time":13,"done":[2],"done_time":[13]}
`
	if string(got) != want {
		t.Errorf("exchange:\n%s\nwant:\n%s", got, want)
	}
	for i, start := range []float64{0, 10, 12} {
		if res.Jobs[i].Start != start {
			t.Errorf("job %d starts at %g, want %g", i, res.Jobs[i].Start, start)
		}
	}
}

// Each way the process can fail the run gives one line naming the
// command, the simulated time and the offending message.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ mode, timeout, want string }{
		{"unknown", "", `t=0: reply {"start":[99]}: job 99 is unknown (no such job has arrived)`},
		{"twice", "", `t=0: reply {"start":[0,0]}: job 0 is already running`},
		{"again", "", `t=10: reply {"start":[0]}: job 0 has already completed`},
		{"nofit", "", `t=0: reply {"start":[0,1]}: job 1 (4 processors) does not fit (2 free)`},
		{"malformed", "", `t=0: malformed reply {"start":[0}: start: want ',' or ']' after a job id`},
		{"wake", "", `t=0: reply {"start":[],"wake":0}: wake 0 is not after the current time`},
		{"crash", "", `t=0: the process exited (exit status 3) without replying; its stderr ends: Traceback: boom`},
		{"close", "", `t=0: the process closed its output without replying`},
		{"silent", "0.2", `t=0: no reply within 200ms`},
		{"version", "", `t=0: handshake reply {"protocol":2}: protocol 2, this engine speaks 1`},
		{"ask", "", `t=0: handshake reply {"protocol":1,"ask":"sometimes"}: ask "sometimes": want "every" or "fit"`},
		{"min-every", "", `t=0: reply {"start":[],"min_free":1}: min_free needs "ask":"fit" in the handshake`},
		{"min-big", "", `t=0: reply {"start":[],"min_free":99}: min_free 99 exceeds the machine's 4 processors`},
	} {
		t.Run(c.mode, func(t *testing.T) {
			cmd := childCmd(c.mode)
			p := policy.Params{}
			if c.timeout != "" {
				p["timeout"] = c.timeout
			}
			_, err := run(t, cmd, tiny(), 4, p)
			want := fmt.Sprintf("ext %q: %s", cmd, c.want)
			if err == nil || err.Error() != want {
				t.Fatalf("error\n%v\nwant\n%s", err, want)
			}
			if n := liveCount(); n != 0 {
				t.Fatalf("%d processes left", n)
			}
		})
	}
	_, err := run(t, "exit 0", tiny(), 4, nil)
	if want := `ext "exit 0": t=0: the process exited (exit status 0) without replying`; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}

func liveCount() int {
	liveMu.Lock()
	defer liveMu.Unlock()
	return len(live)
}

// Parameter errors, before any process starts.
func TestParams(t *testing.T) {
	m := policy.Machine{Kind: policy.Flat, Procs: 4}
	for _, c := range []struct {
		p    policy.Params
		want string
	}{
		{policy.Params{}, "parameter cmd is required (ext:cmd='python3 my_sched.py'), or socket"},
		{policy.Params{"cmd": "x", "socket": "/tmp/s"}, "parameters cmd and socket: give one, not both"},
		{policy.Params{"cmd": "x", "timeout": "0"}, `parameter timeout="0": want a positive number of seconds`},
		{policy.Params{"cmd": "x", "timeout": "soon"}, `parameter timeout="soon": not a number`},
		{policy.Params{"cmd": "x", "pin": "yes"}, `parameter pin="yes": want one of true, false`},
	} {
		if _, err := New(m, c.p); err == nil || err.Error() != c.want {
			t.Errorf("%v: error %v, want %s", c.p, err, c.want)
		}
	}
}

// KillAll (the commands' interrupt handler) kills a stalled process and
// the rest of its group, and the run fails.
func TestKillAllLeavesNoProcess(t *testing.T) {
	pidFile := t.TempDir() + "/pid"
	cmd := "sleep 300 & echo $! > " + pidFile + "; " + childCmd("silent")
	errc := make(chan error, 1)
	go func() {
		_, err := run(t, cmd, tiny(), 4, nil)
		errc <- err
	}()
	var pids []int
	for deadline := time.Now().Add(10 * time.Second); len(pids) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the child did not start")
		}
		liveMu.Lock()
		for p := range live {
			pids = append(pids, p.cmd.Process.Pid)
		}
		liveMu.Unlock()
	}
	var grandchild int
	for deadline := time.Now().Add(10 * time.Second); grandchild == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no pid file")
		}
		b, _ := os.ReadFile(pidFile)
		fmt.Sscan(strings.TrimSpace(string(b)), &grandchild)
	}
	time.Sleep(50 * time.Millisecond)
	KillAll()
	if err := <-errc; err == nil {
		t.Fatal("the run did not fail")
	}
	for _, pid := range append(pids, grandchild) {
		// A killed grandchild may linger as a zombie until init reaps it;
		// it must not be running.
		for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d still running", pid)
			}
		}
	}
	if n := liveCount(); n != 0 {
		t.Fatalf("%d processes registered", n)
	}
}

// alive reports whether pid runs (not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// Replies: JSON whitespace anywhere, members in any order, nothing else.
func TestParseReply(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{}\n", "[] false 0"},
		{" { \"wake\" : 12.5 , \"start\" : [ 3 , 1 ] }\r\n", "[3 1] true 12.5"},
		{`{"start":[],"wake":null}`, "[] false 0"},
		{`[]`, "want a JSON object"},
		{`{"starts":[1]}`, `unknown member "starts" (want start, wake, min_free)`},
		{`{"start":[],"min_free":12}`, "[] false 0 min 12"},
		{`{"min_free":null}`, "[] false 0"},
		{`{"min_free":-1}`, "min_free: want a non-negative integer or null"},
		{`{"min_free":1.5}`, "min_free: want a non-negative integer or null"},
		{`{"min_free":1,"min_free":2}`, `member "min_free" given twice`},
		{`{"start":[1.5]}`, `start: "1.5]" is not a job id (an integer)`},
		{`{"start":1}`, "start: want an array of job ids"},
		{`{"wake":"soon"}`, "wake: want a number or null"},
		{`{"start":[1],"start":[2]}`, `member "start" given twice`},
		{`{"start":[1]} x`, "at byte 15: text after the object"},
		{`{"start":[1]`, "at byte 13: unexpected end"},
	} {
		r, err := parseReply([]byte(c.in))
		got := fmt.Sprintf("%v %v %v", r.starts, r.hasWake, r.wake)
		if r.starts == nil && err == nil {
			got = fmt.Sprintf("[] %v %v", r.hasWake, r.wake)
		}
		if r.hasMin {
			got += fmt.Sprintf(" min %d", r.minFree)
		}
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
	}
}

// socket= connects to a scheduler that listens on a Unix socket: here the
// Go FCFS child started on the accepted connection; its schedule is
// tiny's FCFS. A peer that closes the connection, and a path where
// nothing listens, each give one line.
func TestSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	serve := func(mode string) {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		f, _ := c.(*net.UnixConn).File()
		c.Close()
		defer f.Close()
		switch mode {
		case "close":
			return
		case "silent": // reads, never replies
			io.Copy(io.Discard, f)
			return
		}
		cmd := exec.Command("/bin/sh", "-c", childCmd(mode))
		cmd.Stdin, cmd.Stdout = f, f
		cmd.Run()
	}
	go serve("fcfs")
	res, err := run(t, "", tiny(), 4, policy.Params{"cmd": "", "socket": path})
	if err != nil {
		t.Fatal(err)
	}
	for i, start := range []float64{0, 10, 15} {
		if res.Jobs[i].Start != start {
			t.Errorf("job %d starts at %g, want %g", i, res.Jobs[i].Start, start)
		}
	}
	go serve("close")
	_, err = run(t, "", tiny(), 4, policy.Params{"cmd": "", "socket": path})
	if want := fmt.Sprintf("ext socket %q: t=0: the scheduler closed the connection without replying", path); err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	go serve("silent")
	_, err = run(t, "", tiny(), 4, policy.Params{"cmd": "", "socket": path, "timeout": "0.2"})
	if want := fmt.Sprintf("ext socket %q: t=0: no reply within 200ms", path); err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	missing := filepath.Join(t.TempDir(), "none")
	_, err = run(t, "", tiny(), 4, policy.Params{"cmd": "", "socket": missing})
	if want := fmt.Sprintf("ext socket %q: t=0: cannot connect: no such file or directory", missing); err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if n := liveCount(); n != 0 {
		t.Fatalf("%d connections left", n)
	}
}
