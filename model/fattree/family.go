// Package fattree is the fat-tree machine family: nodes under a tree of
// switches, as Slurm's topology/tree plugin sees a cluster, given by the
// switches' radices (fattree:16x16x16) or read from a Slurm topology.conf
// (fattree:file=PATH). Jobs ask for a node count; placements are ranges of
// node numbers; the distance between two nodes is the number of
// switch-to-switch links on the tree path between their leaf switches.
package fattree

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/schedlab/schedlab/model/policy"
)

// Kind is the fat-tree family's machine kind.
const Kind = "fattree"

// MaxLevels is the most switch levels of fattree:R1x...xRL.
const MaxLevels = len(policy.Machine{}.Param)

func init() { policy.RegisterFamily(Family()) }

// Family returns the fat-tree family's descriptor.
func Family() policy.Family {
	f := policy.Family{
		Kind: Kind, Syntax: "fattree:R1xR2[x...] or fattree:file=PATH", Order: 60,
		Doc:     "a fat tree: R1 nodes per leaf switch, R2 leaf switches per level-2 switch, ... (at most 4 levels), or the switches of a Slurm topology.conf",
		Request: policy.RequestCount,
		Parse:   parse,
		Format: func(m policy.Machine) string {
			if m.File != "" {
				return "file=" + m.File
			}
			var s []string
			for _, r := range m.Param {
				if r > 0 {
					s = append(s, strconv.Itoa(r))
				}
			}
			return strings.Join(s, "x")
		},
		Words: func(m policy.Machine) string {
			if m.File != "" {
				return fmt.Sprintf("a fat tree of %d nodes (%s)", m.Procs, m.File)
			}
			return fmt.Sprintf("a fat tree of %d nodes", m.Procs)
		},
		Allocators: Allocators,
		Placements: true,
		Dispersion: func(m policy.Machine, ps []policy.Piece) float64 { return locality(m, ps).MeanHops },
		Locality:   locality,
		Hops:       hops,
		Valid: func(m policy.Machine, p policy.Piece) bool {
			return p.W >= 1 && p.H == 1 && p.X >= 0 && p.Y == 0 && p.Mask == 0 && int(p.X)+int(p.W) <= m.Procs
		},
	}
	f.View.Layout, f.View.Rects = layout, rects
	f.View.Note = "a column per leaf switch (its nodes from the bottom up), the leaves of one level-2 switch side by side, a gap between level-2 switches"
	f.View.Axis = "node number (depth first from the top switch)"
	f.View.How = "a strip per node number: rectangles are each job's node ranges; a leaf switch holds consecutive node numbers (R1 of them on fattree:R1x...), a level-l switch the consecutive nodes of its subtree"
	return f
}

// parse reads "R1xR2x..." or "file=PATH".
func parse(arg string) (policy.Machine, error) {
	if path, ok := strings.CutPrefix(arg, "file="); ok {
		if path == "" {
			return policy.Machine{}, fmt.Errorf("file=: want the path of a Slurm topology.conf")
		}
		if strings.ContainsFunc(path, unicode.IsControl) {
			return policy.Machine{}, fmt.Errorf("file=%q: a path without control characters", path)
		}
		t, err := LoadConf(path)
		if err != nil {
			return policy.Machine{}, err
		}
		return policy.Machine{Kind: Kind, Procs: t.N, File: path}, nil
	}
	parts := strings.Split(arg, "x")
	if len(parts) > MaxLevels {
		return policy.Machine{}, fmt.Errorf("fat tree %q: %d levels, want 1..%d radices R1xR2x... (or file=PATH)", arg, len(parts), MaxLevels)
	}
	m := policy.Machine{Kind: Kind, Procs: 1}
	for i, s := range parts {
		r, err := strconv.Atoi(s)
		if err != nil || r < 1 || r > MaxNodes {
			return policy.Machine{}, fmt.Errorf("fat tree radix R%d %q: want an integer in 1..%d (fattree:R1xR2x... or fattree:file=PATH)", i+1, s, MaxNodes)
		}
		m.Param[i] = r
		m.Procs *= r
		if m.Procs > MaxNodes {
			return policy.Machine{}, fmt.Errorf("fat tree %q: more than %d nodes", arg, MaxNodes)
		}
	}
	return m, nil
}

var radixTrees sync.Map // [4]int → *Tree

// TreeOf returns the switch tree of fat-tree machine m.
func TreeOf(m policy.Machine) (*Tree, error) {
	if m.Kind != Kind {
		return nil, fmt.Errorf("machine %s is not a fat tree", m)
	}
	if m.File != "" {
		return LoadConf(m.File)
	}
	if t, ok := radixTrees.Load(m.Param); ok {
		return t.(*Tree), nil
	}
	var r []int
	for _, x := range m.Param {
		if x > 0 {
			r = append(r, x)
		}
	}
	if len(r) == 0 {
		return nil, fmt.Errorf("machine %s: no radices", m)
	}
	t, _ := radixTrees.LoadOrStore(m.Param, Radix(r))
	return t.(*Tree), nil
}

// hops is Family.Hops (Tree.Hops); nil when m's tree cannot be read.
func hops(m policy.Machine) func(a, b int) int {
	t, err := TreeOf(m)
	if err != nil {
		return nil
	}
	return t.Hops
}

// locality is Family.Locality (Tree.Locality); a machine whose tree cannot
// be read has no locality (NaN).
func locality(m policy.Machine, ps []policy.Piece) policy.Locality {
	t, err := TreeOf(m)
	if err != nil {
		return policy.Locality{MeanHops: nan()}
	}
	return t.Locality(ps)
}
