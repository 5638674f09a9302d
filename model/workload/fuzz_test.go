package workload

import (
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// A load range whose count overflows is refused, not a panic.
func TestLoadsCountOverflow(t *testing.T) {
	for _, s := range []string{"0.1:1e290:1e-9", "1e-9:1.7e299:1e-9"} {
		if _, err := ParseLoads(s); err == nil || !strings.Contains(err.Error(), "more than 10000 loads") {
			t.Errorf("%s: error %v", s, err)
		}
	}
}

// FuzzLoads found "1e300": finite, but +Inf once rounded to 1e-9, and
// accepted as a load of +Inf (its input is under testdata/fuzz/FuzzLoads).
func TestLoadsRoundedToInf(t *testing.T) {
	for _, s := range []string{"1e300", "0.5,1e300", "0.5:1e300:1e299"} {
		if ls, err := ParseLoads(s); err == nil || !strings.Contains(err.Error(), `"1e300" is not a positive number`) {
			t.Errorf("%s: %v, %v", s, ls, err)
		}
	}
}

// FuzzLoads: ParseLoads never panics, refuses with one line, and what it
// accepts is 1..10000 positive finite loads.
func FuzzLoads(f *testing.F) {
	for _, s := range []string{"0.1:0.9:0.1", "0.3,0.5,0.7", "0.5", "0.1:1e300:1e-9", "1:0:1", "a", "0,1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls, err := ParseLoads(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if len(ls) < 1 || len(ls) > 10000 {
			t.Fatalf("%q: %d loads", s, len(ls))
		}
		for _, l := range ls {
			if !(l > 0) || math.IsInf(l, 0) {
				t.Fatalf("%q: load %v", s, l)
			}
		}
	})
}

// F5 (issue 25): a size distribution over more sizes than MaxSizes is
// refused (its table would take gigabytes), naming --size-max.
func TestSizeTableBound(t *testing.T) {
	m, _ := policy.ParseMachine("flat:1000000000")
	_, err := newSizeModel(m, SizeSpec{Dist: SizeUniform})
	if err == nil || !strings.Contains(err.Error(), "at most 16777216 sizes (give --size-max)") {
		t.Errorf("error %v", err)
	}
	if _, err := newSizeModel(m, SizeSpec{Dist: SizeUniform, Max: 1000}); err != nil {
		t.Errorf("size-max 1000: %v", err)
	}
}
