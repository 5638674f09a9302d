package experiment

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/catalog"
)

// Every invalid option is one field error naming it; valid zero values
// take their defaults.
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		opt   Options
		field string
		msg   string
	}{
		{Options{Machine: "flat:0"}, "machine", "processor count must be an integer in 1..2147483647"},
		{Options{Mode: "elastic"}, "mode", "want rigid or malleable"},
		{Options{Allocs: []string{"nosuch"}}, "alloc", `unknown allocator "nosuch" (known: ` + knownAllocs() + ")"},
		{Options{Scheds: []string{}}, "sched", "an empty list: leave it out for every compatible policy"},
		{Options{Workers: -1}, "j", "want at least 1 worker"},
		{Options{Shape: "round"}, "shape", "want square, row or exact"},
		{Options{Comm: "wormhole:plen=0"}, "comm", "plen must be 1..1000000 flits"},
		{Options{Stretch: "hops:alpha=-1"}, "stretch", "alpha must be a finite number ≥ 0"},
		{Options{Stretch: "linear:alpha=1"}, "stretch", `unknown model "linear" (off, hops, sst)`},
		{Options{Stretch: "hops:alpha=1", Machine: "flat:8"}, "stretch", "machine flat:8 has no hop distance (mesh, mesh3d, torus, cube, fattree and dragonfly machines have)"},
		{Options{Stretch: "sst:a=1,b=1", Comm: "analytic"}, "stretch", "not with a communication model (--comm analytic)"},
		{Options{Estimates: "psychic"}, "estimates", `want "requested", "actual" or factor:x=X`},
		{Options{Estimates: "factor:x=0"}, "estimates", "parameter x=0: want a finite factor > 0"},
		{Options{BsldTau: -5}, "bsld-tau", "must be a positive number of seconds"},
		{Options{BsldTau: math.Inf(1)}, "bsld-tau", "must be a positive number of seconds"},
		{Options{Warmup: -1}, "warmup", "must be ≥ 0"},
		{Options{Until: -3}, "until", "must be a positive time (0: no window)"},
		{Options{Until: math.NaN()}, "until", "must be a positive time (0: no window)"},
		{Options{WarmupFinished: 1}, "warmup-finished", "must be a fraction in [0, 1)"},
		{Options{WarmupFinished: math.NaN()}, "warmup-finished", "must be a fraction in [0, 1)"},
		{Options{Events: "batch"}, "events", "want instant or sequential"},
		{Options{Events: "sequential", Machine: "mesh:4x4"}, "events", "flat machines only, not mesh:4x4"},
		{Options{Events: "sequential", Machine: "malleable:8"}, "events", "flat machines only, not in malleable mode"},
		{Options{Events: "sequential", Mode: "malleable"}, "events", "flat machines only, not in malleable mode"},
	} {
		err := Validate(&c.opt)
		fe, ok := AsFieldError(err)
		if !ok || fe.Field != c.field || fe.Msg != c.msg {
			t.Errorf("%+v: %v, want %s: %s", c.opt, err, c.field, c.msg)
			continue
		}
		if o, ok := OptionNamed(fe.Field); !ok || o.Flag == "" && o.Key == "" {
			t.Errorf("field %s is not a declared option", fe.Field)
		}
	}
	var opt Options
	if err := Validate(&opt); err != nil || opt.BsldTau != DefaultBsldTau || opt.Estimates != "requested" || opt.Shape != "square" || opt.Events != "instant" || opt.Workers != runtime.GOMAXPROCS(0) {
		t.Errorf("defaults: %+v, %v", opt, err)
	}
}

// knownAllocs lists the catalog's allocators, as an unknown name's error
// names them.
func knownAllocs() string {
	var names []string
	for _, a := range catalog.Allocators() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}
