// Package traces embeds a small set of synthetic traces made by
// `synth sweep` (model/workload), used as the default input of replay and
// report so that the tools do something useful with no arguments.
//
// The traces are grouped by family, one directory each; the file names are
// the sweep's, PREFIX-loadL-repRR.parquet. For now there is one family:
//
//   - flat/: flat:128, job sizes uniform on 1..128, two-stage
//     hyperexponential service times in the parameterisation of Mohapatra,
//     Yu and Das (1995, §4: α = 0.95, C_x = 4) with mean 10, Poisson
//     arrivals at offered loads 0.3, 0.4, ..., 0.9
//     (λ = ρ·128/(64.5·10)), 2000 jobs each, exact estimates, three
//     independent replications (rep01..rep03), each generated with common
//     random numbers across loads (sweep --crn, sweep seed 1): within one
//     replication the seven traces are one job stream with the arrival rate
//     scaled, so their realised loads are ordered like the targets. The high
//     service-time variability (C_x = 4) is what makes backfilling and
//     allocation choices matter; with 2000 jobs it also makes the realised
//     load Σ procs·run / (128 · last submit) of a replication differ from
//     the target by a common factor (0.857, 0.963 and 1.082 for the three
//     replications; mean 0.967). That spread is real sampling variability,
//     and the report's confidence intervals across replications show it.
//
// Mesh and hypercube families are to be added as mesh/ and cube/.
// logs/ holds one real log, the Parallel Workloads Archive's cleaned KTH
// SP2 file, unchanged (logs/README.md); it is not embedded and is not
// among the default traces.
// `go generate ./traces` re-creates the files (see gen.go).
package traces

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
)

//go:embed flat/*.parquet
var files embed.FS

// Families lists the trace families (directories), sorted.
func Families() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Family returns the traces of one family, sorted by name.
func Family(family string) ([]*trace.Trace, error) {
	paths, err := fs.Glob(files, path.Join(family, "*.parquet"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("traces: no family %q (have %v)", family, Families())
	}
	return read(paths)
}

// Default returns every embedded trace, sorted by name.
func Default() ([]*trace.Trace, error) {
	paths, err := fs.Glob(files, "*/*.parquet")
	if err != nil {
		return nil, err
	}
	return read(paths)
}

func read(paths []string) ([]*trace.Trace, error) {
	out := make([]*trace.Trace, 0, len(paths))
	for _, p := range paths {
		b, err := files.ReadFile(p)
		if err != nil {
			return nil, err
		}
		t, err := trace.ReadParquet(bytes.NewReader(b), int64(len(b)), "traces/"+p, trace.ReadOptions{Strict: true})
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// FlatSpec is the rigid-job model of the flat family (see gen.go); its
// load and seed are set by FlatSweep.
var FlatSpec = workload.WorkloadSpec{
	Machine:  "flat:128",
	Size:     workload.SizeSpec{Dist: workload.SizeUniform},
	Service:  workload.Service{Kind: workload.ServiceH2, Mean: 10, CV: 4, H2: workload.H2Alpha, Alpha: 0.95},
	Coupling: workload.CouplingDependent,
	Arrivals: workload.Arrivals{Kind: workload.ArrivalsPoisson, Jobs: 2000},
	Name:     "flat128-h2",
}

// FlatSweep is the flat family's sweep: loads 0.3..0.9 step 0.1, three
// replications, seed 1, common random numbers across loads.
var FlatSweep = workload.Sweep{Loads: []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}, Reps: 3, Seed: 1, CRN: true}
