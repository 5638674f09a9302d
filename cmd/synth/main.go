// Command synth makes workload traces: it converts real logs between the
// Standard Workload Format and Parquet, inspects traces, and generates
// synthetic workloads from the stochastic models of the source papers.
package main

//go:generate sh -c "go run . docs > ../../docs/workloads.md"

import (
	"os"

	"github.com/urfave/cli/v2"

	xcli "github.com/schedlab/schedlab/cmd/internal/cli"
	_ "github.com/schedlab/schedlab/model/catalog" // the machine families (policy.RegisterFamily)
)

func main() {
	app := &cli.App{
		Name:  "synth",
		Usage: "convert, inspect and generate parallel-workload traces (SWF, Parquet)",
		Commands: append([]*cli.Command{
			convertCommand(),
			inspectCommand(),
		}, append(generatorCommands, docsCommand())...),
		HideHelpCommand: true,
	}
	xcli.Main(app, os.Args)
}
