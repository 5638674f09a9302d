package trace

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// Files written by other tools: int columns stored as doubles, strings
// where numbers belong, int32 columns and nulls.
func TestParquetColumnTypes(t *testing.T) {
	type dbl struct {
		JobID    int64   `parquet:"job_id"`
		Submit   float64 `parquet:"submit_time"`
		Run      float64 `parquet:"run_time"`
		ReqProcs float64 `parquet:"req_procs"`
	}
	type str struct {
		JobID  int64  `parquet:"job_id"`
		Submit string `parquet:"submit_time"`
	}
	type i32 struct {
		JobID    int32    `parquet:"job_id"`
		Submit   float32  `parquet:"submit_time"`
		Run      *float64 `parquet:"run_time,optional"`
		ReqProcs int32    `parquet:"req_procs"`
	}
	write := func(rows any) []byte {
		var b bytes.Buffer
		switch r := rows.(type) {
		case []dbl:
			if err := parquet.Write(&b, r); err != nil {
				t.Fatal(err)
			}
		case []str:
			if err := parquet.Write(&b, r); err != nil {
				t.Fatal(err)
			}
		case []i32:
			if err := parquet.Write(&b, r); err != nil {
				t.Fatal(err)
			}
		}
		return b.Bytes()
	}
	read := func(b []byte) (*Trace, error) {
		return ReadParquet(bytes.NewReader(b), int64(len(b)), "t.parquet", ReadOptions{})
	}
	// A double req_procs is accepted only when integral.
	tr, err := read(write([]dbl{{1, 0, 5, 4}, {2, 1, 5, 8}}))
	if err != nil || tr.Jobs[1].ReqProcs != 8 {
		t.Fatalf("integral doubles: %v %+v", err, tr)
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{write([]dbl{{1, 0, 5, 4}, {2, 1, 5, 1.5}}), "t.parquet: row 2: column req_procs: 1.5 is not an integer"},
		{write([]dbl{{1, 0, 5, 1e300}}), "t.parquet: row 1: column req_procs: 1e+300 is out of range"},
		{write([]str{{1, "abc"}}), "t.parquet: column submit_time: type STRING, want a number"},
	} {
		_, err := read(c.data)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// int32 and float columns widen; nulls read as Unknown.
	five := 5.0
	tr, err = read(write([]i32{{1, 0.5, &five, 4}, {2, 1, nil, 2}}))
	if err != nil {
		t.Fatal(err)
	}
	if j := tr.Jobs; j[0].Submit != 0.5 || j[0].Run != 5 || j[1].Run != Unknown || j[1].ReqProcs != 2 || j[1].ID != 2 || j[0].Status != Unknown {
		t.Errorf("int32/float/null columns: %+v", j)
	}
}

// Integers too large for an exact float64 are refused, not wrapped.
func TestSWFIntegerRange(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"99999999999999999999999 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1", "t.swf:2: field 1 (job_id): 99999999999999999999999 is out of range"},
		{"1 0 -1 10 1 -1 -1 9223372036854775807 10 -1 1 1 1 1 1 -1 -1 -1", "t.swf:2: field 8 (req_procs): 9223372036854775807 is out of range"},
	} {
		_, err := ReadSWF(strings.NewReader("; MaxProcs: 4\n"+c.line+"\n"), "t.swf", ReadOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %q…", err, c.want)
		}
	}
}

// A binary file's error quotes a short excerpt and says what it is.
func TestSWFBinaryInput(t *testing.T) {
	bin := "\x7fELF\x02\x01\x01" + strings.Repeat("\x00\x01garbage", 40) + "\n"
	_, err := ReadSWF(strings.NewReader(bin), "t.swf", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "binary data") || len(err.Error()) > 200 {
		t.Errorf("got %v", err)
	}
}
