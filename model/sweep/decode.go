package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// keyLines maps a dotted key path to the line where it is written
// (array-of-tables elements are numbered from 0: "workload.1.loads").
type keyLines map[string]int

// indexKeys walks a TOML document and records the line of every key:
// tables, arrays of tables, key/values and the keys of inline tables.
func indexKeys(data []byte) keyLines {
	lines := keyLines{}
	var p unstable.Parser
	p.Reset(data)
	count := map[string]int{} // elements seen of each array of tables
	var table []string        // current table path, with indexes
	lineOf := func(n *unstable.Node) int {
		if len(n.Data) > 0 && isSubslice(data, n.Data) {
			return p.Shape(p.Range(n.Data)).Start.Line
		}
		if n.Raw.Length > 0 {
			return p.Shape(n.Raw).Start.Line
		}
		return 0
	}
	keyOf := func(n *unstable.Node) ([]string, int) {
		var parts []string
		line := 0
		it := n.Key()
		for it.Next() {
			k := it.Node()
			if line == 0 {
				line = lineOf(k)
			}
			parts = append(parts, string(k.Data))
		}
		return parts, line
	}
	var inline func(prefix []string, v *unstable.Node)
	inline = func(prefix []string, v *unstable.Node) {
		if v == nil || v.Kind != unstable.InlineTable {
			return
		}
		it := v.Children()
		for it.Next() {
			kv := it.Node()
			parts, line := keyOf(kv)
			path := append(append([]string(nil), prefix...), parts...)
			set(lines, path, line)
			inline(path, kv.Value())
		}
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			parts, line := keyOf(e)
			table = withIndexes(parts, count)
			set(lines, table, line)
		case unstable.ArrayTable:
			parts, line := keyOf(e)
			arr := append(withIndexes(parts[:len(parts)-1], count), parts[len(parts)-1])
			base := strings.Join(arr, ".")
			i := count[base]
			count[base] = i + 1
			table = append(arr, strconv.Itoa(i))
			set(lines, table, line)
		case unstable.KeyValue:
			parts, line := keyOf(e)
			path := append(append([]string(nil), table...), parts...)
			set(lines, path, line)
			inline(path, e.Value())
		}
	}
	return lines
}

// withIndexes maps a table header's key onto the latest element of every
// array of tables it passes through ([[workload]] then [workload.x] is
// workload.N.x).
func withIndexes(parts []string, count map[string]int) []string {
	var out []string
	for _, k := range parts {
		out = append(out, k)
		if n, ok := count[strings.Join(out, ".")]; ok && n > 0 {
			out = append(out, strconv.Itoa(n-1))
		}
	}
	return out
}

// set records the first line of a key (and of each of its parents).
func set(lines keyLines, path []string, line int) {
	for i := len(path); i > 0; i-- {
		k := strings.Join(path[:i], ".")
		if _, ok := lines[k]; ok {
			if i == len(path) {
				return
			}
			continue
		}
		lines[k] = line
	}
}

func isSubslice(data, b []byte) bool {
	if len(b) == 0 || len(data) == 0 {
		return false
	}
	d0 := reflect.ValueOf(data).Pointer()
	b0 := reflect.ValueOf(b).Pointer()
	return b0 >= d0 && b0+uintptr(len(b)) <= d0+uintptr(len(data))
}

// topKeys returns the top-level TOML keys of the struct v points to.
func topKeys(v any) map[string]bool {
	keys := map[string]bool{}
	if v == nil {
		return keys
	}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return keys
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		keys[name] = true
	}
	return keys
}

// withElement puts into key, after each array of tables it passes
// through, the index of the element written last before row
// (["workload", "seed"] on line 9 → ["workload", "1", "seed"]).
func withElement(key []string, row int, lines keyLines) []string {
	var out []string
	for _, k := range key {
		out = append(out, k)
		prefix := strings.Join(out, ".") + "."
		idx := -1
		for i := 0; ; i++ {
			line, ok := lines[prefix+strconv.Itoa(i)]
			if !ok || line > row {
				break
			}
			idx = i
		}
		if idx >= 0 {
			out = append(out, strconv.Itoa(idx))
		}
	}
	return out
}

// goTypes matches the Go names in go-toml's type errors.
var goTypes = regexp.MustCompile(`into struct field \S+ of type (\S+)`)

// decodeStrict decodes data into v, refusing unknown keys except those
// whose top-level key is in others (decoded into another value). It
// returns the first error, as "path:line: key: message".
func decodeStrict(path string, data []byte, v any, others map[string]bool, lines keyLines) error {
	d := toml.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	err := d.Decode(v)
	if err == nil {
		return nil
	}
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		var unknown []string
		var first *toml.DecodeError
		for i := range sm.Errors {
			e := &sm.Errors[i]
			k := e.Key()
			if len(k) > 0 && others[k[0]] {
				continue
			}
			if first == nil {
				first = e
			}
			unknown = append(unknown, strings.Join(k, "."))
		}
		if first == nil {
			return nil
		}
		row, _ := first.Position()
		msg := fmt.Sprintf("%s:%d: unknown key %q", path, row, strings.Join(first.Key(), "."))
		if len(unknown) > 1 {
			sort.Strings(unknown[1:])
			msg += fmt.Sprintf(" (and %d more: %s)", len(unknown)-1, strings.Join(unknown[1:], ", "))
		}
		return errors.New(msg)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		key := displayKey(withElement(de.Key(), row, lines))
		msg := goTypes.ReplaceAllString(strings.TrimPrefix(de.Error(), "toml: "), "into a value of type $1")
		if key != "" {
			return fmt.Errorf("%s:%d: %s: %s", path, row, key, msg)
		}
		return fmt.Errorf("%s:%d: %s", path, row, msg)
	}
	return fmt.Errorf("%s: %v", path, strings.TrimPrefix(err.Error(), "toml: "))
}
