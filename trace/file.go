package trace

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// Format is a trace file format, chosen by file extension.
type Format int

// Trace file formats.
const (
	FormatUnknown Format = iota
	FormatSWF            // .swf
	FormatSWFGzip        // .swf.gz
	FormatParquet        // .parquet
)

// FormatOf returns the format of path from its extension.
func FormatOf(path string) Format {
	p := strings.ToLower(path)
	switch {
	case strings.HasSuffix(p, ".swf.gz"):
		return FormatSWFGzip
	case strings.HasSuffix(p, ".swf"):
		return FormatSWF
	case strings.HasSuffix(p, ".parquet"):
		return FormatParquet
	}
	return FormatUnknown
}

// ReadFile reads a trace from path: SWF (.swf), gzipped SWF (.swf.gz) or
// Parquet (.parquet). Errors name the file, and the line or row and field
// where they can.
//
// The file's SHA-256 (of its bytes as stored, computed while it is parsed)
// is recorded as InputSHA256, and as Provenance.SHA256 when the file is
// the trace's source (an SWF log; a Parquet file without provenance).
func ReadFile(path string, opt ReadOptions) (*Trace, error) {
	switch FormatOf(path) {
	case FormatParquet:
		sum := hashFile(path)
		t, err := readParquetFile(path, opt)
		if err != nil {
			return nil, err
		}
		return t, sum.record(t)
	case FormatSWF, FormatSWFGzip:
	default:
		return nil, fmt.Errorf("%s: unknown trace format (want .swf, .swf.gz or .parquet)", path)
	}
	r, closeAll, err := openSWF(path)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	sum := hashFile(path)
	t, err := ReadSWF(r, path, opt)
	if err != nil {
		return nil, err
	}
	return t, sum.record(t)
}

// fileHash is the SHA-256 of a file, computed in its own goroutine.
type fileHash struct {
	path string
	done chan struct{}
	sum  string
	err  error
}

// hashFile starts computing the SHA-256 of path.
func hashFile(path string) *fileHash {
	h := &fileHash{path: path, done: make(chan struct{})}
	go func() {
		defer close(h.done)
		f, err := os.Open(path)
		if err != nil {
			h.err = err
			return
		}
		defer f.Close()
		d := sha256.New()
		if _, err := io.Copy(d, f); err != nil {
			h.err = fmt.Errorf("%s: sha256: %w", path, err)
			return
		}
		h.sum = hex.EncodeToString(d.Sum(nil))
	}()
	return h
}

// record waits for the hash and records it in t: as InputSHA256, and as
// the provenance's SHA256 when t's source is the file itself.
func (h *fileHash) record(t *Trace) error {
	<-h.done
	if h.err != nil {
		return h.err
	}
	t.InputSHA256 = h.sum
	if t.Provenance.Source == h.path {
		t.Provenance.SHA256 = h.sum
	}
	return nil
}

// openSWF opens an SWF file, decompressing it (in its own goroutine, ahead
// of the parser) when it is gzipped.
func openSWF(path string) (io.Reader, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, nil, &Error{File: path, Msg: "gzip: " + err.Error()}
		}
		ar := newAsyncReader(&gzipErrReader{zr})
		return ar, func() { ar.Close(); zr.Close(); f.Close() }, nil
	}
	if FormatOf(path) == FormatSWFGzip {
		f.Close()
		return nil, nil, &Error{File: path, Msg: "not gzip data (the name ends in .gz)"}
	}
	return br, func() { f.Close() }, nil
}

// gzipErrReader names gzip failures (truncation, corruption) as such.
type gzipErrReader struct{ r io.Reader }

func (g *gzipErrReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		if err == io.ErrUnexpectedEOF {
			err = fmt.Errorf("gzip stream truncated (unexpected end of file)")
		} else if !strings.HasPrefix(err.Error(), "gzip: ") { // compress/gzip's own errors say it already
			err = fmt.Errorf("gzip: %w", err)
		}
	}
	return n, err
}

// WriteFile writes t to path in the format its extension names, atomically:
// on error nothing is left at path and an existing file is untouched. The
// temporary files of path left by killed runs are removed first
// (CleanStaleTemps).
func WriteFile(path string, t *Trace) error {
	format := FormatOf(path)
	if format == FormatUnknown {
		return fmt.Errorf("%s: unknown trace format (want .swf, .swf.gz or .parquet)", path)
	}
	// What the readers refuse is not written (a generator's parameters
	// that make times overflow, say): the error names the job and field.
	for i := range t.Jobs {
		if err := nonFinite(&t.Jobs[i], func(field int, msg string) error {
			if field > 0 {
				return fmt.Errorf("%s: job %d (record %d): field %d (%s): %s; nothing written", path, t.Jobs[i].ID, i+1, field, FieldNames[field-1], msg)
			}
			return fmt.Errorf("%s: job %d (record %d): %s; nothing written", path, t.Jobs[i].ID, i+1, msg)
		}); err != nil {
			return err
		}
	}
	return writeAtomic(path, func(w io.Writer) error {
		switch format {
		case FormatParquet:
			return WriteParquet(w, t)
		case FormatSWFGzip:
			zw := gzip.NewWriter(w)
			if err := WriteSWF(zw, t); err != nil {
				return err
			}
			return zw.Close()
		}
		return WriteSWF(w, t)
	})
}

// writeAtomic is AtomicWrite after removing the stale temporary files of
// path (best effort: a folder that cannot be cleaned is AtomicWrite's to
// report).
func writeAtomic(path string, write func(w io.Writer) error) error {
	CleanStaleTemps(filepath.Dir(path), filepath.Base(path))
	return AtomicWrite(path, write)
}

func gzipNewReader(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }
