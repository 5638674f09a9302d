package trace

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// MaxParquetPageBytes bounds the uncompressed size a page of a Parquet
// trace may claim (writers use pages of 64 KiB to 1 MiB; the columns are
// decoded at once, so a few dozen such pages may be held together).
const MaxParquetPageBytes = 64 << 20

// maxPageHeaderBytes bounds a page header (a few dozen bytes for the
// numeric columns of a trace).
const maxPageHeaderBytes = 256 << 10

// checkFooter checks that the footer length in the last 8 bytes of a
// Parquet file (r, size bytes) fits in the file: the library allocates
// the length it reads there before reading the footer (4 GiB claimed by a
// 2 KB file, found by FuzzParquetTrace). A file too short to hold a
// footer is left to the library's own error.
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return nil
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); string(tail[4:]) == "PAR1" && n > size-12 {
		return fmt.Errorf("the footer claims %d bytes, the file holds %d", n, size)
	}
	return nil
}

// checkPages walks the page headers of every column chunk of f (read from
// r, size bytes) before the Parquet library decodes a page: each column
// chunk must lie inside the file, each page inside its column chunk, and
// no page may claim more than MaxParquetPageBytes uncompressed; the
// job_id pages must hold as many values as the footer claims rows. The
// library allocates a page's compressed and uncompressed sizes as its
// header claims before reading them: a damaged header (1.2 GB claimed in
// a 6 KB file, found by FuzzParquetTrace) would allocate them, and a few
// such pages decoded at once end the process out of memory, which no
// recover can catch.
func checkPages(r io.ReaderAt, size int64, f *parquet.File) error {
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
				if h.UncompressedPageSize < 0 || h.UncompressedPageSize > MaxParquetPageBytes {
					return fmt.Errorf("%s: the page at byte %d claims %d bytes uncompressed (at most %d)", where, pos, h.UncompressedPageSize, MaxParquetPageBytes)
				}
				switch {
				case h.DataPageHeader.Valid:
					values += int64(h.DataPageHeader.V.NumValues)
				case h.DataPageHeaderV2.Valid:
					values += int64(h.DataPageHeaderV2.V.NumValues)
				}
				pos += n + int64(h.CompressedPageSize)
			}
			// job_id is required and flat: a value a row. The footer's row
			// count sizes the jobs before any page is read; it must be the
			// pages' (a damaged count once allocated a gigabyte of jobs).
			if len(md.PathInSchema) == 1 && md.PathInSchema[0] == FieldNames[0] && values != rg.NumRows {
				return fmt.Errorf("%s: its pages hold %d values, the footer claims %d rows", where, values, rg.NumRows)
			}
		}
	}
	return nil
}
