package sweep

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/experiment"
	"github.com/schedlab/schedlab/model/workload"
)

// tomlFields returns the toml keys of struct type t with their field's
// type.
func tomlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		if tag := t.Field(i).Tag.Get("toml"); tag != "" {
			out[tag] = t.Field(i).Type
		}
	}
	return out
}

// The [replay] table's keys are the declared replay options' keys, no
// more, no fewer.
func TestReplayKeysDeclared(t *testing.T) {
	var declared, fields []string
	for _, o := range experiment.ReplayOptions {
		if o.Key != "" {
			declared = append(declared, o.Key)
		}
	}
	for k := range tomlFields(reflect.TypeOf(Replay{})) {
		fields = append(fields, k)
	}
	sort.Strings(declared)
	sort.Strings(fields)
	if strings.Join(declared, " ") != strings.Join(fields, " ") {
		t.Errorf("[replay] keys %v, declared %v", fields, declared)
	}
}

// Every key of a [[workload]] table is a model's parameter, one of the
// sweep's own keys or a trace-file key; every model parameter's key has a
// field of its type.
func TestWorkloadKeysDeclared(t *testing.T) {
	fields := tomlFields(reflect.TypeOf(Workload{}))
	known := map[string]bool{"traces": true, "strict": true}
	for model, keys := range sweepKeys {
		for _, k := range keys {
			known[k] = true
		}
		m, ok := workload.ModelNamed(model)
		if !ok {
			t.Fatalf("sweepKeys names model %q, which is not declared", model)
		}
		for _, p := range m.Params {
			if p.Scope != workload.FlagAndKey {
				continue
			}
			known[p.Key()] = true
			ft, ok := fields[p.Key()]
			if !ok {
				t.Errorf("%s: parameter %s has no [[workload]] field", model, p.Key())
				continue
			}
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft != reflect.TypeOf(p.Zero()) {
				t.Errorf("%s.%s: field of type %v, parameter of type %T", model, p.Key(), ft, p.Zero())
			}
		}
	}
	for k := range fields {
		if !known[k] {
			t.Errorf("[[workload]] key %s is declared by no model", k)
		}
	}
	if len(sweepKeys) != len(workload.Models) {
		t.Errorf("sweepKeys has %d models, workload.Models %d", len(sweepKeys), len(workload.Models))
	}
}
