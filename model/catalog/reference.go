package catalog

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/model/policy"
)

// module is the import path of this module; a policy's file is named
// relative to the module root.
const module = "github.com/schedlab/schedlab"

// refMachines are the machines on which WriteReference builds each policy
// with its default parameters, one per machine kind, to find the Go type
// that implements it.
var refMachines = map[string]string{"flat": "flat:64", "mesh": "mesh:16x16", "cube": "cube:6", "malleable": "malleable:16", "mesh3d": "mesh3d:4x4x4", "torus": "torus:4x4x4",
	"fattree": "fattree:4x4x4", "dragonfly": "dragonfly:g=5,a=2,p=2,h=2"}

// WriteReference writes the policies reference (the generated
// docs/policies.md): what `replay list` prints, as Markdown, with the file
// that implements each policy. It lists this repository's policies: those
// registered with RegisterAllocator and RegisterScheduler, and families
// of internal packages (test families), are left out. It reads the
// module's Go source to name the files, so it runs from a checkout (go
// generate, go test).
func WriteReference(w io.Writer) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	files := &typeFiles{root: root, decls: map[string]map[string]string{}}
	var b strings.Builder
	b.WriteString("# Policies\n\n")
	b.WriteString("<!-- Generated from model/catalog by `go run ./cmd/replay docs policies > docs/policies.md` (`go generate ./cmd/replay`); do not edit. -->\n\n")
	b.WriteString("Every machine kind, allocator and scheduler that `replay list` prints, in its order, with its parameters and defaults,\n")
	b.WriteString("the machine kinds it runs on, the file that implements it and its source (the paper and section it follows).\n")
	b.WriteString("A spec is `name` or `name:key=value,...` ([replay.md](replay.md)); the families and their modelling choices are described in\n")
	b.WriteString("[machines.md](machines.md) and [modelling.md](modelling.md); your own policy: [write-a-policy.md](write-a-policy.md).\n\n")

	b.WriteString("## Machines\n\n| machine | family | description |\n|---|---|---|\n")
	extA, extS := registered()
	skip := map[string]bool{}
	for _, a := range extA {
		skip["a:"+a.Name] = true
	}
	for _, s := range extS {
		skip["s:"+s.Name] = true
	}
	for _, f := range policy.Families() {
		if f.Parse != nil && strings.Contains(files.funcFile(f.Parse), "/internal/") {
			continue
		}
		has := false
		for _, a := range Allocators() {
			has = has || policy.Supports(a.Kinds, f.Kind)
		}
		if !has {
			continue
		}
		file := "–"
		if f.Parse != nil {
			file = files.funcFile(f.Parse)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Syntax, file, cell(f.Doc))
	}

	b.WriteString("\n## Allocators\n\n| allocator | machines | file | parameters (default) | policy (source) |\n|---|---|---|---|---|\n")
	for _, s := range Allocators() {
		if skip["a:"+s.Name] {
			continue
		}
		file := files.funcFile(s.New)
		if v, ok := build(s.Kinds, func(m policy.Machine) (any, error) { return s.New(m, policy.Params{}) }); ok {
			file = files.valueFile(v, file)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", s.Name, kindList(s.Kinds), file, params(s.Params), cell(s.Doc))
	}

	b.WriteString("\n## Schedulers\n\n| scheduler | machines | file | parameters (default) | policy (source) |\n|---|---|---|---|---|\n")
	for _, s := range Schedulers() {
		if skip["s:"+s.Name] {
			continue
		}
		file := files.funcFile(s.New)
		if v, ok := build(s.Kinds, func(m policy.Machine) (any, error) { return s.New(m, policy.Params{}) }); ok {
			file = files.valueFile(v, file)
		}
		name := "`" + s.Name + "`"
		if s.Named {
			name += " (run only when named)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", name, kindList(s.Kinds), file, params(s.Params), cell(s.Doc))
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// build constructs a policy with its default parameters on the first
// reference machine of its kinds (any: flat).
func build(kinds []string, mk func(policy.Machine) (any, error)) (any, bool) {
	ks := kinds
	if len(ks) == 0 {
		ks = []string{"flat"}
	}
	for _, k := range ks {
		spec, ok := refMachines[k]
		if !ok {
			continue
		}
		m, err := policy.ParseMachine(spec)
		if err != nil {
			continue
		}
		v, err := mk(m)
		if err == nil && v != nil {
			return v, true
		}
	}
	return nil, false
}

func kindList(k []string) string {
	if len(k) == 0 {
		return "any"
	}
	k = append([]string(nil), k...)
	sort.Strings(k)
	return strings.Join(k, ", ")
}

func params(ps []policy.Param) string {
	if len(ps) == 0 {
		return "–"
	}
	var out []string
	for _, p := range ps {
		def := p.Default
		if def == "" {
			def = "required"
		}
		out = append(out, fmt.Sprintf("`%s` (%s): %s", p.Name, cell(def), cell(p.Doc)))
	}
	return strings.Join(out, "; ")
}

// cell escapes text for a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// moduleRoot is the directory of this module's go.mod, found from this
// file's own path.
func moduleRoot() (string, error) {
	_, self, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(self) {
		return "", fmt.Errorf("catalog: the policies reference needs the module's source (run it with go run or go test, without -trimpath)")
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(self)))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return "", fmt.Errorf("catalog: module root not found from %s: %v", self, err)
	}
	return root, nil
}

// typeFiles finds where this module's types and functions are declared.
type typeFiles struct {
	root  string
	decls map[string]map[string]string // package path → type name → file (module-relative)
}

// funcFile is the module-relative file declaring the function fn (a
// closure's file: where it was registered).
func (t *typeFiles) funcFile(fn any) string {
	pc := reflect.ValueOf(fn).Pointer()
	f := runtime.FuncForPC(pc)
	if f == nil {
		return "–"
	}
	file, _ := f.FileLine(pc)
	if rel, err := filepath.Rel(t.root, file); err == nil && !strings.HasPrefix(rel, "..") {
		return "`" + filepath.ToSlash(rel) + "`"
	}
	return "–"
}

// valueFile is the file declaring the Go type that implements the policy
// v: v's own type, or, for a frame that delegates to a strategy held in an
// interface field (the mesh allocators), the innermost such strategy's
// type in this module. def is returned when none is found.
func (t *typeFiles) valueFile(v any, def string) string {
	ty := innermost(reflect.ValueOf(v), 0)
	if ty == nil {
		return def
	}
	if file := t.declFile(ty.PkgPath(), ty.Name()); file != "" {
		return "`" + file + "`"
	}
	return def
}

// innermost returns the deepest named type of this module reachable from
// v through pointers, embedded or plain struct fields and non-nil
// interface fields.
func innermost(v reflect.Value, depth int) reflect.Type {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if !v.IsValid() || depth > 4 {
		return nil
	}
	ty := v.Type()
	var own reflect.Type
	if ty.Name() != "" && strings.HasPrefix(ty.PkgPath(), module+"/") {
		own = ty
	}
	if v.Kind() == reflect.Struct {
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.Kind() == reflect.Interface && !f.IsNil() {
				if in := innermost(f, depth+1); in != nil && in.PkgPath() == ty.PkgPath() {
					return in
				}
			}
			if ty.Field(i).Anonymous || f.Kind() == reflect.Struct {
				if in := innermost(f, depth+1); in != nil && in.PkgPath() == ty.PkgPath() && in != f.Type() {
					return in
				}
			}
		}
	}
	return own
}

// declFile is the module-relative file declaring type name in package
// pkg, or "".
func (t *typeFiles) declFile(pkg, name string) string {
	m, ok := t.decls[pkg]
	if !ok {
		m = map[string]string{}
		t.decls[pkg] = m
		dir := filepath.Join(t.root, filepath.FromSlash(strings.TrimPrefix(pkg, module+"/")))
		fset := token.NewFileSet()
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			n := e.Name()
			if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
					for _, s := range g.Specs {
						m[s.(*ast.TypeSpec).Name.Name] = filepath.ToSlash(filepath.Join(strings.TrimPrefix(pkg, module+"/"), n))
					}
				}
			}
		}
	}
	return m[name]
}
