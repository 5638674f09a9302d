package trace

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// withFooter returns the Parquet file b with its footer edited by edit.
func withFooter(t testing.TB, b []byte, edit func(*format.FileMetaData)) []byte {
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	md := *f.Metadata()
	edit(&md)
	foot, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint32(b[len(b)-8:])
	out := append([]byte(nil), b[:len(b)-8-int(n)]...)
	out = append(out, foot...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(foot)))
	return append(out, "PAR1"...)
}

// Issue 25: a footer that claims 10^9 rows in a file of a few KB, or a
// footer of 1 GB in a file of a few hundred bytes, is a one-line error
// that costs no more memory than the file can fill.
func TestFooterClaims(t *testing.T) {
	seed := parquetSeed(t)
	huge := withFooter(t, seed, func(md *format.FileMetaData) {
		md.NumRows = 1e9
		md.RowGroups[0].NumRows = 1e9
	})
	long := append([]byte(nil), seed...)
	binary.LittleEndian.PutUint32(long[len(long)-8:], 1<<30)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"rows", huge, "c.parquet: not a readable Parquet file: column job_id, row group 0: its pages hold 2 values, the footer claims 1000000000 rows"},
		{"footer", long, "c.parquet: not a readable Parquet file: the footer claims 1073741824 bytes in a file of "},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ReadParquet(bytes.NewReader(c.data), int64(len(c.data)), "c.parquet", ReadOptions{})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want %s…", c.name, err, c.want)
		}
		// The jobs allocated at first: at most 4096 + one per byte.
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
			t.Errorf("%s: %d MB allocated for a %d-byte file", c.name, grew>>20, len(c.data))
		}
	}
}
