package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/format"

	"github.com/schedlab/schedlab/internal/columnar"
)

// Parquet key-value metadata keys written with every trace.
const (
	MetaName       = "schedlab.name"           // trace name
	MetaMachine    = "schedlab.machine"        // machine hint
	MetaHeader     = "schedlab.swf_header"     // JSON array of [key, value] pairs, in order
	MetaProvenance = "schedlab.provenance"     // JSON object (see Provenance)
	MetaSchema     = "schedlab.schema_version" // integer
	// MetaSWFPrefix prefixes each keyed SWF header field's first
	// occurrence, e.g. "swf.MaxProcs", for tools that read plain metadata.
	MetaSWFPrefix = "swf."
)

type provenanceJSON struct {
	Source        string            `json:"source"`
	Generator     string            `json:"generator"`
	Params        map[string]string `json:"params,omitempty"`
	Seed          int64             `json:"seed"`
	SchemaVersion int               `json:"schema_version"`
	Load          float64           `json:"load"`
	Rep           int               `json:"rep"`
	SHA256        string            `json:"sha256,omitempty"`
	MachineFrom   string            `json:"machine_from,omitempty"`
}

// metadata returns the key-value pairs that describe t, in a fixed order.
func (t *Trace) metadata() [][2]string {
	hdr := make([][2]string, len(t.Header))
	for i, h := range t.Header {
		hdr[i] = [2]string{h.Key, h.Value}
	}
	hj := marshal(hdr)
	p := t.Provenance
	pj := marshal(provenanceJSON{p.Source, p.Generator, p.Params, p.Seed, SchemaVersion, p.Load, p.Rep, p.SHA256, p.MachineFrom})
	kv := [][2]string{
		{MetaName, t.Name},
		{MetaMachine, t.Machine},
		{MetaSchema, strconv.Itoa(SchemaVersion)},
		{MetaProvenance, string(pj)},
		{MetaHeader, string(hj)},
	}
	seen := map[string]bool{}
	for _, h := range t.Header {
		if h.Key != "" && !seen[h.Key] {
			seen[h.Key] = true
			kv = append(kv, [2]string{MetaSWFPrefix + h.Key, h.Value})
		}
	}
	return kv
}

// marshal encodes v as compact JSON without HTML escaping (so "<" stays
// readable in metadata viewers). Map keys come out sorted.
func marshal(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only plain strings, numbers and maps: cannot fail
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// WriteParquet writes t as a Parquet file: one row per job with the
// columns of Job (see FieldNames and ExtraFieldNames), zstd-compressed,
// with the header and provenance in the file's key-value metadata.
func WriteParquet(w io.Writer, t *Trace) error {
	jw := newExtendedWriter(w, t.Extra)
	if err := jw.write(t.Jobs); err != nil {
		return err
	}
	return jw.finish(t)
}

// ParquetRowGroupRows is the largest row group schedlab writes: 2^20 rows,
// so that a trace of up to a million jobs is one row group.
const ParquetRowGroupRows = 1 << 20

// ParquetWriterOptions is schedlab's one Parquet writer configuration, for
// traces and results alike:
//
//   - zstd at its fastest level (SpeedFastest): on traces no larger than the
//     default level's output (KTH 329 KB vs 331 KB, a 1,000,000-job
//     synthetic trace 16.3 MB vs 17.7 MB), and faster;
//   - created-by "schedlab <version>" (version may be empty);
//   - row groups of up to ParquetRowGroupRows rows;
//   - pages of 64 KiB, compressed as rows arrive rather than all at Close, so
//     that a streaming writer holds compressed pages only;
//   - the key-value metadata kv, given as key, value pairs (an odd count
//     panics). parquet-go writes the metadata given as options sorted by
//     key; metadata set afterwards with SetKeyValueMetadata follow in call
//     order. Either way the bytes are deterministic.
//
// Types and encodings are the schema's: trace columns are plain int64 and
// double, PLAIN-encoded, which every Parquet reader (DuckDB, pyarrow,
// polars, Spark) understands.
func ParquetWriterOptions(version string, kv ...string) []parquet.WriterOption {
	if len(kv)%2 != 0 {
		panic("trace.ParquetWriterOptions: key-value metadata must come in pairs")
	}
	opts := []parquet.WriterOption{
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.CreatedBy("schedlab", version, ""),
		parquet.MaxRowsPerRowGroup(ParquetRowGroupRows),
		parquet.PageBufferSize(64 << 10),
	}
	for i := 0; i < len(kv); i += 2 {
		opts = append(opts, parquet.KeyValueMetadata(kv[i], kv[i+1]))
	}
	return opts
}

// ReadParquet reads a trace written by WriteParquet (or any Parquet file
// with the same column names; missing columns read as Unknown). name labels
// errors. The trace is validated like an SWF log, with rows as locations.
//
// A file the Parquet library cannot decode (it panics on some corrupt
// footers and pages) is the usual error, never a crash.
func ReadParquet(r io.ReaderAt, size int64, name string, opt ReadOptions) (t *Trace, err error) {
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, &Error{File: name, Msg: fmt.Sprintf("not a readable Parquet file (%v)", p)}
		}
	}()
	return readParquet(r, size, name, opt)
}

func readParquet(r io.ReaderAt, size int64, name string, opt ReadOptions) (*Trace, error) {
	// The codec's Open skips the page index and bloom filters (unused) and
	// checks the footer's claims against the file.
	f, err := columnar.OpenRows(r, size, FieldNames[0])
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "column ") { // not about one column's pages: the file as a whole
			msg += notParquetHint(r, size)
		}
		return nil, &Error{File: name, Msg: "not a readable Parquet file: " + msg}
	}
	t := &Trace{Name: baseName(name), Path: name}
	if v, ok := f.Lookup(MetaName); ok && v != "" {
		t.Name = v
	}
	t.Machine, _ = f.Lookup(MetaMachine)
	if v, ok := f.Lookup(MetaHeader); ok {
		var hdr [][2]string
		if err := json.Unmarshal([]byte(v), &hdr); err != nil {
			return nil, &Error{File: name, Msg: "metadata " + MetaHeader + ": " + err.Error()}
		}
		for _, h := range hdr {
			t.Header = append(t.Header, HeaderField{Key: h[0], Value: h[1]})
		}
	}
	t.Provenance = Provenance{Source: name, Generator: "parquet", SchemaVersion: SchemaVersion, Load: -1}
	if v, ok := f.Lookup(MetaProvenance); ok {
		var p provenanceJSON
		if err := json.Unmarshal([]byte(v), &p); err != nil {
			return nil, &Error{File: name, Msg: "metadata " + MetaProvenance + ": " + err.Error()}
		}
		t.Provenance = Provenance{p.Source, p.Generator, p.Params, p.Seed, p.SchemaVersion, p.Load, p.Rep, p.SHA256, p.MachineFrom}
		if p.SchemaVersion > SchemaVersion {
			return nil, &Error{File: name, Msg: fmt.Sprintf("schema version %d is newer than this tool's %d", p.SchemaVersion, SchemaVersion)}
		}
	}
	// Columns this file lacks read as Unknown.
	var missing []string
	schema := f.Schema()
	for _, c := range append(FieldNames[:], ExtraFieldNames...) {
		if _, ok := schema.Lookup(c); !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) == NumFields+len(ExtraFieldNames) {
		return nil, &Error{File: name, Msg: "no trace columns (want job_id, submit_time, ...)"}
	}
	if _, ok := schema.Lookup(FieldNames[0]); !ok { // another table's file (series.parquet, say), or a partial one
		return nil, &Error{File: name, Msg: "missing column " + FieldNames[0] + " (not a trace: want job_id, submit_time, ...)"}
	}
	// The jobs are allocated as they are decoded, at first the footer's
	// count bounded by what the file can fill (columnar.RowsFor): a
	// corrupt count (10^9 rows in a file of a few KB) fails on the pages,
	// with no more memory. A count beyond any trace is refused at once,
	// and a plausible one that does not fit in memory too.
	n := f.NumRows()
	if n < 0 || n > MaxProcCount {
		return nil, &Error{File: name, Msg: fmt.Sprintf("the footer claims %d rows: not a trace (at most %d jobs)", n, MaxProcCount)}
	}
	if need := int64(columnar.RowsFor(n, size)) * int64(unsafe.Sizeof(Job{})); need > 1<<30 {
		if avail, ok := MemAvailable(); ok && need > avail {
			return nil, &Error{File: name, Msg: fmt.Sprintf("the footer claims %d rows, %.1f GiB of jobs, and %.1f GiB is available (a corrupt file?)", n, float64(need)/(1<<30), float64(avail)/(1<<30))}
		}
	}
	v := t.validator(name, opt, func(i int) int { return i + 1 }, true)
	jobs, err := readJobs(f, size, func(jobs []Job, hi int) error {
		t.Jobs = jobs
		return v.check(hi)
	})
	if err != nil {
		var e *Error
		var re *columnar.RowError
		switch {
		case errors.As(err, &e):
			return nil, err
		case errors.As(err, &re):
			return nil, &Error{File: name, Line: re.Row + 1, Row: true, Msg: re.Msg}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	t.Jobs = jobs
	if t.Extra, err = readExtra(f, size, name); err != nil {
		return nil, err
	}
	v.finish()
	return t, nil
}

// readExtra reads the numeric top-level columns of f (a file of size
// bytes) that are not Job's (an extended SWF log's extra fields) as extra
// columns, in file order, numbered from field 19; nulls read as Unknown.
func readExtra(f *parquet.File, size int64, name string) ([]ExtraColumn, error) {
	known := map[string]bool{}
	for _, c := range append(FieldNames[:], ExtraFieldNames...) {
		known[c] = true
	}
	var out []ExtraColumn
	for _, fl := range f.Schema().Fields() {
		if known[fl.Name()] || !fl.Leaf() || fl.Repeated() {
			continue
		}
		switch fl.Type().Kind() {
		case parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		default:
			continue
		}
		if lt := fl.Type().LogicalType(); lt != nil && lt.Value != nil {
			if _, ok := lt.Value.(*format.IntType); !ok {
				continue // a DECIMAL, TIMESTAMP, ...: not a plain number
			}
		}
		vals, err := columnar.Floats(f, size, fl.Name(), Unknown)
		if err != nil {
			return nil, &Error{File: name, Msg: err.Error()}
		}
		out = append(out, ExtraColumn{Field: NumFields + 1 + len(out), Name: fl.Name(), Values: vals})
	}
	return out, nil
}

// notParquetHint says what a file that is not Parquet looks like, when it
// is an SWF log (text or gzipped) under the wrong name.
func notParquetHint(r io.ReaderAt, size int64) string {
	head := make([]byte, min(size, 512))
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PAR1")):
		return " (a Parquet file cut short, or damaged: its footer cannot be read)"
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return " (gzip data: an SWF log must be named .swf.gz)"
	case len(head) > 0 && utf8.Valid(head) && !bytes.ContainsFunc(head, func(r rune) bool { return r < ' ' && r != '\n' && r != '\r' && r != '\t' }):
		return " (text: an SWF log must be named .swf)"
	}
	return ""
}

// readParquetFile opens path and reads it with ReadParquet.
func readParquetFile(path string, opt ReadOptions) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return ReadParquet(f, st.Size(), path, opt)
}
