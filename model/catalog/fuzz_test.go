package catalog

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// F3 (issue 25): a machine larger than policy.MaxProcs, or whose size
// overflows, is refused where it is parsed, for every kind.
func TestMachineBound(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"mesh:4294967296x4294967296", `machine "mesh:4294967296x4294967296": mesh 4294967296x4294967296: more than 2147483647 nodes`},
		{"mesh:3037000500x3037000500", `machine "mesh:3037000500x3037000500": mesh 3037000500x3037000500: more than 2147483647 nodes`},
		{"mesh:9223372036854775807x2", `machine "mesh:9223372036854775807x2": mesh 9223372036854775807x2: more than 2147483647 nodes`},
		{"mesh:65536x32768", `machine "mesh:65536x32768": mesh 65536x32768: more than 2147483647 nodes`},
		{"flat:2147483648", `machine "flat:2147483648": processor count must be an integer in 1..2147483647`},
		{"malleable:1000000000000", `machine "malleable:1000000000000": processor count must be an integer in 1..2147483647`},
		{"cube:31", `machine "cube:31": hypercube dimension must be an integer in 0..30`},
	} {
		_, err := policy.ParseMachine(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.in, err, c.want)
		}
	}
	for _, ok := range []string{"flat:2147483647", "mesh:65535x32768", "mesh:1x2147483647", "cube:30"} {
		if m, err := policy.ParseMachine(ok); err != nil || m.Procs > policy.MaxProcs {
			t.Errorf("%s: %v, %d processors", ok, err, m.Procs)
		}
	}
}

// FuzzMachine: ParseMachine never panics, refuses with one line, and what
// it accepts is within the bound and reads back from its String.
func FuzzMachine(f *testing.F) {
	for _, s := range []string{"flat:128", "mesh:32x32", "cube:7", "malleable:100", "mesh:4294967296x4294967296",
		"mesh:3x", "flat:-1", "cube:99", " flat:1 ", "mesh:0x5", "flat:", ":", "x:1",
		"torus:8x8x4", "torus:4x4", "torus:4x4x1", "mesh3d:2x3x4", "mesh3d:4x4", "torus:0x1x1", "torus:65536x65536x2", "mesh3d:1x1x1x1", "torus:x4x4"} {
		f.Add(s)
	}
	for _, s := range []string{"fattree:16x16x16", "fattree:4x4x4x4", "fattree:0x2", "fattree:2x2x2x2x2", "fattree:file=",
		"fattree:file=../fattree/testdata/topology.conf", "dragonfly:g=9,a=4,p=2,h=2", "dragonfly:h=2,p=2,a=4,g=9",
		"dragonfly:g=10,a=4,p=2,h=2", "dragonfly:g=1,a=1,p=1,h=0", "dragonfly:g=2,g=2"} {
		f.Add(s) // issue 26: the fat-tree and dragonfly families
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := policy.ParseMachine(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if m.Procs < 1 || m.Procs > policy.MaxProcs {
			t.Fatalf("%q: %d processors", s, m.Procs)
		}
		back, err := policy.ParseMachine(m.String())
		if err != nil || back != m {
			t.Fatalf("%q: %+v prints as %q, which reads back as %+v, %v", s, m, m.String(), back, err)
		}
	})
}

// FuzzPolicySpec: ParseSpec never panics, refuses with one line, and its
// canonical spelling reads back as the same name and parameters.
func FuzzPolicySpec(f *testing.F) {
	for _, s := range []string{"fcfs", "mq:q=32,order=down", "ext:cmd='python3 s.py --a=1,2',timeout=10",
		`ext:cmd="python3 -c 'x'"`, "easy:", "a:b", "a:b=", "a:=1", "a:k='x", "a:k=1,k=2", ":x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, p, err := policy.ParseSpec(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		c := Canonical(name, p)
		name2, p2, err := policy.ParseSpec(c)
		if err != nil {
			t.Fatalf("%q: canonical %q does not read back: %v", s, c, err)
		}
		if name2 != name || Canonical(name2, p2) != c {
			t.Fatalf("%q: canonical %q reads back as %q %v", s, c, name2, p2)
		}
	})
}
