// Command replay replays parallel-workload traces on simulated machines
// under every (processor allocator, job scheduler) pair and writes the
// results as Parquet (see model/experiment).
//
//	replay run [--machine M] [--mode rigid|malleable] [--alloc a,b] [--sched x,y] [--out DIR] [-j N] [TRACE...]
//	replay list
//
// With no TRACE, run replays the embedded default traces (package traces)
// and also writes DIR/report.pdf (package analysis/report).
//
// Policy lists: --alloc and --sched take comma-separated specs and may be
// repeated. A spec's parameters also use commas; a comma-separated piece
// that contains "=" but no ":" continues the previous spec's parameters, so
// "--sched fcfs,mq:q=32,order=down,easy" is fcfs, mq:q=32,order=down, easy.
package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"

	"github.com/schedlab/schedlab/analysis/report"
	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/mesh"
	"github.com/schedlab/schedlab/trace"
	embedded "github.com/schedlab/schedlab/traces"
)

// version is recorded in every results file.
var version = "0.1.0-dev"

func main() { xcli.Main(newApp(), os.Args) }

func newApp() *cli.App {
	app := &cli.App{
		Name:                      "replay",
		Usage:                     "replay workload traces under every allocator × scheduler pair",
		HideHelpCommand:           true,
		DisableSliceFlagSeparator: true,
		Commands:                  []*cli.Command{runCommand(), sweepCommand(), listCommand()},
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
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "machine", Usage: "machine for every trace (flat:N, mesh:WxH, cube:n); default: the trace's hint, else flat:MaxProcs"},
			&cli.StringFlag{Name: "mode", Value: catalog.ModeRigid, Usage: "rigid (jobs hold their processors from start to end) or malleable (Guha 1995 dynamic space sharing: fractional allocations repartitioned at every arrival and departure; needs the trace's work and efficiency columns; allocator share, schedulers eq, alpha, lrwf, mrwf, wk, we, wf)"},
			&cli.StringSliceFlag{Name: "alloc", Usage: "allocator specs, comma-separated, repeatable (default: every compatible one)"},
			&cli.StringSliceFlag{Name: "sched", Usage: "scheduler specs, comma-separated, repeatable, e.g. fcfs,mq:q=32,order=down (default: every compatible one)"},
			&cli.StringFlag{Name: "out", Value: "out", Usage: "output directory"},
			&cli.IntFlag{Name: "j", Value: runtime.GOMAXPROCS(0), Usage: "parallel runs"},
			&cli.BoolFlag{Name: "check", Usage: "verify engine invariants (no processor held twice, capacity, causality)"},
			&cli.StringFlag{Name: "shape", Value: mesh.ShapeSquare, Usage: "mesh machines: the w×h request of a job that gives only a processor count n: square (the most square w×h ≥ n with h = ⌈n/w⌉), row (n×1) or exact (a factor pair w·h = n); a job with no shape that fits is rejected"},
			&cli.StringFlag{Name: "comm", Value: "off", Usage: "mesh machines: communication model: off (a job's residence is its run time, as Chu 1995 assumes), analytic (contention-free latency) or wormhole (packet-level XY wormhole simulation), with parameters, e.g. wormhole:ts=3,plen=8,msgs=5,unit=round (Bani-Mohammad et al. 2006; model/network): a job's residence is its communication time plus its run time"},
			&cli.StringFlag{Name: "estimates", Value: admit.EstimatesRequested, Usage: "runtime estimates: requested (user's requested time when known, else actual) or actual"},
			&cli.Float64Flag{Name: "bsld-tau", Value: experiment.DefaultBsldTau, Usage: "bounded-slowdown threshold τ (seconds)"},
			&cli.IntFlag{Name: "warmup", Usage: "leave the first N jobs out of the statistics"},
			&cli.BoolFlag{Name: "until-last-arrival", Usage: "leave jobs finishing after the last arrival out of the statistics"},
			&cli.Float64Flag{Name: "until", Usage: "stop every run at time `T`: the observation window [0, T] (generated, completed, allocated, delay, throughput, utilization and power in the summary's window_* columns; jobs not completed by T are left out of the per-job statistics)"},
			&cli.BoolFlag{Name: "keep-partial", Usage: "replay partial SWF records (status 2-4) instead of dropping them"},
			&cli.BoolFlag{Name: "no-series", Usage: "do not write series.parquet"},
			&cli.BoolFlag{Name: "placement", Value: true, Usage: "record where each job ran in the placement column of jobs.parquet (--placement=false: an empty column, about 20% faster on large runs)"},
			&cli.StringFlag{Name: "table", Value: experiment.TableAuto, Usage: "terminal summary: auto (compact above 40 rows), full (every run) or compact (replications pooled, mean ± 95% CI)"},
			&cli.BoolFlag{Name: "force-memory", Usage: "run even when the estimated memory exceeds what is available"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress line and no summary table"},
			&cli.BoolFlag{Name: "strict", Usage: "read traces strictly (anomalies are errors, not warnings)"},
		},
		Action: run,
	}
}

// splitSpecs splits comma-separated policy specs, keeping parameters
// (pieces with "=" but no ":") with the spec before them. A parameter after
// a spec that has none (no ":") is an error, and so is a flag given with
// no spec at all: neither silently means something else.
func splitSpecs(vals []string) ([]string, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	out := []string{}
	for _, v := range vals {
		for _, piece := range strings.Split(v, ",") {
			piece = strings.TrimSpace(piece)
			if piece == "" {
				continue
			}
			if strings.Contains(piece, "=") && !strings.Contains(piece, ":") {
				if len(out) == 0 {
					return nil, fmt.Errorf("policy list %q: parameter %q comes before any policy name", v, piece)
				}
				if prev := out[len(out)-1]; !strings.Contains(prev, ":") {
					return nil, fmt.Errorf("policy list %q: parameter %q follows %q, which has no parameter list (write %s:%s)", v, piece, prev, prev, piece)
				}
				out[len(out)-1] += "," + piece
				continue
			}
			out = append(out, piece)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("policy list %q is empty", strings.Join(vals, ","))
	}
	return out, nil
}

func run(c *cli.Context) error {
	allocs, err := splitSpecs(c.StringSlice("alloc"))
	if err != nil {
		return err
	}
	scheds, err := splitSpecs(c.StringSlice("sched"))
	if err != nil {
		return err
	}
	if j := c.Int("j"); j < 1 {
		return fmt.Errorf("-j %d: want at least 1 worker", j)
	}
	if err := catalog.CheckMode(c.String("mode")); err != nil {
		return fmt.Errorf("--%w", err)
	}
	if err := experiment.CheckTable(c.String("table")); err != nil {
		return err
	}
	if err := mesh.CheckShape(c.String("shape")); err != nil {
		return fmt.Errorf("--%w", err)
	}
	if u := c.Float64("until"); u < 0 || math.IsNaN(u) || math.IsInf(u, 0) {
		return fmt.Errorf("--until %g: must be a positive time (0: no window)", u)
	}
	if tau := c.Float64("bsld-tau"); !(tau > 0) || math.IsInf(tau, 0) {
		return fmt.Errorf("--bsld-tau %g: must be a positive number of seconds", tau)
	}
	var traces []*trace.Trace
	for _, path := range c.Args().Slice() {
		t, err := trace.ReadFile(path, trace.ReadOptions{Strict: c.Bool("strict")})
		if err != nil {
			return err
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
	opt := experiment.Options{
		Machine: c.String("machine"), Mode: c.String("mode"), Allocs: allocs, Scheds: scheds, Workers: c.Int("j"),
		Check: c.Bool("check"), Estimates: c.String("estimates"), BsldTau: c.Float64("bsld-tau"), Shape: c.String("shape"), Comm: c.String("comm"),
		Warmup: c.Int("warmup"), UntilLastArrival: c.Bool("until-last-arrival"), Until: c.Float64("until"),
		KeepPartial: c.Bool("keep-partial"), NoSeries: c.Bool("no-series"), Placement: c.Bool("placement"),
		Out: c.String("out"), Version: version, ReleaseTraces: true,
		Warn: func(msg string) { fmt.Fprintln(c.App.ErrWriter, "replay: warning:", msg) },
	}
	if avail, ok := experiment.MemAvailable(); ok && !c.Bool("force-memory") {
		opt.MemoryLimit = avail
	}
	if opt.Out == "" {
		return errors.New("--out must not be empty")
	}
	var stop func()
	if !quiet {
		opt.Progress, stop = xcli.Progress(c.App.ErrWriter, xcli.IsTerminal(os.Stderr) && c.App.ErrWriter == os.Stderr, 10*time.Second)
	}
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
	}
	if defaults {
		return report.Generate(report.Options{
			In: opt.Out, Out: filepath.Join(opt.Out, "report.pdf"),
			Quiet: quiet, Log: c.App.ErrWriter,
		})
	}
	return nil
}
