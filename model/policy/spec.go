package policy

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Params are a policy's parameters, as given on the command line in
// "name:key=value,key=value".
type Params map[string]string

// ParseSpec splits "mq:q=32,order=down" into the policy name and its
// parameters. A value may be quoted, 'like this' or "like this", to hold
// commas and spaces (ext:cmd='python3 my_sched.py'); the quotes are not
// part of the value, and a value quoted with one kind may hold only the
// other (there is no escape), so no value holds both.
func ParseSpec(s string) (name string, p Params, err error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(s), ":")
	name = strings.TrimSpace(name)
	if name == "" {
		return "", nil, fmt.Errorf("policy %q: empty name", s)
	}
	p = Params{}
	if rest == "" {
		return name, p, nil
	}
	for _, kv := range SplitList(rest) {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if n := len(v); n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n-1] == v[0] {
			if strings.IndexByte(v[1:n-1], v[0]) >= 0 {
				return "", nil, fmt.Errorf("policy %q: parameter %q: a quoted value cannot hold its own quote character (quote with the other one)", s, k)
			}
			v = v[1 : n-1]
		} else if strings.ContainsAny(v, `'"`) {
			return "", nil, fmt.Errorf("policy %q: parameter %q: a quoted value must be quoted whole ('...' or \"...\")", s, k)
		}
		if !ok || k == "" {
			return "", nil, fmt.Errorf("policy %q: parameter %q is not key=value", s, kv)
		}
		if strings.TrimLeft(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != "" {
			return "", nil, fmt.Errorf("policy %q: parameter name %q: want letters, digits, _, - or .", s, k)
		}
		if _, dup := p[k]; dup {
			return "", nil, fmt.Errorf("policy %q: parameter %q given twice", s, k)
		}
		p[k] = v
	}
	return name, p, nil
}

// SplitList splits s at the commas that are not inside a quoted value
// ('...' or "...").
func SplitList(s string) []string {
	var out []string
	var quote byte
	from := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ',':
			out = append(out, s[from:i])
			from = i + 1
		}
	}
	return append(out, s[from:])
}

// quoted returns v as ParseSpec reads it back: quoted when it holds a
// comma, a quote or white space.
func quoted(v string) string {
	if !strings.ContainsAny(v, `,'"`) && !strings.ContainsFunc(v, unicode.IsSpace) {
		return v
	}
	if strings.Contains(v, "'") {
		return `"` + v + `"`
	}
	return "'" + v + "'"
}

// String returns the parameters as "k=v,k=v" in key order ("" when
// empty), values holding a comma, a quote or white space quoted.
func (p Params) String() string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + quoted(p[k]))
	}
	return b.String()
}

// Float returns parameter key as a float64, def when absent. "inf" gives +Inf.
func (p Params) Float(key string, def float64) (float64, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	if strings.EqualFold(v, "inf") {
		return math.Inf(1), nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) {
		return 0, fmt.Errorf("parameter %s=%q: not a number", key, v)
	}
	return f, nil
}

// Int returns parameter key as an int, def when absent.
func (p Params) Int(key string, def int) (int, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("parameter %s=%q: not an integer", key, v)
	}
	return n, nil
}

// Choice returns parameter key, which must be one of choices; def when absent.
func (p Params) Choice(key, def string, choices ...string) (string, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	for _, c := range choices {
		if v == c {
			return v, nil
		}
	}
	return "", fmt.Errorf("parameter %s=%q: want one of %s", key, v, strings.Join(choices, ", "))
}

// Check returns an error naming the first parameter not in known.
func (p Params) Check(known ...string) error {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		found := false
		for _, n := range known {
			if k == n {
				found = true
				break
			}
		}
		if !found {
			if len(known) == 0 {
				return fmt.Errorf("unknown parameter %q (this policy takes none)", k)
			}
			return fmt.Errorf("unknown parameter %q (known: %s)", k, strings.Join(known, ", "))
		}
	}
	return nil
}

// Param documents one policy parameter for `replay list`.
type Param struct {
	Name    string // key
	Default string // default value, as written on the command line
	Doc     string // one line
}

// AllocatorSpec describes an allocator to the registry.
type AllocatorSpec struct {
	Name   string   // public name, e.g. "count"
	Doc    string   // one line, citing the source paper and section
	Kinds  []string // machine kinds it works on
	Params []Param
	New    func(m Machine, p Params) (Allocator, error)
	// Machines, when set, says whether the allocator is offered on a
	// machine of its kinds (nil error) or why not (2-D buddy: square
	// power-of-two meshes only). An allocator not offered is left out of
	// the default pairs and refused when named.
	Machines func(m Machine) error
}

// SchedulerSpec describes a scheduler to the registry.
type SchedulerSpec struct {
	Name   string   // public name, e.g. "easy"
	Doc    string   // one line, citing the source paper and section
	Kinds  []string // machine kinds it works on; nil means any but the Exclusive families' (Fits)
	Params []Param
	New    func(m Machine, p Params) (Scheduler, error)
	// Named says the scheduler runs only when named: it is never among
	// the default pairs (ext, which needs cmd=...).
	Named bool
}

// Supports reports whether kind is in kinds (an empty list supports all).
func Supports(kinds []string, kind string) bool {
	if len(kinds) == 0 {
		return true
	}
	for _, k := range kinds {
		if k == kind {
			return true
		}
	}
	return false
}
