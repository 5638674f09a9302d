package workload

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/trace"
	"gonum.org/v1/gonum/mathext"
)

// Efficiency distributions (flag --eff-dist; Guha 1995 §3.2).
const (
	EffUniform = "uniform" // integers uniform on [ε_min, ε_max] (matches Table 3.2's C_ε)
	EffBeta    = "beta"    // 100·Beta(p, q)
)

// MalleableSpec is Guha's (1995, York CS-95-03, Ch. 3) malleable-job model
// for `synth malleable`.
//
//   - Work W (sequential time T(1)): two-stage hyperexponential with
//     balanced means, mean W̄ and CV C_W (§3.1: "hypergeometric", read as
//     H2; it reproduces Table 3.1); C_W = 0 gives W = W̄, C_W = 1 the
//     exponential. 0 < C_W < 1 is not defined by the thesis and is an error.
//   - Effective efficiency ε = 100·E(P) (§3.2), independent of W: integers
//     uniform on [ε_min, ε_max] (the thesis's C_ε values match the discrete
//     uniform), or 100·Beta(p, q) with p, q matching the mean and variance
//     of the continuous uniform on [ε_min, ε_max] unless given (that is how
//     the Beta parameters of Table 3.2 were chosen); Beta draws outside
//     [100/P, 100) are redrawn (our choice; the thesis is silent).
//     β = (P·ε − 100)/(100 − ε) follows from ε and P (Dowdy's execution-rate
//     model, §2); with Perfect, ε = 100 and β = ∞ (γ = p).
//   - Parallelism cap N_i (§7.5, optional): geometric on 1, 2, ... with
//     mean CapMean, values above P redrawn (bounded geometric; drawn by
//     inverting the truncated cdf, which is the same distribution); so the
//     observed mean is below CapMean, as the thesis notes. Its pmf
//     decreases on 1..P, so the observed mean is also below (P+1)/2 (the
//     uniform limit as CapMean → ∞): the thesis's N̄ ≈ 73 on P = 100
//     cannot come from this reading (its support or form is not stated;
//     N̄ ≈ 25 and 45 can).
//   - Arrivals: Poisson. With a target load ρ, 1/λ = W̄/(P·ρ), the
//     thesis's utilisation under perfect efficiency (its Appendix gives
//     33.33, 20.00, 14.29, 11.11 for 30–90%). Under imperfect efficiency the
//     thesis calibrated λ per experiment with a policy; pass its Appendix
//     IATs with IAT instead.
//
// Job fields: Work = W, Efficiency = ε (percent; 100 when perfect),
// MaxParallelism = N_i (−1 without a cap), and, for rigid replay, ReqProcs
// = AllocProcs = N_i (or P without a cap) and Run = ReqTime = T(ReqProcs)
// = W(β + p)/((1 + β)p) (W/p when perfect). Replayed as rigid jobs, a job
// occupies p·T(p) = W(β + p)/(1 + β) ≥ W processor-time, so with imperfect
// efficiency the rigid offered load exceeds ρ (ρ·E[100/ε] without a cap:
// 4.7 at ρ = 0.9 with ε uniform on 1..99); the trace carries a warning
// when the realised rigid load reaches 1.
type MalleableSpec struct {
	Procs    int     // P, processors (the thesis uses 100)
	WorkMean float64 // W̄ (1000 in the thesis)
	WorkCV   float64 // C_W ∈ {0} ∪ [1, ∞) (0, 1, 5, 10, 30 in the thesis)
	EffMin   int     // ε_min, percent
	EffMax   int     // ε_max, percent
	EffDist  string  // EffUniform (default) or EffBeta
	BetaP    float64 // Beta p (0: from the uniform's moments)
	BetaQ    float64 // Beta q (0: from the uniform's moments)
	Perfect  bool    // perfect efficiency: β = ∞, γ = p
	CapMean  float64 // input mean of the bounded-geometric cap N_i; 0: no cap
	Load     float64 // target utilisation ρ under perfect efficiency
	IAT      float64 // mean inter-arrival time; overrides Load
	Jobs     int     // number of jobs
	Horizon  float64 // or a time horizon
	Seed     int64
	Rep      int
	Name     string // trace name (default "malleable")
}

// ParseEffRange parses an efficiency range "1-99" (or a single "50").
func ParseEffRange(s string) (lo, hi int, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		b = a
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("eff %q: want MIN-MAX in whole percent, e.g. 1-99", s)
	}
	return lo, hi, nil
}

// BetaFromRange returns the Beta(p, q) whose 100·Beta has the mean and
// variance of the continuous uniform on [lo, hi] (Guha's Table 3.2: 1–50 →
// 2.166, 6.328; 1–99 → 1.062, 1.062; 50–99 → 6.328, 2.166; 75–99 →
// 19.629, 2.933).
func BetaFromRange(lo, hi float64) (p, q float64) {
	m := (lo + hi) / 200
	v := (hi - lo) * (hi - lo) / 12 / 1e4
	k := m*(1-m)/v - 1
	return m * k, (1 - m) * k
}

// Beta returns the execution-rate parameter β = (P·ε − 100)/(100 − ε) of
// efficiency ε (percent) on P processors; +Inf when ε = 100.
func Beta(eps float64, procs int) float64 {
	if eps >= 100 {
		return math.Inf(1)
	}
	return (float64(procs)*eps - 100) / (100 - eps)
}

// RunTime returns T(p) = W(β + p)/((1 + β)p), the time to run work w on p
// processors at parameter β (W/p when β = ∞).
func RunTime(w, beta float64, p int) float64 {
	if math.IsInf(beta, 1) {
		return w / float64(p)
	}
	return w * (beta + float64(p)) / ((1 + beta) * float64(p))
}

func (s *MalleableSpec) check() (work sampler, iat float64, err error) {
	if s.Procs < 2 {
		return sampler{}, 0, fmt.Errorf("procs %d: need at least 2 processors", s.Procs)
	}
	if !(s.WorkMean > 0) || math.IsInf(s.WorkMean, 0) {
		return sampler{}, 0, fmt.Errorf("work-mean %g must be positive", s.WorkMean)
	}
	switch {
	case s.WorkCV == 0:
		work = sampler{kind: ServiceDet, mean: s.WorkMean}
	case s.WorkCV >= 1:
		work, err = Service{Kind: ServiceH2, H2: H2Balanced, CV: s.WorkCV}.compile(s.WorkMean)
		if err != nil {
			return sampler{}, 0, fmt.Errorf("work-cv: %w", err)
		}
	default:
		return sampler{}, 0, fmt.Errorf("work-cv %g: must be 0 (deterministic) or ≥ 1 (balanced H2)", s.WorkCV)
	}
	if !s.Perfect {
		lo := 100 / float64(s.Procs)
		if float64(s.EffMin) < lo || s.EffMax >= 100 || s.EffMin > s.EffMax {
			return sampler{}, 0, fmt.Errorf("eff %d-%d: efficiency must satisfy 100/P = %.4g ≤ ε_min ≤ ε_max < 100 (use --perfect for ε = 100)", s.EffMin, s.EffMax, lo)
		}
		switch s.EffDist {
		case EffUniform, "":
		case EffBeta:
			if s.BetaP == 0 && s.BetaQ == 0 {
				if s.EffMin == s.EffMax {
					return sampler{}, 0, fmt.Errorf("eff %d-%d: the Beta distribution needs ε_min < ε_max (or give p and q)", s.EffMin, s.EffMax)
				}
			} else if !(s.BetaP > 0 && s.BetaQ > 0) || math.IsInf(s.BetaP, 0) || math.IsInf(s.BetaQ, 0) {
				return sampler{}, 0, fmt.Errorf("beta p=%g q=%g must both be positive and finite", s.BetaP, s.BetaQ)
			}
			bp, bq := s.BetaP, s.BetaQ
			if bp == 0 && bq == 0 {
				bp, bq = BetaFromRange(float64(s.EffMin), float64(s.EffMax))
			}
			// draws outside [100/P, 100) are redrawn: refuse a Beta with
			// (almost) no mass there rather than loop (nearly) forever
			if acc := 1 - mathext.RegIncBeta(bp, bq, 1/float64(s.Procs)); !(acc >= 1e-3) {
				return sampler{}, 0, fmt.Errorf("beta p=%g q=%g: only %.3g of its draws fall in [100/P, 100) = [%.4g, 100); want at least 0.001", bp, bq, acc, 100/float64(s.Procs))
			}
		default:
			return sampler{}, 0, fmt.Errorf("eff-dist %q: unknown (want uniform or beta)", s.EffDist)
		}
	}
	if !(s.CapMean == 0 || s.CapMean >= 1) || math.IsInf(s.CapMean, 0) {
		return sampler{}, 0, fmt.Errorf("cap-mean %g must be ≥ 1 and finite (or 0 for no cap)", s.CapMean)
	}
	a := Arrivals{Load: s.Load, IAT: s.IAT, Jobs: s.Jobs, Horizon: s.Horizon}
	if err := a.check(); err != nil {
		return sampler{}, 0, err
	}
	iat = s.IAT
	if iat == 0 {
		iat = s.WorkMean / (float64(s.Procs) * s.Load)
	}
	return work, iat, nil
}

// boundedGeometric returns the geometric variate on 1, 2, ... with success
// probability p (mean 1/p) conditioned on being ≤ limit, by inversion
// of the truncated cdf (1 − q^k)/(1 − q^limit), q = 1 − p, from one uniform u in
// [0, 1). The distribution is that of Guha's "regenerate until ≤ P"
// (§7.5), without the rejection loop that never ends when 1/p ≫ limit.
func boundedGeometric(u, p float64, limit int) int {
	if p >= 1 {
		return 1
	}
	lq := math.Log1p(-p)                        // log q < 0
	v := u * -math.Expm1(float64(limit)*lq)     // u·(1 − q^limit)
	k := 1 + int(math.Floor(math.Log1p(-v)/lq)) // smallest k with q^k < 1 − v
	return min(max(k, 1), limit)
}

// GenerateMalleable draws the trace of s.
func GenerateMalleable(s MalleableSpec) (*trace.Trace, error) {
	work, iat, err := s.check()
	if err != nil {
		return nil, err
	}
	bp, bq := s.BetaP, s.BetaQ
	if s.EffDist == EffBeta && bp == 0 && bq == 0 {
		bp, bq = BetaFromRange(float64(s.EffMin), float64(s.EffMax))
	}
	geomP := 0.0
	if s.CapMean > 0 {
		geomP = 1 / s.CapMean
	}
	a := Arrivals{Kind: ArrivalsPoisson, Load: s.Load, IAT: s.IAT, Jobs: s.Jobs, Horizon: s.Horizon}
	clock := &arrivalClock{kind: ArrivalsPoisson, iat: iat, r: newStream(s.Seed, streamArrivals)}
	rw := newStream(s.Seed, streamService)
	re := newStream(s.Seed, streamEfficiency)
	rc := newStream(s.Seed, streamCap)
	epsLo := 100 / float64(s.Procs)
	if err := a.checkCount(iat); err != nil {
		return nil, err
	}
	jobs := make([]trace.Job, 0, a.capacity(iat))
	var rigidWork float64 // Σ ReqProcs·Run
	for id := int64(1); ; id++ {
		if s.Jobs > 0 && len(jobs) == s.Jobs {
			break
		}
		t := clock.next()
		if s.Horizon > 0 && t > s.Horizon {
			break
		}
		w := work.sample(rw)
		eps := 100.0
		if !s.Perfect {
			if s.EffDist == EffBeta {
				for {
					eps = 100 * betaRand(re, bp, bq)
					if eps >= epsLo && eps < 100 {
						break
					}
				}
			} else {
				eps = float64(s.EffMin + re.IntN(s.EffMax-s.EffMin+1))
			}
		}
		p := s.Procs
		capN := int64(-1)
		if geomP > 0 {
			k := boundedGeometric(rc.Float64(), geomP, s.Procs)
			capN, p = int64(k), k
		}
		j := trace.NewJob(id)
		j.Submit = t
		j.Work, j.Efficiency, j.MaxParallelism = w, eps, capN
		j.ReqProcs, j.AllocProcs = int64(p), int64(p)
		j.Run = RunTime(w, Beta(eps, s.Procs), p)
		j.ReqTime = j.Run
		j.Status = 1
		rigidWork += float64(j.ReqProcs) * j.Run
		jobs = append(jobs, j)
	}
	dist := or(s.EffDist, EffUniform)
	par := map[string]string{
		"machine":   fmt.Sprintf("flat:%d", s.Procs),
		"procs":     strconv.Itoa(s.Procs),
		"work_mean": ftoa(s.WorkMean),
		"work_cv":   ftoa(s.WorkCV),
		"work_dist": map[bool]string{true: "det", false: "h2-balanced"}[s.WorkCV == 0],
		"perfect":   strconv.FormatBool(s.Perfect),
		"cap_mean":  ftoa(s.CapMean),
		"seed":      strconv.FormatInt(s.Seed, 10),
		"rep":       strconv.Itoa(s.Rep),
	}
	if !s.Perfect {
		par["eff"] = fmt.Sprintf("%d-%d", s.EffMin, s.EffMax)
		par["eff_dist"] = dist
		if dist == EffBeta {
			par["beta_p"], par["beta_q"] = ftoa(bp), ftoa(bq)
		}
	}
	a.params(par, iat)
	par["offered_load"] = ftoa(s.WorkMean / (float64(s.Procs) * iat)) // λ·W̄/P
	load := -1.0
	if s.IAT == 0 {
		load = s.Load
	}
	tr := &trace.Trace{
		Name:    or(s.Name, "malleable"),
		Machine: par["machine"],
		Provenance: trace.Provenance{
			Generator: "malleable", Params: par, Seed: s.Seed,
			SchemaVersion: trace.SchemaVersion, Load: load, Rep: s.Rep,
		},
		Jobs:     jobs,
		Warnings: loadWarning(max(load, s.WorkMean/(float64(s.Procs)*iat))),
	}
	if n := len(jobs); n > 0 && !s.Perfect {
		// Replayed as rigid jobs, each occupies ReqProcs for T(ReqProcs),
		// i.e. W(β+p)/(1+β) ≥ W processor-time: more than Guha's load.
		if rl := rigidWork / (float64(s.Procs) * jobs[n-1].Submit); rl >= 1 && len(tr.Warnings) == 0 {
			tr.Warnings = append(tr.Warnings, fmt.Sprintf("replayed as rigid jobs (ReqProcs, Run = T(ReqProcs)) this trace offers load %.3g ≥ 1 (imperfect efficiency: N·T(N) > W); Guha's load %g is the utilisation under perfect efficiency", rl, s.WorkMean/(float64(s.Procs)*iat)))
		}
	}
	tr.Header = header(tr, int64(s.Procs), "abstract time units")
	return tr, nil
}
