package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
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
}

// metadata returns the key-value pairs that describe t, in a fixed order.
func (t *Trace) metadata() [][2]string {
	hdr := make([][2]string, len(t.Header))
	for i, h := range t.Header {
		hdr[i] = [2]string{h.Key, h.Value}
	}
	hj := marshal(hdr)
	p := t.Provenance
	pj := marshal(provenanceJSON{p.Source, p.Generator, p.Params, p.Seed, SchemaVersion, p.Load, p.Rep})
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
	jw := newJobWriter(w)
	if err := jw.write(t.Jobs); err != nil {
		return err
	}
	return jw.finish(t)
}

// jobWriter writes the rows of a trace in batches, and its metadata last,
// so that rows can be written while the rest of the trace is still being
// read.
type jobWriter struct {
	pw *parquet.GenericWriter[Job]
}

// ParquetWriterOptions is schedlab's one Parquet writer configuration, for
// traces and results alike: zstd (fastest level), created-by
// "schedlab <version>", row groups of up to 2^20 rows, and pages of 64 KiB
// compressed as rows arrive (overlapping the producer, and keeping a
// streaming writer's memory to compressed pages) instead of all at Close.
// Key-value metadata are set on the writer afterwards.
func ParquetWriterOptions(version string) []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.CreatedBy("schedlab", version, ""),
		parquet.MaxRowsPerRowGroup(1 << 20),
		parquet.PageBufferSize(64 << 10),
	}
}

func newJobWriter(w io.Writer) *jobWriter {
	return &jobWriter{pw: parquet.NewGenericWriter[Job](w, ParquetWriterOptions("")...)}
}

// write appends jobs as rows, in batches of chunkJobs.
func (jw *jobWriter) write(jobs []Job) error {
	for i := 0; i < len(jobs); i += chunkJobs {
		if _, err := jw.pw.Write(jobs[i:min(i+chunkJobs, len(jobs))]); err != nil {
			return err
		}
	}
	return nil
}

// finish records t's metadata, in key order, and closes the file.
func (jw *jobWriter) finish(t *Trace) error {
	kv := t.metadata()
	sort.Slice(kv, func(a, b int) bool { return kv[a][0] < kv[b][0] })
	for _, p := range kv {
		jw.pw.SetKeyValueMetadata(p[0], p[1])
	}
	return jw.pw.Close()
}

// ReadParquet reads a trace written by WriteParquet (or any Parquet file
// with the same column names; missing columns read as Unknown). name labels
// errors. The trace is validated like an SWF log, with rows as locations.
func ReadParquet(r io.ReaderAt, size int64, name string, opt ReadOptions) (*Trace, error) {
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, &Error{File: name, Msg: "not a readable Parquet file: " + err.Error()}
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
		t.Provenance = Provenance{p.Source, p.Generator, p.Params, p.Seed, p.SchemaVersion, p.Load, p.Rep}
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
	t.Jobs = make([]Job, f.NumRows())
	if err := readColumns(f, t.Jobs); err != nil {
		var re *rowError
		if errors.As(err, &re) {
			return nil, &Error{File: name, Line: re.row + 1, Row: true, Msg: re.msg}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	if err := t.validate(name, opt, func(i int) int { return i + 1 }, true); err != nil {
		return nil, err
	}
	return t, nil
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
