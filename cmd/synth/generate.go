package main

import "github.com/urfave/cli/v2"

// generatorCommands are the workload-model commands (workload, malleable,
// lublin, sweep).
var generatorCommands []*cli.Command
