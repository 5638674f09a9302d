package synthcli

import (
	"github.com/urfave/cli/v2"
	"slices"

	"github.com/schedlab/schedlab/model/workload"
)

// modelFlags returns the flags of m's parameters, as declared there, but
// for those named in skip.
func modelFlags(m *workload.Model, skip ...string) []cli.Flag {
	var out []cli.Flag
	for _, p := range m.Params {
		if !slices.Contains(skip, p.Name) {
			out = append(out, paramFlag(p))
		}
	}
	return out
}

// paramFlag is the flag of parameter p.
func paramFlag(p workload.Param) cli.Flag {
	switch p.Type {
	case workload.IntParam:
		return &cli.IntFlag{Name: p.Name, Value: p.Zero().(int), Usage: p.Doc}
	case workload.Int64Param:
		return &cli.Int64Flag{Name: p.Name, Value: p.Zero().(int64), Usage: p.Doc}
	case workload.FloatParam:
		return &cli.Float64Flag{Name: p.Name, Value: p.Zero().(float64), Usage: p.Doc}
	case workload.BoolParam:
		return &cli.BoolFlag{Name: p.Name, Value: p.Zero().(bool), Usage: p.Doc}
	}
	return &cli.StringFlag{Name: p.Name, Value: p.Zero().(string), Usage: p.Doc}
}

// modelValues reads m's parameters from the command's flags (those it
// has); the jobs count follows jobsHorizon, with m's default.
func modelValues(c *cli.Context, m *workload.Model) workload.Values {
	v := workload.Values{}
	have := map[string]bool{}
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			have[n] = true
		}
	}
	for _, p := range m.Params {
		if !have[p.Name] {
			continue
		}
		switch p.Type {
		case workload.IntParam:
			v[p.Name] = c.Int(p.Name)
		case workload.Int64Param:
			v[p.Name] = c.Int64(p.Name)
		case workload.FloatParam:
			v[p.Name] = c.Float64(p.Name)
		case workload.BoolParam:
			v[p.Name] = c.Bool(p.Name)
		default:
			v[p.Name] = c.String(p.Name)
		}
	}
	if _, ok := m.Param("jobs"); ok {
		def, _ := m.Param("jobs")
		v["jobs"], v["horizon"] = jobsHorizon(c, def.Zero().(int))
	}
	return v
}

// paramError writes a parameter error as the flag the user gave:
// "--procs 1: need at least 2 processors". Other errors are returned as
// they are.
func paramError(err error) error {
	pe, ok := workload.AsParamError(err)
	if !ok {
		return err
	}
	return &flagError{"--" + pe.Param + " " + pe.Detail(), pe}
}

// flagError is a parameter error written for the command line.
type flagError struct {
	msg string
	pe  *workload.ParamError
}

func (e *flagError) Error() string { return e.msg }
func (e *flagError) Unwrap() error { return e.pe }

// docsCommand writes docs/workloads.md (hidden: `go generate ./cmd/synth`).
func docsCommand() *cli.Command {
	return &cli.Command{
		Name:   "docs",
		Usage:  "write the workload models' reference (docs/workloads.md) on stdout",
		Hidden: true,
		Action: func(c *cli.Context) error { return workload.WriteReference(c.App.Writer) },
	}
}
