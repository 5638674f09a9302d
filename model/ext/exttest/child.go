// Package exttest is a Go external scheduler for tests: a test binary
// whose TestMain calls Main runs it instead of the tests when started by
// Cmd, so that tests of the external-scheduler protocol need no Python.
package exttest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Main runs the child and exits when EXT_CHILD names a mode; it returns
// at once otherwise.
func Main() {
	if mode := os.Getenv("EXT_CHILD"); mode != "" {
		child(mode)
		os.Exit(0)
	}
}

// Cmd is the shell command that runs this binary as a child in mode:
// "fcfs" (FCFS, well behaved), "fcfs-fit" (the same, asking only for
// instants where a job may fit), "trivial" (starts every job on arrival,
// reading ids without decoding JSON), "trivial-fit", "ask" (an unknown ask
// in its handshake), "fcfs-min" (FCFS with ask fit, telling the engine
// with min_free not to ask before the head fits), or a variant that misbehaves at its
// first instant: unknown, twice, nofit, malformed, wake, min-every
// (min_free without ask fit), min-big (min_free beyond the machine), crash, close,
// silent (never replies), version (protocol 2); again is FCFS that
// restarts the first job it is told has completed. With EXT_LOG=path in the
// command's environment the child logs every line read ("> ") and
// written ("< ").
func Cmd(mode string) string {
	return "EXT_CHILD=" + mode + ` exec "` + os.Args[0] + `"`
}

// message is what the child reads of the engine's messages.
type message struct {
	Type     string  `json:"type"`
	Protocol int     `json:"protocol"`
	Time     float64 `json:"time"`
	Free     int     `json:"free"`
	Done     []int   `json:"done"`
	Jobs     []struct {
		ID   int `json:"id"`
		Need int `json:"need"`
	} `json:"jobs"`
}

// child is FCFS over the protocol; mode makes it misbehave at its first
// instant ("fcfs": never). With EXT_LOG set it logs every line read ("> ")
// and written ("< ").
func child(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	var log *os.File
	if path := os.Getenv("EXT_LOG"); path != "" {
		log, _ = os.Create(path)
		defer log.Close()
	}
	reply := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
		if log != nil {
			fmt.Fprintf(log, "< %s\n", s)
		}
	}
	type job struct{ id, need int }
	var queue []job
	var b []byte
	if mode == "trivial" || mode == "trivial-fit" {
		trivial(in, out, mode == "trivial-fit")
		return
	}
	for in.Scan() {
		if log != nil {
			fmt.Fprintf(log, "> %s\n", in.Bytes())
		}
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(2)
		}
		switch m.Type {
		case "hello":
			switch mode {
			case "version":
				reply(`{"protocol":2}`)
			case "fcfs-fit", "fcfs-min", "min-big":
				reply(`{"protocol":1,"ask":"fit"}`)
			case "ask":
				reply(`{"protocol":1,"ask":"sometimes"}`)
			default:
				reply(`{"protocol":1}`)
			}
			continue
		case "end":
			return
		}
		switch mode {
		case "unknown":
			reply(`{"start":[99]}`)
			continue
		case "twice":
			reply(`{"start":[0,0]}`)
			continue
		case "nofit":
			reply(`{"start":[0,1]}`)
			continue
		case "malformed":
			reply(`{"start":[0}`)
			continue
		case "again":
			if len(m.Done) > 0 {
				reply(fmt.Sprintf(`{"start":[%d]}`, m.Done[0]))
				continue
			}
		case "wake":
			reply(`{"start":[],"wake":0}`)
			continue
		case "min-every":
			reply(`{"start":[],"min_free":1}`)
			continue
		case "min-big":
			reply(`{"start":[],"min_free":99}`)
			continue
		case "crash":
			fmt.Fprintln(os.Stderr, "Traceback: boom")
			os.Exit(3)
		case "close":
			os.Stdout.Close()
			time.Sleep(10 * time.Second)
		case "silent":
			time.Sleep(time.Hour)
		}
		for _, j := range m.Jobs {
			queue = append(queue, job{j.ID, j.Need})
		}
		b = append(b[:0], `{"start":[`...)
		free, k := m.Free, 0
		for ; k < len(queue) && queue[k].need <= free; k++ {
			if k > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, "%d", queue[k].id)
			free -= queue[k].need
		}
		queue = queue[k:]
		if mode == "fcfs-min" && len(queue) > 0 { // the head waits for its processors
			b = fmt.Appendf(b, `],"min_free":%d}`, queue[0].need)
			reply(string(b))
			continue
		}
		reply(string(append(b, "]}"...)))
	}
}

// trivial starts every job as it arrives (the machine must hold them
// all), reading the ids without decoding the JSON: the cheapest scheduler,
// for the benchmark.
func trivial(in *bufio.Scanner, out *bufio.Writer, fit bool) {
	key := []byte(`{"id":`)
	for in.Scan() {
		line := in.Bytes()
		switch {
		case bytes.HasPrefix(line, []byte(`{"type":"hello"`)):
			if fit {
				out.WriteString(`{"protocol":1,"ask":"fit"}` + "\n")
			} else {
				out.WriteString(`{"protocol":1}` + "\n")
			}
		case bytes.HasPrefix(line, []byte(`{"type":"end"`)):
			return
		default:
			out.WriteString(`{"start":[`)
			for k := 0; ; k++ {
				i := bytes.Index(line, key)
				if i < 0 {
					break
				}
				line = line[i+len(key):]
				if k > 0 {
					out.WriteByte(',')
				}
				out.Write(line[:bytes.IndexByte(line, ',')])
			}
			out.WriteString("]}\n")
		}
		out.Flush()
	}
}
