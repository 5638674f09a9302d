package trace

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// SchemaVersion is the version of the Parquet trace layout this package
// writes. It is recorded in every file's metadata.
const SchemaVersion = 1

// HeaderField is one line of an SWF header: "; Key: Value". A comment line
// that is not of that form is kept with an empty Key and the whole text in
// Value, so that no header line is ever lost.
type HeaderField struct {
	Key   string
	Value string
}

// Header is the ordered list of an SWF file's header lines. Keys may repeat
// (Queue, Partition, Note).
type Header []HeaderField

// Get returns the value of the first field with the given key
// (case-insensitive) and whether it exists.
func (h Header) Get(key string) (string, bool) {
	for _, f := range h {
		if strings.EqualFold(f.Key, key) {
			return f.Value, true
		}
	}
	return "", false
}

// getOr returns the value of key (as Get), or def when absent.
func (h Header) getOr(key, def string) string {
	if v, ok := h.Get(key); ok {
		return v
	}
	return def
}

// Int returns the integer value of key, or def when it is absent or not an
// integer.
func (h Header) Int(key string, def int64) int64 {
	v, ok := h.Get(key)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return def
	}
	return n
}

// Set replaces the value of the first field with the given key, or appends
// the field.
func (h *Header) Set(key, value string) {
	for i := range *h {
		if strings.EqualFold((*h)[i].Key, key) {
			(*h)[i].Value = value
			return
		}
	}
	*h = append(*h, HeaderField{Key: key, Value: value})
}

// Provenance records where a trace came from, so that every result can be
// traced back to its inputs.
type Provenance struct {
	Source        string            // source file the trace was read or converted from
	Generator     string            // generator, e.g. "swf" for a converted log or "workload" for a synthetic one
	Params        map[string]string // every generator parameter, by name
	Seed          int64             // random seed (0 for real logs)
	SchemaVersion int               // Parquet layout version
	Load          float64           // offered load the generator targeted; -1 when unknown
	Rep           int               // replication index within a sweep; 0 when single
	// SHA256 is the hex SHA-256 of Source's bytes as stored (a gzipped log's
	// compressed bytes, what sha256sum prints); "" for a generated trace.
	SHA256 string
	// MachineFrom says where the machine hint came from: "header" (the
	// header's MaxProcs or MaxNodes), "inferred" (a log without either:
	// flat with its largest job, a lower bound) or "given" (--machine);
	// "" when not recorded (generated traces, older files).
	MachineFrom string
}

// ParamKeys returns the names of p.Params in sorted order.
func (p *Provenance) ParamKeys() []string {
	keys := make([]string, 0, len(p.Params))
	for k := range p.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Trace is a workload: its jobs in submit order, the SWF header, the
// machine it was recorded on or generated for, and its provenance.
type Trace struct {
	Name       string     // short name, used to label results (defaults to the file's base name)
	Path       string     // the file it was read from (as given to the reader); not stored in files
	Header     Header     // SWF header, every key kept in order
	Machine    string     // machine hint, e.g. "flat:128", "mesh:32x32", "cube:7"; empty when unknown
	Provenance Provenance // where the trace came from
	Jobs       []Job      // jobs, sorted by submit time
	Warnings   []string   // non-fatal problems found while reading (e.g. re-sorted submit times)
	// Extra holds the fields an extended SWF log has beyond the 18 standard
	// ones, in field order, one value per job (Unknown on a line without
	// it); they are written as extra Parquet columns. Nil for a standard log.
	Extra []ExtraColumn
	// InputSHA256 is the hex SHA-256 of the file read (Path); it differs
	// from Provenance.SHA256 when that file was converted from Source. Not
	// stored in trace files.
	InputSHA256 string

	resorted bool // the reader re-sorted Jobs by submit time
}

// ExtraColumn is one field of an extended SWF log beyond the 18 standard
// ones: its Parquet column name and a value per job.
type ExtraColumn struct {
	Field  int    // 1-based SWF field number (19, 20, ...)
	Name   string // column name: the header's name for it, else field_N
	Values []float64
}

// MaxProcs returns the machine size recorded in the header (MaxProcs, else
// MaxNodes), or Unknown. A value that is not a processor count (above
// MaxProcCount; the readers warn about it) counts as absent.
func (t *Trace) MaxProcs() int64 {
	for _, key := range []string{"MaxProcs", "MaxNodes"} {
		if n := t.Header.Int(key, Unknown); n > 0 && n <= MaxProcCount {
			return n
		}
	}
	return Unknown
}

// headerProcsWarnings describes the header's MaxProcs and MaxNodes values
// that are not processor counts, which MaxProcs ignores.
func (t *Trace) headerProcsWarnings(file string) []string {
	var out []string
	for _, key := range []string{"MaxProcs", "MaxNodes"} {
		v, ok := t.Header.Get(key)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n > MaxProcCount || n < Unknown {
			out = append(out, fmt.Sprintf("%s: header %s %q is not a processor count (an integer up to %d); ignored", file, key, v, MaxProcCount))
		}
	}
	return out
}
