package policy_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"

	// The families under test, registered.
	_ "github.com/schedlab/schedlab/model/cube"
	_ "github.com/schedlab/schedlab/model/flat"
	_ "github.com/schedlab/schedlab/model/malleable"
	_ "github.com/schedlab/schedlab/model/mesh"
)

func TestParseMachine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want policy.Machine
		err  string
	}{
		{"flat:128", policy.Machine{Kind: policy.Flat, Procs: 128}, ""},
		{" mesh:32x16 ", policy.Machine{Kind: policy.Mesh, Procs: 512, Width: 32, Height: 16}, ""},
		{"cube:7", policy.Machine{Kind: policy.Cube, Procs: 128, Dim: 7}, ""},
		{"cube:0", policy.Machine{Kind: policy.Cube, Procs: 1, Dim: 0}, ""},
		{"malleable:100", policy.Machine{Kind: "malleable", Procs: 100}, ""},
		{"flat:0", policy.Machine{}, "integer in 1..2147483647"},
		{"flat:-4", policy.Machine{}, "integer in 1..2147483647"},
		{"malleable:0", policy.Machine{}, "integer in 1..2147483647"},
		{"mesh:32", policy.Machine{}, "WxH"},
		{"mesh:0x4", policy.Machine{}, "WxH"},
		{"cube:31", policy.Machine{}, "0..30"},
		{"torus:4x4", policy.Machine{}, `unknown kind "torus" (want flat, mesh, cube`},
		{"128", policy.Machine{}, "want flat:N, mesh:WxH, cube:n"},
	} {
		got, err := policy.ParseMachine(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseMachine(%q): error %v, want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseMachine(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if back, err := policy.ParseMachine(got.String()); err != nil || back != got {
			t.Errorf("%q does not round-trip through String: %q", tc.in, got.String())
		}
	}
}

// A registered family parses, prints and lists its machines; a second
// registration of a kind panics.
func TestRegisterFamily(t *testing.T) {
	policy.RegisterFamily(policy.Family{
		Kind: "line", Syntax: "line:N", Doc: "N nodes on a line", Order: 1000,
		Parse:  func(arg string) (policy.Machine, error) { return policy.Machine{Procs: len(arg)}, nil },
		Format: func(m policy.Machine) string { return strings.Repeat("x", m.Procs) },
	})
	m, err := policy.ParseMachine("line:xxx")
	if err != nil || m != (policy.Machine{Kind: "line", Procs: 3}) || m.String() != "line:xxx" {
		t.Fatalf("line:xxx: %+v (%s), %v", m, m, err)
	}
	fs := policy.Families()
	if last := fs[len(fs)-1]; last.Kind != "line" || fs[0].Kind != policy.Flat {
		t.Errorf("families in order: first %s, last %s", fs[0].Kind, last.Kind)
	}
	if !policy.Fits(nil, "line") || policy.Fits(nil, "malleable") || !policy.Fits([]string{"malleable"}, "malleable") {
		t.Error("Fits: a spec with no kinds fits every family but the exclusive ones")
	}
	defer func() {
		if recover() == nil {
			t.Error("a second family line registered")
		}
	}()
	policy.RegisterFamily(policy.Family{Kind: "line", Parse: func(string) (policy.Machine, error) { return policy.Machine{}, nil }, Format: func(policy.Machine) string { return "" }})
}
