package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
	"github.com/urfave/cli/v2"
)

// generatorCommands are the workload-model commands (workload, malleable,
// lublin, sweep).
var generatorCommands = []*cli.Command{workloadCommand(), malleableCommand(), lublinCommand(), sweepCommand()}

// workloadFlags are the rigid-job model's flags, without load, iat and output.
func workloadFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "machine", Value: workload.DefaultMachine, Usage: "machine: flat:N, mesh:WxH or cube:n"},
		&cli.StringFlag{Name: "size", Value: workload.DefaultSize, Usage: "job sizes; mesh: uniform, increasing, decreasing, square-uniform, square-increasing, square-decreasing, exponential (Chu §3 / Zhu); cube: uniform, normal (Mohapatra, Yu & Das 1995 §4); flat: uniform, exponential, log2"},
		&cli.Float64Flag{Name: "size-mean", Usage: "exponential sizes: mean of the exponential before truncation (default: a quarter of the largest size)"},
		&cli.IntFlag{Name: "size-max", Usage: "largest request: mesh side, flat processors or cube dimension (default: the machine's limit; cube: n−1)"},
		&cli.StringFlag{Name: "service", Value: workload.DefaultService, Usage: "service time: exp, uniform (0..2·mean), det, h2"},
		&cli.Float64Flag{Name: "mean", Value: workload.DefaultMean, Usage: "mean service (residence) time; Chu's EXTM = 10, Mohapatra, Yu & Das 1995 use 5"},
		&cli.Float64Flag{Name: "cv", Value: workload.DefaultCV, Usage: "h2: coefficient of variation C_x (Mohapatra, Yu & Das 1995: 4)"},
		&cli.Float64Flag{Name: "h2-alpha", Value: workload.DefaultH2Alpha, Usage: "h2: probability of the short branch α (Mohapatra, Yu & Das 1995: 0.95)"},
		&cli.StringFlag{Name: "h2", Value: workload.DefaultH2, Usage: "h2 parameterisation: alpha (Mohapatra, Yu & Das 1995, uses --h2-alpha) or balanced (balanced means, Guha 1995)"},
		&cli.StringFlag{Name: "coupling", Value: workload.DefaultCoupling, Usage: "size–demand coupling (Mohapatra, Yu & Das 1995): dependent (residence independent of size) or independent (demand shared, residence = demand/procs)"},
		&cli.StringFlag{Name: "estimates", Value: workload.DefaultEstimates, Usage: "user estimates: exact, eet:c=C (Chu §7.3: Normal(y, c·y) clipped at 0) or factor:x=X"},
		&cli.StringFlag{Name: "arrivals", Value: workload.DefaultArrivals, Usage: "inter-arrival times: poisson (exponential), uniform (0..2·IAT) or det"},
		&cli.IntFlag{Name: "jobs", Value: workload.DefaultJobs, Usage: "number of jobs (Chu: 50,000 per run)"},
		&cli.Float64Flag{Name: "horizon", Usage: "generate arrivals up to this time instead of --jobs"},
		&cli.Int64Flag{Name: "seed", Value: workload.DefaultSeed, Usage: "random seed"},
		&cli.StringFlag{Name: "name", Usage: "trace name (default: the output file's base name; sweep: the file-name prefix, default the model)"},
		&cli.IntFlag{Name: "priorities", Usage: "priority classes K: each job's priority drawn uniformly from 0..K−1, higher more urgent (pcw; 0: none, -1 in the trace)"},
		&cli.StringFlag{Name: "laxity", Usage: "deadlines: submit + run × U(A, B) for A-B, or × A (1 ≤ A ≤ B; pcw; default none, -1 in the trace)"},
	}
}

// windows returns the priority and deadline model of the flags.
func windows(c *cli.Context) (workload.Windows, error) {
	lo, hi, err := workload.ParseLaxity(c.String("laxity"))
	if err != nil {
		return workload.Windows{}, err
	}
	w := workload.Windows{Priorities: c.Int("priorities"), LaxityMin: lo, LaxityMax: hi}
	return w, w.Check()
}

// malleableFlags are the malleable model's flags, without load, iat,
// output and the flags shared with workloadFlags (jobs, horizon, seed, name).
func malleableFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "procs", Value: workload.DefaultMalleableProcs, Usage: "processors P (Guha: 100)"},
		&cli.Float64Flag{Name: "work-mean", Value: workload.DefaultWorkMean, Usage: "mean work W̄ (Guha: 1000)"},
		&cli.Float64Flag{Name: "work-cv", Value: workload.DefaultWorkCV, Usage: "work coefficient of variation C_W: 0 (fixed) or ≥ 1 (balanced H2; Guha: 0, 1, 5, 10, 30)"},
		&cli.StringFlag{Name: "eff", Value: workload.DefaultEff, Usage: "effective efficiency range ε_min-ε_max in percent, 100/P ≤ ε < 100 (Guha Table 3.2)"},
		&cli.StringFlag{Name: "eff-dist", Value: workload.DefaultEffDist, Usage: "efficiency distribution: uniform (integers) or beta (100·Beta matching the range's mean and variance)"},
		&cli.Float64Flag{Name: "beta-p", Usage: "eff-dist beta: explicit p (with --beta-q)"},
		&cli.Float64Flag{Name: "beta-q", Usage: "eff-dist beta: explicit q (with --beta-p)"},
		&cli.BoolFlag{Name: "perfect", Usage: "perfect efficiency: β = ∞, γ = p (ε = 100)"},
		&cli.Float64Flag{Name: "cap-mean", Usage: "input mean of the bounded-geometric parallelism cap N_i on 1..P (Guha §7.5; the observed mean is below both this and (P+1)/2); 0: no cap"},
	}
}

func outputFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: usage}
}

func loadFlags() []cli.Flag {
	return []cli.Flag{
		&cli.Float64Flag{Name: "load", Usage: "target offered load ρ (sets the arrival rate from the model's exact means)"},
		&cli.Float64Flag{Name: "iat", Usage: "mean inter-arrival time 1/λ, instead of --load (GABL's load is 1/IAT; Guha's Appendix IATs)"},
	}
}

func concat(lists ...[]cli.Flag) []cli.Flag {
	var out []cli.Flag
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// jobsHorizon returns the job count and horizon: --horizon replaces the
// default job count unless --jobs is given too.
func jobsHorizon(c *cli.Context, defJobs int) (int, float64) {
	jobs := defJobs
	if c.IsSet("jobs") {
		jobs = c.Int("jobs")
	}
	h := c.Float64("horizon")
	if h != 0 && !c.IsSet("jobs") {
		jobs = 0
	}
	return jobs, h
}

func workloadSpec(c *cli.Context) (workload.WorkloadSpec, error) {
	est, err := workload.ParseEstimates(c.String("estimates"))
	if err != nil {
		return workload.WorkloadSpec{}, err
	}
	jobs, horizon := jobsHorizon(c, workload.DefaultJobs)
	s := workload.WorkloadSpec{
		Machine:  c.String("machine"),
		Size:     workload.SizeSpec{Dist: c.String("size"), Mean: c.Float64("size-mean"), Max: c.Int("size-max")},
		Service:  workload.Service{Kind: c.String("service"), Mean: c.Float64("mean"), CV: c.Float64("cv"), H2: c.String("h2"), Alpha: c.Float64("h2-alpha")},
		Coupling: c.String("coupling"), Estimates: est,
		Arrivals: workload.Arrivals{Kind: c.String("arrivals"), Jobs: jobs, Horizon: horizon},
		Seed:     c.Int64("seed"),
		Name:     c.String("name"),
	}
	return s, nil
}

func malleableSpec(c *cli.Context) (workload.MalleableSpec, error) {
	lo, hi, err := workload.ParseEffRange(c.String("eff"))
	if err != nil {
		return workload.MalleableSpec{}, err
	}
	jobs, horizon := jobsHorizon(c, workload.DefaultMalleableJobs)
	return workload.MalleableSpec{
		Procs: c.Int("procs"), WorkMean: c.Float64("work-mean"), WorkCV: c.Float64("work-cv"),
		EffMin: lo, EffMax: hi, EffDist: c.String("eff-dist"), BetaP: c.Float64("beta-p"), BetaQ: c.Float64("beta-q"),
		Perfect: c.Bool("perfect"), CapMean: c.Float64("cap-mean"),
		Jobs: jobs, Horizon: horizon, Seed: c.Int64("seed"), Name: c.String("name"),
	}, nil
}

// traceName is the default trace name: the output's base name without its
// trace extension.
func traceName(path string) string {
	b := filepath.Base(path)
	for _, ext := range []string{".swf.gz", ".swf", ".parquet"} {
		if strings.HasSuffix(b, ext) {
			return strings.TrimSuffix(b, ext)
		}
	}
	return b
}

// isSWF reports whether path names an SWF (plain or gzipped) file.
func isSWF(path string) bool {
	f := trace.FormatOf(path)
	return f == trace.FormatSWF || f == trace.FormatSWFGzip
}

// swfLoss says what of t an SWF file cannot carry: the extra columns the
// model fills (mesh shapes, malleable fields), and the machine, load and
// rep, which SWF keeps only as header notes, so that a trace read back
// from it has none of them.
func swfLoss(t *trace.Trace) string {
	var mesh, mall, prio bool
	for i := range t.Jobs {
		j := &t.Jobs[i]
		mesh = mesh || j.ReqWidth >= 0 || j.ReqHeight >= 0
		mall = mall || j.Work >= 0 || j.Efficiency >= 0 || j.MaxParallelism >= 0
		prio = prio || j.Priority >= 0 || j.Deadline >= 0
	}
	var cols []string
	if mesh {
		cols = append(cols, "req_width and req_height (mesh shapes)")
	}
	if mall {
		cols = append(cols, "work, efficiency and max_parallelism (malleable fields)")
	}
	if prio {
		cols = append(cols, "priority and deadline")
	}
	msg := "SWF has no place for the machine, load and rep (kept only as header notes, not read back)"
	if len(cols) > 0 {
		msg = "SWF has no columns for " + strings.Join(cols, " or ") + ", and no place for the machine, load and rep (kept only as header notes, not read back)"
	}
	return msg + "; write .parquet to keep them"
}

// write writes t to path and reports it, with a warning of what SWF
// output loses.
func write(path string, t *trace.Trace) error {
	if isSWF(path) {
		fmt.Fprintln(os.Stderr, "warning:", path+":", swfLoss(t))
	}
	return writeQuiet(path, t)
}

// writeQuiet is write without the SWF warning.
func writeQuiet(path string, t *trace.Trace) error {
	for _, w := range t.Warnings {
		fmt.Fprintln(os.Stderr, "warning:", w)
	}
	t.Warnings = nil
	if err := trace.WriteFile(path, t); err != nil {
		return err
	}
	fmt.Printf("%s: %s\n", path, trace.Summarize(t))
	return nil
}

func workloadCommand() *cli.Command {
	return &cli.Command{
		Name:  "workload",
		Usage: "rigid jobs on a flat machine, mesh or hypercube (Chu 1995 §3, Mohapatra, Yu & Das 1995 §4, Bani-Mohammad et al. 2006)",
		Flags: concat(workloadFlags(), loadFlags(), []cli.Flag{outputFlag("output trace (.parquet, .swf or .swf.gz)")}),
		Action: func(c *cli.Context) error {
			s, err := workloadSpec(c)
			if err != nil {
				return err
			}
			win, err := windows(c)
			if err != nil {
				return err
			}
			s.Arrivals.Load, s.Arrivals.IAT = c.Float64("load"), c.Float64("iat")
			if s.Name == "" {
				s.Name = traceName(c.String("output"))
			}
			t, err := workload.Generate(s)
			if err != nil {
				return fmt.Errorf("workload: %w", err)
			}
			if err := win.Apply(t); err != nil {
				return err
			}
			return write(c.String("output"), t)
		},
	}
}

func malleableCommand() *cli.Command {
	return &cli.Command{
		Name:  "malleable",
		Usage: "malleable jobs with work, efficiency and parallelism cap (Guha 1995, York CS-95-03, Ch. 3)",
		Flags: concat(malleableFlags(), []cli.Flag{
			&cli.IntFlag{Name: "jobs", Value: workload.DefaultMalleableJobs, Usage: "number of jobs (Guha: ≥ 500,000 per trial)"},
			&cli.Float64Flag{Name: "horizon", Usage: "generate arrivals up to this time instead of --jobs"},
			&cli.Int64Flag{Name: "seed", Value: workload.DefaultSeed, Usage: "random seed"},
			&cli.StringFlag{Name: "name", Usage: "trace name (default: the output file's base name)"},
		}, loadFlags(), []cli.Flag{outputFlag("output trace (.parquet, .swf or .swf.gz)")}),
		Action: func(c *cli.Context) error {
			s, err := malleableSpec(c)
			if err != nil {
				return err
			}
			s.Load, s.IAT = c.Float64("load"), c.Float64("iat")
			if s.Name == "" {
				s.Name = traceName(c.String("output"))
			}
			t, err := workload.GenerateMalleable(s)
			if err != nil {
				return fmt.Errorf("malleable: %w", err)
			}
			return write(c.String("output"), t)
		},
	}
}

func lublinCommand() *cli.Command {
	return &cli.Command{
		Name:  "lublin",
		Usage: "rigid batch and interactive jobs from the Lublin–Feitelson (JPDC 2003) model, times in seconds",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "procs", Value: workload.DefaultLublinProcs, Usage: "machine size, a power of two in 32..2^20 (the published constants are for 128)"},
			&cli.IntFlag{Name: "jobs", Value: workload.DefaultLublinJobs, Usage: "number of jobs"},
			&cli.StringFlag{Name: "estimates", Value: workload.DefaultEstimates, Usage: "user estimates: exact, eet:c=C or factor:x=X"},
			&cli.Int64Flag{Name: "seed", Value: workload.DefaultSeed, Usage: "random seed"},
			&cli.StringFlag{Name: "name", Usage: "trace name (default: the output file's base name)"},
			outputFlag("output trace (.parquet, .swf or .swf.gz)"),
		},
		Action: func(c *cli.Context) error {
			est, err := workload.ParseEstimates(c.String("estimates"))
			if err != nil {
				return err
			}
			s := workload.LublinSpec{Procs: c.Int("procs"), Jobs: c.Int("jobs"), Estimates: est, Seed: c.Int64("seed"), Name: c.String("name")}
			if s.Name == "" {
				s.Name = traceName(c.String("output"))
			}
			t, err := workload.GenerateLublin(s)
			if err != nil {
				return fmt.Errorf("lublin: %w", err)
			}
			return write(c.String("output"), t)
		},
	}
}

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:  "sweep",
		Usage: "one trace per offered load and replication, named DIR/MODEL-loadL-repRR.EXT, with load and rep in the metadata",
		Flags: concat([]cli.Flag{
			&cli.StringFlag{Name: "model", Value: "workload", Usage: "model: workload or malleable (their flags apply; --jobs defaults to 50000 for workload, 500000 for malleable)"},
			&cli.StringFlag{Name: "load", Required: true, Usage: "loads: LO:HI:STEP (inclusive), a comma list, or one value"},
			&cli.IntFlag{Name: "reps", Value: 1, Usage: "replications per load, each with its own seed derived from --seed"},
			&cli.BoolFlag{Name: "crn", Usage: "common random numbers across loads: one seed per replication, so the loads differ only in arrival rate"},
			&cli.StringFlag{Name: "format", Value: "parquet", Usage: "file format: parquet, swf or swf.gz"},
			outputFlag("output directory (created if missing)"),
		}, workloadFlags(), malleableFlags()),
		Action: func(c *cli.Context) error {
			loads, err := workload.ParseLoads(c.String("load"))
			if err != nil {
				return err
			}
			ext := "." + c.String("format")
			if trace.FormatOf("x"+ext) == trace.FormatUnknown {
				return fmt.Errorf("sweep: --format %q: want parquet, swf or swf.gz", c.String("format"))
			}
			dir := c.String("output")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			sw := workload.Sweep{Loads: loads, Reps: c.Int("reps"), Seed: c.Int64("seed"), CRN: c.Bool("crn")}
			win, err := windows(c)
			if err != nil {
				return err
			}
			warned := false
			emit := func(t *trace.Trace) error {
				if err := win.Apply(t); err != nil {
					return err
				}
				if isSWF(ext) && !warned {
					warned = true
					fmt.Fprintln(os.Stderr, "warning: --format "+c.String("format")+": replay and report will not group these files by load and replication:", swfLoss(t))
				}
				return writeQuiet(filepath.Join(dir, t.Name+ext), t)
			}
			switch c.String("model") {
			case "workload":
				s, err := workloadSpec(c)
				if err != nil {
					return err
				}
				return sw.SweepWorkload(s, emit)
			case "malleable":
				s, err := malleableSpec(c)
				if err != nil {
					return err
				}
				return sw.SweepMalleable(s, emit)
			}
			return fmt.Errorf("sweep: --model %q: want workload or malleable", c.String("model"))
		},
	}
}
