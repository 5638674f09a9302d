package trace

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// Checkpointed jobs: one record for the whole job and partial records
// (status 2-4) share a job number; two whole records may not.
func TestPartialRecordsShareJobNumbers(t *testing.T) {
	hdr := "; MaxJobs: 2\n; MaxRecords: 3\n; MaxProcs: 8\n"
	ok := hdr +
		"1 0 0 10 4 -1 -1 4 20 -1 1 1 -1 -1 -1 -1 -1 -1\n" +
		"1 0 0 4 4 -1 -1 4 20 -1 2 1 -1 -1 -1 -1 -1 -1\n" +
		"1 0 0 6 4 -1 -1 4 20 -1 3 1 -1 -1 -1 -1 -1 -1\n" +
		"2 5 0 5 2 -1 -1 2 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
	tr, err := ReadSWF(strings.NewReader(ok), "ckpt.swf", ReadOptions{Strict: true})
	if err != nil {
		t.Fatalf("partial records refused: %v", err)
	}
	if len(tr.Jobs) != 4 || !tr.Jobs[1].Partial() || tr.Jobs[0].Partial() {
		t.Fatalf("records %+v", tr.Jobs)
	}
	bad := ok + "1 7 0 6 4 -1 -1 4 20 -1 0 1 -1 -1 -1 -1 -1 -1\n"
	_, err = ReadSWF(strings.NewReader(bad), "ckpt.swf", ReadOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "ckpt.swf:8: field 1 (job_id): job number 1 repeats the job on line 4") {
		t.Fatalf("error %v", err)
	}
}

// A job larger than MaxProcs is a warning (the replay rejects and counts
// it), an error only with Strict.
func TestOversizedJobWarns(t *testing.T) {
	text := "; MaxProcs: 8\n" +
		"1 0 0 10 4 -1 -1 4 20 -1 1 1 -1 -1 -1 -1 -1 -1\n" +
		"2 5 0 5 16 -1 -1 16 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
	tr, err := ReadSWF(strings.NewReader(text), "big.swf", ReadOptions{})
	if err != nil || len(tr.Jobs) != 2 || len(tr.Warnings) != 1 ||
		!strings.Contains(tr.Warnings[0], "1 jobs request more processors than MaxProcs 8 (first: job 2, line 3)") {
		t.Fatalf("err %v warnings %q", err, tr.Warnings)
	}
	_, err = ReadSWF(strings.NewReader(text), "big.swf", ReadOptions{Strict: true})
	if err == nil || err.Error() != "big.swf:3: field 8 (req_procs): requests 16 processors, more than MaxProcs 8 (--strict)" {
		t.Fatalf("strict: %v", err)
	}
}

// Parquet input is checked for non-finite numbers, like SWF text.
func TestParquetNonFinite(t *testing.T) {
	tr := &Trace{Name: "n", Header: Header{{Key: "MaxProcs", Value: "4"}}}
	j := NewJob(1)
	j.Submit, j.Run, j.ReqProcs = 0, math.Inf(1), 1
	tr.Jobs = append(tr.Jobs, j)
	var b bytes.Buffer
	if err := WriteParquet(&b, tr); err != nil {
		t.Fatal(err)
	}
	_, err := ReadParquet(bytes.NewReader(b.Bytes()), int64(b.Len()), "n.parquet", ReadOptions{})
	if err == nil || err.Error() != "n.parquet: row 1: field 4 (run_time): +Inf is not a finite number" {
		t.Fatalf("error %v", err)
	}
}

type nullableJob struct {
	ID       int64    `parquet:"job_id"`
	Submit   float64  `parquet:"submit_time"`
	Run      *float64 `parquet:"run_time,optional"`
	ReqProcs *int64   `parquet:"req_procs,optional"`
	ReqTime  *float64 `parquet:"req_time,optional"`
}

// Nulls in Parquet files made by other tools (pandas writes every column
// as optional) read as Unknown, as FromRecord reads Arrow nulls.
func TestParquetNullsAreUnknown(t *testing.T) {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[nullableJob](&b)
	run, procs, est := 100.0, int64(2), 50.0
	rows := []nullableJob{{1, 0, &run, &procs, nil}, {2, 1, nil, nil, &est}, {3, 2, &run, &procs, &est}}
	for k := 0; k < 5000; k++ { // several pages
		rows = append(rows, nullableJob{int64(k + 4), 3, &run, nil, nil})
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadParquet(bytes.NewReader(b.Bytes()), int64(b.Len()), "null.parquet", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	j := tr.Jobs
	if j[0].ReqTime != Unknown || j[0].Run != 100 || j[0].ReqProcs != 2 ||
		j[1].Run != Unknown || j[1].ReqProcs != Unknown || j[1].ReqTime != 50 ||
		j[2].ReqTime != 50 || j[2].Status != Unknown || j[5002].ReqProcs != Unknown || j[5002].Run != 100 {
		t.Fatalf("jobs %+v %+v %+v %+v", j[0], j[1], j[2], j[5002])
	}
}

// A parse error early in a large gzipped log stops the decompressing
// goroutine before the gzip reader is closed (run with -race).
func TestEarlyErrorInGzip(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	fmt.Fprintln(zw, "; MaxProcs: 8")
	fmt.Fprintln(zw, "1 0 0 x 4 -1 -1 4 20 -1 1 1 -1 -1 -1 -1 -1 -1")
	for i := 2; i < 200000; i++ {
		fmt.Fprintf(zw, "%d %d 0 10 4 -1 -1 4 20 -1 1 1 -1 -1 -1 -1 -1 -1\n", i, i)
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "e.swf.gz")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 10; k++ {
		if _, err := ReadFile(p, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "e.swf.gz:2: field 4") {
			t.Fatalf("error %v", err)
		}
	}
}
