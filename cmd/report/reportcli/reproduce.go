package reportcli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"

	"github.com/schedlab/schedlab/analysis/reproduce"
	"github.com/schedlab/schedlab/model/sweep"
	"github.com/schedlab/schedlab/traces"
)

// version is recorded in the datasets `report reproduce` writes.
const version = "0.1.0-dev"

// reproduceCommand is `report reproduce SUITE`: run a suite's sweep plan
// (or read earlier results) and check them against the suite's published
// values. Exit status 1 when a claim disagrees or cannot be compared
// (unless --no-fail); a claim consistent but not significant does not
// fail.
func reproduceCommand() *cli.Command {
	return &cli.Command{
		Name:  "reproduce",
		Usage: "run a reproduction suite (traces/suites) and check the results against its published values",
		UsageText: "report reproduce SUITE [--quick|--full] [--out DIR] [--from DIR] [-j N]\n" +
			"report reproduce --list",
		Description: "SUITE is an embedded suite's name (see --list) or a suite file (.toml). The suite's sweep plan runs\n" +
			"at its quick sizes (the default, seconds) or its full sizes into DIR/MODE (a sweep dataset), or --from\n" +
			"reads earlier results. One table (claim, source, published, ours ± 95% CI (or the suite's level), n, relative difference,\n" +
			"tolerance, verdict) is printed and written to DIR/MODE.md, .csv and .pdf.\n\n" +
			"Verdicts: agrees; consistent, not significant (a ranking whose neighbours' intervals overlap, or a value\n" +
			"within its tolerance only by the CI rule, its relative or absolute rule failing: the interval is wide);\n" +
			"disagrees; not comparable.\n\n" +
			"Exit status: 0 when no claim disagrees or is not comparable; 1 when any claim disagrees or is not\n" +
			"comparable (no matching cells, one replication, ...), after writing the table; --no-fail exits 0 then.",
		ArgsUsage: "SUITE",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "quick", Usage: "the suite's quick sizes (the default): seconds, as in CI"},
			&cli.BoolFlag{Name: "full", Usage: "the suite's full sizes (the papers'): tight confidence intervals, minutes"},
			&cli.StringFlag{Name: "out", Usage: "output directory (default: reproduce/SUITE)"},
			&cli.StringFlag{Name: "from", Usage: "evaluate these results (a sweep dataset or a replay's results directory) instead of running the plan"},
			&cli.IntFlag{Name: "j", Value: runtime.GOMAXPROCS(0), Usage: "parallel runs"},
			&cli.Int64Flag{Name: "seed", DefaultText: "the suite's", Usage: "base seeds SEED, SEED+1, ... of the workloads (to check that agreement is not luck)"},
			&cli.BoolFlag{Name: "resume", Usage: "keep the complete cells of an earlier run of the same plan in DIR/MODE (an interrupted --full run); without it the run starts afresh"},
			&cli.BoolFlag{Name: "no-fail", Usage: "exit 0 even when a claim disagrees or is not comparable"},
			&cli.BoolFlag{Name: "list", Usage: "list the embedded suites and exit"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress; only the table"},
		},
		Action: runReproduce,
	}
}

func runReproduce(c *cli.Context) error {
	w, log := c.App.Writer, c.App.ErrWriter
	if c.Bool("list") {
		if c.NArg() > 0 {
			return errors.New("reproduce --list: takes no SUITE")
		}
		return listSuites(w)
	}
	if c.NArg() != 1 {
		return fmt.Errorf("reproduce: want one SUITE (one of %s, or a .toml file), got %d arguments", strings.Join(traces.Suites(), ", "), c.NArg())
	}
	if c.Bool("quick") && c.Bool("full") {
		return errors.New("reproduce: --quick and --full exclude each other")
	}
	mode := reproduce.Quick
	if c.Bool("full") {
		mode = reproduce.Full
	}
	if j := c.Int("j"); j < 1 {
		return fmt.Errorf("-j %d: want at least 1 worker", j)
	}
	if c.IsSet("from") && (c.IsSet("seed") || c.Bool("resume") || c.IsSet("j")) {
		return errors.New("reproduce: --seed, --resume and -j apply to a run, not to --from")
	}
	path, data, err := suiteSource(c.Args().First())
	if err != nil {
		return err
	}
	f, suite, err := reproduce.Decode(path, data)
	if err != nil {
		return err
	}
	out := c.String("out")
	if out == "" {
		out = filepath.Join("reproduce", f.Name)
	}
	quiet := c.Bool("quiet")
	info := reproduce.Info{Suite: f.Name, Description: f.Description, Mode: mode}
	start := time.Now()
	dir := c.String("from")
	if dir == "" {
		var seed *int64
		if c.IsSet("seed") {
			v := c.Int64("seed")
			seed = &v
		}
		plan, err := suite.Plan(f, mode, seed)
		if err != nil {
			return err
		}
		if err := suite.CheckPlan(plan, f.Where); err != nil {
			return err
		}
		dir = filepath.Join(out, mode.String())
		if err := runPlan(c, plan, dir, quiet); err != nil {
			return err
		}
		info.Lines = append(info.Lines, [2]string{"Run", runLine(suite, plan, mode, seed)})
	}
	set, err := reproduce.LoadSummary(dir)
	if err != nil {
		return err
	}
	info.Data = dir
	if set.Version != "" {
		info.Lines = append(info.Lines, [2]string{"Version", set.Version})
	}
	rows := reproduce.Evaluate(suite, set.Summary, mode, suite.ConfidenceLevel())
	if err := reproduce.WriteText(w, reproduce.Table(f.Name, mode, rows)); err != nil {
		return err
	}
	if err := reproduce.Write(out, info, rows); err != nil {
		return err
	}
	md, csv, pdf := reproduce.Files(out, mode)
	if !quiet {
		fmt.Fprintf(log, "report: reproduce %s (%s): %.1f s; wrote %s, %s, %s\n", f.Name, mode, time.Since(start).Seconds(), md, csv, pdf)
	}
	n := reproduce.Counts(rows)
	if (n.Disagree > 0 || n.NotComparable > 0) && !c.Bool("no-fail") {
		return fmt.Errorf("reproduce %s (%s): %d of %d claims disagree, %d not comparable (%d agree, %d consistent but not significant)", f.Name, mode, n.Disagree, len(rows), n.NotComparable, n.Agree, n.NotSignificant)
	}
	return nil
}

// suiteSource returns an embedded suite, or the suite file name when it
// ends in .toml or names a path.
func suiteSource(name string) (string, []byte, error) {
	if strings.HasSuffix(name, ".toml") || strings.ContainsRune(name, os.PathSeparator) {
		data, err := os.ReadFile(name)
		return name, data, err
	}
	return traces.Suite(name)
}

// listSuites prints the embedded suites: name, claims, description.
func listSuites(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "suite\tclaims\tdescription")
	for _, name := range traces.Suites() {
		path, data, err := traces.Suite(name)
		if err != nil {
			return err
		}
		f, s, err := reproduce.Decode(path, data)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\n", name, len(s.Expect), f.Description)
	}
	return tw.Flush()
}

// runPlan runs plan into dir. Without --resume an earlier dataset of this
// suite in dir is removed first (results must come from the code being
// checked); a directory that is not such a dataset is refused.
func runPlan(c *cli.Context, plan *sweep.Plan, dir string, quiet bool) error {
	if !c.Bool("resume") {
		if err := clearDataset(dir, plan.Name); err != nil {
			return err
		}
	}
	log := c.App.ErrWriter
	opt := sweep.Options{Out: dir, Workers: c.Int("j"), Resume: c.Bool("resume"), Version: version,
		Warn: func(msg string) { fmt.Fprintln(log, "report: warning:", msg) }}
	var stop func()
	if !quiet {
		opt.Log = log
		opt.Progress, stop = xcli.ProgressOf("cells", log, xcli.IsTerminal(os.Stderr) && log == os.Stderr, 10*time.Second)
	}
	_, err := sweep.Run(plan, opt)
	if stop != nil {
		stop()
	}
	return err
}

// clearDataset removes dir when it holds a dataset of sweep name (its
// manifest says so), and refuses any other existing directory.
func clearDataset(dir, name string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) || err == nil && len(entries) == 0 {
		return nil
	} else if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(dir, sweep.ManifestFile))
	var m sweep.Manifest
	if err != nil || json.Unmarshal(b, &m) != nil || m.Sweep != name {
		return fmt.Errorf("%s exists and is not a dataset of suite %s: choose another --out, or remove it", dir, name)
	}
	return os.RemoveAll(dir)
}

// runLine describes the run: mode sizes, cells, jobs, seed.
func runLine(s *reproduce.Suite, p *sweep.Plan, m reproduce.Mode, seed *int64) string {
	var jobs int64
	for _, c := range p.Cells {
		jobs += int64(c.Jobs)
	}
	z := s.Sizes(m)
	line := fmt.Sprintf("%s sizes: %d cells, %d jobs, warm-up %d jobs per trace", m, len(p.Cells), jobs, p.Options().Warmup)
	if z.Reps > 0 {
		line += fmt.Sprintf(", %d replications", z.Reps)
	}
	if seed != nil {
		line += fmt.Sprintf(", base seed %d (--seed)", *seed)
	}
	return line
}
