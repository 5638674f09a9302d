// Package cli is the command-line plumbing the three tools share: one-line
// errors, a usage error that points to --help instead of printing it, an
// interrupt handler that removes partial output, and a progress line for
// batch logs.
package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/schedlab/schedlab/trace"
)

// usageError prints nothing (Main prints the error once) and points to the
// command's --help.
func usageError(path string) func(*ucli.Context, error, bool) error {
	return func(_ *ucli.Context, err error, _ bool) error {
		return fmt.Errorf("%w\nRun '%s --help' for usage.", err, path)
	}
}

// Setup makes usage errors (an unknown flag, a bad flag value) one line
// plus a pointer to --help, for app and every command.
func Setup(app *ucli.App) {
	app.OnUsageError = usageError(app.Name)
	var walk func(prefix string, cs []*ucli.Command)
	walk = func(prefix string, cs []*ucli.Command) {
		for _, c := range cs {
			c.OnUsageError = usageError(prefix + " " + c.Name)
			walk(prefix+" "+c.Name, c.Subcommands)
		}
	}
	walk(app.Name, app.Commands)
}

// Main sets app up, runs it on args (os.Args, possibly reordered) and exits: 0 on success; 1 with the
// error on stderr, one line prefixed by the tool's name (a pointer to
// --help on a second line for usage errors); 130 on SIGINT or SIGTERM,
// after removing the temporary files being written (trace.StopTemps).
func Main(app *ucli.App, args []string) {
	Setup(app)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		trace.StopTemps()
		fmt.Fprintf(os.Stderr, "\n%s: interrupted (%v); partial output removed\n", app.Name, s)
		os.Exit(130)
	}()
	if err := app.Run(args); err != nil {
		fmt.Fprintln(os.Stderr, Message(app.Name, err))
		os.Exit(1)
	}
}

// Message formats err for stderr: "name: error" on one line; a usage
// error's pointer to --help stays on its own line.
func Message(name string, err error) string {
	msg := err.Error()
	first, help, _ := strings.Cut(msg, "\nRun '")
	line := name + ": " + strings.ReplaceAll(first, "\n", "; ")
	if help != "" {
		line += "\nRun '" + help
	}
	return line
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Progress reports the progress of a replay on w. update records runs
// done, the total and the jobs simulated so far; stop ends the report.
//
// On a terminal one line is redrawn (a bar, runs done, jobs simulated,
// elapsed time, ETA) at each update and every second. Otherwise (batch logs,
// Slurm) a full line is printed every interval, also while one long run
// has not finished, and at the end.
func Progress(w io.Writer, terminal bool, interval time.Duration) (update func(done, total int, jobs int64), stop func()) {
	p := &progress{w: w, terminal: terminal, start: time.Now(), quit: make(chan struct{}), stopped: make(chan struct{})}
	tick := interval
	if terminal {
		tick = min(interval, time.Second)
	}
	go func() {
		defer close(p.stopped)
		if tick <= 0 {
			<-p.quit
			return
		}
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.mu.Lock()
				if p.total > 0 && p.done < p.total {
					p.print()
				}
				p.mu.Unlock()
			case <-p.quit:
				return
			}
		}
	}()
	update = func(done, total int, jobs int64) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.done, p.total, p.jobs = done, total, jobs
		if terminal || done == total {
			p.print()
		}
	}
	stop = func() {
		close(p.quit)
		<-p.stopped
		p.mu.Lock()
		defer p.mu.Unlock()
		if terminal && p.drawn && p.done < p.total {
			fmt.Fprintln(w) // end the bar's line before an error
		}
	}
	return update, stop
}

type progress struct {
	w             io.Writer
	terminal      bool
	start         time.Time
	mu            sync.Mutex
	done, total   int
	jobs          int64
	drawn         bool
	quit, stopped chan struct{}
}

// print writes the state; p.mu is held.
func (p *progress) print() {
	elapsed := time.Since(p.start)
	eta := "?"
	if p.done > 0 {
		eta = (elapsed * time.Duration(p.total-p.done) / time.Duration(p.done)).Round(time.Second).String()
	}
	state := fmt.Sprintf("%d/%d runs, %d jobs simulated, %s elapsed, ETA %s", p.done, p.total, p.jobs, elapsed.Round(100*time.Millisecond), eta)
	if !p.terminal {
		fmt.Fprintf(p.w, "progress: %s\n", state)
		return
	}
	const width = 24
	filled := width * p.done / max(p.total, 1)
	fmt.Fprintf(p.w, "\r[%s%s] %s ", strings.Repeat("#", filled), strings.Repeat(".", width-filled), state)
	p.drawn = true
	if p.done == p.total {
		fmt.Fprintln(p.w)
	}
}
