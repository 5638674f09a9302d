package schema

import (
	"os"
	"strings"
	"testing"
)

// The units and NULLs table of docs/results-units-and-nulls.md is
// UnitsTable's, between its markers.
func TestUnitsDocCurrent(t *testing.T) {
	b, err := os.ReadFile("../../docs/results-units-and-nulls.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(b), "<!-- units:begin -->\n")
	table, _, ok2 := strings.Cut(rest, "<!-- units:end -->")
	if !ok1 || !ok2 {
		t.Fatal("docs/results-units-and-nulls.md: no <!-- units:begin --> ... <!-- units:end --> markers")
	}
	if want := UnitsTable(); table != want {
		t.Fatalf("docs/results-units-and-nulls.md is not current; its table should be:\n%s", want)
	}
}

// Every nullable column's in-memory NULL value reads back what the
// writer writes as NULL.
func TestNullValues(t *testing.T) {
	for _, c := range Columns(Summary{}) {
		if c.Null == "" || strings.HasPrefix(c.Null, "when:") {
			continue
		}
		if v := c.NullValue(); !c.isNull(v) {
			t.Errorf("%s: NullValue %v is not written as NULL", c.Name, v)
		}
	}
}
