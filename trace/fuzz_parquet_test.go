package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/format"
)

// parquetSeed is a small trace's Parquet bytes.
func parquetSeed(t testing.TB) []byte {
	tr, err := ReadSWF(strings.NewReader("; MaxProcs: 8\n"+goodLine+"2 3 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"), "s.swf", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteParquet(&b, tr); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// F1, F2 (issue 25): one- and two-byte changes of a valid file that made
// the Parquet library panic (in the page index, and in a page decoder's
// goroutine) are one-line errors or, where only unused parts are hit, a
// normal read: never a crash.
func TestCorruptParquetNoPanic(t *testing.T) {
	seed := parquetSeed(t)
	for i := range seed {
		for _, c := range []byte{0x94, 'D'} {
			b := append([]byte(nil), seed...)
			b[i] = c
			_, err := ReadParquet(bytes.NewReader(b), int64(len(b)), "c.parquet", ReadOptions{})
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("byte %d = %#x: multi-line error %q", i, c, err)
			}
		}
	}
}

// FuzzParquetTrace feeds mutations of a valid trace file to the Parquet
// reader: it must never panic (nor crash in its decoder goroutines) and
// errors are one line.
//
// Inputs whose footer claims millions of rows are fast: the jobs are
// allocated as they are decoded, bounded by the file's size.
func FuzzParquetTrace(f *testing.F) {
	seed := parquetSeed(f)
	f.Add(seed)
	f.Add(withFooter(f, seed, func(md *format.FileMetaData) {
		md.NumRows = 5_000_000
		md.RowGroups[0].NumRows = 5_000_000
	}))
	if b, err := os.ReadFile(filepath.Join("testdata", "f2.parquet")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := ReadParquet(bytes.NewReader(b), int64(len(b)), "f.parquet", ReadOptions{})
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
	})
}
