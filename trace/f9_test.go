package trace

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// F9 and F12 (issue 25): processor counts below -1, numbers that are not
// decimal (1_000, 0x1p4, inf) and times whose sum overflows are refused,
// naming the line and field.
func TestSWFStrictNumbers(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"1 0 5 100 -5 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1", "allocated processors: -5 is negative"},
		{"1 0 5 100 4 -1 -1 -3 200 -1 1 1 1 -1 -1 -1 -1 -1", "requested processors: -3 is negative"},
		{"1 0 5 1_000 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1", "1_000"},
		{"1 0x1p4 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1", "0x1p4"},
		{"1 0 5 inf 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1", "inf"},
		// F12: times whose sum overflows are the reader's error, not the engine's.
		{"1 1e308 5 1e308 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1", "overflows"},
	} {
		_, err := ReadSWF(strings.NewReader("; MaxProcs: 8\n"+c.line+"\n"), "t.swf", ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.swf:2") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line naming t.swf:2 and %q", c.line, err, c.want)
		}
	}
	for _, ok := range []string{"1 0.5 5 1e3 4 -1 -1 4 200.75 -1 1 1 1 -1 -1 -1 -1 -1", "1 +0 5 100 4 -1 -1 4 .5 -1 1 1 1 -1 -1 -1 -1 -1"} {
		if _, err := ReadSWF(strings.NewReader("; MaxProcs: 8\n"+ok+"\n"), "t.swf", ReadOptions{}); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// F10 (issue 25): what the readers refuse is not written: a trace with an
// infinite time (a generator's overflow) fails WriteFile, naming the job
// and field, and leaves no file.
func TestWriteRefusesWhatReadersRefuse(t *testing.T) {
	j := NewJob(1)
	j.Submit, j.Run, j.ReqProcs, j.AllocProcs = math.Inf(1), 10, 4, 4
	tr := &Trace{Name: "t", Jobs: []Job{j}}
	for _, name := range []string{"t.parquet", "t.swf"} {
		path := filepath.Join(t.TempDir(), name)
		err := WriteFile(path, tr)
		if want := path + ": job 1 (record 1): field 2 (submit_time): +Inf is not a finite number; nothing written"; err == nil || err.Error() != want {
			t.Errorf("error %v, want %s", err, want)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s written", path)
		}
	}
}

// F19 (issue 25), messages: a Parquet file cut to its first 4 bytes is
// called what it is, and another table's file (no job_id) is not a trace.
func TestParquetMessages(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "s.parquet")
	os.WriteFile(short, []byte("PAR1"), 0o644)
	if _, err := ReadFile(short, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "(a Parquet file cut short, or damaged: its footer cannot be read)") {
		t.Errorf("4-byte file: %v", err)
	}
	tr, err := ReadSWF(strings.NewReader("; MaxProcs: 8\n"+goodLine), "g.swf", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteParquet(&b, tr); err != nil {
		t.Fatal(err)
	}
	// The same file without job_id: rename the column in the bytes.
	data := bytes.ReplaceAll(b.Bytes(), []byte("job_id"), []byte("jobxid"))
	other := filepath.Join(dir, "o.parquet")
	os.WriteFile(other, data, 0o644)
	if _, err := ReadFile(other, ReadOptions{}); err == nil || err.Error() != other+": missing column job_id (not a trace: want job_id, submit_time, ...)" {
		t.Errorf("no job_id: %v", err)
	}
}

// F19 (issue 25): a gzip log with a bad checksum says so once.
func TestGzipChecksumMessage(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("; MaxProcs: 8\n" + goodLine))
	zw.Close()
	data := b.Bytes()
	data[len(data)-8] ^= 0xff // the CRC-32
	path := filepath.Join(t.TempDir(), "c.swf.gz")
	os.WriteFile(path, data, 0o644)
	_, err := ReadFile(path, ReadOptions{})
	if err == nil || !strings.HasSuffix(err.Error(), ": gzip: invalid checksum") || strings.Contains(err.Error(), "gzip: gzip") {
		t.Errorf("error %v", err)
	}
}

// F19 (issue 25): 2^53 + 1 is reported as written, not as its float64.
func TestIntRangeMessage(t *testing.T) {
	_, err := ReadSWF(strings.NewReader("; MaxProcs: 8\n9007199254740993 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"), "t.swf", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "9007199254740993 is out of range") {
		t.Errorf("error %v", err)
	}
	if _, err := ReadSWF(strings.NewReader("; MaxProcs: 8\n9007199254740992 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"), "t.swf", ReadOptions{}); err != nil {
		t.Errorf("2^53: %v", err)
	}
}
