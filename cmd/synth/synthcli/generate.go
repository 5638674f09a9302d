package synthcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/model/workload"
	"github.com/schedlab/schedlab/trace"
	"github.com/urfave/cli/v2"
)

// sweepModels are the models synth sweep generates.
var sweepModels = []*workload.Model{&workload.WorkloadModel, &workload.MalleableModel}

// sweepModelNames joins the names of sweepModels with sep.
func sweepModelNames(sep string) string {
	var names []string
	for _, m := range sweepModels {
		names = append(names, m.Name)
	}
	return strings.Join(names, sep)
}

// sweepModelUsage is synth sweep's --model usage, with each model's
// default job count.
func sweepModelUsage() string {
	var jobs []string
	for _, m := range sweepModels {
		p, _ := m.Param("jobs")
		jobs = append(jobs, fmt.Sprintf("%d for %s", p.Zero(), m.Name))
	}
	return "model: " + sweepModelNames(" or ") + " (their flags apply; --jobs defaults to " + strings.Join(jobs, ", ") + ")"
}

// sweepModelFlags are the flags of synth sweep's models, each once, in
// sweepModels' order, without a single load or iat (sweep has its own
// --load).
func sweepModelFlags() []cli.Flag {
	skip := []string{"load", "iat"}
	var out []cli.Flag
	for _, m := range sweepModels {
		out = append(out, modelFlags(m, skip...)...)
		for _, p := range m.Params {
			skip = append(skip, p.Name)
		}
	}
	return out
}

// generatorCommands are the workload-model commands (workload, malleable,
// lublin, sweep).
var generatorCommands = []*cli.Command{workloadCommand(), malleableCommand(), lublinCommand(), sweepCommand()}

func outputFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: usage}
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

// workloadSpec returns the rigid-job model's spec and windows of the
// flags, checked (workload.WorkloadModel.Validate).
func workloadSpec(c *cli.Context) (workload.WorkloadSpec, workload.Windows, error) {
	v := modelValues(c, &workload.WorkloadModel)
	if err := workload.WorkloadModel.Validate(v); err != nil {
		return workload.WorkloadSpec{}, workload.Windows{}, paramError(err)
	}
	s, err := workload.WorkloadSpecOf(v)
	if err != nil {
		return workload.WorkloadSpec{}, workload.Windows{}, err
	}
	win, err := workload.WindowsOf(v)
	s.Seed, s.Name = v.Int64("seed"), v.Str("name")
	return s, win, err
}

// sweepWindows returns the priority and deadline model of synth sweep's
// flags, whatever the model.
func sweepWindows(c *cli.Context) (workload.Windows, error) {
	v := workload.Values{"priorities": c.Int("priorities"), "laxity": c.String("laxity")}
	if err := workload.WorkloadModel.Validate(v); err != nil {
		return workload.Windows{}, paramError(err)
	}
	return workload.WindowsOf(v)
}

// malleableSpec returns the malleable model's spec of the flags, checked.
func malleableSpec(c *cli.Context) (workload.MalleableSpec, error) {
	v := modelValues(c, &workload.MalleableModel)
	if err := workload.MalleableModel.Validate(v); err != nil {
		return workload.MalleableSpec{}, paramError(err)
	}
	s, err := workload.MalleableSpecOf(v)
	s.Seed, s.Name = v.Int64("seed"), v.Str("name")
	return s, err
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
	m := &workload.WorkloadModel
	return &cli.Command{
		Name:  m.Name,
		Usage: m.Doc,
		Flags: concat(modelFlags(m), []cli.Flag{outputFlag("output trace (.parquet, .swf or .swf.gz)")}),
		Action: func(c *cli.Context) error {
			s, win, err := workloadSpec(c)
			if err != nil {
				return err
			}
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
	m := &workload.MalleableModel
	return &cli.Command{
		Name:  m.Name,
		Usage: m.Doc,
		Flags: concat(modelFlags(m), []cli.Flag{outputFlag("output trace (.parquet, .swf or .swf.gz)")}),
		Action: func(c *cli.Context) error {
			s, err := malleableSpec(c)
			if err != nil {
				return err
			}
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
	m := &workload.LublinModel
	return &cli.Command{
		Name:  m.Name,
		Usage: m.Doc,
		Flags: concat(modelFlags(m), []cli.Flag{outputFlag("output trace (.parquet, .swf or .swf.gz)")}),
		Action: func(c *cli.Context) error {
			v := modelValues(c, m)
			if err := m.Validate(v); err != nil {
				return paramError(err)
			}
			s, err := workload.LublinSpecOf(v)
			if err != nil {
				return err
			}
			s.Seed, s.Name = v.Int64("seed"), v.Str("name")
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
			&cli.StringFlag{Name: "model", Value: sweepModels[0].Name, Usage: sweepModelUsage()},
			&cli.StringFlag{Name: "load", Required: true, Usage: "loads: LO:HI:STEP (inclusive), a comma list, or one value"},
			&cli.IntFlag{Name: "reps", Value: 1, Usage: "replications per load, each with its own seed derived from --seed"},
			&cli.BoolFlag{Name: "crn", Usage: "common random numbers across loads: one seed per replication, so the loads differ only in arrival rate"},
			&cli.StringFlag{Name: "format", Value: "parquet", Usage: "file format: parquet, swf or swf.gz"},
			outputFlag("output directory (created if missing)"),
		}, sweepModelFlags()),
		Action: func(c *cli.Context) error {
			// Everything is checked before the directory is made: a bad
			// flag writes nothing.
			loads, err := workload.ParseLoads(c.String("load"))
			if err != nil {
				return fmt.Errorf("--%w", err)
			}
			if r := c.Int("reps"); r < 1 {
				return fmt.Errorf("--reps %d: want at least 1 replication", r)
			}
			ext := "." + c.String("format")
			if trace.FormatOf("x"+ext) == trace.FormatUnknown {
				return fmt.Errorf("--format %q: want parquet, swf or swf.gz", c.String("format"))
			}
			sw := workload.Sweep{Loads: loads, Reps: c.Int("reps"), Seed: c.Int64("seed"), CRN: c.Bool("crn")}
			var run func(emit func(*trace.Trace) error) error
			switch c.String("model") {
			case "workload":
				s, _, err := workloadSpec(c)
				if err != nil {
					return err
				}
				run = func(emit func(*trace.Trace) error) error { return sw.SweepWorkload(s, emit) }
			case "malleable":
				s, err := malleableSpec(c)
				if err != nil {
					return err
				}
				run = func(emit func(*trace.Trace) error) error { return sw.SweepMalleable(s, emit) }
			default:
				return fmt.Errorf("--model %q: want %s", c.String("model"), sweepModelNames(" or "))
			}
			win, err := sweepWindows(c)
			if err != nil {
				return err
			}
			if n := c.String("name"); strings.ContainsAny(n, `/\`) || n == "." || n == ".." {
				return fmt.Errorf("--name %q: a name, not a path (the traces go in --output)", n)
			}
			dir := c.String("output")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			warned := false
			return run(func(t *trace.Trace) error {
				if err := win.Apply(t); err != nil {
					return err
				}
				if isSWF(ext) && !warned {
					warned = true
					fmt.Fprintln(os.Stderr, "warning: --format "+c.String("format")+": replay and report will not group these files by load and replication:", swfLoss(t))
				}
				return writeQuiet(filepath.Join(dir, t.Name+ext), t)
			})
		},
	}
}
