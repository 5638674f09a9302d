package policy

import (
	"fmt"
	"strconv"
	"strings"
)

// Machine kinds.
const (
	Flat = "flat" // N interchangeable processors
	Mesh = "mesh" // a W×H two-dimensional mesh
	Cube = "cube" // a hypercube of dimension n (2^n nodes)
)

// Machine describes the simulated machine, as written "flat:128",
// "mesh:32x32" or "cube:7".
type Machine struct {
	Kind   string // Flat, Mesh or Cube
	Procs  int    // number of processors
	Width  int    // mesh columns (Mesh only)
	Height int    // mesh rows (Mesh only)
	Dim    int    // hypercube dimension (Cube only)
}

// String returns the canonical spelling of m ("flat:128", "mesh:32x32",
// "cube:7").
func (m Machine) String() string {
	switch m.Kind {
	case Mesh:
		return fmt.Sprintf("mesh:%dx%d", m.Width, m.Height)
	case Cube:
		return fmt.Sprintf("cube:%d", m.Dim)
	}
	return fmt.Sprintf("flat:%d", m.Procs)
}

// ParseMachine parses a machine description.
func ParseMachine(s string) (Machine, error) {
	kind, arg, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Machine{}, fmt.Errorf("machine %q: want flat:N, mesh:WxH or cube:n", s)
	}
	switch kind {
	case Flat:
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 {
			return Machine{}, fmt.Errorf("machine %q: processor count must be a positive integer", s)
		}
		return Machine{Kind: Flat, Procs: n}, nil
	case Mesh:
		ws, hs, ok := strings.Cut(arg, "x")
		w, err1 := strconv.Atoi(ws)
		h, err2 := strconv.Atoi(hs)
		if !ok || err1 != nil || err2 != nil || w < 1 || h < 1 {
			return Machine{}, fmt.Errorf("machine %q: mesh size must be WxH with positive integers", s)
		}
		return Machine{Kind: Mesh, Procs: w * h, Width: w, Height: h}, nil
	case Cube:
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 || n > 30 {
			return Machine{}, fmt.Errorf("machine %q: hypercube dimension must be an integer in 0..30", s)
		}
		return Machine{Kind: Cube, Procs: 1 << n, Dim: n}, nil
	}
	return Machine{}, fmt.Errorf("machine %q: unknown kind %q (want flat, mesh or cube)", s, kind)
}
