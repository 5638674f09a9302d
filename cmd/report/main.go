// Command report turns a results directory written by `replay run` into a
// multi-page PDF report (plus figures and tables on request), and compares
// two result sets.
//
//	report --in DIR --out report.pdf [--figures DIR --format svg,png,eps] [--tables DIR]
//	       [--baseline alloc/sched] [--window START,END] [--level 0.95] [--quiet]
//	report compare A B [--out compare.pdf] [--tables DIR] [--level 0.95]
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"

	"github.com/schedlab/schedlab/analysis/report"
)

func main() {
	app := &cli.App{
		Name:            "report",
		Usage:           "PDF report, figures and tables from replay results",
		UsageText:       "report --in DIR --out report.pdf [options]\nreport compare A B [--out compare.pdf] [--tables DIR]",
		HideHelpCommand: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "in", Usage: "results directory (jobs/summary/series.parquet)", Value: "out"},
			&cli.StringFlag{Name: "out", Usage: "PDF to write (\"\" for none)", Value: "report.pdf"},
			&cli.StringFlag{Name: "figures", Usage: "also write every figure into this directory"},
			&cli.StringFlag{Name: "format", Usage: "figure formats for --figures: svg, png, eps, pdf (comma-separated)", Value: "svg"},
			&cli.StringFlag{Name: "tables", Usage: "also write every table into this directory as .md, .csv and .tex"},
			&cli.StringFlag{Name: "baseline", Usage: "alloc/sched pair to report relative differences against"},
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
			return report.Generate(report.Options{
				In: c.String("in"), Out: c.String("out"), FiguresDir: c.String("figures"),
				Formats: splitList(c.String("format")), TablesDir: c.String("tables"),
				Baseline: c.String("baseline"), Window: w, Level: c.Float64("level"),
				Quiet: c.Bool("quiet"), Log: os.Stderr,
			})
		},
		Commands: []*cli.Command{reproduceCommand(), {
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
				return report.Compare(report.CompareOptions{
					A: c.Args().Get(0), B: c.Args().Get(1), Out: c.String("out"), TablesDir: c.String("tables"),
					Level: c.Float64("level"), Quiet: c.Bool("quiet"), Log: os.Stderr,
				})
			},
		}},
	}
	xcli.Main(app, flagsFirst(os.Args))
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

func parseWindow(s string) (report.Window, error) {
	if s == "" {
		return report.Window{}, nil
	}
	a, b, ok := strings.Cut(s, ",")
	x, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	y, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err1 != nil || err2 != nil || y <= x {
		return report.Window{}, fmt.Errorf("--window %q: want START,END with START < END", s)
	}
	return report.Window{Start: x, End: y}, nil
}

// flagsFirst moves the flags of `report compare` that follow its
// positional arguments before them (urfave/cli stops parsing flags at the
// first positional argument), so that `report compare A B --out x.pdf`
// works as documented.
func flagsFirst(args []string) []string {
	ci := -1
	for i, a := range args {
		if a == "compare" {
			ci = i
			break
		}
		if strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && takesValue(a) {
			// Skip a root flag's value so that a directory named "compare" is not mistaken.
			if i+1 < len(args) && args[i+1] == "compare" {
				return args
			}
		}
	}
	if ci < 0 {
		return args
	}
	var flags, pos []string
	rest := args[ci+1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
			if !strings.Contains(a, "=") && takesValue(a) && i+1 < len(rest) {
				flags = append(flags, rest[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	out := append(append([]string{}, args[:ci+1]...), flags...)
	return append(out, pos...)
}

func takesValue(flag string) bool {
	switch strings.TrimLeft(flag, "-") {
	case "quiet", "q", "help", "h":
		return false
	}
	return true
}
