package traces_test

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/analysis/reproduce"
	"github.com/schedlab/schedlab/model/sweep"
	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/traces"
)

func TestSuiteLookup(t *testing.T) {
	names := traces.Suites()
	if !slices.Contains(names, "queueing") || !slices.IsSorted(names) {
		t.Fatalf("Suites() = %v", names)
	}
	p, data, err := traces.Suite("queueing")
	if err != nil || p != "traces/suites/queueing.toml" || len(data) == 0 {
		t.Fatalf("Suite(queueing) = %q, %d bytes, %v", p, len(data), err)
	}
	for _, bad := range []string{"", "nosuch", "../traces", "suites/queueing", "*", "queueing.toml"} {
		if _, _, err := traces.Suite(bad); err == nil || !strings.Contains(err.Error(), "(have "+strings.Join(names, ", ")+")") {
			t.Errorf("Suite(%q): %v, want an error listing the suites", bad, err)
		}
	}
}

// maxQuickJobs bounds a suite's quick run, which CI runs: about a
// million jobs a second on 2 cores, results written.
const maxQuickJobs = 12_000_000

// Every embedded suite decodes, plans in both modes with every
// expectation's cells in the plan, and keeps its quick run small.
func TestSuitesPlan(t *testing.T) {
	for _, name := range traces.Suites() {
		p, data, err := traces.Suite(name)
		if err != nil {
			t.Fatal(err)
		}
		f, s, err := reproduce.Decode(p, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Name != name || f.Description == "" {
			t.Errorf("%s: name %q (want the file's), description %q", p, f.Name, f.Description)
		}
		for _, m := range []reproduce.Mode{reproduce.Quick, reproduce.Full} {
			plan, err := s.Plan(f, m, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", name, m, err)
			}
			if err := s.CheckPlan(plan, f.Where); err != nil {
				t.Errorf("%s %s: %v", name, m, err)
			}
			jobs := 0
			for _, c := range plan.Cells {
				jobs += c.Jobs
			}
			if m == reproduce.Quick && jobs > maxQuickJobs {
				t.Errorf("%s: the quick run has %d jobs, more than %d", name, jobs, maxQuickJobs)
			}
		}
	}
}

// A claim against a queueing model must select cells that are that model:
// FCFS, one-processor jobs on flat:c with c the model's servers, Poisson
// arrivals at the model's ρ, the model's service distribution and mean.
// This keeps the theory tables and the workloads of a suite file in step.
func TestSuiteTheoryMatchesWorkloads(t *testing.T) {
	for _, name := range traces.Suites() {
		p, data, _ := traces.Suite(name)
		f, s, err := reproduce.Decode(p, data)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := s.Plan(f, reproduce.Quick, nil)
		if err != nil {
			t.Fatal(err)
		}
		names := reproduce.WorkloadNames(f)
		for i, e := range s.Expect {
			if e.Theory == nil {
				continue
			}
			th := e.Theory
			if th.Model == reproduce.ModelMG1PS || th.Model == reproduce.ModelMG1SRP {
				checkMalleableTheory(t, p, i, &e, f, plan, names)
				continue
			}
			servers := th.Servers
			if th.Model == reproduce.ModelMG1 {
				servers = 1
			}
			matched := 0
			for _, c := range plan.Cells {
				if ok, _ := path.Match(e.Select.Trace, c.Trace); !ok {
					continue
				}
				matched++
				w := f.Workloads[slices.Index(names, c.Workload)]
				where := fmt.Sprintf("%s: expect[%d] (%s), cell %s", p, i+1, e.Claim, c.Trace)
				service := w.Service
				if service == "" {
					service = workload.ServiceExp
				}
				wantService := th.Service
				if wantService == "" {
					wantService = workload.ServiceExp
				}
				for _, chk := range []struct {
					what      string
					got, want any
				}{
					{"machine", c.Machine, fmt.Sprintf("flat:%d", servers)},
					{"scheduler", c.Sched, "fcfs"},
					{"largest job", w.SizeMax, 1},
					{"arrivals", w.Arrivals == "" || w.Arrivals == "poisson", true},
					{"load", c.Load, th.Rho},
					{"service", service, wantService},
					{"mean service", w.Mean, th.Mean},
					{"cv", w.CV, th.CV},
					{"h2", w.H2, th.H2},
					{"h2_alpha", w.H2Alpha, th.H2Alpha},
				} {
					if chk.got != chk.want {
						t.Errorf("%s: %s %v, but the model has %v", where, chk.what, chk.got, chk.want)
					}
				}
			}
			if matched == 0 {
				t.Errorf("%s: expect[%d] matches no cell", p, i+1)
			}
		}
	}
}

// checkMalleableTheory: a claim against M/G/1-PS or M/G/1-SRPT must select
// Guha's perfect-efficiency malleable cells (Guha 1995 §5.2): EQ for
// processor sharing, LRWF for SRPT, on P processors with mean service
// W̄/P the model's mean, work C_W the model's service (1: exponential,
// ≥ 1 otherwise: balanced H2), Poisson arrivals at the model's ρ (no iat).
func checkMalleableTheory(t *testing.T, p string, i int, e *reproduce.Expect, f *sweep.File, plan *sweep.Plan, names []string) {
	t.Helper()
	th := e.Theory
	wantSched := map[string]string{reproduce.ModelMG1PS: "eq", reproduce.ModelMG1SRP: "lrwf"}[th.Model]
	matched := 0
	for _, c := range plan.Cells {
		if ok, _ := path.Match(e.Select.Trace, c.Trace); !ok || e.Select.Sched != "" && e.Select.Sched != c.Sched {
			continue
		}
		matched++
		w := f.Workloads[slices.Index(names, c.Workload)]
		where := fmt.Sprintf("%s: expect[%d] (%s), cell %s %s", p, i+1, e.Claim, c.Trace, c.Sched)
		procs := w.Procs
		if procs == 0 {
			procs = workload.DefaultMalleableProcs
		}
		workMean := w.WorkMean
		if workMean == 0 {
			workMean = workload.DefaultWorkMean
		}
		cv := workload.DefaultWorkCV
		if w.WorkCV != nil {
			cv = *w.WorkCV
		}
		service, gotCV := workload.ServiceH2, cv // the theory's cv is the H2's, 0 for the exponential
		if cv == 1 {
			service, gotCV = workload.ServiceExp, 0
		}
		wantService := th.Service
		if wantService == "" {
			wantService = workload.ServiceExp
		}
		for _, chk := range []struct {
			what      string
			got, want any
		}{
			{"model", w.Model, "malleable"},
			{"scheduler", c.Sched, wantSched},
			{"machine", c.Machine, fmt.Sprintf("flat:%d", procs)},
			{"perfect efficiency", w.Perfect, true},
			{"iat (arrivals by load)", w.IAT, nil},
			{"load", c.Load, th.Rho},
			{"mean service W̄/P", workMean / float64(procs), th.Mean},
			{"service", service, wantService},
			{"cv", gotCV, th.CV},
			{"h2", map[bool]string{true: workload.H2Balanced, false: ""}[service == workload.ServiceH2], th.H2},
		} {
			if chk.got != chk.want {
				t.Errorf("%s: %s %v, but the model has %v", where, chk.what, chk.got, chk.want)
			}
		}
	}
	if matched == 0 {
		t.Errorf("%s: expect[%d] matches no cell", p, i+1)
	}
}
