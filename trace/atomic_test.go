package trace

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// Targets that are not regular files, missing folders and directories are
// refused with one clear line, before anything is written.
func TestAtomicWriteTargetErrors(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), link); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{filepath.Join(dir, "out", "x.parquet"), filepath.Join(dir, "out", "x.parquet") + ": directory " + filepath.Join(dir, "out") + " does not exist"},
		{dir, dir + ": is a directory"},
		{link, link + ": not a regular file (symbolic link): refusing to replace it"},
	}
	if st, err := os.Stat("/dev/null"); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		cases = append(cases, struct{ path, want string }{"/dev/null", "/dev/null: not a regular file (character device): refusing to replace it"})
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			err := AtomicWrite(c.path, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err })
			if err == nil || err.Error() != c.want {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
	if st, err := os.Lstat("/dev/null"); err == nil && st.Mode().IsRegular() {
		t.Error("/dev/null became a regular file")
	}
}

// TrackTemp registers another package's temporary file: RemoveTemps removes
// it, CleanStaleTemps leaves it, untrack forgets it.
func TestTrackTemp(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, ".r.pdf.tmp-a"), filepath.Join(dir, ".r.pdf.tmp-b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	untrackA := TrackTemp(a)
	untrackB := TrackTemp(b)
	if removed, err := CleanStaleTemps(dir, "r.pdf"); err != nil || len(removed) != 0 {
		t.Fatalf("CleanStaleTemps removed tracked files: %v %v", removed, err)
	}
	untrackB()
	untrackB() // idempotent
	if got := RemoveTemps(); len(got) != 1 || got[0] != a {
		t.Fatalf("RemoveTemps = %v, want [%s]", got, a)
	}
	untrackA() // after RemoveTemps: harmless
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Errorf("%s still there", a)
	}
	if _, err := os.Stat(b); err != nil {
		t.Errorf("untracked %s removed: %v", b, err)
	}
}

// CleanStaleTemps removes the temporary files of a target left by processes
// that no longer run, and keeps those of a live process (another run
// writing the same target), other targets' files and directories.
func TestCleanStaleTemps(t *testing.T) {
	dir := t.TempDir()
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() { live.Process.Kill(); live.Wait() }()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	files := map[string]bool{ // name → removed
		".x.parquet.tmp-123": true, // no process number (an older run)
		fmt.Sprintf(".x.parquet.tmp-%d-1", dead.Process.Pid): true,
		fmt.Sprintf(".x.parquet.tmp-%d-2", live.Process.Pid): false,
		fmt.Sprintf(".x.parquet.tmp-%d-3", os.Getpid()):      true, // ours but not registered: stale
		fmt.Sprintf(".y.parquet.tmp-%d-1", dead.Process.Pid): false,
		"x.parquet": false,
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".x.parquet.tmp-9-9"), 0o755); err != nil {
		t.Fatal(err)
	}
	removed, err := CleanStaleTemps(dir, "x.parquet")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for name, gone := range files {
		if gone {
			want = append(want, filepath.Join(dir, name))
		}
		if _, err := os.Stat(filepath.Join(dir, name)); os.IsNotExist(err) != gone {
			t.Errorf("%s: removed %v, want %v", name, os.IsNotExist(err), gone)
		}
	}
	slices.Sort(want)
	slices.Sort(removed)
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	if removed, err := CleanStaleTemps(filepath.Join(dir, "missing"), "x"); err != nil || removed != nil {
		t.Errorf("missing folder: %v %v", removed, err)
	}
}

// The registry is safe for concurrent use: files being written are never
// taken for stale ones, whatever the interleaving (run with -race).
func TestTempRegistryConcurrent(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			target := filepath.Join(dir, "same.parquet")
			for i := 0; i < 50; i++ {
				if err := AtomicWrite(target, func(w io.Writer) error { _, err := w.Write([]byte("data")); return err }); err != nil {
					errs <- err
				}
				untrack := TrackTemp(filepath.Join(dir, fmt.Sprintf(".same.parquet.tmp-%d-%d", g, i)))
				untrack()
			}
		}()
	}
	stop := make(chan struct{})
	var cleaner sync.WaitGroup
	cleaner.Add(1)
	go func() {
		defer cleaner.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := CleanStaleTemps(dir, "same.parquet"); err != nil {
				errs <- err
			}
		}
	}()
	wg.Wait()
	close(stop)
	cleaner.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := RemoveTemps(); len(got) != 0 {
		t.Errorf("files left registered: %v", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("leftovers: %v", ents)
	}
}

// WriteFile and Convert remove the temporary files a killed run left next
// to their target.
func TestWriteFileCleansStaleTemps(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	if err := os.WriteFile(in, []byte("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"a.parquet", "b.swf"} {
		stale := filepath.Join(dir, "."+out+".tmp-123")
		if err := os.WriteFile(stale, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Convert(in, filepath.Join(dir, out), ConvertOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(stale); !os.IsNotExist(err) {
			t.Errorf("%s left in place", stale)
		}
	}
}
