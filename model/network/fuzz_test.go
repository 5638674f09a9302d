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
