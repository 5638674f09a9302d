package experiment

import (
	"os"
	"testing"

	"github.com/schedlab/schedlab/trace"
)

func TestZZProfile(t *testing.T) {
	path := os.Getenv("PROF_TRACE")
	if path == "" {
		t.Skip()
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run([]*trace.Trace{tr}, Options{Out: t.TempDir(), Allocs: []string{"count"}, Scheds: []string{os.Getenv("PROF_SCHED")}, Placement: false}); err != nil {
		t.Fatal(err)
	}
}
