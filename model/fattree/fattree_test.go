package fattree

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/internal/nodepool"
	"github.com/schedlab/schedlab/model/policy"
)

// radixGraph is the explicit switch graph of fattree:r[0]x r[1]x...,
// built from the spec alone: switch (level l, index i) is linked to switch
// (l+1, i / r[l+1]); node q hangs on leaf (0, q / r[0]). It returns the
// adjacency lists and each node's leaf vertex.
func radixGraph(r []int) (adj [][]int, leafOf []int) {
	n := 1
	for _, x := range r {
		n *= x
	}
	id := map[[2]int]int{}
	vertex := func(l, i int) int {
		k := [2]int{l, i}
		if v, ok := id[k]; ok {
			return v
		}
		id[k] = len(adj)
		adj = append(adj, nil)
		return id[k]
	}
	count := n / r[0]
	for l := 0; l < len(r); l++ {
		for i := 0; i < count; i++ {
			v := vertex(l, i)
			if l+1 < len(r) {
				p := vertex(l+1, i/r[l+1])
				adj[v] = append(adj[v], p)
				adj[p] = append(adj[p], v)
			}
		}
		if l+1 < len(r) {
			count /= r[l+1]
		}
	}
	for q := 0; q < n; q++ {
		leafOf = append(leafOf, vertex(0, q/r[0]))
	}
	return adj, leafOf
}

// bfs returns the distances from vertex s.
func bfs(adj [][]int, s int) []int {
	d := make([]int, len(adj))
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int{s}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		for _, w := range adj[v] {
			if d[w] < 0 {
				d[w] = d[v] + 1
				q = append(q, w)
			}
		}
	}
	return d
}

// Hops on radix trees equals the BFS distance between the nodes' leaf
// switches in the explicit switch graph.
func TestHopsBFS(t *testing.T) {
	for _, r := range [][]int{{4}, {2, 3}, {3, 2, 2}, {2, 2, 2, 2}, {1, 3, 2}} {
		tr := Radix(r)
		adj, leafOf := radixGraph(r)
		for a := 0; a < tr.N; a++ {
			d := bfs(adj, leafOf[a])
			for b := 0; b < tr.N; b++ {
				if got, want := tr.Hops(a, b), d[leafOf[b]]; got != want {
					t.Fatalf("%v: hops(%d,%d) = %d, BFS %d", r, a, b, got, want)
				}
			}
		}
	}
}

// randomPieces returns a random set of nodes of 0..n−1 as ranges.
func randomPieces(rng *rand.Rand, n int) []policy.Piece {
	var ps []policy.Piece
	p := rng.Float64()
	for q := 0; q < n; q++ {
		if rng.Float64() < p {
			if k := len(ps) - 1; k >= 0 && int(ps[k].X+ps[k].W) == q {
				ps[k].W++
			} else {
				ps = append(ps, policy.Range(q, 1))
			}
		}
	}
	rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	return ps
}

// brute is the locality of ps by pairwise sums over hops.
func brute(hops func(a, b int) int, leaf func(q int) int, ps []policy.Piece) policy.Locality {
	var nodes []int
	for _, p := range ps {
		for q := int(p.X); q < int(p.X+p.W); q++ {
			nodes = append(nodes, q)
		}
	}
	l := policy.Locality{MeanHops: math.NaN()}
	spans := map[int]bool{}
	for _, a := range nodes {
		spans[leaf(a)] = true
		for _, b := range nodes {
			if a != b {
				h := hops(a, b)
				l.HopBytes += float64(h)
				l.MaxHops = max(l.MaxHops, h)
			}
		}
	}
	l.Span = len(spans)
	if n := len(nodes); n > 1 {
		l.MeanHops = l.HopBytes / float64(n*(n-1))
	}
	return l
}

func sameLocality(a, b policy.Locality) bool {
	return a.MaxHops == b.MaxHops && a.Span == b.Span && a.HopBytes == b.HopBytes &&
		(math.IsNaN(a.MeanHops) && math.IsNaN(b.MeanHops) || math.Abs(a.MeanHops-b.MeanHops) < 1e-9)
}

// Locality's closed form equals the brute-force pairwise sums, on radix
// trees and on the unbalanced tree of testdata/topology.conf.
func TestLocalityBrute(t *testing.T) {
	conf, err := LoadConf(filepath.Join("testdata", "topology.conf"))
	if err != nil {
		t.Fatal(err)
	}
	trees := []*Tree{Radix([]int{4}), Radix([]int{2, 3}), Radix([]int{3, 2, 2}), Radix([]int{2, 2, 2, 2}), conf}
	rng := rand.New(rand.NewPCG(1, 2))
	for ti, tr := range trees {
		for it := 0; it < 300; it++ {
			ps := randomPieces(rng, tr.N)
			got := tr.Locality(ps)
			want := brute(tr.Hops, tr.leafOfNode, ps)
			if !sameLocality(got, want) {
				t.Fatalf("tree %d, %v: locality %+v, brute force %+v", ti, ps, got, want)
			}
		}
	}
}

// The golden tree of testdata/topology.conf: nodes numbered depth first
// (top: rack1 (s0, s1), rack2 (s2, s3), s4), Slurm's levels, depths, and
// distances worked by hand.
func TestConfGolden(t *testing.T) {
	tr, err := LoadConf(filepath.Join("testdata", "topology.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.N != 13 || tr.Switches() != 8 || tr.Name[tr.Root] != "top" || tr.Levels() != 3 {
		t.Fatalf("N %d, %d switches, root %q, %d levels", tr.N, tr.Switches(), tr.Name[tr.Root], tr.Levels())
	}
	if want := []int32{0, 4, 7, 10, 12, 13}; !slices.Equal(tr.Bound, want) {
		t.Errorf("leaf bounds %v, want %v", tr.Bound, want)
	}
	var leaves []string
	for _, s := range tr.Leaf {
		leaves = append(leaves, tr.Name[s])
	}
	if strings.Join(leaves, " ") != "s0 s1 s2 s3 s4" {
		t.Errorf("leaves in node order: %v", leaves)
	}
	want := map[string][4]int32{ // level, depth, lo, hi
		"s0": {0, 2, 0, 4}, "s1": {0, 2, 4, 7}, "s2": {0, 2, 7, 10}, "s3": {0, 2, 10, 12}, "s4": {0, 1, 12, 13},
		"rack1": {1, 1, 0, 7}, "rack2": {1, 1, 7, 12}, "top": {2, 0, 0, 13},
	}
	for s, name := range tr.Name {
		if got := [4]int32{tr.Level[s], tr.Depth[s], tr.Lo[s], tr.Hi[s]}; got != want[name] {
			t.Errorf("switch %s: level, depth, nodes %v, want %v", name, got, want[name])
		}
	}
	for _, c := range []struct{ a, b, hops int }{
		{0, 3, 0},  // tux00, tux03 on s0
		{0, 4, 2},  // s0 – rack1 – s1
		{0, 7, 4},  // s0 – rack1 – top – rack2 – s2
		{6, 12, 3}, // tux07 (s1) – rack1 – top – s4 (login1)
		{12, 12, 0},
	} {
		if h := tr.Hops(c.a, c.b); h != c.hops {
			t.Errorf("hops(%d, %d) = %d, want %d", c.a, c.b, h, c.hops)
		}
	}
	hs, err := Hostlist("tux[00-03],tux07,a[9-11]b", 100)
	if err != nil || strings.Join(hs, " ") != "tux00 tux01 tux02 tux03 tux07 a9b a10b a11b" {
		t.Errorf("hostlist: %v %v", hs, err)
	}
}

// A topology.conf describing fattree:2x3 is the same tree.
func TestConfRadix(t *testing.T) {
	conf := "SwitchName=l0 Nodes=n[0-1]\nSwitchName=l1 Nodes=n[2-3]\nSwitchName=l2 Nodes=n[4-5]\nSwitchName=root Switches=l[0-2]\n"
	tr, err := ParseConf("t.conf", strings.NewReader(conf))
	if err != nil {
		t.Fatal(err)
	}
	rx := Radix([]int{2, 3})
	if tr.N != rx.N || !slices.Equal(tr.Bound, rx.Bound) || tr.Levels() != rx.Levels() {
		t.Fatalf("conf tree %+v, radix tree %+v", tr, rx)
	}
	for a := 0; a < tr.N; a++ {
		for b := 0; b < tr.N; b++ {
			if tr.Hops(a, b) != rx.Hops(a, b) {
				t.Fatalf("hops(%d,%d): conf %d, radix %d", a, b, tr.Hops(a, b), rx.Hops(a, b))
			}
		}
	}
}

// Bad topology.conf lines give one line naming the file, the line and the
// field.
func TestConfErrors(t *testing.T) {
	for _, c := range []struct{ conf, want string }{
		{"SwitchName=s0 Nodes=a[1-\n", "t.conf:1: Nodes: unbalanced brackets"},
		{"SwitchName=s0\n", "t.conf:1: Nodes: switch s0 has neither Nodes nor Switches"},
		{"# c\nNodes=a1\n", "t.conf:2: SwitchName: missing"},
		{"SwitchName=s0 Nodes=a1 Switches=s1\n", "t.conf:1: Switches: switch s0 has both"},
		{"SwitchName=s0 Nodes=a1\nSwitchName=s0 Nodes=a2\n", "t.conf:2: SwitchName: switch s0 already defined on line 1"},
		{"SwitchName=s0 Switches=s9\n", "t.conf:1: Switches: switch s9 is not defined"},
		{"SwitchName=s0 Nodes=a1\nSwitchName=s1 Nodes=a2\n", "t.conf:2: SwitchName: switch s1 is a second top-level switch"},
		{"SwitchName=s0 Nodes=a[1-2]\nSwitchName=s1 Nodes=a2\nSwitchName=t Switches=s[0-1]\n", "t.conf:2: Nodes: node a2 already on switch s0 (line 1)"},
		{"SwitchName=s0 Nodes=a1 Speed=4\n", "t.conf:1: Speed: unknown parameter"},
		{"BlockName=b1 Nodes=a1\n", "t.conf:1: BlockName: topology/block lines are not read"},
		{"SwitchName=s0 Nodes=a1 LinkSpeed=fast\n", "t.conf:1: LinkSpeed: want a non-negative integer"},
		{"SwitchName=s0 Nodes=a[3-1]\n", "t.conf:1: Nodes: bad range \"3-1\""},
		{"SwitchName=s0 Nodes=a[1-2]b[1-2]\n", "t.conf:1: Nodes: more than one bracket group"},
		{"SwitchName=s0 Nodes=a[0-99999999]\n", "t.conf:1: Nodes: more than 16777216 names"},
		{"SwitchName=s0 Nodes\n", "t.conf:1: Nodes: want key=value"},
		{"SwitchName=s0 Nodes=a1 nodes=a2\n", "t.conf:1: nodes: given twice"},
		{"SwitchName=t Switches=a\nSwitchName=a Switches=b\nSwitchName=b Switches=a\n", "t.conf:3: Switches: switch a already under switch t (line 1)"},
		{"SwitchName=a Switches=b\nSwitchName=b Switches=a\n", "t.conf:1: Switches: the switches form a cycle"},
		{"SwitchName=t Nodes=n1\nSwitchName=a Switches=b\nSwitchName=b Switches=a\n", "t.conf:2: Switches: switch a is on a cycle"},
		{"SwitchName=s0 Switches=s0\n", "t.conf:1: Switches: switch s0 lists itself"},
		{"# nothing\n", "t.conf: no SwitchName line"},
		{"SwitchName=s0 Nodes=" + strings.Repeat("a", MaxLine) + "\n", "t.conf:1: line longer than"},
	} {
		_, err := ParseConf("t.conf", strings.NewReader(c.conf))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%.60q: error %v, want %s...", c.conf, err, c.want)
		}
	}
}

// Bad machine specs give one line naming the parameter.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"fattree:", `fat tree radix R1 "": want an integer`},
		{"fattree:0x4", `fat tree radix R1 "0": want an integer`},
		{"fattree:4xa", `fat tree radix R2 "a": want an integer`},
		{"fattree:2x2x2x2x2", "5 levels, want 1..4"},
		{"fattree:4096x4096x4096", "more than 16777216 nodes"},
		{"fattree:file=", "file=: want the path of a Slurm topology.conf"},
		{"fattree:file=/nonexistent/topology.conf", "topology file: stat /nonexistent/topology.conf"},
	} {
		_, err := policy.ParseMachine(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want %s", c.in, err, c.want)
		}
	}
	m, err := policy.ParseMachine("fattree:16x4x2")
	if err != nil || m.Procs != 128 || m.String() != "fattree:16x4x2" {
		t.Errorf("fattree:16x4x2: %+v %v", m, err)
	}
	p := filepath.Join("testdata", "topology.conf")
	m, err = policy.ParseMachine("fattree:file=" + p)
	if err != nil || m.Procs != 13 || m.String() != "fattree:file="+p {
		t.Errorf("file: %+v %v", m, err)
	}
}

// FuzzConf: ParseConf never panics, refuses with one line, and a tree it
// accepts is consistent (leaves cover the nodes in order, every switch's
// nodes are its children's).
func FuzzConf(f *testing.F) {
	b, _ := os.ReadFile(filepath.Join("testdata", "topology.conf"))
	f.Add(string(b))
	f.Add("SwitchName=s0 Nodes=a[1-3]\nSwitchName=t Switches=s0\n")
	f.Add("SwitchName=s0 Nodes=a[01-03,7]\n")
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := ParseConf("f.conf", strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if tr.Bound[0] != 0 || int(tr.Bound[len(tr.Bound)-1]) != tr.N || tr.Lo[tr.Root] != 0 || int(tr.Hi[tr.Root]) != tr.N {
			t.Fatalf("bounds %v, root %d..%d, N %d", tr.Bound, tr.Lo[tr.Root], tr.Hi[tr.Root], tr.N)
		}
		for s := range tr.Parent {
			if p := tr.Parent[s]; p >= 0 && (tr.Lo[s] < tr.Lo[p] || tr.Hi[s] > tr.Hi[p] || tr.Depth[s] != tr.Depth[p]+1 || tr.Level[s] >= tr.Level[p]) {
				t.Fatalf("switch %d not inside its parent %d", s, p)
			}
		}
	})
}

var _ = nodepool.Deal
