package catalog

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The committed docs/policies.md is what the catalog generates.
func TestPoliciesReferenceCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteReference(&b); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/policies.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("docs/policies.md is not current: run go generate ./cmd/replay")
	}
}

// Every built-in allocator and scheduler has a row naming a file that
// exists; policies registered from other packages (the examples) do not.
func TestPoliciesReferenceComplete(t *testing.T) {
	var b bytes.Buffer
	if err := WriteReference(&b); err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(b.String(), "\n") {
		cells := strings.Split(l, " | ")
		if len(cells) >= 3 && strings.HasPrefix(cells[0], "| `") {
			name := strings.Trim(strings.Fields(strings.TrimPrefix(cells[0], "| "))[0], "`")
			rows[name] = strings.Trim(cells[2], "`")
		}
	}
	extA, extS := registered()
	ext := map[string]bool{}
	for _, a := range extA {
		ext[a.Name] = true
	}
	for _, s := range extS {
		ext[s.Name] = true
	}
	var names []string
	for _, a := range Allocators() {
		names = append(names, a.Name)
	}
	for _, s := range Schedulers() {
		names = append(names, s.Name)
	}
	for _, n := range names {
		file, ok := rows[n]
		switch {
		case ext[n] && ok:
			t.Errorf("%s, registered from a test, is listed", n)
		case ext[n]:
		case !ok:
			t.Errorf("%s: no row", n)
		default:
			if _, err := os.Stat("../../" + file); err != nil || !strings.HasSuffix(file, ".go") {
				t.Errorf("%s: file %q: %v", n, file, err)
			}
		}
	}
	if rows["easy"] != "model/backfill/easy.go" || rows["ff"] != "model/mesh/ff.go" || rows["gabl"] != "model/mesh/gabl.go" {
		t.Errorf("files: easy %q, ff %q, gabl %q", rows["easy"], rows["ff"], rows["gabl"])
	}
}
