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
// after removing the temporary files being written (trace.RemoveTemps).
func Main(app *ucli.App, args []string) {
	Setup(app)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		trace.RemoveTemps()
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

// Progress returns a progress callback for w: on a terminal it redraws one
// line (a bar, runs done, jobs simulated, elapsed time, ETA); otherwise
// (batch logs, Slurm) it prints a full line at most every interval, and at
// the end.
func Progress(w io.Writer, terminal bool, interval time.Duration) func(done, total int, jobs int64) {
	start := time.Now()
	last := start
	return func(done, total int, jobs int64) {
		elapsed := time.Since(start)
		eta := "?"
		if done > 0 {
			eta = (elapsed * time.Duration(total-done) / time.Duration(done)).Round(time.Second).String()
		}
		if terminal {
			const width = 24
			filled := width * done / max(total, 1)
			fmt.Fprintf(w, "\r[%s%s] %d/%d runs, %d jobs simulated, %s elapsed, ETA %s ",
				strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total, jobs,
				elapsed.Round(100*time.Millisecond), eta)
			if done == total {
				fmt.Fprintln(w)
			}
			return
		}
		if now := time.Now(); now.Sub(last) >= interval || done == total {
			last = now
			fmt.Fprintf(w, "progress: %d/%d runs, %d jobs simulated, %s elapsed, ETA %s\n",
				done, total, jobs, elapsed.Round(100*time.Millisecond), eta)
		}
	}
}
