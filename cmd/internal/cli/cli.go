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

	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/ext"
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
// after killing external scheduler processes (ext.KillAll) and removing
// the temporary files being written (trace.StopTemps).
func Main(app *ucli.App, args []string) {
	Setup(app)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		ext.KillAll()
		msg := fmt.Sprintf("%s: interrupted (%v)", app.Name, s)
		if removed := trace.StopTemps(); len(removed) > 0 { // nothing is said of output there was none of (report serve)
			msg += fmt.Sprintf("; partial output removed (%d temporary files)", len(removed))
		}
		fmt.Fprintf(os.Stderr, "\n%s\n", msg)
		os.Exit(130)
	}()
	if err := app.Run(Reorder(app, args)); err != nil {
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

// Progress reports the progress of a replay on w. update records the
// runs done, the jobs simulated so far (within runs under way too) and
// how far the runs under way are in simulated time; stop ends the report.
//
// On a terminal one line is redrawn (a bar, runs done, jobs simulated,
// simulated time, elapsed time, ETA) at each update between runs and every
// second. Otherwise (batch logs, Slurm) a full line is printed every
// interval, also while one long run has not finished, and at the end.
// The ETA extrapolates the elapsed time by the share of the jobs
// simulated (experiment.Progress.Fraction).
func Progress(w io.Writer, terminal bool, interval time.Duration) (update func(experiment.Progress), stop func()) {
	return ProgressOf("runs", w, terminal, interval)
}

// ProgressOf is Progress counting units other than runs (a sweep's cells).
func ProgressOf(units string, w io.Writer, terminal bool, interval time.Duration) (update func(experiment.Progress), stop func()) {
	p := &progress{units: units, w: w, terminal: terminal, start: time.Now(), quit: make(chan struct{}), stopped: make(chan struct{})}
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
				if p.st.Total > 0 && p.st.Done < p.st.Total {
					p.print()
				}
				p.mu.Unlock()
			case <-p.quit:
				return
			}
		}
	}()
	update = func(st experiment.Progress) {
		p.mu.Lock()
		defer p.mu.Unlock()
		between := st.Done != p.st.Done || st.Total != p.st.Total || p.st.Total == 0
		p.st = st
		if terminal && between || st.Done == st.Total {
			p.print()
		}
	}
	stop = func() {
		close(p.quit)
		<-p.stopped
		p.mu.Lock()
		defer p.mu.Unlock()
		if terminal && p.drawn && p.st.Done < p.st.Total {
			fmt.Fprintln(w) // end the bar's line before an error
		}
	}
	return update, stop
}

type progress struct {
	units         string
	w             io.Writer
	terminal      bool
	start         time.Time
	mu            sync.Mutex
	st            experiment.Progress
	drawn         bool
	quit, stopped chan struct{}
}

// progressLine is the state st of a report of units, elapsed after its
// start: runs done, jobs simulated (with their share of the jobs
// planned), how far the runs under way are in simulated time, the time
// elapsed and the ETA, the elapsed time extrapolated by the share of the
// jobs simulated ("?" before any).
func progressLine(units string, st experiment.Progress, elapsed time.Duration) string {
	eta := "?"
	if f := st.Fraction(); f > 0 {
		eta = time.Duration(float64(elapsed) * (1 - f) / f).Round(time.Second).String()
	}
	jobs := fmt.Sprintf("%d jobs simulated", st.Jobs)
	if st.TotalJobs > 0 {
		jobs = fmt.Sprintf("%d/%d jobs simulated", st.Jobs, st.TotalJobs)
	}
	sim := ""
	if st.Running > 0 && st.Done < st.Total {
		sim = fmt.Sprintf(", simulated time %.0f%% of the trace's span", 100*st.Span)
		if st.Running > 1 {
			sim = fmt.Sprintf(", simulated time %.0f%% of the traces' spans (mean of %d runs)", 100*st.Span, st.Running)
		}
	}
	return fmt.Sprintf("%d/%d %s, %s%s, %s elapsed, ETA %s", st.Done, st.Total, units, jobs, sim, elapsed.Round(100*time.Millisecond), eta)
}

// print writes the state; p.mu is held.
func (p *progress) print() {
	state := progressLine(p.units, p.st, time.Since(p.start))
	if !p.terminal {
		fmt.Fprintf(p.w, "progress: %s\n", state)
		return
	}
	const width = 24
	filled := int(width * p.st.Fraction())
	fmt.Fprintf(p.w, "\r[%s%s] %s ", strings.Repeat("#", filled), strings.Repeat(".", width-filled), state)
	p.drawn = true
	if p.st.Done == p.st.Total {
		fmt.Fprintln(p.w)
	}
}

// Reorder moves the flags written after a command's arguments before them
// (urfave/cli stops at the first argument), so that `replay sweep PLAN
// --list` means `replay sweep --list PLAN`. A flag's value follows it
// unless the flag is boolean or written --name=value; everything after
// "--" stays an argument. Only the app's commands and their subcommands
// are reordered; args[0] is the program.
func Reorder(app *ucli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	cmds := app.Commands
	var cmd *ucli.Command
	// The command path: leading words naming commands.
	for len(rest) > 0 {
		var next *ucli.Command
		for _, c := range cmds {
			if c.HasName(rest[0]) {
				next = c
			}
		}
		if next == nil {
			break
		}
		cmd, cmds = next, next.Subcommands
		out = append(out, rest[0])
		rest = rest[1:]
	}
	if cmd == nil || len(cmd.Subcommands) > 0 {
		return args
	}
	takesValue := func(name string) bool {
		for _, f := range cmd.Flags {
			for _, n := range f.Names() {
				if n == name {
					_, isBool := f.(*ucli.BoolFlag)
					return !isBool
				}
			}
		}
		return false // unknown: let the parser say so
	}
	var flags, pos []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			pos = append(pos, rest[i+1:]...)
			i = len(rest)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue(name) && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
		default:
			pos = append(pos, a)
		}
	}
	out = append(out, flags...)
	if len(pos) > 0 {
		out = append(out, "--")
		out = append(out, pos...)
	}
	return out
}
