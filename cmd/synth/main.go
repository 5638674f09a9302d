// Command synth makes workload traces: it converts real logs between the
// Standard Workload Format and Parquet, inspects traces, and generates
// synthetic workloads from the stochastic models of the source papers.
package main

//go:generate sh -c "go run . docs > ../../docs/workloads.md"

import "github.com/schedlab/schedlab/cmd/synth/synthcli"

func main() { synthcli.Main() }
