package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// Inter-arrival distributions (flag --arrivals).
const (
	ArrivalsPoisson = "poisson" // exponential inter-arrival times (all papers)
	ArrivalsUniform = "uniform" // uniform on (0, 2·IAT)
	ArrivalsDet     = "det"     // every IAT time units
)

// Arrivals describes the arrival process and the trace length.
type Arrivals struct {
	Kind    string  // ArrivalsPoisson (default), ArrivalsUniform or ArrivalsDet
	Load    float64 // target offered load ρ (> 0); used when IAT is 0
	IAT     float64 // mean inter-arrival time 1/λ (> 0); overrides Load
	Jobs    int     // number of jobs; 0 when Horizon is set
	Horizon float64 // generate arrivals up to this time instead of a job count
}

func (a Arrivals) check() error {
	switch a.Kind {
	case ArrivalsPoisson, ArrivalsUniform, ArrivalsDet, "":
	default:
		return fmt.Errorf("arrivals %q: unknown (want poisson, uniform or det)", a.Kind)
	}
	if a.Load != 0 && a.IAT != 0 {
		return fmt.Errorf("give either --load or --iat, not both")
	}
	if a.Load == 0 && a.IAT == 0 {
		return fmt.Errorf("give --load (target offered load) or --iat (mean inter-arrival time)")
	}
	if a.Load < 0 || math.IsNaN(a.Load) || math.IsInf(a.Load, 0) {
		return fmt.Errorf("load %g must be positive", a.Load)
	}
	if a.IAT < 0 || math.IsNaN(a.IAT) || math.IsInf(a.IAT, 0) {
		return fmt.Errorf("iat %g must be positive", a.IAT)
	}
	if a.Jobs < 0 || a.Horizon < 0 || math.IsNaN(a.Horizon) || math.IsInf(a.Horizon, 0) {
		return fmt.Errorf("jobs (%d) and horizon (%g) must be positive", a.Jobs, a.Horizon)
	}
	if (a.Jobs == 0) == (a.Horizon == 0) {
		return fmt.Errorf("give exactly one of --jobs and --horizon")
	}
	return nil
}

// arrivalClock produces successive submit times.
type arrivalClock struct {
	kind string
	iat  float64
	t    float64
	r    *rand.Rand
}

func (c *arrivalClock) next() float64 {
	switch c.kind {
	case ArrivalsUniform:
		c.t += 2 * c.iat * c.r.Float64()
	case ArrivalsDet:
		c.t += c.iat
	default:
		c.t += c.iat * exp1(c.r)
	}
	return c.t
}

// MaxJobs bounds the size of one generated trace (about 9 GB of job
// records); a larger --jobs, or a --horizon expected to hold more, is an
// error rather than an exhausted machine.
const MaxJobs = 50_000_000

// checkCount refuses a trace expected to exceed MaxJobs.
func (a Arrivals) checkCount(iat float64) error {
	if a.Jobs > MaxJobs {
		return fmt.Errorf("jobs %d: more than %d jobs in one trace", a.Jobs, MaxJobs)
	}
	if a.Jobs == 0 && a.Horizon/iat > MaxJobs {
		return fmt.Errorf("horizon %g: about %.3g jobs expected (mean inter-arrival time %g), more than %d in one trace", a.Horizon, a.Horizon/iat, iat, MaxJobs)
	}
	return nil
}

// capacity is the number of jobs to reserve for.
func (a Arrivals) capacity(iat float64) int {
	if a.Jobs > 0 {
		return a.Jobs
	}
	n := a.Horizon/iat + 4*math.Sqrt(a.Horizon/iat) + 16
	return int(min(n, 1<<26))
}

func (a Arrivals) params(p map[string]string, iat float64) {
	kind := a.Kind
	if kind == "" {
		kind = ArrivalsPoisson
	}
	p["arrivals"] = kind
	if a.Load != 0 {
		p["load"] = ftoa(a.Load) // as given; offered_load is always recorded
	}
	p["iat"] = ftoa(iat)
	p["jobs"] = strconv.Itoa(a.Jobs)
	p["horizon"] = ftoa(a.Horizon)
}

// loadWarning returns a warning when the target load cannot be stable.
func loadWarning(load float64) []string {
	if load >= 1 {
		return []string{fmt.Sprintf("offered load %g ≥ 1: the system cannot be stable", load)}
	}
	return nil
}
