package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schedlab/schedlab/internal/columnar"
)

// ReadOptions control how a trace is read and validated.
type ReadOptions struct {
	// Strict refuses a log whose submit times are out of order instead of
	// sorting it with a warning.
	Strict bool
}

// Error is a validation or parse error located in an input file. It prints
// as "file:line: field N (name): message", the form editors and CI logs
// recognise.
type Error struct {
	File  string // input file
	Line  int    // 1-based line (SWF) or row (Parquet); 0 when not located
	Field int    // 1-based SWF field number; 0 when the error is not about one field
	Msg   string
	Row   bool // Line counts Parquet rows, not text lines
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		if e.Row {
			fmt.Fprintf(&b, ": row %d", e.Line)
		} else {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
	}
	if e.Field > 0 {
		name := "extended"
		if e.Field <= NumFields {
			name = FieldNames[e.Field-1]
		}
		fmt.Fprintf(&b, ": field %d (%s)", e.Field, name)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// swfReader parses SWF text line by line.
type swfReader struct {
	file   string
	line   int
	header Header
	chunks [][]Job     // full chunks of jobs, concatenated at the end (no regrowth copies)
	jobs   []Job       // the chunk being filled
	lines  []int32     // line number of each job
	njobs  int         // jobs read
	extra  [][]float64 // fields 19, 20, ... of every job read (Unknown where a line lacks one)

	sink    chunkSink // receives full chunks while parsing; may be nil
	emitted int       // jobs of the current chunk already given to the sink
	drained bool      // sink.drain has been called
}

// ReadSWF reads a Standard Workload Format log from r; name labels errors
// and the trace. Compressed input must be decompressed by the caller (see
// ReadFile). The trace is validated (see Validate).
func ReadSWF(r io.Reader, name string, opt ReadOptions) (*Trace, error) {
	return readSWF(r, name, opt, nil)
}

// chunkSink receives the jobs of an SWF file in chunks while it is parsed,
// in file order, so that a writer can work while the parser parses. drain is
// called once, after the last chunk and before the jobs are validated (and
// perhaps re-sorted): it must not return while the sink still reads a chunk.
type chunkSink interface {
	chunk(jobs []Job)
	drain()
}

func readSWF(r io.Reader, name string, opt ReadOptions, sink chunkSink) (*Trace, error) {
	p := &swfReader{file: name, sink: sink}
	if sink != nil {
		defer func() {
			if !p.drained {
				sink.drain()
			}
		}()
	}
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A very long line: gather it whole.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && err != io.EOF {
			// A read failure (e.g. a truncated gzip stream) comes first: the
			// partial line before it is not evidence of a malformed log.
			return nil, &Error{File: name, Line: p.line + 1, Msg: "read: " + err.Error()}
		}
		if len(line) > 0 {
			p.line++
			if perr := p.parseLine(line); perr != nil {
				return nil, perr
			}
		}
		if err == io.EOF {
			break
		}
	}
	if sink != nil {
		if len(p.jobs) > p.emitted {
			sink.chunk(p.jobs[p.emitted:])
		}
		sink.drain()
		p.drained = true
	}
	t := &Trace{Name: baseName(name), Path: name, Header: p.header, Jobs: p.all()}
	t.Provenance = Provenance{Source: name, Generator: "swf", SchemaVersion: SchemaVersion, Load: -1}
	t.Extra = extraColumns(p.header, p.extra, p.njobs)
	if err := t.validate(name, opt, func(i int) int { return int(p.lines[i]) }, false); err != nil {
		return nil, err
	}
	return t, nil
}

func (p *swfReader) parseLine(line []byte) error {
	line = bytes.TrimRight(line, "\r\n")
	trimmed := bytes.TrimLeft(line, " \t")
	if len(trimmed) == 0 {
		return nil
	}
	if trimmed[0] == ';' {
		p.header = append(p.header, parseHeaderLine(string(trimmed[1:])))
		return nil
	}
	j := Job{ReqWidth: Unknown, ReqHeight: Unknown, Work: Unknown, Efficiency: Unknown, MaxParallelism: Unknown,
		Priority: Unknown, Deadline: Unknown}
	n := 0
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			break
		}
		start := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		tok := line[start:i]
		v, ok := parseNumber(tok)
		if !ok {
			var fileStart []byte
			if p.line == 1 {
				fileStart = line
			}
			return &Error{File: p.file, Line: p.line, Field: n + 1, Msg: notNumber(tok, fileStart)}
		}
		if n >= NumFields {
			p.setExtra(n-NumFields, v)
			n++
			continue
		}
		if isInt(n) && !isWhole(v) {
			return &Error{File: p.file, Line: p.line, Field: n + 1, Msg: fmt.Sprintf("%q is not an integer", tok)}
		}
		if isInt(n) && (math.Abs(v) > MaxInt || math.Abs(v) == MaxInt && !exactInt(tok)) {
			return &Error{File: p.file, Line: p.line, Field: n + 1, Msg: fmt.Sprintf("%s is out of range (integer fields hold at most ±2^53)", tok)}
		}
		j.setField(n, v)
		n++
	}
	if n < NumFields {
		return &Error{File: p.file, Line: p.line, Msg: fmt.Sprintf("%d fields, want %d (or more: extended SWF)", n, NumFields)}
	}
	for k := n - NumFields; k < len(p.extra); k++ {
		p.extra[k] = append(p.extra[k], Unknown) // a line shorter than an earlier one
	}
	p.njobs++
	if len(p.jobs) == cap(p.jobs) {
		if len(p.jobs) > 0 {
			p.chunks = append(p.chunks, p.jobs)
			if p.sink != nil && len(p.jobs) > p.emitted {
				p.sink.chunk(p.jobs[p.emitted:]) // full: never written again
			}
		}
		// The header's record count (MaxRecords, else MaxJobs) sizes the
		// first chunk, so that a well-described log is read into one slice
		// with no copying; beyond it, chunks of chunkJobs.
		size := chunkJobs
		if len(p.chunks) == 0 {
			if n := p.header.Int("MaxRecords", p.header.Int("MaxJobs", 0)); n > int64(size) && n <= maxHint {
				size = int(n)
			}
		}
		p.jobs, p.emitted = make([]Job, 0, size), 0
	}
	p.jobs = append(p.jobs, j)
	if p.sink != nil && len(p.jobs)-p.emitted >= chunkJobs {
		// Jobs before len(p.jobs) are never written again: the sink may
		// read them while the parser appends after them.
		p.sink.chunk(p.jobs[p.emitted:])
		p.emitted = len(p.jobs)
	}
	p.lines = append(p.lines, int32(p.line))
	return nil
}

// setExtra records the value of extended field k (0 for field 19) of the
// job being read; a field no earlier line had is Unknown for the jobs
// before.
func (p *swfReader) setExtra(k int, v float64) {
	for len(p.extra) <= k {
		p.extra = append(p.extra, make([]float64, p.njobs, p.njobs+1024))
		col := p.extra[len(p.extra)-1]
		for i := range col {
			col[i] = Unknown
		}
	}
	p.extra[k] = append(p.extra[k], v)
}

// extraColumns names the extended fields of a log: field N is named by the
// header line "; FieldN: name" when there is one (the name lower-cased,
// runs of other characters than letters and digits turned into "_"), else
// field_N; a name that is already a column's gets the suffix _N.
func extraColumns(h Header, vals [][]float64, n int) []ExtraColumn {
	if len(vals) == 0 {
		return nil
	}
	taken := map[string]bool{}
	for _, c := range append(FieldNames[:], ExtraFieldNames...) {
		taken[c] = true
	}
	out := make([]ExtraColumn, len(vals))
	for k, v := range vals {
		field := NumFields + 1 + k
		name := columnName(h.getOr(fmt.Sprintf("Field%d", field), ""))
		if name == "" {
			name = fmt.Sprintf("field_%d", field)
		}
		if taken[name] {
			name = fmt.Sprintf("%s_%d", name, field)
		}
		taken[name] = true
		out[k] = ExtraColumn{Field: field, Name: name, Values: v[:n:n]}
	}
	return out
}

// columnName turns a header's name for a field into a column name.
func columnName(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
		} else {
			under = true
		}
	}
	name := b.String()
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		name = "f" + name
	}
	return name
}

// chunkJobs is the number of jobs per parsing chunk and per Parquet write
// batch.
const chunkJobs = 8192

// maxHint bounds the job count a header may make the reader allocate up
// front (about 2 GB of jobs); a larger claim is ignored.
const maxHint = 10_000_000

// all returns every job read, in one slice.
func (p *swfReader) all() []Job {
	if len(p.chunks) == 0 {
		return p.jobs
	}
	n := len(p.jobs)
	for _, c := range p.chunks {
		n += len(c)
	}
	out := make([]Job, 0, n)
	for _, c := range p.chunks {
		out = append(out, c...)
	}
	return append(out, p.jobs...)
}

// notNumber describes a token that is not a number, quoting at most 40
// bytes of it (20 of binary data, escaped); a token with control bytes or
// invalid UTF-8 is binary data
// (an executable, a compressed or Parquet file), said as such. fileStart is
// the start of the file when the token is its first, to recognise a known
// format by its magic number; nil otherwise.
func notNumber(tok, fileStart []byte) string {
	binary := !utf8.Valid(tok)
	for _, c := range tok {
		if c < 0x20 || c == 0x7f {
			binary = true
			break
		}
	}
	ex := tok
	if n := 40; binary && len(ex) > n/2 {
		ex = ex[:n/2] // escaped, a byte takes four characters
	} else if len(ex) > n {
		ex = ex[:n]
	}
	q := strconv.Quote(string(ex))
	if len(ex) < len(tok) {
		q += "…"
	}
	if binary {
		return fmt.Sprintf("binary data %s: not an SWF text file%s", q, magicHint(fileStart))
	}
	return q + " is not a number"
}

// magics are the file formats a binary file given as SWF is likely to be
// (gzip is read whatever the name).
var magics = []struct{ magic, hint string }{
	{"PAR1", "a Parquet file: name it .parquet"},
	{"BZh", "bzip2 data: decompress it first (only gzip is read directly)"},
	{"\xfd7zXZ\x00", "xz data: decompress it first (only gzip is read directly)"},
	{"\x28\xb5\x2f\xfd", "zstd data: decompress it first (only gzip is read directly)"},
	{"PK\x03\x04", "a zip archive: extract the log first"},
	{"\xff\xfe", "UTF-16 text: convert it to ASCII or UTF-8"},
	{"\xfe\xff", "UTF-16 text: convert it to ASCII or UTF-8"},
}

func magicHint(start []byte) string {
	for _, m := range magics {
		if bytes.HasPrefix(start, []byte(m.magic)) {
			return " (" + m.hint + ")"
		}
	}
	return ""
}

// parseNumber parses a decimal integer quickly, falling back to
// strconv.ParseFloat for anything else (fractions, exponents).
func parseNumber(b []byte) (float64, bool) {
	neg := false
	s := b
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) > 0 && len(s) <= 15 {
		var n int64
		ok := true
		for _, c := range s {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			n = n*10 + int64(c-'0')
		}
		if ok {
			if neg {
				n = -n
			}
			return float64(n), true
		}
	}
	if !decimal(b) { // ParseFloat also takes 0x1p4, 1_000, inf and nan
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// exactInt reports whether the integer token tok is within ±2^53 (MaxInt),
// which its float64 value (2^53 for 2^53 + 1) cannot tell.
func exactInt(tok []byte) bool {
	i, err := strconv.ParseInt(string(tok), 10, 64)
	return err == nil && i >= -MaxInt && i <= MaxInt
}

// decimal reports whether b is a decimal number: [+-]digits[.digits]
// [e[+-]digits], with a digit before or after the point.
func decimal(b []byte) bool {
	i, n := 0, len(b)
	if i < n && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < n && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - j
	}
	m := digits()
	if i < n && b[i] == '.' {
		i++
		m += digits()
	}
	if m == 0 {
		return false
	}
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < n && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == n
}

// parseHeaderLine splits the text after ';' into a key and value when it
// has the form " Key: Value"; otherwise the whole text is kept as a
// keyless line.
func parseHeaderLine(s string) HeaderField {
	t := strings.TrimLeft(s, " \t")
	if len(s)-len(t) > 2 { // an indented continuation line
		return HeaderField{Value: strings.TrimRight(s, " \t")}
	}
	k := 0
	for k < len(t) && (t[k] >= 'A' && t[k] <= 'Z' || t[k] >= 'a' && t[k] <= 'z' || k > 0 && t[k] >= '0' && t[k] <= '9') {
		k++
	}
	if k > 0 && k < len(t) && t[k] == ':' && (k+1 == len(t) || t[k+1] == ' ' || t[k+1] == '\t') {
		return HeaderField{Key: t[:k], Value: strings.TrimSpace(t[k+1:])}
	}
	return HeaderField{Value: strings.TrimRight(s, " \t")}
}

// MaxProcCount bounds every processor count a trace may hold (alloc_procs,
// req_procs, req_width, req_height, max_parallelism): 2^31-1, far above any
// machine in the archive (the largest logs have some 10^5 processors), and
// small enough that a product of two counts (a mesh width × height, a job's
// processors × the machine's) cannot overflow an int64. A larger value is a
// corrupt or mis-converted field, refused with its location.
const MaxProcCount = 1<<31 - 1

// validate checks the trace's jobs. It reports the first hard error with
// its location (loc maps a job index to its line or row; rows says which);
// out-of-order submit times are sorted with a warning unless opt.Strict.
func (t *Trace) validate(file string, opt ReadOptions, loc func(i int) int, rows bool) error {
	v := t.validator(file, opt, loc, rows)
	if err := v.check(len(t.Jobs)); err != nil {
		return err
	}
	v.finish()
	return nil
}

// A validator checks a trace's jobs in order, a block at a time, so that a
// reader can check each block while it is still in cache.
type validator struct {
	t          *Trace
	file       string
	opt        ReadOptions
	loc        func(i int) int
	rows       bool
	what       string // "line" or "row"
	maxProcs   int64
	n          int               // jobs checked
	seen       map[int64]seenJob // by job number; nil while job numbers increase
	prevSubmit float64
	ordered    bool
	oversized  int
	firstOver  int
}

// seenJob records where a job number was seen: its first record and its
// non-partial one (-1 if none yet).
type seenJob struct{ first, whole int }

func (t *Trace) validator(file string, opt ReadOptions, loc func(i int) int, rows bool) *validator {
	v := &validator{t: t, file: file, opt: opt, loc: loc, rows: rows, what: "line",
		maxProcs: t.MaxProcs(), prevSubmit: math.Inf(-1), ordered: true, firstOver: -1}
	t.Warnings = append(t.Warnings, t.headerProcsWarnings(file)...)
	if rows {
		v.what = "row"
	}
	return v
}

func (v *validator) where(i, field int, msg string) error {
	return &Error{File: v.file, Line: v.loc(i), Field: field, Row: v.rows, Msg: msg}
}

// check checks the jobs t.Jobs[v.n:hi].
func (v *validator) check(hi int) error {
	jobs := v.t.Jobs
	for i := v.n; i < hi; i++ {
		j := &jobs[i]
		// One test for every floating-point field: x*0 is NaN exactly when
		// x is NaN or infinite.
		if z := j.Submit*0 + j.Wait*0 + j.Run*0 + j.AvgCPU*0 + j.UsedMem*0 + j.ReqTime*0 + j.ReqMem*0 +
			j.ThinkTime*0 + j.Work*0 + j.Efficiency*0 + j.Deadline*0; z != z {
			return nonFinite(j, func(field int, msg string) error { return v.where(i, field, msg) })
		}
		if j.Run < 0 && j.Run != Unknown {
			return v.where(i, 4, fmt.Sprintf("negative run time %v", j.Run))
		}
		if j.Submit < 0 && j.Submit != Unknown {
			return v.where(i, 2, fmt.Sprintf("negative submit time %v", j.Submit))
		}
		if j.Priority < Unknown {
			return v.where(i, 0, fmt.Sprintf("priority: %d is negative (want a class ≥ 0, or -1 when unknown)", j.Priority))
		}
		if j.Deadline < 0 && j.Deadline != Unknown {
			return v.where(i, 0, fmt.Sprintf("deadline: %v is negative (want a time ≥ 0, or -1 when unknown)", j.Deadline))
		}
		if end := j.Submit + max(j.Wait, 0) + max(j.Run, j.ReqTime, 0); math.IsInf(end, 0) {
			return v.where(i, 2, fmt.Sprintf("submit %v + wait + run or requested time overflows: times must add up below 1.8e308", j.Submit))
		}
		if j.AllocProcs < Unknown {
			return v.where(i, 5, fmt.Sprintf("allocated processors: %d is negative (want ≥ 0, or -1 when unknown)", j.AllocProcs))
		}
		if j.ReqProcs < Unknown {
			return v.where(i, 8, fmt.Sprintf("requested processors: %d is negative (want ≥ 0, or -1 when unknown)", j.ReqProcs))
		}
		if max(j.AllocProcs, j.ReqProcs, j.ReqWidth, j.ReqHeight, j.MaxParallelism) > MaxProcCount ||
			max(j.ID, j.Status, j.User, j.Group, j.Executable, j.Queue, j.Partition, j.Preceding, j.Priority) > MaxInt ||
			min(j.ID, j.AllocProcs, j.ReqProcs, j.Status, j.User, j.Group, j.Executable, j.Queue, j.Partition,
				j.Preceding, j.ReqWidth, j.ReqHeight, j.MaxParallelism) < -MaxInt {
			return intOutOfRange(j, func(field int, msg string) error { return v.where(i, field, msg) })
		}
		if v.maxProcs > 0 && j.ReqProcs > v.maxProcs {
			if v.opt.Strict {
				return v.where(i, 8, fmt.Sprintf("requests %d processors, more than MaxProcs %d (--strict)", j.ReqProcs, v.maxProcs))
			}
			if v.oversized == 0 {
				v.firstOver = i
			}
			v.oversized++
		}
		// Records sharing a job number are legal when all but one are
		// partial executions (status 2-4, SWF's checkpointed jobs: one line
		// for the whole job plus one per partial run; MaxRecords > MaxJobs).
		// Job numbers strictly increasing (every archive log, every generated
		// trace) cannot repeat: the map is built only at the first job whose
		// number does not increase.
		if v.seen == nil && i > 0 && j.ID <= jobs[i-1].ID {
			v.seen = make(map[int64]seenJob, len(jobs))
			for k := range jobs[:i] {
				sj := seenJob{first: k, whole: k}
				if jobs[k].Partial() {
					sj.whole = -1
				}
				v.seen[jobs[k].ID] = sj
			}
		}
		if v.seen != nil {
			sj, dup := v.seen[j.ID]
			if !dup {
				sj = seenJob{first: i, whole: -1}
			}
			if !j.Partial() {
				if sj.whole >= 0 {
					return v.where(i, 1, fmt.Sprintf("job number %d repeats the job on %s %d (only partial records, status 2-4, may share a job number)", j.ID, v.what, v.loc(sj.whole)))
				}
				sj.whole = i
			}
			v.seen[j.ID] = sj
		}
		if j.Submit < v.prevSubmit {
			if v.opt.Strict {
				return v.where(i, 2, fmt.Sprintf("submit time %v is before the previous job's %v (--strict)", j.Submit, v.prevSubmit))
			}
			v.ordered = false
		}
		v.prevSubmit = j.Submit
	}
	v.n = max(v.n, hi)
	return nil
}

// finish records the warnings and sorts the jobs by submit time if needed.
func (v *validator) finish() {
	t := v.t
	if v.oversized > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%s: %d jobs request more processors than MaxProcs %d (first: job %d, %s %d); replay rejects and counts them",
			v.file, v.oversized, v.maxProcs, t.Jobs[v.firstOver].ID, v.what, v.loc(v.firstOver)))
	}
	if !v.ordered {
		if len(t.Extra) > 0 {
			t.sortWithExtra()
		} else {
			sort.SliceStable(t.Jobs, func(a, b int) bool { return t.Jobs[a].Submit < t.Jobs[b].Submit })
		}
		t.Warnings = append(t.Warnings, fmt.Sprintf("%s: submit times out of order; jobs sorted by submit time", v.file))
		t.resorted = true
	}
}

// sortWithExtra sorts the jobs by submit time, stably, and the extended
// fields' values with them.
func (t *Trace) sortWithExtra() {
	perm := make([]int, len(t.Jobs))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return t.Jobs[perm[a]].Submit < t.Jobs[perm[b]].Submit })
	jobs := make([]Job, len(t.Jobs))
	for i, k := range perm {
		jobs[i] = t.Jobs[k]
	}
	copy(t.Jobs, jobs)
	for c := range t.Extra {
		old := t.Extra[c].Values
		v := make([]float64, len(old))
		for i, k := range perm {
			v[i] = old[k]
		}
		t.Extra[c].Values = v
	}
}

// nonFinite returns the error for j's first NaN or infinite field.
func nonFinite(j *Job, where func(field int, msg string) error) error {
	for k, v := range j.Fields() {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return where(k+1, fmt.Sprintf("%v is not a finite number", v))
		}
	}
	for _, v := range [...]float64{j.Work, j.Efficiency} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return where(0, fmt.Sprintf("work/efficiency %v is not a finite number", v))
		}
	}
	if math.IsNaN(j.Deadline) || math.IsInf(j.Deadline, 0) {
		return where(0, fmt.Sprintf("deadline: %v is not a finite number", j.Deadline))
	}
	return nil
}

// intOutOfRange returns the error for j's first integer field beyond ±MaxInt,
// or processor count above MaxProcCount.
func intOutOfRange(j *Job, where func(field int, msg string) error) error {
	for i := range jobFields {
		f := &jobFields[i]
		if f.Kind != columnar.Int64 {
			continue
		}
		v, procs := *columnar.Int(j, f), isProcs(f)
		var msg string
		switch {
		case v < -MaxInt || v > MaxInt && !procs:
			msg = fmt.Sprintf("%d is out of range (integer fields hold at most ±2^53)", v)
		case procs && v > MaxProcCount:
			msg = fmt.Sprintf("%d is out of range (processor counts are at most %d)", v, MaxProcCount)
		default:
			continue
		}
		if i >= NumFields { // an extra column: named, field 0
			return where(0, f.Name+": "+msg)
		}
		return where(i+1, msg)
	}
	return nil
}

// WriteSWF writes t as SWF text: the header lines, then one line per job
// with the 18 fields. Integer fields are written as integers and times with
// the shortest representation that reads back to the same float64.
func WriteSWF(w io.Writer, t *Trace) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	for _, h := range t.Header {
		if h.Key != "" {
			bw.WriteString("; " + h.Key + ": " + h.Value + "\n")
		} else {
			bw.WriteString(";" + h.Value + "\n")
		}
	}
	var buf []byte
	for i := range t.Jobs {
		j := &t.Jobs[i]
		f := j.Fields()
		ints := j.intFields()
		buf = buf[:0]
		for k, v := range f {
			if k > 0 {
				buf = append(buf, ' ')
			}
			switch {
			case isInt(k):
				// From the int64 itself: through float64, integers beyond
				// 2^53 were rounded and math.MaxInt64 wrapped to -2^63.
				buf = strconv.AppendInt(buf, ints[k], 10)
			case v == math.Trunc(v) && math.Abs(v) < 1e15:
				buf = strconv.AppendInt(buf, int64(v), 10)
			default:
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
		}
		for _, c := range t.Extra {
			buf = append(buf, ' ')
			buf = appendNumber(buf, c.Values[i])
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendNumber appends v as WriteSWF writes a time: an integer when it is
// one, else the shortest representation that reads back the same.
func appendNumber(buf []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.AppendInt(buf, int64(v), 10)
	}
	return strconv.AppendFloat(buf, v, 'g', -1, 64)
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		path = path[i+1:]
	}
	for _, ext := range []string{".swf.gz", ".swf", ".parquet", ".gz"} {
		if strings.HasSuffix(path, ext) {
			return strings.TrimSuffix(path, ext)
		}
	}
	return path
}
