package trace

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkConvertKTH measures SWF.gz → Parquet conversion of the KTH-SP2
// log (read, validate, write zstd Parquet to memory), in jobs/s.
func BenchmarkConvertKTH(b *testing.B) {
	in := realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	b.ReportAllocs()
	jobs := 0
	for i := 0; i < b.N; i++ {
		t, err := ReadFile(in, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteParquet(io.Discard, t); err != nil {
			b.Fatal(err)
		}
		jobs += len(t.Jobs)
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkReadSWFGzip measures reading alone.
func BenchmarkReadSWFGzip(b *testing.B) {
	in := realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	jobs := 0
	for i := 0; i < b.N; i++ {
		t, err := ReadFile(in, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		jobs += len(t.Jobs)
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkGunzipKTH is plain decompression of the same file in process,
// the yardstick for the conversion target (within 3×).
func BenchmarkGunzipKTH(b *testing.B) {
	in := realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	for i := 0; i < b.N; i++ {
		f, err := os.Open(in)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzipNewReader(f)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// BenchmarkWriteParquetKTH measures writing alone.
func BenchmarkWriteParquetKTH(b *testing.B) {
	t, err := ReadFile(realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz"), ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := WriteParquet(io.Discard, t); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(t.Jobs)*b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkConvertFileKTH is `synth convert KTH.swf.gz kth.parquet` in
// process: streaming conversion (Parquet encoding overlapped with gzip
// decoding and parsing) to a file, written atomically and synced.
func BenchmarkConvertFileKTH(b *testing.B) {
	in := realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	out := b.TempDir() + "/kth.parquet"
	jobs := 0
	for i := 0; i < b.N; i++ {
		t, err := Convert(in, out, ConvertOptions{})
		if err != nil {
			b.Fatal(err)
		}
		jobs += len(t.Jobs)
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkReadParquetKTH reads the KTH-SP2 log from Parquet (columnar,
// in memory), to compare with BenchmarkReadSWFGzip.
func BenchmarkReadParquetKTH(b *testing.B) {
	t, err := ReadFile(realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz"), ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	benchReadParquet(b, t)
}

// BenchmarkReadParquet1M reads a synthetic trace of 1,000,000 jobs.
func BenchmarkReadParquet1M(b *testing.B) {
	t := &Trace{Name: "synthetic", Machine: "flat:1024", Provenance: Provenance{Generator: "bench", Load: -1}}
	t.Header.Set("MaxProcs", "1024")
	t.Jobs = make([]Job, 1_000_000)
	for i := range t.Jobs {
		j := NewJob(int64(i + 1))
		j.Submit, j.Run, j.ReqProcs, j.ReqTime, j.Status = float64(i), float64(i%977), int64(1+i%1024), float64(i%977+10), 1
		t.Jobs[i] = j
	}
	benchReadParquet(b, t)
}

func benchReadParquet(b *testing.B, t *Trace) {
	var buf bytes.Buffer
	if err := WriteParquet(&buf, t); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	rows := 0
	for i := 0; i < b.N; i++ {
		got, err := ReadParquet(bytes.NewReader(data), int64(len(data)), "bench.parquet", ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		rows += len(got.Jobs)
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
