package trace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
)

// FuzzParquetTrace found this: one byte of a valid file's footer turning a
// column's codec from ZSTD (6, zigzag 0x0c) into LZ4_RAW (7, 0x0e) made
// the Parquet library's LZ4 decoder double its buffer until the process
// died out of memory. LZ4_RAW is refused with one line instead.
func TestLZ4RawRefused(t *testing.T) {
	seed := parquetSeed(t)
	i := bytes.Index(seed, []byte("submit_time\x15\x0c"))
	if i < 0 {
		t.Fatal("no submit_time column chunk with the ZSTD codec in the seed's footer")
	}
	b := bytes.Clone(seed)
	b[i+len("submit_time\x15")] = 0x0e
	_, err := ReadParquet(bytes.NewReader(b), int64(len(b)), "c.parquet", ReadOptions{})
	want := "c.parquet: not a readable Parquet file: column submit_time: LZ4_RAW compression is not read (the Parquet library's LZ4 decoder cannot bound its memory on a damaged page): rewrite the file with zstd, snappy or gzip"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// FuzzParquetTrace found these: a footer length past the start of the
// file (4 GiB claimed in 2 KB) and a column chunk's data page offset moved
// by two bytes, so that the page header read there claimed 1.2 GB. The
// library allocated both before reading; and a footer row count of 5
// million for 2 rows sized the jobs. Now none of these, and no change of
// one footer byte, makes a read allocate more than 64 MiB.
func TestParquetClaimsBounded(t *testing.T) {
	seed := parquetSeed(t)
	b := bytes.Clone(seed)
	binary.LittleEndian.PutUint32(b[len(b)-8:], 0xffff0000)
	_, err := ReadParquet(bytes.NewReader(b), int64(len(b)), "c.parquet", ReadOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("c.parquet: not a readable Parquet file: the footer claims 4294901760 bytes in a file of %d", len(b))) {
		t.Errorf("footer length: %v", err)
	}
	allocs := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	// A row group whose row count (5 million) is not its pages' (2):
	// the jobs were allocated from it, 954 MiB.
	raw, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzParquetTrace", "62531eb51e7d7b63"))
	if err != nil {
		t.Fatal(err)
	}
	_, lit, _ := strings.Cut(strings.TrimSpace(string(raw)), "[]byte(")
	s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
	if err != nil {
		t.Fatal(err)
	}
	a := allocs()
	_, err = ReadParquet(strings.NewReader(s), int64(len(s)), "c.parquet", ReadOptions{})
	if n := allocs() - a; n > 64<<20 || err == nil || !strings.Contains(err.Error(), "column job_id, row group 0: its pages hold 2 values, the footer claims 5000000 rows") {
		t.Errorf("row count: %d MiB allocated, %v", n>>20, err)
	}
	footer := int(binary.LittleEndian.Uint32(seed[len(seed)-8:]))
	for i := len(seed) - 8 - footer; i < len(seed)-8; i++ {
		for _, d := range []byte{2, 4, 0x40, 0x80} {
			b := bytes.Clone(seed)
			b[i] += d
			a := allocs()
			_, err := ReadParquet(bytes.NewReader(b), int64(len(b)), "c.parquet", ReadOptions{})
			if n := allocs() - a; n > 64<<20 {
				t.Fatalf("footer byte %d + %#x: the read allocated %d MiB (%v)", i, d, n>>20, err)
			}
		}
	}
}
