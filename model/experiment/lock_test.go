package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/schedlab/schedlab/trace"
)

// F6 (issue 25): a symbolic link (or anything but a regular file) at the
// lock's path is refused; the file it points to is left untouched.
func TestLockRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	lock := filepath.Join(out, LockFile)
	if err := os.Symlink(target, lock); err != nil {
		t.Fatal(err)
	}
	_, err := Lock(lock, false, out)
	if want := lock + ": a symbolic link, not a lock file (remove it)"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Fatalf("the link's target was changed: %q", b)
	}
	os.Remove(lock)
	if err := syscall.Mkfifo(lock, 0o644); err != nil {
		t.Skip("no fifo:", err)
	}
	_, err = Lock(lock, true, out)
	if want := lock + ": not a regular file, not a lock file (remove it)"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}

// F19 (issue 25): a lock held by shards (no pid written) is said so, not
// "pid ?"; and a sweep's dataset is not a replay's --out.
func TestLockMessages(t *testing.T) {
	dir := t.TempDir()
	held, err := Lock(filepath.Join(dir, LockFile), true, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	_, err = Lock(filepath.Join(dir, LockFile), false, dir)
	if want := dir + " is in use by a sweep's shards, or another replay: wait for them, or choose another --out"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	sw := t.TempDir()
	os.Mkdir(filepath.Join(sw, "summary"), 0o755)
	if _, _, err := lockDir(sw); err == nil || err.Error() != sw+" holds a sweep dataset (summary/): choose another --out for replay run" {
		t.Errorf("sweep dir: %v", err)
	}
}

// F19 (issue 25): a lock file that cannot be created (a read-only --out,
// or a file in place of the directory) names its path once.
func TestLockOpenErrorNamesPathOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{filepath.Join(file, LockFile): "not a directory"}
	if os.Geteuid() != 0 { // root writes into a read-only directory
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		cases[filepath.Join(ro, LockFile)] = "permission denied"
	}
	for path, why := range cases {
		_, err := Lock(path, false, filepath.Dir(path))
		if want := path + ": " + why; err == nil || err.Error() != want {
			t.Errorf("error %v, want %s", err, want)
		}
	}
}

// A run that fails in an output directory it made takes the directories
// it made away again; a directory that existed keeps what it held, and
// gets no results.
func TestFailedRunLeavesNoDirectory(t *testing.T) {
	root := t.TempDir()
	fail := Options{Scheds: []string{"ext:cmd=false"}}
	fail.Out = filepath.Join(root, "a", "b")
	if _, err := Run([]*trace.Trace{tiny()}, fail); err == nil || !strings.Contains(err.Error(), "ext") {
		t.Fatalf("error %v", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("left behind in %s: %v", root, ents)
	}
	fail.Out = filepath.Join(root, "kept")
	if err := os.MkdirAll(fail.Out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fail.Out, "notes.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run([]*trace.Trace{tiny()}, fail); err == nil {
		t.Fatal("no error")
	}
	ents, _ := os.ReadDir(fail.Out)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != LockFile+" notes.txt" {
		t.Errorf("%s holds %v", fail.Out, names)
	}
	// A successful run keeps the directory it made.
	ok := Options{Out: filepath.Join(root, "c", "d")}
	if _, err := Run([]*trace.Trace{tiny()}, ok); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ok.Out, "summary.parquet")); err != nil {
		t.Error(err)
	}
}
