package metrics

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/schema"
)

// The committed docs/metrics.md is what model/metrics and model/schema
// generate.
func TestMetricsReferenceCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteReference(&b); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("docs/metrics.md is not current: run go generate ./cmd/replay")
	}
}

// Every column of the results files and every metric has a row.
func TestMetricsReferenceComplete(t *testing.T) {
	var b bytes.Buffer
	if err := WriteReference(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, row := range []any{schema.Job{}, schema.Summary{}, schema.Series{}, schema.SizeClass{}, schema.Piece{}} {
		for _, c := range schema.Columns(row) {
			if !strings.Contains(out, "| `"+c.Name+"` | "+c.Kind.String()+" |") {
				t.Errorf("%T column %s: no row", row, c.Name)
			}
		}
	}
	for _, ms := range [][]Metric{Summary, Comm, Malleable} {
		for _, m := range ms {
			if !strings.Contains(out, "| `"+m.Column+"` | "+m.Name+" |") {
				t.Errorf("metric %s: no row", m.Column)
			}
		}
	}
	// A field of a commented group points to the group's first column; a
	// field with its own comment does not start a group.
	for _, want := range []string{"| `window_util` | double | optional | see `window_end` |", "| `preemptions` | int64 | optional | see `deadline_jobs` |"} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q", want)
		}
	}
}
