package trace

import (
	"bytes"
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
	want := "c.parquet: column submit_time: LZ4_RAW compression is not read (the Parquet library's LZ4 decoder cannot bound its memory on a damaged page): rewrite the file with zstd, snappy or gzip"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
