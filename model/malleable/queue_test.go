package malleable

import (
	"fmt"
	"math"
	"testing"

	"github.com/schedlab/schedlab/analysis/stats"
	"github.com/schedlab/schedlab/model/admit"
	"github.com/schedlab/schedlab/model/engine"
	"github.com/schedlab/schedlab/model/internal/long"
	"github.com/schedlab/schedlab/model/internal/race"
	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/workload"
)

// thesisJobs returns the jobs of one trial of Guha's perfect-efficiency
// workload: P = 100, W̄ = 1000, C_W = cv, load rho, n jobs.
func thesisJobs(t testing.TB, rho, cv float64, n int, seed int64) []policy.Job {
	t.Helper()
	tr, err := workload.GenerateMalleable(workload.MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: cv, Perfect: true,
		Load: rho, Jobs: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	m := policy.Machine{Kind: Kind, Procs: 100}
	jobs, rej := admit.Jobs(tr, m, admit.EstimatesActual)
	if len(rej) > 0 {
		t.Fatalf("%d jobs rejected: %v", len(rej), rej[0])
	}
	if err := Prepare(jobs, 100); err != nil {
		t.Fatal(err)
	}
	return jobs
}

// meanResponse replays jobs under the named policy on flat:100 and returns
// the mean response of the jobs after the first warm.
func meanResponse(t testing.TB, jobs []policy.Job, name string, p policy.Params, warm int) float64 {
	t.Helper()
	m := policy.Machine{Kind: Kind, Procs: 100}
	s, err := schedulerSpec(t, name).New(m, p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Run(jobs, m, NewAllocator(m), s, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, j := range res.Jobs[warm:] {
		sum += j.End - j.Submit
	}
	return sum / float64(len(res.Jobs)-warm)
}

// trials runs k independent trials (seeds 1..k) and returns Guha's 90%
// confidence interval of the mean response (the one the checks use), and,
// for the log, the control-variate interval with each trial's mean work as
// the control (known mean W̄ = 1000): 2–3 times narrower at C_W = 5, but
// at C_W = 30 the response is far from linear in the trial's mean work and
// the adjusted mean can mislead (Equipartition at ρ = 0.7: 31.8 ± 1.2
// against 33.33, where the plain interval gives 33.0 ± 1.9).
func trials(t testing.TB, rho, cv float64, n, k int, name string, p policy.Params) (plain, controlled stats.CI) {
	xs, ws := make([]float64, k), make([]float64, k)
	for s := range xs {
		jobs := thesisJobs(t, rho, cv, n, int64(s+1))
		for _, j := range jobs {
			ws[s] += j.Malleable.Work / float64(n)
		}
		xs[s] = meanResponse(t, jobs, name, p, n/10)
	}
	controlled, err := stats.ControlVariateCI(xs, ws, 1000, 0.90)
	if err != nil {
		t.Fatal(err)
	}
	return stats.MeanCI(xs, 0.90), controlled
}

// Exact results of queueing theory for Guha's perfect-efficiency
// workload (mean service W̄/P = 10 on a speed-P server): Equipartition is
// M/G/1 processor sharing, R = 10/(1 − ρ), whatever the distribution of W;
// LRWF is M/G/1-SRPT (Schrage and Miller 1966), tabulated for H2
// balanced-means work in the extraction of the thesis.
var (
	loads = []float64{0.9, 0.7, 0.5, 0.3}
	cvs   = []float64{1, 5, 30}
	srpt  = map[[2]float64]float64{
		{0.9, 1}: 35.52, {0.9, 5}: 29.64, {0.9, 30}: 29.38,
		{0.7, 1}: 18.75, {0.7, 5}: 17.71, {0.7, 30}: 17.66,
		{0.5, 1}: 14.25, {0.5, 5}: 13.98, {0.5, 30}: 13.97,
		{0.3, 1}: 11.98, {0.3, 5}: 11.92, {0.3, 30}: 11.91,
	}
)

// exactCase is one configuration of the exact checks.
type exactCase struct {
	rho, cv float64
	n, k    int // jobs per trial, trials
}

// exactCases: the fast version (the default, about two seconds per
// policy) checks C_W = 1 at every load, 10 trials of 50,000 jobs. The full
// one (full: SCHEDLAB_LONG=1, long.Enabled, about four minutes) adds
// C_W = 5 and 30 with 10 trials of 1,000,000 jobs: with a heavy tail a
// trial's mean response hangs on a few huge jobs (at C_W = 30, 0.06% of
// the jobs carry half the work) and short trials are skewed low: 20 trials
// of 100,000 jobs gave 13.6 ± 0.4 for Equipartition at ρ = 0.3 against
// 14.29 (the thesis's own 14.1 ± 0.3 from 500,000-job trials is low too),
// 10 of 1,000,000 give 14.25 ± 0.26.
func exactCases(full bool) []exactCase {
	var cs []exactCase
	for _, rho := range loads {
		for _, cv := range cvs {
			switch {
			case cv == 1:
				cs = append(cs, exactCase{rho, cv, 50000, 10})
			case full:
				cs = append(cs, exactCase{rho, cv, 1000000, 10})
			}
		}
	}
	return cs
}

// TestEquipartitionIsPS: with perfect efficiency Equipartition's mean
// response is M/G/1-PS's 10/(1 − ρ) (100, 33.3, 20.0, 14.3), within the
// 90% confidence interval over independent trials, whatever C_W.
func TestEquipartitionIsPS(t *testing.T) {
	if race.Enabled {
		t.Skip("long simulation")
	}
	for _, c := range exactCases(long.Enabled() && !testing.Short()) {
		t.Run(fmt.Sprintf("rho=%g,cv=%g", c.rho, c.cv), func(t *testing.T) {
			plain, ci := trials(t, c.rho, c.cv, c.n, c.k, "eq", nil)
			want := 10 / (1 - c.rho)
			t.Logf("EQ ρ=%g C_W=%g: %s (control variate: %s) (90%%, %d trials of %d jobs), M/G/1-PS %.2f", c.rho, c.cv, plain, ci, c.k, c.n, want)
			if !plain.Contains(want) {
				t.Errorf("R = %s does not contain 10/(1−ρ) = %.3f", plain, want)
			}
		})
	}
}

// TestLRWFIsSRPT: with perfect efficiency exact LRWF is M/G/1-SRPT: its
// mean response is the Schrage–Miller value within the 90% confidence
// interval.
func TestLRWFIsSRPT(t *testing.T) {
	if race.Enabled {
		t.Skip("long simulation")
	}
	for _, c := range exactCases(long.Enabled() && !testing.Short()) {
		t.Run(fmt.Sprintf("rho=%g,cv=%g", c.rho, c.cv), func(t *testing.T) {
			plain, ci := trials(t, c.rho, c.cv, c.n, c.k, "lrwf", nil)
			want := srpt[[2]float64{c.rho, c.cv}]
			t.Logf("LRWF ρ=%g C_W=%g: %s (control variate: %s) (90%%, %d trials of %d jobs), Schrage–Miller %.2f", c.rho, c.cv, plain, ci, c.k, c.n, want)
			if !plain.Contains(want) {
				t.Errorf("R = %s does not contain the SRPT value %.2f", plain, want)
			}
		})
	}
}

// TestAlphaMinus10Table51: α = −10 with X = remaining work against Guha's
// Table 5.1 (90% and 70% load): within 5%, or the table's value in our
// interval. Long (80 s): runs with SCHEDLAB_LONG=1 only.
func TestAlphaMinus10Table51(t *testing.T) {
	if testing.Short() || race.Enabled || !long.Enabled() {
		t.Skip("long simulation: set " + long.Env + "=1")
	}
	table := map[[2]float64]float64{
		{0.9, 1}: 36.5, {0.9, 5}: 29.8, {0.9, 30}: 28.2,
		{0.7, 1}: 19.4, {0.7, 5}: 17.9, {0.7, 30}: 17.5,
	}
	for _, rho := range []float64{0.9, 0.7} {
		for _, cv := range cvs {
			n := 100000
			if cv > 1 {
				n = 1000000
			}
			plain, ci := trials(t, rho, cv, n, 10, "alpha", policy.Params{"a": "-10"})
			want := table[[2]float64{rho, cv}]
			rel := plain.Mean/want - 1
			t.Logf("α=−10 ρ=%g C_W=%g: %s (control variate: %s), Table 5.1 %.1f (%+.1f%%)", rho, cv, plain, ci, want, 100*rel)
			if math.Abs(rel) > 0.05 && !plain.Contains(want) {
				t.Errorf("ρ=%g C_W=%g: R = %s, Table 5.1 %.1f: %+.1f%%", rho, cv, plain, want, 100*rel)
			}
		}
	}
}
