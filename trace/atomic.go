package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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

var temps = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// TempPattern is the name pattern of the temporary files made for path:
// ".<base>.tmp-*" in path's folder.
func TempPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

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
		return fmt.Errorf("%s: not a regular file (%s): refusing to replace it", path, st.Mode().Type())
	}
	return nil
}

// CreateTemp checks path with CheckTarget and creates its temporary file.
func CreateTemp(path string) (*Temp, error) {
	if err := CheckTarget(path); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), TempPattern(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	temps.Lock()
	temps.m[f.Name()] = true
	temps.Unlock()
	return &Temp{File: f, path: path}, nil
}

func untrack(name string) {
	temps.Lock()
	delete(temps.m, name)
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
	untrack(t.Name())
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
		return fmt.Errorf("%s: %w", t.path, err)
	}
	untrack(t.Name())
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
// written when the process is interrupted). It returns their names.
func RemoveTemps() []string {
	temps.Lock()
	defer temps.Unlock()
	var out []string
	for name := range temps.m {
		os.Remove(name)
		out = append(out, name)
	}
	clear(temps.m)
	return out
}

// CleanStaleTemps removes the temporary files of base (".<base>.tmp-*") left
// in dir by an earlier process that was killed before it could clean up,
// skipping those this process is writing. It returns the names removed.
func CleanStaleTemps(dir, base string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	prefix := "." + base + ".tmp-"
	var out []string
	temps.Lock()
	defer temps.Unlock()
	for _, e := range ents {
		name := filepath.Join(dir, e.Name())
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() || temps.m[name] {
			continue
		}
		if err := os.Remove(name); err != nil {
			return out, err
		}
		out = append(out, name)
	}
	return out, nil
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
