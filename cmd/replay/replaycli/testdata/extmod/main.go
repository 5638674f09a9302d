// Command myreplay is the replay tool with the greedy scheduler of this
// module added: every flag, plan, sweep and report feature of replay.
package main

import (
	"github.com/schedlab/schedlab/cmd/replay/replaycli"

	_ "example.com/myreplay/greedy" // registers the greedy scheduler
)

func main() { replaycli.Main() }
