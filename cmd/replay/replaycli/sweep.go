package replaycli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"

	"github.com/schedlab/schedlab/analysis/report"
	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/sweep"
	"github.com/schedlab/schedlab/model/workload"
)

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:      "sweep",
		Usage:     "run a sweep plan (TOML) into a hive-partitioned Parquet dataset, whole or in shards",
		ArgsUsage: "PLAN.toml",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "dataset directory (default: out/NAME, NAME the plan's name)"},
			optionFlags("j")[0],
			&cli.StringFlag{Name: "shard", Usage: "run only shard i of n (i/n, 1-based): a stable assignment balanced by estimated cost"},
			&cli.BoolFlag{Name: "resume", Usage: "skip the cells whose files are complete"},
			&cli.BoolFlag{Name: "list", Usage: "print the plan's cells (with --shard: that shard's; with --shards N: each cell's shard) and exit"},
			&cli.BoolFlag{Name: "merge", Usage: "after the shards: check that every cell is complete (exit 1 naming the missing ones)"},
			&cli.BoolFlag{Name: "report", Usage: "also write DIR/report.pdf (after a whole run, or with --merge)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress and no summary line"},
			&cli.StringFlag{Name: "emit", Usage: "write batch scripts instead of running: slurm (DIR/slurm/{sweep.sbatch,merge.sbatch,submit.sh}: an array job, one task per shard, then a dependent merge) or parallel (GNU parallel lines on stdout)"},
			&cli.IntFlag{Name: "shards", Value: 8, Usage: "--emit: number of shards (array tasks)"},
			&cli.StringFlag{Name: "emit-dir", Usage: "--emit slurm: where the scripts go (default DIR/slurm)"},
			&cli.StringFlag{Name: "time", Usage: "--emit slurm: sbatch --time of each shard (e.g. 01:00:00)"},
			&cli.StringFlag{Name: "mem", Usage: "--emit slurm: sbatch --mem of each shard (e.g. 4G)"},
			&cli.StringFlag{Name: "partition", Usage: "--emit slurm: sbatch --partition"},
			&cli.StringFlag{Name: "account", Usage: "--emit slurm: sbatch --account"},
			&cli.StringFlag{Name: "replay", Usage: "--emit: the replay command the scripts run (default: this executable's absolute path)"},
		},
		Action: runSweep,
	}
}

func runSweep(c *cli.Context) error {
	if c.NArg() != 1 {
		return fmt.Errorf("sweep: want one PLAN file, got %d arguments", c.NArg())
	}
	if err := experiment.CheckWorkers(c.Int("j")); err != nil {
		return flagError(err)
	}
	var shard sweep.Shard
	if s := c.String("shard"); s != "" {
		var err error
		if shard, err = sweep.ParseShard(s); err != nil {
			return fmt.Errorf("--%w", err) // `shard "x": ...`: the flag's name
		}
	}
	plan, err := sweep.Load(c.Args().First())
	if err != nil {
		return err
	}
	out := c.String("out")
	if out == "" {
		out = filepath.Join("out", plan.Name)
	}
	switch {
	case c.String("emit") != "":
		return emitScripts(c, plan, out)
	case c.Bool("list"):
		return listCells(c, plan, shard)
	case c.Bool("merge"):
		return mergeSweep(c, plan, out)
	}
	quiet := c.Bool("quiet")
	opt := sweep.Options{Out: out, Workers: c.Int("j"), Shard: shard, Resume: c.Bool("resume"), Version: version,
		Warn: func(msg string) { fmt.Fprintln(c.App.ErrWriter, "replay: warning:", msg) }}
	var stop func()
	if !quiet {
		opt.Log = c.App.ErrWriter
		opt.Progress, stop = xcli.ProgressOf("cells", c.App.ErrWriter, xcli.IsTerminal(os.Stderr) && c.App.ErrWriter == os.Stderr, 10*time.Second)
	}
	_, err = sweep.Run(plan, opt)
	if stop != nil {
		stop()
	}
	if err != nil {
		return err
	}
	if c.Bool("report") && shard.N <= 1 {
		return writeReport(c, out)
	}
	return nil
}

// listCells prints the plan's cells, one line each.
func listCells(c *cli.Context, plan *sweep.Plan, shard sweep.Shard) error {
	cells := plan.CellsOf(shard)
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	swept := plan.CommSwept() // comm is a dimension: a column of its own
	head := "cell\ttrace\trep\tload\tmachine\talloc\tsched\tjobs"
	if swept {
		head = "cell\ttrace\trep\tload\tmachine\tcomm\talloc\tsched\tjobs"
	}
	fmt.Fprintln(tw, head)
	var jobs int64
	for _, cl := range cells {
		load := "-"
		if cl.Load > 0 {
			load = workload.FormatLoad(cl.Load)
		}
		machine := cl.Machine
		if swept {
			machine += "\t" + cl.Comm
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\t%s\t%d\n", cl.Index+1, cl.Trace, cl.Rep, load, machine, cl.Alloc, cl.Sched, cl.Jobs)
		jobs += int64(cl.Jobs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	what := "plan"
	if shard.N > 1 {
		what = "shard " + shard.String()
	}
	fmt.Fprintf(c.App.Writer, "sweep %s (%s): %s %d of %d cells, %d jobs\n", plan.Name, plan.File.Path(), what, len(cells), len(plan.Cells), jobs)
	return nil
}

// mergeSweep checks that every cell of the plan is complete.
func mergeSweep(c *cli.Context, plan *sweep.Plan, out string) error {
	missing, err := sweep.Merge(plan, out)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		var names []string
		for i, m := range missing {
			if i == 5 {
				names = append(names, fmt.Sprintf("and %d more", len(missing)-5))
				break
			}
			name := fmt.Sprintf("%s %s/%s on %s", m.Trace, m.Alloc, m.Sched, m.Machine)
			if plan.CommSwept() {
				name += ", comm " + m.Comm
			}
			names = append(names, name)
		}
		return fmt.Errorf("sweep %s: %d of %d cells are not complete in %s (%s): run the missing shards again with --resume", plan.Name, len(missing), len(plan.Cells), out, strings.Join(names, "; "))
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "sweep %s: all %d cells complete in %s\n", plan.Name, len(plan.Cells), out)
	}
	if c.Bool("report") {
		return writeReport(c, out)
	}
	return nil
}

func writeReport(c *cli.Context, dir string) error {
	return report.Generate(report.Options{In: dir, Out: filepath.Join(dir, "report.pdf"), Quiet: c.Bool("quiet"), Log: c.App.ErrWriter})
}

// emitScripts writes the batch scripts of a sharded run of plan.
func emitScripts(c *cli.Context, plan *sweep.Plan, out string) error {
	abs := func(p string) (string, error) {
		a, err := filepath.Abs(p)
		if err != nil {
			return "", fmt.Errorf("%s: %w", p, err)
		}
		return a, nil
	}
	planPath, err := abs(plan.File.Path())
	if err != nil {
		return err
	}
	outPath, err := abs(out)
	if err != nil {
		return err
	}
	if n := c.Int("shards"); n < 1 {
		return fmt.Errorf("--shards %d: want at least 1 shard", n)
	}
	bin := c.String("replay")
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return fmt.Errorf("--emit: cannot find this executable (%v): give --replay", err)
		}
	}
	// -j and --cpus-per-task: as given, else 1 (not the emitting
	// machine's core count: a login node's is no guide to the cluster's).
	workers := 1
	if c.IsSet("j") {
		workers = c.Int("j")
	}
	e := sweep.Emit{Replay: bin, Plan: planPath, Out: outPath, Shards: c.Int("shards"), Workers: workers,
		Time: c.String("time"), Mem: c.String("mem"), Partition: c.String("partition"), Account: c.String("account"),
		Report: c.Bool("report")}
	if c.Bool("quiet") {
		e.Extra = append(e.Extra, "--quiet")
	}
	switch c.String("emit") {
	case "slurm":
		dir := c.String("emit-dir")
		if dir == "" {
			dir = filepath.Join(out, sweep.SlurmLogDir)
		}
		submit, err := sweep.WriteSlurm(dir, e)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "sweep %s: %d cells in %d shards; submit with\n  %s\n", plan.Name, len(plan.Cells), e.Shards, submit)
		return nil
	case "parallel":
		return sweep.WriteParallel(c.App.Writer, e)
	}
	return fmt.Errorf("--emit %q: want slurm or parallel", c.String("emit"))
}
