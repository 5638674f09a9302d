package trace

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestAtomicWriteRefusesBadTargets(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, "not a regular file"},
		{sub, "is a directory"},
		{filepath.Join(dir, "missing", "x.parquet"), "directory " + filepath.Join(dir, "missing") + " does not exist"},
	} {
		err := AtomicWrite(c.path, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err })
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.path) {
			t.Errorf("AtomicWrite(%s) = %v, want an error naming it: %q", c.path, err, c.want)
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("leftovers in %s: %v", dir, ents)
	}
}

func TestTempRegistry(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "jobs.parquet")
	// A stale temporary file of a killed run, and one being written now.
	stale := filepath.Join(dir, ".jobs.parquet.tmp-123")
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp, err := CreateTemp(target)
	if err != nil {
		t.Fatal(err)
	}
	removed, err := CleanStaleTemps(dir, "jobs.parquet")
	if err != nil || len(removed) != 1 || removed[0] != stale {
		t.Fatalf("CleanStaleTemps = %v, %v; want [%s]", removed, err, stale)
	}
	if _, err := os.Stat(tmp.Name()); err != nil {
		t.Fatalf("the live temporary file was removed: %v", err)
	}
	got := RemoveTemps()
	if len(got) != 1 || got[0] != tmp.Name() {
		t.Errorf("RemoveTemps = %v, want [%s]", got, tmp.Name())
	}
	if _, err := os.Stat(tmp.Name()); !os.IsNotExist(err) {
		t.Errorf("temporary file still there: %v", err)
	}
	tmp.Discard()
	// A committed file is no longer registered.
	if err := AtomicWrite(target, func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got := RemoveTemps(); len(got) != 0 {
		t.Errorf("committed file still registered: %v", got)
	}
	if _, err := os.Stat(target); err != nil {
		t.Error(err)
	}
}
