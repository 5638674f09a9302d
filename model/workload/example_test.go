package workload_test

import (
	"fmt"

	"github.com/schedlab/schedlab/model/workload"
)

// Seed 001's H2 with mean 5, C_x = 4 and α = 0.95.
func ExampleH2Branches() {
	p, short, long, _ := workload.H2Branches(workload.H2Alpha, 5, 4, 0.95)
	fmt.Printf("p=%.2f short=%.4f long=%.3f\n", p, short, long)
	p, short, long, _ = workload.H2Branches(workload.H2Balanced, 1000, 5, 0)
	fmt.Printf("p=%.5f short=%.1f long=%.0f\n", p, short, long)
	// Output:
	// p=0.95 short=1.8586 long=64.687
	// p=0.98038 short=510.0 long=25490
}

// Chu's mesh workload: uniform sides on 32×32, EXTM = 10, load 0.5 gives
// IATM = 272.25·10/(1024·0.5).
func ExampleWorkloadSpec_IAT() {
	s := workload.WorkloadSpec{
		Machine:  "mesh:32x32",
		Size:     workload.SizeSpec{Dist: workload.SizeUniform},
		Service:  workload.Service{Kind: workload.ServiceExp, Mean: 10},
		Arrivals: workload.Arrivals{Load: 0.5, Jobs: 50000},
	}
	n, _ := s.MeanProcs()
	iat, _ := s.IAT()
	fmt.Printf("n̄=%.2f IATM=%.2f\n", n, iat)
	// Output: n̄=272.25 IATM=5.32
}

// A small malleable trace: perfect efficiency, W̄ = 1000 on 100 processors.
func ExampleGenerateMalleable() {
	tr, _ := workload.GenerateMalleable(workload.MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: 5, Perfect: true, Load: 0.9, Jobs: 3, Seed: 1})
	for _, j := range tr.Jobs {
		fmt.Printf("job %d: ε=%v, procs %d, run = work/100: %v\n", j.ID, j.Efficiency, j.ReqProcs, j.Run == j.Work/100)
	}
	fmt.Println(tr.Provenance.Params["iat"])
	// Output:
	// job 1: ε=100, procs 100, run = work/100: true
	// job 2: ε=100, procs 100, run = work/100: true
	// job 3: ε=100, procs 100, run = work/100: true
	// 11.11111111111111
}

func ExampleParseLoads() {
	loads, _ := workload.ParseLoads("0.1:0.5:0.1")
	for _, l := range loads {
		fmt.Print(workload.SweepName("workload", l, 1), " ")
	}
	fmt.Println()
	// Output: workload-load0.10-rep01 workload-load0.20-rep01 workload-load0.30-rep01 workload-load0.40-rep01 workload-load0.50-rep01
}
