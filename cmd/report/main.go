// Command report turns a results directory written by `replay run` into a
// multi-page PDF report (plus figures and tables on request), and compares
// two result sets.
//
//	report --in DIR --out report.pdf [--figures DIR --format pdf,svg,png,eps] [--tables DIR]
//	       [--baseline alloc/sched] [--pairs a/s,...] [--steady-state]
//	       [--window START,END] [--level 0.95] [--quiet]
//	report compare A B [--out compare.pdf] [--tables DIR] [--level 0.95]
package main

import "github.com/schedlab/schedlab/cmd/report/reportcli"

func main() { reportcli.Main() }
