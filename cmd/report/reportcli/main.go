// Package reportcli is the report command as a library: App builds its
// command-line application and Main runs it on os.Args (the command
// itself, cmd/report, calls Main; see replaycli for why).
package reportcli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"

	"github.com/schedlab/schedlab/analysis/report"
	"github.com/schedlab/schedlab/analysis/results"
)

// memoryLimit is the soft memory limit of a report (GOMEMLIMIT
// overrides it): the garbage collector runs more often near it instead of
// letting the heap double past what the pages keep (NASA on a 7-cube
// under its 90 pairs keeps about 180 MB live, and used 440 MB without
// it), at no measurable CPU cost while the live heap stays well under it.
// Near it (year-long logs under 24 pairs keep about 250 MB live) the
// collector works harder: at 340 MiB HPC2N and SDSC-BLUE under 24 pairs
// peak at 370 and 381 MB for 1–5% more CPU time; a lower limit (300 MiB)
// doubled SDSC-BLUE's CPU time.
const memoryLimit = 340 << 20

// Main runs the report command on os.Args and exits (0 on success, 1 with
// a one-line error on stderr, 130 on an interrupt).
func Main() {
	xcli.Main(App(), os.Args) // flags may follow the arguments (xcli.Reorder)
}

// App returns the report command-line application.
func App() *cli.App {
	app := &cli.App{
		Name:            "report",
		Usage:           "PDF report, figures and tables from replay results",
		UsageText:       "report --in DIR --out report.pdf [options]\nreport compare A B [--out compare.pdf] [--tables DIR]",
		HideHelpCommand: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "in", Usage: "results directory (jobs/summary/series.parquet)", Value: "out"},
			&cli.StringFlag{Name: "out", Usage: "PDF to write (\"\" for none)", Value: "report.pdf"},
			&cli.StringFlag{Name: "figures", Usage: "also write every figure into this directory, at column width (NAME-col, 3.5 in) and page width (NAME-page, 7 in), with captions.md"},
			&cli.StringFlag{Name: "format", Usage: "figure formats for --figures: pdf, svg, png, eps (comma-separated; pdf and svg embed their fonts)", Value: "pdf"},
			&cli.StringFlag{Name: "tables", Usage: "also write every table into this directory as .md, .csv and .tex (booktabs)"},
			&cli.StringFlag{Name: "baseline", Usage: "alloc/sched pair to report relative differences against (and to show in every main figure); default: FCFS with the default allocator (count on flat machines); none: no baseline"},
			&cli.StringFlag{Name: "pairs", Usage: "alloc/sched pairs to show in the main figures besides the best ones (comma-separated)"},
			&cli.StringFlag{Name: "label", Usage: "names of pairs in figures and tables, comma-separated PAIR=NAME, e.g. 'count/easy=EASY,count/conservative=Conservative'"},
			&cli.StringFlag{Name: "metrics", Usage: "summary columns of the metric figures (curves against load, allocator × scheduler grids), comma-separated (default: every applicable one)"},
			&cli.BoolFlag{Name: "appendix", Usage: "add the appendix (the figures of the pairs not in the main figures); --appendix=false leaves it out", Value: true},
			&cli.IntFlag{Name: "top", Usage: "pairs per experiment in the terminal summary", Value: 5},
			&cli.BoolFlag{Name: "steady-state", Usage: "add the MSER-5 steady-state table on real logs too (always on synthetic traces)"},
			&cli.StringFlag{Name: "window", Usage: "START,END time window of the occupancy chart (default: automatic)"},
			&cli.Float64Flag{Name: "level", Usage: "confidence level of the intervals", Value: 0.95},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress output"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("unexpected argument %q (did you mean `report compare`?)", c.Args().First())
			}
			w, err := parseWindow(c.String("window"))
			if err != nil {
				return err
			}
			if err := checkLevel(c.Float64("level")); err != nil {
				return err
			}
			pairs, err := parsePairs(c.String("pairs"))
			if err != nil {
				return err
			}
			labels, err := parseLabels(c.String("label"))
			if err != nil {
				return err
			}
			if c.Int("top") < 1 {
				return fmt.Errorf("--top %d: want at least 1", c.Int("top"))
			}
			if os.Getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(memoryLimit)
			}
			return report.Generate(report.Options{
				In: c.String("in"), Out: c.String("out"), FiguresDir: c.String("figures"),
				Formats: splitList(c.String("format")), TablesDir: c.String("tables"),
				Baseline: c.String("baseline"), Pairs: pairs, SteadyState: c.Bool("steady-state"),
				Labels: labels, Metrics: splitList(c.String("metrics")), NoAppendix: !c.Bool("appendix"), Top: c.Int("top"),
				Window: w, Level: c.Float64("level"), Quiet: c.Bool("quiet"), Log: os.Stderr, Stdout: os.Stdout,
			})
		},
		Commands: []*cli.Command{reproduceCommand(), serveCommand(), {
			Name:      "compare",
			Usage:     "differences of per-pair metrics between two result sets (B - A), with CIs across replications",
			ArgsUsage: "A B",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "out", Usage: "PDF to write (\"\" for none)", Value: "compare.pdf"},
				&cli.StringFlag{Name: "tables", Usage: "also write the tables into this directory"},
				&cli.Float64Flag{Name: "level", Usage: "confidence level", Value: 0.95},
				&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress output"},
			},
			Action: func(c *cli.Context) error {
				if c.NArg() != 2 {
					return errors.New("compare: want two results directories, A and B")
				}
				if err := checkLevel(c.Float64("level")); err != nil {
					return err
				}
				return report.Compare(report.CompareOptions{
					A: c.Args().Get(0), B: c.Args().Get(1), Out: c.String("out"), TablesDir: c.String("tables"),
					Level: c.Float64("level"), Quiet: c.Bool("quiet"), Log: os.Stderr,
				})
			},
		}},
	}
	return app
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(strings.ToLower(p)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseLabels parses "PAIR=NAME,PAIR=NAME" (a pair's parameters may hold
// commas and "=": the name follows the last "=").
func parseLabels(s string) (map[results.Pair]string, error) {
	out := map[results.Pair]string{}
	for _, f := range pairSpecs(s) {
		i := strings.LastIndex(f, "=")
		if i < 0 || strings.TrimSpace(f[i+1:]) == "" {
			return nil, fmt.Errorf("--label %q: want PAIR=NAME", f)
		}
		p, err := results.ParsePair(strings.TrimSpace(f[:i]))
		if err != nil {
			return nil, fmt.Errorf("--label %q: %w", f, err)
		}
		out[p] = strings.TrimSpace(f[i+1:])
	}
	return out, nil
}

// parsePairs parses "alloc/sched,alloc/sched". Policy specs may hold
// commas themselves ("count/mq:q=32,order=down"): a comma-separated
// fragment that starts with "key=" (a parameter) continues the previous
// pair.
func parsePairs(s string) ([]results.Pair, error) {
	var out []results.Pair
	for _, f := range pairSpecs(s) {
		p, err := results.ParsePair(f)
		if err != nil {
			return nil, fmt.Errorf("--pairs %q: %w", s, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// pairSpecs splits a comma-separated list of pair specs (see parsePairs).
func pairSpecs(s string) []string {
	var specs []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		key, _, isKV := strings.Cut(f, "=")
		cont := isKV && !strings.ContainsAny(key, ":/")
		if cont && len(specs) > 0 {
			specs[len(specs)-1] += "," + f
			continue
		}
		specs = append(specs, f)
	}
	return specs
}

// checkLevel refuses a confidence level outside (0, 1) (NaN included).
func checkLevel(v float64) error {
	if !(v > 0 && v < 1) {
		return fmt.Errorf("--level %v: want a confidence level between 0 and 1 (e.g. 0.95)", v)
	}
	return nil
}

func parseWindow(s string) (report.Window, error) {
	if s == "" {
		return report.Window{}, nil
	}
	a, b, ok := strings.Cut(s, ",")
	x, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	y, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err1 != nil || err2 != nil || !(y > x) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return report.Window{}, fmt.Errorf("--window %q: want START,END, finite numbers with START < END", s)
	}
	return report.Window{Start: x, End: y}, nil
}
