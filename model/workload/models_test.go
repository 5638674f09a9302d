package workload

import "testing"

// The defaults are valid together; every declared choice is valid and a
// value outside the choices is blamed on its parameter.
func TestModelChoices(t *testing.T) {
	for _, m := range Models {
		if err := m.Validate(Values{"load": 0.5}); err != nil {
			t.Errorf("%s: defaults: %v", m.Name, err)
		}
		for _, p := range m.Params {
			if len(p.Choices) == 0 {
				continue
			}
			for _, c := range p.Choices {
				v := Values{p.Name: c, "load": 0.5}
				if p.Name == "h2" {
					v["service"] = ServiceH2
				}
				if err := m.Validate(v); err != nil {
					t.Errorf("%s %s=%s: %v", m.Name, p.Name, c, err)
				}
			}
			v := Values{"load": 0.5, "service": ServiceH2}
			v[p.Name] = "bogus"
			err := m.Validate(v)
			pe, ok := AsParamError(err)
			if !ok || pe.Param != p.Name || pe.Model != m.Name || pe.Value != "bogus" {
				t.Errorf("%s %s=bogus: %v, want a ParamError on %s", m.Name, p.Name, err, p.Name)
			}
		}
	}
}

// An error is blamed on the parameter at fault, not on one before it
// that the faulty one makes look wrong, nor on the horizon's job count.
func TestValidateBlame(t *testing.T) {
	for _, c := range []struct {
		m     *Model
		v     Values
		param string
		msg   string
	}{
		{&MalleableModel, Values{"eff-dist": EffBeta, "beta-q": -1.0, "load": 1.0}, "beta-q", "beta p=0 q=-1 must both be positive and finite"},
		{&WorkloadModel, Values{"horizon": -1.0, "jobs": 0, "load": 1.0}, "horizon", "jobs (0) and horizon (-1) must be positive"},
		{&WorkloadModel, Values{"horizon": 100.0, "jobs": 0, "load": -1.0}, "load", "must be positive"},
		{&WorkloadModel, Values{"machine": "mesh:8x8", "size-max": 9, "load": 1.0}, "size-max", "a request larger than the machine's width 8 (mesh:8x8)"},
		{&LublinModel, Values{"procs": 100}, "procs", "the Lublin model needs a power of two in 32..1048576"},
	} {
		err := c.m.Validate(c.v)
		pe, ok := AsParamError(err)
		if !ok || pe.Param != c.param || pe.Msg != c.msg {
			t.Errorf("%s %v: %v, want %s: %s", c.m.Name, c.v, err, c.param, c.msg)
		}
	}
	if err := WorkloadModel.Validate(Values{"horizon": 100.0, "jobs": 0, "load": 0.5}); err != nil {
		t.Errorf("a horizon without jobs: %v", err)
	}
}

// A model's spec of its default values is the spec of the declared
// defaults.
func TestSpecOfDefaults(t *testing.T) {
	s, err := WorkloadSpecOf(nil)
	if err != nil || s.Machine != DefaultMachine || s.Size.Dist != DefaultSize || s.Service.Mean != DefaultMean ||
		s.Service.CV != DefaultCV || s.Service.Alpha != DefaultH2Alpha || s.Arrivals.Jobs != DefaultJobs || s.Coupling != DefaultCoupling {
		t.Errorf("WorkloadSpecOf(defaults) = %+v, %v", s, err)
	}
	ms, err := MalleableSpecOf(nil)
	if err != nil || ms.Procs != DefaultMalleableProcs || ms.WorkCV != DefaultWorkCV || ms.EffMin != 1 || ms.EffMax != 99 || ms.Jobs != DefaultMalleableJobs {
		t.Errorf("MalleableSpecOf(defaults) = %+v, %v", ms, err)
	}
	ls, err := LublinSpecOf(nil)
	if err != nil || ls.Procs != DefaultLublinProcs || ls.Jobs != DefaultLublinJobs {
		t.Errorf("LublinSpecOf(defaults) = %+v, %v", ls, err)
	}
}
