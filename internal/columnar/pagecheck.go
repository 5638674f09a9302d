package columnar

import (
	"fmt"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// MaxPageBytes bounds the uncompressed size a page of a Parquet file
// may claim (writers use pages of 64 KiB to 1 MiB; the columns are
// decoded at once, so a few dozen such pages may be held together).
const MaxPageBytes = 64 << 20

// maxPageHeaderBytes bounds a page header (a few dozen bytes for
// numeric columns).
const maxPageHeaderBytes = 256 << 10

// checkPages walks the page headers of every column chunk of f (read from
// r, size bytes) before the Parquet library decodes a page: each column
// chunk must lie inside the file, each page inside its column chunk, and
// no page may claim more than MaxPageBytes uncompressed; the pages of
// column rowsCol (a required flat column: a value a row; "" none) must
// hold as many values as the footer claims rows. The
// library allocates a page's compressed and uncompressed sizes as its
// header claims before reading them: a damaged header (1.2 GB claimed in
// a 6 KB file, found by FuzzParquetTrace) would allocate them, and a few
// such pages decoded at once end the process out of memory, which no
// recover can catch.
func checkPages(r io.ReaderAt, size int64, f *parquet.File, rowsCol string) error {
	var buf []byte
	rows := int64(0)
	for _, rg := range f.Metadata().RowGroups {
		rows += rg.NumRows
	}
	if rows != f.NumRows() {
		return fmt.Errorf("the row groups hold %d rows, the footer claims %d", rows, f.NumRows())
	}
	for gi, rg := range f.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			md := &cc.MetaData
			where := fmt.Sprintf("column %s, row group %d", strings.Join(md.PathInSchema, "."), gi)
			start := md.DataPageOffset
			if md.DictionaryPageOffset != 0 {
				start = md.DictionaryPageOffset
			}
			end := start + md.TotalCompressedSize
			if start < 4 || md.TotalCompressedSize < 0 || end < start || end > size {
				return fmt.Errorf("%s: its pages [%d, %d) lie outside the file (%d bytes)", where, start, end, size)
			}
			values := int64(0) // in the data pages
			for pos := start; pos < end; {
				var h format.PageHeader
				n := int64(0)
				for _, want := range []int64{4 << 10, maxPageHeaderBytes} { // most headers fit in the first read
					m := min(want, end-pos)
					if int64(cap(buf)) < m {
						buf = make([]byte, m)
					}
					buf = buf[:m]
					if _, err := r.ReadAt(buf, pos); err != nil && err != io.EOF {
						return fmt.Errorf("%s: page at byte %d: %v", where, pos, err)
					}
					h = format.PageHeader{}
					pr := new(thrift.CompactProtocol).NewReaderFromBytes(buf)
					if err := thrift.NewDecoder(pr).Decode(&h); err != nil {
						if m == end-pos || want == maxPageHeaderBytes {
							return fmt.Errorf("%s: page at byte %d: damaged page header (%v)", where, pos, err)
						}
						continue
					}
					n = int64(pr.BytesRead())
					break
				}
				if h.CompressedPageSize < 0 || pos+n+int64(h.CompressedPageSize) > end {
					return fmt.Errorf("%s: the page at byte %d claims %d bytes, past the end of its column chunk (byte %d)", where, pos, h.CompressedPageSize, end)
				}
				if h.UncompressedPageSize < 0 || h.UncompressedPageSize > MaxPageBytes {
					return fmt.Errorf("%s: the page at byte %d claims %d bytes uncompressed (at most %d)", where, pos, h.UncompressedPageSize, MaxPageBytes)
				}
				switch {
				case h.DataPageHeader.Valid:
					values += int64(h.DataPageHeader.V.NumValues)
				case h.DataPageHeaderV2.Valid:
					values += int64(h.DataPageHeaderV2.V.NumValues)
				}
				pos += n + int64(h.CompressedPageSize)
			}
			// The footer's row count sizes the rows before any page is
			// read; it must be the pages' (a damaged count once allocated
			// a gigabyte of jobs).
			if rowsCol != "" && len(md.PathInSchema) == 1 && md.PathInSchema[0] == rowsCol && values != rg.NumRows {
				return fmt.Errorf("%s: its pages hold %d values, the footer claims %d rows", where, values, rg.NumRows)
			}
		}
	}
	return nil
}

// checkCodecs refuses column chunks compressed with LZ4_RAW: the Parquet
// library's LZ4 decoder doubles its buffer until the page decodes, so a
// damaged page (or a damaged codec field turning zstd into LZ4_RAW, found
// by FuzzParquetTrace) ends the process out of memory, which no recover
// can catch. schedlab writes zstd; other writers use zstd, snappy or gzip
// by default.
func checkCodecs(f *parquet.File) error {
	for _, rg := range f.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			if cc.MetaData.Codec == format.Lz4Raw {
				return fmt.Errorf("column %s: LZ4_RAW compression is not read (the Parquet library's LZ4 decoder cannot bound its memory on a damaged page): rewrite the file with zstd, snappy or gzip", strings.Join(cc.MetaData.PathInSchema, "."))
			}
		}
	}
	return nil
}
