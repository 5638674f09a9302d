package policy

import (
	"fmt"
	"strings"
)

// The kinds of the built-in machine families (registered by model/flat,
// model/mesh and model/cube; model/malleable registers "malleable").
const (
	Flat = "flat" // N interchangeable processors
	Mesh = "mesh" // a W×H two-dimensional mesh
	Cube = "cube" // a hypercube of dimension n (2^n nodes)
)

// Machine describes the simulated machine, as written "flat:128",
// "mesh:32x32", "cube:7" or "malleable:100". Its kind names the family
// (see Family) that parses, prints and interprets it. Machines are
// comparable values.
type Machine struct {
	Kind   string // the family's kind: Flat, Mesh, Cube, ...
	Procs  int    // number of processors (nodes)
	Width  int    // mesh columns (meshes only)
	Height int    // mesh rows (meshes only)
	Dim    int    // hypercube dimension (hypercubes only)
	Depth  int    // planes of a 3-D mesh or torus (Width×Height×Depth)
	// Param holds the shape parameters of families that are not grids
	// (fat trees, dragonflies), as their Family.Parse documents them.
	Param [4]int
	// File names a topology description a machine was read from (a Slurm
	// topology.conf for a fat tree); "" when the spelling says it all.
	File string
}

// String returns the canonical spelling of m ("flat:128", "mesh:32x32",
// "cube:7"), as its family formats it; kind:Procs when the family is not
// registered.
func (m Machine) String() string {
	if f := lookup(m.Kind); f != nil && f.Format != nil {
		return m.Kind + ":" + f.Format(m)
	}
	return fmt.Sprintf("%s:%d", m.Kind, m.Procs)
}

// MaxProcs bounds the processors (nodes) of every machine, as traces bound
// a job's processor count: 2^31 − 1.
const MaxProcs = 1<<31 - 1

// ParseMachine parses a machine description "kind:arg" with the parser of
// the kind's family; a machine of more than MaxProcs processors is an
// error.
func ParseMachine(s string) (Machine, error) {
	kind, arg, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Machine{}, fmt.Errorf("machine %q: want %s", s, syntaxes())
	}
	f := lookup(kind)
	if f == nil {
		return Machine{}, fmt.Errorf("machine %q: unknown kind %q (want %s)", s, kind, kindList())
	}
	m, err := f.Parse(arg)
	if err != nil {
		return Machine{}, fmt.Errorf("machine %q: %w", s, err)
	}
	if m.Procs < 1 || m.Procs > MaxProcs {
		return Machine{}, fmt.Errorf("machine %q: %d processors: want 1..%d", s, m.Procs, MaxProcs)
	}
	m.Kind = f.Kind
	return m, nil
}
