package fattree

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Bounds of a topology.conf (ParseConf).
const (
	MaxConfBytes = 64 << 20 // file size
	MaxLine      = 1 << 16  // bytes per line
	MaxSwitches  = 1 << 20  // switches
	MaxNodes     = 1 << 24  // nodes (also the bound of fattree:R1x...)
)

// confError is an error at a line and field of a topology.conf.
func confError(file string, line int, field, format string, a ...any) error {
	if field != "" {
		return fmt.Errorf("%s:%d: %s: %s", file, line, field, fmt.Sprintf(format, a...))
	}
	return fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, a...))
}

// confSwitch is one SwitchName line.
type confSwitch struct {
	name     string
	line     int
	nodes    []string
	switches []string
}

// ParseConf reads a Slurm topology.conf (topology/tree): one switch per
// line, SwitchName=NAME with either Nodes=HOSTLIST (a leaf switch) or
// Switches=HOSTLIST (its child switches), and an optional LinkSpeed
// (ignored); parameter names are case-insensitive and "#" starts a comment,
// as in Slurm. Hostlists are Slurm's: comma-separated names, each with at
// most one bracket group of numbers and ranges, zero-padded as written
// (node[01-16], tux[0-3,12,18-20]). The switches must form one tree: every
// switch named once, every child switch defined and under one parent, one
// root, every node on exactly one leaf switch. Nodes are numbered depth
// first from the root, children in the order written, a leaf switch's nodes
// in hostlist order. Errors name the file (name), the line and the field.
func ParseConf(name string, r io.Reader) (*Tree, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var sws []confSwitch
	index := map[string]int{}
	nodeCount := 0
	for ln := 1; ; ln++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull || len(line) > MaxLine {
			return nil, confError(name, ln, "", "line longer than %d bytes", MaxLine)
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s:%d: %v", name, ln, err)
		}
		text := string(bytes.TrimSpace(line))
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if text != "" {
			sw := confSwitch{line: ln}
			seen := map[string]bool{}
			for _, f := range strings.Fields(text) {
				k, v, ok := strings.Cut(f, "=")
				key := strings.ToLower(k)
				if !ok {
					return nil, confError(name, ln, k, "want key=value")
				}
				if seen[key] {
					return nil, confError(name, ln, k, "given twice")
				}
				seen[key] = true
				switch key {
				case "switchname":
					if v == "" || strings.ContainsAny(v, "[],") {
						return nil, confError(name, ln, k, "want one switch name, not %q", v)
					}
					sw.name = v
				case "nodes":
					hs, err := Hostlist(v, MaxNodes-nodeCount)
					if err != nil {
						return nil, confError(name, ln, k, "%v", err)
					}
					sw.nodes = hs
					nodeCount += len(hs)
				case "switches":
					hs, err := Hostlist(v, MaxSwitches)
					if err != nil {
						return nil, confError(name, ln, k, "%v", err)
					}
					sw.switches = hs
				case "linkspeed":
					if _, err := strconv.ParseUint(v, 10, 32); err != nil {
						return nil, confError(name, ln, k, "want a non-negative integer, not %q", v)
					}
				case "blockname", "blocksizes":
					return nil, confError(name, ln, k, "topology/block lines are not read (fattree:file= reads topology/tree switch lines)")
				default:
					return nil, confError(name, ln, k, "unknown parameter (want SwitchName, Nodes, Switches or LinkSpeed)")
				}
			}
			switch {
			case sw.name == "":
				return nil, confError(name, ln, "SwitchName", "missing")
			case sw.nodes == nil && sw.switches == nil:
				return nil, confError(name, ln, "Nodes", "switch %s has neither Nodes nor Switches", sw.name)
			case sw.nodes != nil && sw.switches != nil:
				return nil, confError(name, ln, "Switches", "switch %s has both Nodes and Switches (a switch here has nodes or switches)", sw.name)
			}
			if prev, dup := index[sw.name]; dup {
				return nil, confError(name, ln, "SwitchName", "switch %s already defined on line %d", sw.name, sws[prev].line)
			}
			if len(sws) == MaxSwitches {
				return nil, confError(name, ln, "SwitchName", "more than %d switches", MaxSwitches)
			}
			index[sw.name] = len(sws)
			sws = append(sws, sw)
		}
		if err == io.EOF {
			break
		}
	}
	if len(sws) == 0 {
		return nil, fmt.Errorf("%s: no SwitchName line", name)
	}
	parent := make([]int, len(sws))
	for i := range parent {
		parent[i] = -1
	}
	for i, sw := range sws {
		for _, c := range sw.switches {
			j, ok := index[c]
			if !ok {
				return nil, confError(name, sw.line, "Switches", "switch %s is not defined", c)
			}
			if j == i {
				return nil, confError(name, sw.line, "Switches", "switch %s lists itself", c)
			}
			if parent[j] >= 0 {
				return nil, confError(name, sw.line, "Switches", "switch %s already under switch %s (line %d)", c, sws[parent[j]].name, sws[parent[j]].line)
			}
			parent[j] = i
		}
	}
	root := -1
	for i, p := range parent {
		if p < 0 {
			if root >= 0 {
				return nil, confError(name, sws[i].line, "SwitchName", "switch %s is a second top-level switch (the first: %s, line %d): the switches must form one tree", sws[i].name, sws[root].name, sws[root].line)
			}
			root = i
		}
	}
	if root < 0 {
		return nil, confError(name, sws[0].line, "Switches", "the switches form a cycle: no top-level switch")
	}
	// Depth-first numbering from the root.
	t := &Tree{}
	n := len(sws)
	t.Name = make([]string, n)
	t.Parent = make([]int32, n)
	t.Depth = make([]int32, n)
	t.Level = make([]int32, n)
	t.Lo, t.Hi = make([]int32, n), make([]int32, n)
	t.LeafLo, t.LeafHi = make([]int32, n), make([]int32, n)
	t.Root = int32(root)
	nodeAt := map[string]int{}
	visited := 0
	type frame struct{ sw, child int }
	stack := []frame{{root, 0}}
	t.Parent[root] = -1
	t.Lo[root] = 0
	t.LeafLo[root] = 0
	visited++
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		sw := &sws[f.sw]
		if sw.nodes != nil {
			t.Leaf = append(t.Leaf, int32(f.sw))
			t.Bound = append(t.Bound, int32(t.N))
			for _, h := range sw.nodes {
				if prev, dup := nodeAt[h]; dup {
					return nil, confError(name, sw.line, "Nodes", "node %s already on switch %s (line %d)", h, sws[prev].name, sws[prev].line)
				}
				nodeAt[h] = f.sw
			}
			t.N += len(sw.nodes)
		}
		if f.child < len(sw.switches) {
			c := index[sw.switches[f.child]]
			f.child++
			t.Parent[c] = int32(f.sw)
			t.Depth[c] = t.Depth[f.sw] + 1
			t.Lo[c] = int32(t.N)
			t.LeafLo[c] = int32(len(t.Leaf))
			visited++
			stack = append(stack, frame{c, 0})
			continue
		}
		t.Hi[f.sw] = int32(t.N)
		t.LeafHi[f.sw] = int32(len(t.Leaf))
		if p := t.Parent[f.sw]; p >= 0 {
			t.Level[p] = max(t.Level[p], t.Level[f.sw]+1)
		}
		t.Name[f.sw] = sw.name
		stack = stack[:len(stack)-1]
	}
	if visited != n {
		for i := range sws {
			if t.Name[i] == "" {
				return nil, confError(name, sws[i].line, "Switches", "switch %s is on a cycle, not under the top-level switch %s", sws[i].name, sws[root].name)
			}
		}
	}
	t.Bound = append(t.Bound, int32(t.N))
	return t, nil
}

// Hostlist expands a Slurm hostlist expression: comma-separated names, each
// a prefix, at most one bracket group of comma-separated numbers or ranges
// lo-hi (zero-padded to lo's width when written so), and a suffix. More than
// limit names is an error.
func Hostlist(s string, limit int) ([]string, error) {
	if s == "" {
		return nil, fmt.Errorf("empty list")
	}
	var out []string
	depth, from := 0, 0
	var items []string
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
			if depth > 1 {
				return nil, fmt.Errorf("nested brackets in %q", s)
			}
		case ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced brackets in %q", s)
			}
		case ',':
			if depth == 0 {
				items = append(items, s[from:i])
				from = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets in %q", s)
	}
	items = append(items, s[from:])
	for _, it := range items {
		if it == "" {
			return nil, fmt.Errorf("empty name in %q", s)
		}
		open := strings.IndexByte(it, '[')
		if open < 0 {
			if strings.ContainsRune(it, ']') {
				return nil, fmt.Errorf("unbalanced brackets in %q", it)
			}
			if len(out) >= limit {
				return nil, fmt.Errorf("more than %d names", limit)
			}
			out = append(out, it)
			continue
		}
		close := strings.IndexByte(it, ']')
		pre, body, suf := it[:open], it[open+1:close], it[close+1:]
		if strings.ContainsAny(suf, "[]") {
			return nil, fmt.Errorf("more than one bracket group in %q", it)
		}
		for _, r := range strings.Split(body, ",") {
			a, b, isRange := strings.Cut(r, "-")
			lo, err1 := strconv.Atoi(a)
			hi := lo
			var err2 error
			if isRange {
				hi, err2 = strconv.Atoi(b)
			}
			if err1 != nil || err2 != nil || lo < 0 || hi < lo || a == "" || strings.HasPrefix(a, "+") || (isRange && (b == "" || strings.HasPrefix(b, "+"))) {
				return nil, fmt.Errorf("bad range %q in %q", r, it)
			}
			if hi-lo >= limit-len(out) {
				return nil, fmt.Errorf("more than %d names", limit)
			}
			width := 0
			if len(a) > 1 && a[0] == '0' {
				width = len(a)
			}
			for v := lo; v <= hi; v++ {
				out = append(out, fmt.Sprintf("%s%0*d%s", pre, width, v, suf))
			}
		}
	}
	return out, nil
}

// The trees read from topology.conf files, by path, re-read when the file
// changes (size or modification time).
var (
	confMu    sync.Mutex
	confCache = map[string]confEntry{}
)

type confEntry struct {
	size int64
	mod  time.Time
	tree *Tree
	err  error
}

// LoadConf returns the tree of the topology.conf at path (ParseConf),
// cached while the file is unchanged.
func LoadConf(path string) (*Tree, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("topology file: %v", err)
	}
	if st.Size() > MaxConfBytes {
		return nil, fmt.Errorf("topology file %s: larger than %d bytes", path, MaxConfBytes)
	}
	confMu.Lock()
	e, ok := confCache[path]
	confMu.Unlock()
	if ok && e.size == st.Size() && e.mod.Equal(st.ModTime()) {
		return e.tree, e.err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("topology file: %v", err)
	}
	defer f.Close()
	t, err := ParseConf(path, io.LimitReader(f, MaxConfBytes))
	confMu.Lock()
	confCache[path] = confEntry{st.Size(), st.ModTime(), t, err}
	confMu.Unlock()
	return t, err
}
