package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Temp is a temporary file being written next to its target, renamed onto
// the target by Commit. While open it is registered, so that RemoveTemps
// (called by the commands on SIGINT and SIGTERM) can remove it.
type Temp struct {
	*os.File
	path string
}

// temps is the process-wide registry of the temporary files being written
// (by CreateTemp and AtomicWrite, and those other packages declare with
// TrackTemp). Its lock is held while a temporary file is created and
// registered, and while CleanStaleTemps lists and removes files, so that a
// file being written is never taken for a stale one, and RemoveTemps, run
// by a signal handler, sees every file created before it.
var temps = struct {
	sync.Mutex
	m       map[string]int // name → registrations
	stopped bool           // StopTemps was called: no new temporary file
	stops   map[int]func() // AtStop's functions, by registration
	next    int
}{m: map[string]int{}, stops: map[int]func(){}}

// errStopped is CreateTemp's error once StopTemps was called.
var errStopped = errors.New("interrupted: no new file is written")

// TempPattern is the name pattern of the temporary files made for path:
// ".<base>.tmp-<pid>-*" in path's folder, pid the process's id, so that
// CleanStaleTemps can tell a live process's file from a killed one's. Every
// such name matches ".<base>.tmp-*".
func TempPattern(path string) string {
	return "." + filepath.Base(path) + ".tmp-" + strconv.Itoa(os.Getpid()) + "-*"
}

// TrackTemp registers path, a temporary file written by the caller (for
// instance next to a results file, named by TempPattern), so that
// RemoveTemps removes it on SIGINT or SIGTERM and CleanStaleTemps leaves it
// alone. Call untrack once the file has been renamed or removed; calling it
// again does nothing. Safe for concurrent use.
func TrackTemp(path string) (untrack func()) {
	temps.Lock()
	temps.m[path]++
	temps.Unlock()
	var once sync.Once
	return func() { once.Do(func() { untrackTemp(path) }) }
}

// CheckTarget returns an error when path cannot be (re)placed by a new
// regular file: its folder does not exist, or path exists and is a
// directory, a device, a FIFO or anything but a regular file (renaming over
// /dev/null would replace the device).
func CheckTarget(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: directory %s does not exist", path, dir)
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case !st.IsDir():
		return fmt.Errorf("%s: %s is not a directory", path, dir)
	}
	st, err = os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("%s: is a directory", path)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file (%s): refusing to replace it", path, fileKind(st.Mode()))
	}
	return nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file " + m.Type().String()
}

// CreateTemp checks path with CheckTarget and creates its temporary file.
func CreateTemp(path string) (*Temp, error) {
	if err := CheckTarget(path); err != nil {
		return nil, err
	}
	temps.Lock()
	defer temps.Unlock()
	if temps.stopped {
		return nil, fmt.Errorf("%s: %w", path, errStopped)
	}
	f, err := os.CreateTemp(filepath.Dir(path), TempPattern(path))
	if err != nil {
		// The error names the temporary file, which the user never asked
		// for: name the target and the folder instead.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot create a file in %s: %w", path, filepath.Dir(path), err)
	}
	temps.m[f.Name()]++
	return &Temp{File: f, path: path}, nil
}

func untrackTemp(name string) {
	temps.Lock()
	if temps.m[name]--; temps.m[name] <= 0 {
		delete(temps.m, name)
	}
	temps.Unlock()
}

// Discard closes and removes the temporary file. It is safe to call after
// Commit (it does nothing then).
func (t *Temp) Discard() {
	if t == nil || t.File == nil {
		return
	}
	t.File.Close()
	os.Remove(t.Name())
	untrackTemp(t.Name())
	t.File = nil
}

// Close syncs and closes the temporary file without renaming it (the
// caller renames with Rename once every file of a set is complete).
func (t *Temp) Close() error {
	if err := t.File.Sync(); err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	if err := t.File.Close(); err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	if err := os.Chmod(t.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	return nil
}

// Rename moves the closed temporary file onto its target, after checking
// again that the target may be replaced.
func (t *Temp) Rename() error {
	if err := CheckTarget(t.path); err != nil {
		return err
	}
	if err := os.Rename(t.Name(), t.path); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err
		}
		return fmt.Errorf("%s: cannot replace it with the file written (%s): %w", t.path, filepath.Base(t.Name()), err)
	}
	untrackTemp(t.Name())
	t.File = nil
	return nil
}

// Commit closes the temporary file and renames it onto its target.
func (t *Temp) Commit() error {
	if err := t.Close(); err != nil {
		return err
	}
	return t.Rename()
}

// RemoveTemps removes every temporary file still registered (files being
// written when the process is interrupted: the commands call it on SIGINT and
// SIGTERM) and forgets them. It returns their names, sorted. Safe for
// concurrent use.
func RemoveTemps() []string {
	temps.Lock()
	defer temps.Unlock()
	var out []string
	for name := range temps.m {
		os.Remove(name)
		out = append(out, name)
	}
	clear(temps.m)
	slices.Sort(out)
	return out
}

// StopTemps removes every registered temporary file, as RemoveTemps, and
// makes every later CreateTemp fail, so that no new temporary file appears
// between an interrupt's clean-up and the process's exit (another goroutine
// may still be opening files). The commands call it on SIGINT and SIGTERM.
func StopTemps() []string {
	temps.Lock()
	temps.stopped = true
	temps.Unlock()
	removed := RemoveTemps()
	temps.Lock()
	ids := slices.Sorted(maps.Keys(temps.stops))
	fs := make([]func(), len(ids))
	for i, id := range ids {
		fs[i] = temps.stops[id]
	}
	clear(temps.stops)
	temps.Unlock()
	for _, f := range fs {
		f()
	}
	return removed
}

// AtStop registers f to run when StopTemps has removed the temporary files
// (on SIGINT or SIGTERM), in the order of registration; cancel unregisters
// it. Safe for concurrent use.
func AtStop(f func()) (cancel func()) {
	temps.Lock()
	id := temps.next
	temps.next++
	temps.stops[id] = f
	temps.Unlock()
	return func() {
		temps.Lock()
		delete(temps.stops, id)
		temps.Unlock()
	}
}

// CleanStaleTemps removes the temporary files of target base
// (".<base>.tmp-*") left in dir by earlier runs that were killed before they
// could clean up: the commands call it before writing base. It leaves the
// files registered in this process, and those whose name carries the id of
// a process still running (another run writing the same target; see
// TempPattern). It returns the names removed, sorted; a missing dir is not
// an error. Safe for concurrent use with CreateTemp, AtomicWrite and the
// registry.
func CleanStaleTemps(dir, base string) (removed []string, err error) {
	return CleanStaleTempsOf(dir, map[string]bool{base: true})
}

// CleanStaleTempsOf is CleanStaleTemps for several targets of one folder,
// reading it once (a sweep's partition folder holds a file per cell).
func CleanStaleTempsOf(dir string, bases map[string]bool) (removed []string, err error) {
	temps.Lock()
	defer temps.Unlock()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		name := filepath.Join(dir, e.Name())
		n := e.Name()
		if !strings.HasPrefix(n, ".") || !e.Type().IsRegular() || temps.m[name] > 0 {
			continue
		}
		i := strings.LastIndex(n, ".tmp-")
		if i < 0 || !bases[n[1:i]] {
			continue
		}
		if pid, ok := tempPid(n[i+len(".tmp-"):]); ok && pid != os.Getpid() && processRunning(pid) {
			continue
		}
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, err
		}
		removed = append(removed, name)
	}
	return removed, nil
}

// tempPid returns the process id in the suffix "<pid>-<random>" of a
// temporary file's name.
func tempPid(suffix string) (int, bool) {
	p, _, ok := strings.Cut(suffix, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(p)
	return pid, err == nil && pid > 0
}

// AtomicWrite writes a file through write, all or nothing: the bytes go to a
// temporary file in the same directory, which is renamed onto path only when
// write and the final flush and sync succeed. On any error the temporary file
// is removed and an existing file at path is left untouched. A path whose
// folder does not exist, or that is a directory or not a regular file
// (/dev/null), is refused before anything is written.
func AtomicWrite(path string, write func(w io.Writer) error) (err error) {
	t, err := CreateTemp(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			t.Discard()
		}
	}()
	bw := bufio.NewWriterSize(t, 1<<20)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return t.Commit()
}
