// Package synthcli is the synth command as a library: App builds its
// command-line application and Main runs it on os.Args (the command
// itself, cmd/synth, calls Main; see replaycli for why).
package synthcli

import (
	"os"

	"github.com/urfave/cli/v2"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"
	_ "github.com/schedlab/schedlab/model/catalog" // the machine families (policy.RegisterFamily)
)

// Main runs the synth command on os.Args and exits (0 on success, 1 with
// a one-line error on stderr, 130 on an interrupt).
func Main() { xcli.Main(App(), os.Args) }

// App returns the synth command-line application.
func App() *cli.App {
	return &cli.App{
		Name:  "synth",
		Usage: "convert, inspect and generate parallel-workload traces (SWF, Parquet)",
		Commands: append([]*cli.Command{
			convertCommand(),
			inspectCommand(),
		}, append(generatorCommands, docsCommand())...),
		HideHelpCommand: true,
	}
}
