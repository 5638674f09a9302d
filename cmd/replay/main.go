// Command replay replays parallel-workload traces on simulated machines
// under every (processor allocator, job scheduler) pair and writes the
// results as Parquet (see model/experiment).
//
//	replay run [--machine M] [--mode rigid|malleable] [--alloc a,b] [--sched x,y] [--out DIR] [-j N] [TRACE...]
//	replay list
//
// With no TRACE, run replays the embedded default traces (package traces)
// and also writes DIR/report.pdf (package analysis/report).
//
// Policy lists: --alloc and --sched take comma-separated specs and may be
// repeated. A spec's parameters also use commas; a comma-separated piece
// that contains "=" but no ":" continues the previous spec's parameters, so
// "--sched fcfs,mq:q=32,order=down,easy" is fcfs, mq:q=32,order=down, easy.
package main

//go:generate sh -c "go run . docs > ../../docs/replay-options.md"
//go:generate sh -c "go run . docs policies > ../../docs/policies.md"
//go:generate sh -c "go run . docs metrics > ../../docs/metrics.md"

import "github.com/schedlab/schedlab/cmd/replay/replaycli"

func main() { replaycli.Main() }
