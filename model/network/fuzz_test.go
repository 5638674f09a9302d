package network

import (
	"strings"
	"testing"
)

// FuzzParse: the communication spec never panics, refuses with one line,
// and what it accepts reads back from its String.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"off", "analytic", "wormhole", "wormhole:ts=3,plen=8,msgs=5", "wormhole:msgs=NaN",
		"wormhole:msgs=1e12", "analytic:unit=msg", "wormhole:seed=7", "x", "wormhole:ts=-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		back, err := Parse(sp.String())
		if err != nil || back != sp {
			t.Fatalf("%q: %+v prints as %q, which reads back as %+v, %v", s, sp, sp.String(), back, err)
		}
	})
}

// F18, F19 (issue 25): plen and msgs are bounded, and every parameter
// error names the spec.
func TestParseBounds(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"wormhole:msgs=1e12", `comm "wormhole:msgs=1e12": msgs must be 1..1000000 (at least one round per job)`},
		{"wormhole:plen=2000000", `comm "wormhole:plen=2000000": plen must be 1..1000000 flits`},
		{"wormhole:msgs=NaN", `comm "wormhole:msgs=NaN": parameter msgs="NaN": not a number`},
		{"wormhole:msgs=x", `comm "wormhole:msgs=x": parameter msgs="x": not a number`},
		{"analytic:unit=bytes", `comm "analytic:unit=bytes": parameter unit="bytes": want one of round, msg`},
	} {
		if _, err := Parse(c.in); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.in, err, c.want)
		}
	}
}
