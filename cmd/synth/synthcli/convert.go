package synthcli

import (
	"fmt"
	"io"
	"os"

	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/policy"

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
			&cli.StringFlag{Name: "machine", Usage: "machine to count the records a replay drops or adjusts on (flat:N, mesh:WxH, cube:n); default: the trace's, else flat:MaxProcs, else flat with the largest job"},
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
				if err := inspectRecords(os.Stdout, t, c.String("machine")); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// inspectRecords writes what a replay with the default options (requested
// estimates, partial records dropped) does with t's records on machine
// (the trace's when ""): the records it drops and adjusts, by reason.
func inspectRecords(w io.Writer, t *trace.Trace, machine string) error {
	from := trace.MachineGiven
	if machine == "" {
		machine, from = t.Machine, t.Provenance.MachineFrom
		if machine == "" {
			machine, from = t.GuessMachine()
		}
	}
	if machine == "" {
		fmt.Fprintln(w, "records    no machine known: give one with --machine to count what a replay drops")
		return nil
	}
	m, err := policy.ParseMachine(machine)
	if err != nil {
		return fmt.Errorf("--machine: %w", err)
	}
	if f, ok := policy.FamilyOf(m.Kind); ok && f.MaxJob != nil {
		m.Procs = f.MaxJob(m)
	}
	dropped, adjusted := admit.Tally(t, m, admit.EstimatesRequested, false)
	if from != "" {
		from = " (" + from + ")"
	}
	fmt.Fprintf(w, "records    %d; a replay on %s%s with the default options:\n", len(t.Jobs), machine, from)
	for _, part := range []struct {
		what string
		cs   []admit.Count
	}{{"drops", dropped}, {"adjusts", adjusted}} {
		if len(part.cs) == 0 {
			fmt.Fprintf(w, "  %-8s none\n", part.what)
		}
		for _, c := range part.cs {
			fmt.Fprintf(w, "  %-8s %7d  %s\n", part.what, c.Records, c.Reason)
		}
	}
	return nil
}
