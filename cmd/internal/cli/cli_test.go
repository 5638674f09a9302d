package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/schedlab/schedlab/model/experiment"
)

func TestProgressTerminal(t *testing.T) {
	var b strings.Builder
	update, stop := Progress(&b, true, time.Hour)
	update(experiment.Progress{Done: 1, Total: 4, Jobs: 100})
	if got := b.String(); !strings.HasPrefix(got, "\r[######..................] 1/4 runs, 100 jobs simulated, ") || strings.Contains(got, "\n") {
		t.Fatalf("after 1/4: %q", got)
	}
	update(experiment.Progress{Done: 4, Total: 4, Jobs: 400})
	stop()
	if got := b.String(); !strings.Contains(got, "[########################] 4/4 runs, 400 jobs simulated") || !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 1 {
		t.Fatalf("after 4/4: %q", got)
	}
	// Stopped early (an error): the bar's line is ended.
	b.Reset()
	update, stop = Progress(&b, true, time.Hour)
	update(experiment.Progress{Done: 1, Total: 4, Jobs: 100})
	stop()
	if got := b.String(); !strings.HasSuffix(got, "\n") {
		t.Fatalf("stopped at 1/4: %q", got)
	}
}

// The line within a long run: the jobs simulated against those planned,
// the simulated time, and an ETA extrapolated from the share of the jobs
// done (not from the runs done, which stay 0 during a single run).
func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		st      experiment.Progress
		elapsed time.Duration
		want    string
	}{
		{experiment.Progress{Total: 1, TotalJobs: 1000}, time.Second,
			"0/1 runs, 0/1000 jobs simulated, 1s elapsed, ETA ?"},
		{experiment.Progress{Total: 1, TotalJobs: 1000, Jobs: 250, Running: 1, Span: 0.3}, 10 * time.Second,
			"0/1 runs, 250/1000 jobs simulated, simulated time 30% of the trace's span, 10s elapsed, ETA 30s"},
		{experiment.Progress{Done: 1, Total: 3, TotalJobs: 300, Jobs: 200, Running: 2, Span: 0.5}, 20 * time.Second,
			"1/3 runs, 200/300 jobs simulated, simulated time 50% of the traces' spans (mean of 2 runs), 20s elapsed, ETA 10s"},
		{experiment.Progress{Done: 2, Total: 2, TotalJobs: 300, Jobs: 300}, 20 * time.Second,
			"2/2 runs, 300/300 jobs simulated, 20s elapsed, ETA 0s"},
		{experiment.Progress{Done: 1, Total: 4}, 10 * time.Second, // no job count (a sweep of skipped cells)
			"1/4 runs, 0 jobs simulated, 10s elapsed, ETA 30s"},
	} {
		if got := progressLine("runs", c.st, c.elapsed); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.st, got, c.want)
		}
	}
}

// Without a terminal: whole lines every interval, also while no run has
// finished, and the last one; nothing else.
func TestProgressBatch(t *testing.T) {
	var b strings.Builder
	update, stop := Progress(&b, false, 20*time.Millisecond)
	update(experiment.Progress{Done: 0, Total: 3, Jobs: 0})
	time.Sleep(90 * time.Millisecond)
	update(experiment.Progress{Done: 3, Total: 3, Jobs: 30})
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
	update(experiment.Progress{Done: 1, Total: 3, Jobs: 10})
	update(experiment.Progress{Done: 2, Total: 3, Jobs: 20})
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
