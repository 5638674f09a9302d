package columnar

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
)

// Error is an error reading a file's columns: the column and row group
// where it happened, when known. RowError is the error of one value.
type Error struct {
	Column   string // "" when not about one column
	RowGroup int    // 0-based; −1 when not about one row group
	Msg      string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Column != "" {
		b.WriteString("column " + e.Column)
	}
	if e.RowGroup >= 0 {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "row group %d", e.RowGroup)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// RowError is an error of one value: its 0-based row in the file, and a
// message that names the column ("column x: ...").
type RowError struct {
	Row int
	Msg string
}

func (e *RowError) Error() string { return e.Msg }

// oneLine makes a recovered panic value a one-line message.
func oneLine(r any) string {
	return strings.Join(strings.Fields(fmt.Sprint(r)), " ")
}

// Open opens a Parquet file of size bytes: its footer only, without the
// page index and bloom filters (not used, and skipping them also skips the
// library's decoding of a corrupt one). The footer length is checked
// against the file before the library allocates it, the row groups' row
// counts against the file's, and a panic of the library is an error.
func Open(r io.ReaderAt, size int64) (f *parquet.File, err error) {
	return OpenRows(r, size, "")
}

// OpenRows is Open, which also walks every page header before a page is
// decoded (checkPages: pages inside their column chunks, at most
// MaxPageBytes uncompressed, the values of column rowsCol, when not "",
// as many as the rows claimed) and refuses LZ4_RAW column chunks
// (checkCodecs).
func OpenRows(r io.ReaderAt, size int64, rowsCol string) (f *parquet.File, err error) {
	var tail [8]byte
	if size >= 8 {
		if _, err := r.ReadAt(tail[:], size-8); err != nil {
			return nil, err
		}
	}
	if string(tail[4:]) == "PAR1" {
		n := int64(binary.LittleEndian.Uint32(tail[:4]))
		if n > size-12 {
			return nil, fmt.Errorf("the footer claims %d bytes in a file of %d", n, size)
		}
		footer := make([]byte, n)
		if _, err := r.ReadAt(footer, size-8-n); err != nil {
			return nil, err
		}
		if err := checkFooter(footer); err != nil {
			return nil, fmt.Errorf("unreadable footer (%v)", err)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, fmt.Errorf("unreadable footer (%s)", oneLine(p))
		}
	}()
	f, err = parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, err
	}
	var rows int64
	for i, rg := range f.Metadata().RowGroups {
		if rg.NumRows < 0 || rg.NumRows > f.NumRows()-rows {
			return nil, &Error{RowGroup: i, Msg: fmt.Sprintf("%d rows past the footer's %d", rg.NumRows, f.NumRows())}
		}
		rows += rg.NumRows
	}
	if rows != f.NumRows() {
		return nil, fmt.Errorf("%d rows in row groups, the footer counts %d", rows, f.NumRows())
	}
	if err := checkCodecs(f); err != nil {
		return nil, err
	}
	if err := checkPages(r, size, f, rowsCol); err != nil {
		return nil, err
	}
	return f, nil
}

// RowsFor is the number of rows a reader allocates at once for a file of
// size bytes whose footer claims claimed rows: the claim, bounded by
// 4096 rows plus one per byte of the file. Every file schedlab writes takes
// several bytes a row; rows beyond the bound are allocated as they are
// decoded, so that a corrupt claim (10^9 rows in a file of a few KB) costs
// no more memory than the file can fill.
func RowsFor(claimed, size int64) int {
	return int(max(0, min(claimed, 4096+max(size, 0))))
}

// Each calls f(0), ..., f(n−1) on up to GOMAXPROCS goroutines and returns
// the first error in index order: the one fan-out of the codec, for the
// columns of a batch and the blocks of rows.
func Each(n int, f func(i int) error) error {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			if err := f(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				errs[i] = f(i)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// errEOF is io.EOF, the end of a column chunk's pages.
func isEOF(err error) bool { return errors.Is(err, io.EOF) }
