package report

import (
	"os"
	"path/filepath"
	"testing"
)

// F7 (issue 25): a sweep dataset with fewer complete cells than its
// manifest records is reported, not silently shortened.
func TestIncompleteSweep(t *testing.T) {
	dir := t.TempDir()
	if got := incompleteSweep(dir, 3); got != "" {
		t.Errorf("no manifest: %q", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "sweep.json"), []byte(`{"sweep":"q","fingerprint":"f","cells":72}`), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "70 of the sweep's 72 cells have results: the report leaves out the 2 others (still running, or lost: `replay sweep --resume` completes them)"
	if got := incompleteSweep(dir, 70); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := incompleteSweep(dir, 72); got != "" {
		t.Errorf("complete: %q", got)
	}
}
