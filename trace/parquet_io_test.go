package trace

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	pqfile "github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/internal/columnar"
)

// varied returns a trace of n jobs whose every column varies.
func varied(n int) *Trace {
	tr := &Trace{Name: "v", Machine: "mesh:8x8", Header: Header{{"MaxProcs", "64"}, {"", " note"}},
		Provenance: Provenance{Generator: "test", Params: map[string]string{"k": "v"}, Seed: 3, Load: 0.5, Rep: 1}}
	for i := 0; i < n; i++ {
		j := Job{}
		for ci := range jobFields {
			c := &jobFields[ci]
			if c.Kind == columnar.Int64 {
				*columnar.Int(&j, c) = int64(i*(ci+1)%997) - 1
			} else {
				*columnar.Float(&j, c) = float64(i*(ci+3)%1009) + 0.25
			}
		}
		j.ID, j.Submit, j.Run, j.Status = int64(i+1), float64(i), float64(i%100), 1
		tr.Jobs = append(tr.Jobs, j)
	}
	return tr
}

func parquetBytes(t testing.TB, tr *Trace) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteParquet(&b, tr); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readBytes(data []byte, name string) (*Trace, error) {
	return ReadParquet(bytes.NewReader(data), int64(len(data)), name, ReadOptions{})
}

// The file keeps the public contract: the columns in order with plain
// int64/double physical types, required, zstd-compressed, PLAIN-encoded;
// created by schedlab; the metadata keys in key order.
func TestParquetContract(t *testing.T) {
	tr := varied(20000)
	data := parquetBytes(t, tr)
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	leaves := f.Schema().Fields()
	want := append(FieldNames[:], ExtraFieldNames...)
	if len(leaves) != len(want) {
		t.Fatalf("%d columns, want %d", len(leaves), len(want))
	}
	for i, fd := range leaves {
		wantKind := parquet.Double
		if jobFields[i].Kind == columnar.Int64 {
			wantKind = parquet.Int64 // annotated INT(64,true), a plain int64 to every reader
		}
		if fd.Name() != want[i] || fd.Type().Kind() != wantKind || fd.Optional() || fd.Repeated() {
			t.Errorf("column %d: %s %s (optional %v), want required %s %s", i, fd.Name(), fd.Type(), fd.Optional(), want[i], wantKind)
		}
	}
	md := f.Metadata()
	if !strings.HasPrefix(md.CreatedBy, "schedlab") {
		t.Errorf("created by %q", md.CreatedBy)
	}
	for _, rg := range md.RowGroups {
		for _, cc := range rg.Columns {
			if cc.MetaData.Codec.String() != "ZSTD" || fmt.Sprint(cc.MetaData.Encoding) != "[PLAIN]" {
				t.Errorf("column %v: codec %v, encodings %v", cc.MetaData.PathInSchema, cc.MetaData.Codec, cc.MetaData.Encoding)
			}
		}
	}
	var keys []string
	for _, kv := range md.KeyValueMetadata {
		keys = append(keys, kv.Key)
	}
	if !slices.IsSorted(keys) || !slices.Contains(keys, MetaProvenance) || !slices.Contains(keys, "swf.MaxProcs") {
		t.Errorf("metadata keys %v", keys)
	}
	back, err := readBytes(data, "c.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Jobs, tr.Jobs) || back.Machine != tr.Machine || back.Provenance.Seed != 3 || len(back.Header) != 2 {
		t.Fatal("round trip changed the trace")
	}
}

// Apache Arrow's Parquet reader (an implementation independent of
// parquet-go, like DuckDB's and pyarrow's) reads the same values and
// metadata.
func TestParquetReadByArrow(t *testing.T) {
	tr := varied(10000)
	data := parquetBytes(t, tr)
	pr, err := pqfile.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if v := pr.MetaData().KeyValueMetadata().FindValue(MetaName); v == nil || *v != "v" {
		t.Errorf("metadata %s = %v", MetaName, v)
	}
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	rec := array.NewTableReader(tbl, -1)
	defer rec.Release()
	n := 0
	for rec.Next() {
		jobs, err := FromRecord(rec.Record())
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			if jobs[i] != tr.Jobs[n+i] {
				t.Fatalf("row %d: %+v, want %+v", n+i+1, jobs[i], tr.Jobs[n+i])
			}
		}
		n += len(jobs)
	}
	if n != len(tr.Jobs) {
		t.Fatalf("arrow read %d rows, want %d", n, len(tr.Jobs))
	}
}

// The bytes depend on the trace only: not on the number of cores, nor on how
// the rows reach the writer.
func TestParquetWriteDeterministic(t *testing.T) {
	tr := varied(30000)
	want := parquetBytes(t, tr)
	prev := runtime.GOMAXPROCS(1)
	one := parquetBytes(t, tr)
	runtime.GOMAXPROCS(max(prev, 4))
	four := parquetBytes(t, tr)
	runtime.GOMAXPROCS(prev)
	if !bytes.Equal(one, want) || !bytes.Equal(four, want) {
		t.Fatal("bytes depend on GOMAXPROCS")
	}
	for _, sizes := range [][]int{{1}, {7, 8191}, {3000}, {8192}, {20000, 1}} {
		var b bytes.Buffer
		jw := newJobWriter(&b)
		jobs := tr.Jobs
		for k := 0; len(jobs) > 0; k++ {
			n := min(sizes[k%len(sizes)], len(jobs))
			if err := jw.write(jobs[:n]); err != nil {
				t.Fatal(err)
			}
			jobs = jobs[n:]
		}
		if err := jw.finish(tr); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("rows in batches of %v: bytes differ", sizes)
		}
	}
}

// A trace larger than a row group is split into row groups of
// ParquetRowGroupRows rows and read back whole.
func TestParquetRowGroups(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a million rows")
	}
	tr := varied(ParquetRowGroupRows + 3000)
	data := parquetBytes(t, tr)
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if rgs := f.RowGroups(); len(rgs) != 2 || rgs[0].NumRows() != ParquetRowGroupRows {
		t.Fatalf("%d row groups", len(rgs))
	}
	back, err := readBytes(data, "big.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Jobs, tr.Jobs) {
		t.Fatal("jobs differ")
	}
}

// Files written by other tools: many row groups and pages, dictionary
// encoding (pyarrow's default), nulls (pandas), int32, unsigned and float
// columns, missing columns.
func TestParquetForeignLayouts(t *testing.T) {
	type foreign struct {
		ID       uint64   `parquet:"job_id"`
		Submit   int64    `parquet:"submit_time"`
		Run      *float32 `parquet:"run_time,optional"`
		ReqProcs uint32   `parquet:"req_procs,dict"`
		Status   int32    `parquet:"status,dict"`
		User     *int64   `parquet:"user_id,optional,dict"`
		ReqTime  float64  `parquet:"req_time,dict"`
		Other    string   `parquet:"comment"`
	}
	var rows []foreign
	for i := 0; i < 5000; i++ {
		run, user := float32(i%50)+0.5, int64(i%13)
		r := foreign{ID: uint64(i + 1), Submit: int64(i), Run: &run, ReqProcs: uint32(1 + i%64), Status: 1, User: &user, ReqTime: float64(i % 7), Other: "x"}
		if i%3 == 0 {
			r.Run, r.User = nil, nil
		}
		rows = append(rows, r)
	}
	var b bytes.Buffer
	w := parquet.NewGenericWriter[foreign](&b, parquet.MaxRowsPerRowGroup(1000), parquet.PageBufferSize(512))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := readBytes(b.Bytes(), "f.parquet")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		j := tr.Jobs[i]
		run, user := float64(Unknown), int64(Unknown)
		if r.Run != nil {
			run, user = float64(*r.Run), *r.User
		}
		if j.ID != int64(r.ID) || j.Submit != float64(r.Submit) || j.Run != run || j.ReqProcs != int64(r.ReqProcs) ||
			j.Status != 1 || j.User != user || j.ReqTime != r.ReqTime || j.Wait != Unknown || j.MaxParallelism != Unknown {
			t.Fatalf("row %d: %+v from %+v", i+1, j, r)
		}
	}
}

// Errors name the file, the row (counted across row groups) and the column.
func TestParquetColumnErrors(t *testing.T) {
	type dbl struct {
		JobID    int64   `parquet:"job_id"`
		ReqProcs float64 `parquet:"req_procs"`
	}
	type unsigned struct {
		JobID uint64 `parquet:"job_id"`
	}
	type stamp struct {
		JobID  int64 `parquet:"job_id"`
		Submit int64 `parquet:"submit_time,timestamp"`
	}
	type procs struct {
		JobID    int64 `parquet:"job_id"`
		ReqProcs int64 `parquet:"req_procs"`
	}
	write := func(rows any, opts ...parquet.WriterOption) []byte {
		var b bytes.Buffer
		var err error
		switch r := rows.(type) {
		case []dbl:
			err = parquet.Write(&b, r, opts...)
		case []unsigned:
			err = parquet.Write(&b, r, opts...)
		case []stamp:
			err = parquet.Write(&b, r, opts...)
		case []procs:
			err = parquet.Write(&b, r, opts...)
		}
		if err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	many := make([]dbl, 2600)
	for i := range many {
		many[i] = dbl{int64(i + 1), 4}
	}
	many[2502].ReqProcs = 1.5
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"fraction in a later row group", write(many, parquet.MaxRowsPerRowGroup(1000)), "t.parquet: row 2503: column req_procs: 1.5 is not an integer"},
		{"NaN procs", write([]dbl{{1, math.NaN()}}), "t.parquet: row 1: column req_procs: NaN is not an integer"},
		{"huge double", write([]dbl{{1, 9.3e18}}), "t.parquet: row 1: column req_procs: 9.3e+18 is out of range"},
		{"unsigned past int64", write([]unsigned{{1}, {1 << 63}}), "t.parquet: row 2: column job_id: 9223372036854775808 is out of range"},
		{"timestamp", write([]stamp{{1, 5}}), "t.parquet: column submit_time: type TIMESTAMP"},
		{"procs past the bound", write([]procs{{1, 4}, {2, math.MaxInt64}}), "t.parquet: row 2: field 8 (req_procs): 9223372036854775807 is out of range (processor counts are at most 2147483647)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := readBytes(c.data, "t.parquet")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

// ParquetWriterOptions records its key-value metadata; an odd count of
// arguments is a programming error.
func TestParquetWriterOptions(t *testing.T) {
	type row struct {
		X int64 `parquet:"x"`
	}
	var b bytes.Buffer
	w := parquet.NewGenericWriter[row](&b, ParquetWriterOptions("1.2.3", "b.key", "2", "a.key", "1")...)
	w.SetKeyValueMetadata("c.key", "3")
	if _, err := w.Write([]row{{1}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var kv []string
	for _, p := range f.Metadata().KeyValueMetadata {
		kv = append(kv, p.Key+"="+p.Value)
	}
	if got := strings.Join(kv, " "); got != "a.key=1 b.key=2 c.key=3" || !strings.HasPrefix(f.Metadata().CreatedBy, "schedlab version 1.2.3") {
		t.Errorf("metadata %q, created by %q", got, f.Metadata().CreatedBy)
	}
	defer func() {
		if recover() == nil {
			t.Error("odd key-value count accepted")
		}
	}()
	ParquetWriterOptions("", "lonely")
}

// An empty trace is a valid file with its metadata and no row group.
func TestParquetEmpty(t *testing.T) {
	tr, err := readBytes(parquetBytes(t, &Trace{Name: "e", Machine: "flat:4"}), "e.parquet")
	if err != nil || len(tr.Jobs) != 0 || tr.Name != "e" || tr.Machine != "flat:4" {
		t.Fatalf("%v %+v", err, tr)
	}
}
