package traces

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// The reproduction suites (report reproduce): a sweep plan plus the
// published values it is checked against, one TOML file each.
//
//go:embed suites/*.toml
var suites embed.FS

// Suites lists the embedded suites by name (file name without .toml),
// sorted.
func Suites() []string {
	entries, _ := fs.ReadDir(suites, "suites")
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok && !e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Suite returns the embedded suite name: its path in the repository
// ("traces/suites/NAME.toml", for messages) and its contents.
func Suite(name string) (path string, data []byte, err error) {
	p := "suites/" + name + ".toml"
	if name == "" || strings.ContainsAny(name, "/\\*?[") {
		return "", nil, fmt.Errorf("traces: no suite %q (have %s)", name, strings.Join(Suites(), ", "))
	}
	data, err = suites.ReadFile(p)
	if err != nil {
		return "", nil, fmt.Errorf("traces: no suite %q (have %s)", name, strings.Join(Suites(), ", "))
	}
	return "traces/" + p, data, nil
}
