// Package replaycli is the replay command as a library: App builds its
// command-line application and Main runs it on os.Args, so that a program
// of another module that registers its own policies (catalog.Register...)
// and calls Main is the replay tool with those policies, with every flag,
// plan, sweep, Slurm and report feature (docs/write-a-policy.md). The
// command itself (cmd/replay) is such a program.
package replaycli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"

	"github.com/schedlab/schedlab/analysis/report"
	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/trace"
	embedded "github.com/schedlab/schedlab/traces"
)

// version is recorded in every results file.
var version = "0.1.0-dev"

// Main runs the replay command on os.Args and exits (0 on success, 1 with
// a one-line error on stderr, 130 on an interrupt).
func Main() { xcli.Main(App(), os.Args) }

// App returns the replay command-line application.
func App() *cli.App {
	app := &cli.App{
		Name:                      "replay",
		Usage:                     "replay workload traces under every allocator × scheduler pair",
		HideHelpCommand:           true,
		DisableSliceFlagSeparator: true,
		Commands:                  []*cli.Command{runCommand(), sweepCommand(), listCommand(), docsCommand()},
	}
	xcli.Setup(app)
	return app
}

func listCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list machines, allocators and schedulers with their parameters",
		Action: func(c *cli.Context) error {
			for _, l := range catalog.List() {
				fmt.Fprintln(c.App.Writer, l)
			}
			return nil
		},
	}
}

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "replay traces and write jobs/summary/series Parquet files",
		ArgsUsage: "[TRACE...] (.swf, .swf.gz, .parquet; none: the embedded default traces, plus DIR/report.pdf)",
		Flags:     optionFlags(),
		Action:    run,
	}
}

// runOptions reads the replay options of run's flags and checks them
// (experiment.Validate, and the flags' own rules: at least one worker, a
// positive τ, an output directory, a table layout). An invalid value is
// a *experiment.FieldError.
func runOptions(c *cli.Context) (experiment.Options, error) {
	allocs, err := splitSpecs("alloc", c.StringSlice("alloc"))
	if err != nil {
		return experiment.Options{}, err
	}
	scheds, err := splitSpecs("sched", c.StringSlice("sched"))
	if err != nil {
		return experiment.Options{}, err
	}
	for _, check := range []error{
		experiment.CheckWorkers(c.Int("j")), experiment.CheckTableLayout(c.String("table")),
		experiment.CheckBsldTau(c.Float64("bsld-tau")), experiment.CheckOut(c.String("out")),
	} {
		if check != nil {
			return experiment.Options{}, check
		}
	}
	opt := experiment.Options{
		Machine: c.String("machine"), Mode: c.String("mode"), Allocs: allocs, Scheds: scheds, Workers: c.Int("j"),
		Check: c.Bool("check"), Estimates: c.String("estimates"), BsldTau: c.Float64("bsld-tau"), Shape: c.String("shape"), Comm: c.String("comm"), Stretch: c.String("stretch"),
		Events: c.String("events"), Warmup: c.Int("warmup"), WarmupFinished: c.Float64("warmup-finished"), UntilLastArrival: c.Bool("until-last-arrival"), Until: c.Float64("until"),
		KeepPartial: c.Bool("keep-partial"), NoSeries: c.Bool("no-series"), Placement: c.Bool("placement"),
		Out: c.String("out"), Version: version, ReleaseTraces: true,
		Warn: func(msg string) { fmt.Fprintln(c.App.ErrWriter, "replay: warning:", msg) },
	}
	return opt, experiment.Validate(&opt)
}

// splitSpecs splits comma-separated policy specs (not at commas inside a
// quoted value: ext:cmd='a,b'), keeping parameters
// (pieces with "=" but no ":") with the spec before them. A parameter after
// a spec that has none (no ":") is an error, and so is a flag given with
// no spec at all: neither silently means something else.
// Its errors are field errors of the option named field.
func splitSpecs(field string, vals []string) ([]string, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	out := []string{}
	for _, v := range vals {
		for _, piece := range policy.SplitList(v) {
			piece = strings.TrimSpace(piece)
			if piece == "" {
				continue
			}
			if strings.Contains(piece, "=") && !strings.Contains(piece, ":") {
				if len(out) == 0 {
					return nil, &experiment.FieldError{Field: field, Value: v, Msg: fmt.Sprintf("parameter %q comes before any policy name", piece)}
				}
				if prev := out[len(out)-1]; !strings.Contains(prev, ":") {
					return nil, &experiment.FieldError{Field: field, Value: v, Msg: fmt.Sprintf("parameter %q follows %q, which has no parameter list (write %s:%s)", piece, prev, prev, piece)}
				}
				out[len(out)-1] += "," + piece
				continue
			}
			out = append(out, piece)
		}
	}
	if len(out) == 0 {
		return nil, &experiment.FieldError{Field: field, Value: strings.Join(vals, ","), Msg: "an empty policy list"}
	}
	return out, nil
}

func run(c *cli.Context) error {
	opt, err := runOptions(c)
	if err != nil {
		return flagError(err)
	}
	var traces []*trace.Trace
	for _, path := range c.Args().Slice() {
		t, err := trace.ReadFile(path, trace.ReadOptions{Strict: c.Bool("strict")})
		if err != nil {
			return err
		}
		for _, w := range t.Warnings {
			opt.Warn(w)
		}
		traces = append(traces, t)
	}
	defaults := len(traces) == 0
	if defaults {
		// No TRACE: replay the embedded default traces, then write the
		// report next to the results.
		if traces, err = embedded.Default(); err != nil {
			return err
		}
	}
	quiet := c.Bool("quiet")
	if avail, ok := experiment.MemAvailable(); ok && !c.Bool("force-memory") {
		opt.MemoryLimit = avail
	}
	var stop func()
	if !quiet {
		opt.Progress, stop = xcli.Progress(c.App.ErrWriter, xcli.IsTerminal(os.Stderr) && c.App.ErrWriter == os.Stderr, 10*time.Second)
	}
	var records []*experiment.Records
	opt.Records = func(r *experiment.Records) { records = append(records, r) }
	rows, err := experiment.Run(traces, opt)
	if stop != nil {
		stop()
	}
	if err != nil {
		return err
	}
	if !quiet {
		if err := experiment.FormatSummary(c.App.Writer, rows, traces, c.String("table")); err != nil {
			return err
		}
		if !defaults {
			for _, r := range records {
				fmt.Fprintln(c.App.Writer, "records:", r)
			}
		}
	}
	if defaults {
		return report.Generate(report.Options{
			In: opt.Out, Out: filepath.Join(opt.Out, "report.pdf"),
			Quiet: quiet, Log: c.App.ErrWriter,
		})
	}
	return nil
}
