package trace

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const goodLine = "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"

func TestReadSWFErrors(t *testing.T) {
	hdr := "; MaxProcs: 8\n"
	for _, tc := range []struct {
		name, text string
		strict     bool
		want       string // the whole error
	}{
		{"17 fields", hdr + goodLine + "2 1 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1\n", false, "x.swf:3: 17 fields, want 18 (or more: extended SWF)"},
		{"19th field not a number", hdr + "2 1 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1 7x\n", false, `x.swf:2: field 19 (extended): "7x" is not a number`},
		{"abc", hdr + goodLine + "2 1 5 abc 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", false, `x.swf:3: field 4 (run_time): "abc" is not a number`},
		{"negative run", hdr + goodLine + "2 1 5 -7 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", false, "x.swf:3: field 4 (run_time): negative run time -7"},
		{"fractional procs", hdr + "2 1 5 7 4.5 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", false, `x.swf:2: field 5 (alloc_procs): "4.5" is not an integer`},
		{"too many procs strict", hdr + "2 1 5 7 4 -1 -1 9 200 -1 1 1 1 -1 -1 -1 -1 -1\n", true, "x.swf:2: field 8 (req_procs): requests 9 processors, more than MaxProcs 8 (--strict)"},
		{"duplicate", hdr + goodLine + "\n" + goodLine, false, "x.swf:4: field 1 (job_id): job number 1 repeats the job on line 2 (only partial records, status 2-4, may share a job number)"},
		{"out of order strict", hdr + "1 10 5 7 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n2 3 5 7 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", true, "x.swf:3: field 2 (submit_time): submit time 3 is before the previous job's 10 (--strict)"},
		{"NaN", hdr + "2 1 5 NaN 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", false, `x.swf:2: field 4 (run_time): "NaN" is not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadSWF(strings.NewReader(tc.text), "x.swf", ReadOptions{Strict: tc.strict})
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if err.Error() != tc.want {
				t.Fatalf("error %q, want %q", err, tc.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not a *trace.Error", err)
			}
		})
	}
}

func TestReadSWFTolerant(t *testing.T) {
	text := "; Version: 2.2\n;  Computer:  X \n;\n;            continuation: not a key\n" +
		"\t 1   0.5  5 100.25 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1  \r\n\n" +
		"2 0.25 -1 3 2 -1 -1 -1 -1 -1 3 1 1 -1 -1 -1 -1 -1\n"
	tr, err := ReadSWF(strings.NewReader(text), "t.swf", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 2 {
		t.Fatalf("%d jobs, want 2", len(tr.Jobs))
	}
	// Out-of-order submit times are sorted, with a warning.
	if tr.Jobs[0].ID != 2 || tr.Jobs[1].Run != 100.25 || len(tr.Warnings) != 1 {
		t.Fatalf("jobs %+v warnings %v", tr.Jobs, tr.Warnings)
	}
	if !tr.Jobs[0].Partial() || tr.Jobs[1].Partial() {
		t.Fatal("status 3 should be flagged partial, status 1 not")
	}
	if v, _ := tr.Header.Get("computer"); v != "X" {
		t.Fatalf("Computer = %q", v)
	}
	if len(tr.Header) != 4 || tr.Header[3].Key != "" {
		t.Fatalf("header %q", tr.Header)
	}
	var buf bytes.Buffer
	if err := WriteSWF(&buf, tr); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSWF(&buf, "back.swf", ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if back.Jobs[0] != tr.Jobs[0] || back.Jobs[1] != tr.Jobs[1] {
		t.Fatalf("round trip changed jobs: %+v", back.Jobs)
	}
	if len(back.Header) != len(tr.Header) {
		t.Fatalf("round trip changed header: %q", back.Header)
	}
	for i := range tr.Header {
		if strings.TrimSpace(back.Header[i].Value) != strings.TrimSpace(tr.Header[i].Value) || back.Header[i].Key != tr.Header[i].Key {
			t.Fatalf("header line %d: %q, want %q", i, back.Header[i], tr.Header[i])
		}
	}
}

func TestTruncatedGzip(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(zw, "%d %d 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", i, i)
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "cut.swf.gz")
	if err := os.WriteFile(p, buf.Bytes()[:buf.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p, ReadOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), p+":") || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("error %v, want a located truncation error", err)
	}
}

func TestAtomicWriteKeepsOldFileOnError(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "keep.parquet")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := AtomicWrite(p, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("old file now holds %q", b)
	}
	if err := WriteFile(filepath.Join(dir, "x.csv"), &Trace{}); err == nil {
		t.Fatal("want an error for .csv")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the old file", len(entries))
	}
}

func TestParquetRoundTripExtras(t *testing.T) {
	tr := &Trace{Name: "mesh", Machine: "mesh:4x4",
		Header:     Header{{"MaxProcs", "16"}, {"", " a note"}},
		Provenance: Provenance{Generator: "workload", Params: map[string]string{"size": "uniform"}, Seed: 7, Load: 0.5, Rep: 2}}
	for i := int64(1); i <= 3; i++ {
		j := NewJob(i)
		j.Submit, j.Run, j.ReqWidth, j.ReqHeight, j.ReqProcs = float64(i)*1.5, 10, i, 2, 2*i
		j.Work, j.Efficiency, j.MaxParallelism = 1000.5, 50, 45
		tr.Jobs = append(tr.Jobs, j)
	}
	p := filepath.Join(t.TempDir(), "m.parquet")
	if err := WriteFile(p, tr); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(p, ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Jobs {
		if back.Jobs[i] != tr.Jobs[i] {
			t.Fatalf("job %d: %+v, want %+v", i, back.Jobs[i], tr.Jobs[i])
		}
	}
	if back.Machine != "mesh:4x4" || back.Name != "mesh" || back.Provenance.Seed != 7 ||
		back.Provenance.Load != 0.5 || back.Provenance.Rep != 2 || back.Provenance.Params["size"] != "uniform" {
		t.Fatalf("metadata lost: %+v %q", back.Provenance, back.Machine)
	}
	if len(back.Header) != 2 || back.Header[1].Value != " a note" {
		t.Fatalf("header %q", back.Header)
	}
}

// A binary file read as SWF gives one short line: a quoted excerpt of at
// most 40 bytes, that it is not SWF text, and what it looks like when the
// format is known (it printed 250 raw bytes, and said gzipped files must end
// in .gz, which they need not).
func TestBinaryAsSWF(t *testing.T) {
	var pq bytes.Buffer
	if err := WriteParquet(&pq, &Trace{Jobs: []Job{NewJob(1)}}); err != nil {
		t.Fatal(err)
	}
	garbage := strings.Repeat("\x00\x01\xfe", 100)
	q := func(s string) string { return strconv.Quote(s[:20]) + "…" }
	for _, c := range []struct {
		name, data, want string
	}{
		{"parquet", pq.String(), "x.swf:1: field 1 (job_id): binary data " + q(pq.String()) + ": not an SWF text file (a Parquet file: name it .parquet)"},
		{"bzip2", "BZh91AY&SY" + garbage, "x.swf:1: field 1 (job_id): binary data " + q("BZh91AY&SY"+garbage) + ": not an SWF text file (bzip2 data: decompress it first (only gzip is read directly))"},
		{"elf", "\x7fELF\x02\x01" + garbage, "x.swf:1: field 1 (job_id): binary data " + q("\x7fELF\x02\x01"+garbage) + ": not an SWF text file"},
		{"later line", "; MaxProcs: 4\n" + goodLine + "2 " + garbage + "\n", "x.swf:3: field 2 (submit_time): binary data " + q(garbage) + ": not an SWF text file"},
		{"long text", "; MaxProcs: 4\n" + strings.Repeat("x", 100) + "\n", "x.swf:2: field 1 (job_id): " + strconv.Quote(strings.Repeat("x", 40)) + "… is not a number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSWF(strings.NewReader(c.data), "x.swf", ReadOptions{})
			if err == nil || err.Error() != c.want {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// A log under a .parquet name is named for what it is.
func TestNotParquet(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("; MaxProcs: 4\n" + goodLine))
	zw.Close()
	for _, c := range []struct{ name, data, want string }{
		{"text", "; MaxProcs: 4\n" + goodLine, "(text: an SWF log must be named .swf)"},
		{"gzip", gz.String(), "(gzip data: an SWF log must be named .swf.gz)"},
		{"binary", "\x00\x01\x02\x03\x04\x05\x06\x07\x08", "invalid magic header"},
	} {
		_, err := readBytes([]byte(c.data), "x.parquet")
		if err == nil || !strings.HasPrefix(err.Error(), "x.parquet: not a readable Parquet file: ") || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 160 {
			t.Errorf("%s: got %v, want …%s", c.name, err, c.want)
		}
	}
}
