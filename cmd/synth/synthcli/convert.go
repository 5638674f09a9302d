package synthcli

import (
	"fmt"
	"os"

	"github.com/schedlab/schedlab/trace"
	"github.com/urfave/cli/v2"
)

func convertCommand() *cli.Command {
	return &cli.Command{
		Name:      "convert",
		Usage:     "convert a trace between SWF (.swf, .swf.gz) and Parquet (.parquet), by file extension",
		ArgsUsage: "IN OUT",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "machine", Usage: "machine hint to record (flat:N, mesh:WxH, cube:n); default: the input's, else flat:MaxProcs"},
			&cli.BoolFlag{Name: "strict", Usage: "refuse submit times out of order instead of sorting them with a warning"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return fmt.Errorf("convert: want IN and OUT, got %d arguments", c.NArg())
			}
			t, err := trace.Convert(c.Args().Get(0), c.Args().Get(1), trace.ConvertOptions{Machine: c.String("machine"), Strict: c.Bool("strict")})
			if err != nil {
				return err
			}
			for _, w := range t.Warnings {
				fmt.Fprintln(os.Stderr, "warning:", w)
			}
			fmt.Printf("%s: %s\n", c.Args().Get(1), trace.Summarize(t))
			return nil
		},
	}
}

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "describe a trace (SWF or Parquet): header, provenance, job count, time span, size and run-time distributions",
		ArgsUsage: "FILE...",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "strict", Usage: "refuse submit times out of order"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return fmt.Errorf("inspect: want at least one FILE")
			}
			for i, path := range c.Args().Slice() {
				t, err := trace.ReadFile(path, trace.ReadOptions{Strict: c.Bool("strict")})
				if err != nil {
					return err
				}
				if i > 0 {
					fmt.Println()
				}
				if err := trace.Inspect(os.Stdout, t); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
