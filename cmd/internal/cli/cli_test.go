package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	ucli "github.com/urfave/cli/v2"
)

func TestProgressTerminal(t *testing.T) {
	var b strings.Builder
	update, stop := Progress(&b, true, time.Hour)
	update(1, 4, 100)
	if got := b.String(); !strings.HasPrefix(got, "\r[######..................] 1/4 runs, 100 jobs simulated, ") || strings.Contains(got, "\n") {
		t.Fatalf("after 1/4: %q", got)
	}
	update(4, 4, 400)
	stop()
	if got := b.String(); !strings.Contains(got, "[########################] 4/4 runs, 400 jobs simulated") || !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 1 {
		t.Fatalf("after 4/4: %q", got)
	}
	// Stopped early (an error): the bar's line is ended.
	b.Reset()
	update, stop = Progress(&b, true, time.Hour)
	update(1, 4, 100)
	stop()
	if got := b.String(); !strings.HasSuffix(got, "\n") {
		t.Fatalf("stopped at 1/4: %q", got)
	}
}

// Without a terminal: whole lines every interval, also while no run has
// finished, and the last one; nothing else.
func TestProgressBatch(t *testing.T) {
	var b strings.Builder
	update, stop := Progress(&b, false, 20*time.Millisecond)
	update(0, 3, 0)
	time.Sleep(90 * time.Millisecond)
	update(3, 3, 30)
	stop()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) < 3 || strings.Contains(b.String(), "\r") {
		t.Fatalf("batch progress %q", b.String())
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "progress: 0/3 runs, 0 jobs simulated, ") || !strings.HasSuffix(l, "ETA ?") {
			t.Errorf("heartbeat line %q", l)
		}
	}
	if l := lines[len(lines)-1]; !strings.HasPrefix(l, "progress: 3/3 runs, 30 jobs simulated, ") {
		t.Errorf("last line %q", l)
	}
	b.Reset()
	update, stop = Progress(&b, false, time.Hour)
	update(1, 3, 10)
	update(2, 3, 20)
	stop()
	if b.Len() != 0 {
		t.Fatalf("printed before the interval: %q", b.String())
	}
}

// A bad flag gives one line and a pointer to --help, not the whole help.
func TestUsageError(t *testing.T) {
	var out bytes.Buffer
	app := &ucli.App{Name: "tool", Writer: &out, ErrWriter: &out, Commands: []*ucli.Command{{
		Name: "run", Flags: []ucli.Flag{&ucli.IntFlag{Name: "j"}}, Action: func(*ucli.Context) error { return nil },
	}}}
	Setup(app)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tool", "run", "-x"}, "tool: flag provided but not defined: -x\nRun 'tool run --help' for usage."},
		{[]string{"tool", "run", "-j", "many"}, "tool: invalid value \"many\" for flag -j: parse error\nRun 'tool run --help' for usage."},
		{[]string{"tool", "--bogus"}, "tool: flag provided but not defined: -bogus\nRun 'tool --help' for usage."},
	} {
		out.Reset()
		err := app.Run(c.args)
		if err == nil {
			t.Fatalf("%v: no error", c.args)
		}
		if got := Message("tool", err); got != c.want {
			t.Errorf("%v:\n got %q\nwant %q", c.args, got, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("%v printed %d bytes of help: %q", c.args, out.Len(), out.String())
		}
	}
	if got := Message("tool", errors.New("a\nb")); got != "tool: a; b" {
		t.Errorf("Message joins lines: %q", got)
	}
}
