package replaycli

import (
	"fmt"
	"runtime"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/schedlab/schedlab/model/catalog"
	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/metrics"
)

// optionFlags returns the flags of the replay options named (all of
// experiment.ReplayOptions that have a flag, when none is named), as
// declared there.
func optionFlags(names ...string) []cli.Flag {
	var out []cli.Flag
	for _, o := range experiment.ReplayOptions {
		if o.Flag == "" || (names != nil && !slices.Contains(names, o.Name)) {
			continue
		}
		out = append(out, optionFlag(o))
	}
	return out
}

// optionFlag is the flag of option o.
func optionFlag(o experiment.Option) cli.Flag {
	switch o.Kind {
	case experiment.BoolOption:
		v, _ := o.Default.(bool)
		return &cli.BoolFlag{Name: o.Flag, Value: v, Usage: o.Doc}
	case experiment.IntOption:
		v, _ := o.Default.(int)
		if o.Name == "j" {
			v = runtime.GOMAXPROCS(0) // the default: the cores of the machine running
		}
		return &cli.IntFlag{Name: o.Flag, Value: v, Usage: o.Doc}
	case experiment.FloatOption:
		v, _ := o.Default.(float64)
		return &cli.Float64Flag{Name: o.Flag, Value: v, Usage: o.Doc}
	case experiment.ListOption:
		return &cli.StringSliceFlag{Name: o.Flag, Usage: o.Doc}
	}
	v, _ := o.Default.(string)
	return &cli.StringFlag{Name: o.Flag, Value: v, Usage: o.Doc}
}

// flagError writes a replay option's field error as the flag the user
// gave: "--until -3: must be a positive time (0: no window)". Other
// errors are returned as they are.
func flagError(err error) error {
	fe, ok := experiment.AsFieldError(err)
	if !ok {
		return err
	}
	o, ok := experiment.OptionNamed(fe.Field)
	if !ok || o.Flag == "" {
		return err
	}
	dash := "--"
	if len(o.Flag) == 1 {
		dash = "-"
	}
	return &cliFieldError{dash + o.Flag + " " + fe.Detail(), fe}
}

// cliFieldError is a field error written for the command line.
type cliFieldError struct {
	msg string
	fe  *experiment.FieldError
}

func (e *cliFieldError) Error() string { return e.msg }
func (e *cliFieldError) Unwrap() error { return e.fe }

// docsCommand writes a generated reference on stdout (hidden: `go
// generate ./cmd/replay`): docs/replay-options.md with no argument,
// docs/policies.md with "policies", docs/metrics.md with "metrics".
func docsCommand() *cli.Command {
	return &cli.Command{
		Name:      "docs",
		Usage:     "write a generated reference on stdout: the replay options (docs/replay-options.md), policies (docs/policies.md) or metrics (docs/metrics.md)",
		ArgsUsage: "[policies|metrics]",
		Hidden:    true,
		Action: func(c *cli.Context) error {
			switch c.Args().First() {
			case "":
				return experiment.WriteReference(c.App.Writer)
			case "policies":
				return catalog.WriteReference(c.App.Writer)
			case "metrics":
				return metrics.WriteReference(c.App.Writer)
			}
			return fmt.Errorf("docs: unknown reference %q (policies, metrics, or none for the replay options)", c.Args().First())
		},
	}
}
